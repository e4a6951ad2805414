// The cham family's module (kit/module.hpp): its kernels, key searchers and CTR_DRBG
// accelerations, each with what it requires; the registry (src/dispatch/registry.cpp) chooses.
// A new cham kernel is one file in this folder and one line here; x86-only entries sit under
// the x86 #if, CUDA ones under KCIPHER_HAVE_CUDA.
#include "cham/cham.hpp"
#include "kit/module.hpp"

namespace kc {

extern const char cham_known_answers[]; // cham_known_answers.txt, compiled in by the build

extern const Kernel cham_ref_kernel;
extern const ChainAccel cham_ref_chains;
#if defined(__x86_64__)
extern const Kernel cham_avx2_kernel;
extern const DrbgAccel cham_avx2_drbg;
extern const Kernel cham_avx512_kernel;
extern const DrbgAccel cham_avx512_drbg;
extern const Kernel cham_avx512_vbmi2_kernel;
extern const DrbgAccel cham_avx512_vbmi2_drbg;
#endif
#if defined(__aarch64__)
extern const Kernel cham_neon_kernel;
extern const DrbgAccel cham_neon_drbg;
#endif
#if defined(KCIPHER_HAVE_CUDA)
extern const Kernel cham_cuda_kernel;
#endif

namespace keysearch {
#if defined(__x86_64__)
extern const CpuSearcher cham_x86_keysearch_avx512;
extern const CpuSearcher cham_x86_keysearch_avx2;
#endif
#if defined(KCIPHER_HAVE_CUDA)
namespace cuda {
int cham_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);
}
#endif
} // namespace keysearch

const CipherModule &cham_module()
{
    static const CipherModule m = [] {
        CipherModule x;
        x.family = "cham";
        x.kernels = {
            &cham_ref_kernel,
#if defined(__x86_64__)
            &cham_avx2_kernel,
            &cham_avx512_kernel,
            &cham_avx512_vbmi2_kernel,
#endif
#if defined(__aarch64__)
            &cham_neon_kernel,
#endif
#if defined(KCIPHER_HAVE_CUDA)
            &cham_cuda_kernel,
#endif
        };
        // One block: cham/ref, its rounds unrolled with the words renamed (cham_ref.cpp), a
        // CHAM-128/128 block in about 180 cycles on a Zen 5 where cham/avx2's 16-block step
        // took about 480 (CMAC 30 -> 11.3 c/B); the chains in its own loops, 8.2.
        x.chain_kernels = {
            &cham_ref_kernel,
        };
        x.chain_accels = {&cham_ref_chains};
        x.cpu_searchers = {
#if defined(__x86_64__)
            &keysearch::cham_x86_keysearch_avx512,
            &keysearch::cham_x86_keysearch_avx2,
#endif
        };
#if defined(KCIPHER_HAVE_CUDA)
        x.gpu_search = keysearch::cuda::cham_cuda_search;
#endif
        x.drbg_accels = {
#if defined(__x86_64__)
            &cham_avx2_drbg,
            &cham_avx512_drbg,
            &cham_avx512_vbmi2_drbg,
#endif
#if defined(__aarch64__)
            &cham_neon_drbg,
#endif
        };
        x.fused_ecb = {
#if defined(__x86_64__)
            {"cham/fused-avx512-vbmi2", feat_avx512f | feat_avx512bw | feat_avx512vl | feat_avx512vbmi2, cham_fused_ecb_avx512},
#endif
            {"cham/fused", 0, cham_fused_ecb},
        };
        x.known_answers = read_known_answers(cham_known_answers);
        return x;
    }();
    return m;
}

} // namespace kc
