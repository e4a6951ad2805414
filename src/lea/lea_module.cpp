// The lea family's module (kit/module.hpp): its kernels, key searchers and CTR_DRBG
// accelerations, each with what it requires; the registry (src/dispatch/registry.cpp) chooses.
// A new lea kernel is one file in this folder and one line here; x86-only entries sit under
// the x86 #if, CUDA ones under KCIPHER_HAVE_CUDA.
#include "lea/lea.hpp"
#include "kit/module.hpp"

namespace kc {

extern const char lea_known_answers[]; // lea_known_answers.txt, compiled in by the build

extern const Kernel lea_ref_kernel;
extern const ChainAccel lea_ref_chains;
#if defined(__x86_64__)
extern const Kernel lea_avx2_kernel;
extern const DrbgAccel lea_avx2_drbg;
extern const XtsAccel lea_avx2_xts;
extern const Kernel lea_avx512_kernel;
extern const DrbgAccel lea_avx512_drbg;
extern const XtsAccel lea_avx512_xts;
#endif
#if defined(__aarch64__)
extern const Kernel lea_neon_kernel;
#endif
#if defined(KCIPHER_HAVE_CUDA)
extern const Kernel lea_cuda_kernel;
#endif

namespace keysearch {
#if defined(__x86_64__)
extern const CpuSearcher lea_x86_keysearch_avx512;
extern const CpuSearcher lea_x86_keysearch_avx2;
#endif
#if defined(KCIPHER_HAVE_CUDA)
namespace cuda {
int lea_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);
}
#endif
} // namespace keysearch

const CipherModule &lea_module()
{
    static const CipherModule m = [] {
        CipherModule x;
        x.family = "lea";
        x.kernels = {
            &lea_ref_kernel,
#if defined(__x86_64__)
            &lea_avx2_kernel,
            &lea_avx512_kernel,
#endif
#if defined(__aarch64__)
            &lea_neon_kernel,
#endif
#if defined(KCIPHER_HAVE_CUDA)
            &lea_cuda_kernel,
#endif
        };
        x.chain_kernels = {&lea_ref_kernel}; // scalar ARX: one block without a SIMD step
        x.chain_accels = {&lea_ref_chains};
        x.cpu_searchers = {
#if defined(__x86_64__)
            &keysearch::lea_x86_keysearch_avx512,
            &keysearch::lea_x86_keysearch_avx2,
#endif
        };
#if defined(KCIPHER_HAVE_CUDA)
        x.gpu_search = keysearch::cuda::lea_cuda_search;
#endif
        x.drbg_accels = {
#if defined(__x86_64__)
            &lea_avx2_drbg,
            &lea_avx512_drbg,
#endif
        };
        x.xts_accels = {
#if defined(__x86_64__)
            &lea_avx2_xts,
            &lea_avx512_xts,
#endif
        };
        x.fused_ecb = {
#if defined(__x86_64__)
#endif
            {"lea/fused", 0, lea_fused_ecb},
        };
        x.known_answers = read_known_answers(lea_known_answers);
        return x;
    }();
    return m;
}

} // namespace kc
