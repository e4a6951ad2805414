// The hight family's module (kit/module.hpp): its kernels, key searchers and CTR_DRBG
// accelerations, each with what it requires; the registry (src/dispatch/registry.cpp) chooses.
// A new hight kernel is one file in this folder and one line here; x86-only entries sit under
// the x86 #if, CUDA ones under KCIPHER_HAVE_CUDA.
#include "hight/hight.hpp"
#include "kit/module.hpp"

namespace kc {

extern const char hight_known_answers[]; // hight_known_answers.txt, compiled in by the build

extern const Kernel hight_ref_kernel;
#if defined(__x86_64__)
extern const Kernel hight_avx2_kernel;
extern const Kernel hight_avx512_gfni_kernel;
extern const DrbgAccel hight_avx512_gfni_drbg;
#endif
#if defined(__aarch64__)
extern const Kernel hight_neon_kernel;
#endif
#if defined(KCIPHER_HAVE_CUDA)
extern const Kernel hight_cuda_bitslice_kernel;
#endif

namespace keysearch {
#if defined(__x86_64__)
extern const CpuSearcher hight_x86_keysearch_avx512_gfni;
extern const CpuSearcher hight_x86_keysearch_avx2;
#endif
#if defined(KCIPHER_HAVE_CUDA)
namespace cuda {
int hight_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);
}
#endif
} // namespace keysearch

const CipherModule &hight_module()
{
    static const CipherModule m = [] {
        CipherModule x;
        x.family = "hight";
        x.kernels = {
            &hight_ref_kernel,
#if defined(__x86_64__)
            &hight_avx2_kernel,
            &hight_avx512_gfni_kernel,
#endif
#if defined(__aarch64__)
            &hight_neon_kernel,
#endif
#if defined(KCIPHER_HAVE_CUDA)
            &hight_cuda_bitslice_kernel,
#endif
        };
        x.chain_kernels = {&hight_ref_kernel}; // scalar ARX: one block without a SIMD step
        x.cpu_searchers = {
#if defined(__x86_64__)
            &keysearch::hight_x86_keysearch_avx512_gfni,
            &keysearch::hight_x86_keysearch_avx2,
#endif
        };
#if defined(KCIPHER_HAVE_CUDA)
        x.gpu_search = keysearch::cuda::hight_cuda_search;
#endif
        x.drbg_accels = {
#if defined(__x86_64__)
            &hight_avx512_gfni_drbg,
#endif
        };
        x.fused_ecb = {
#if defined(__x86_64__)
            {"hight/fused-avx512-gfni", feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni, hight_fused_ecb_gfni},
#endif
        };
        x.known_answers = read_known_answers(hight_known_answers);
        return x;
    }();
    return m;
}

} // namespace kc
