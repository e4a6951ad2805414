// The lea family's module (kit/module.hpp): its kernels, key searchers and CTR_DRBG
// accelerations, each with what it requires; the registry (src/dispatch/registry.cpp) chooses.
// A new lea kernel is one file in this folder and one line here; x86-only entries sit under
// the x86 #if, CUDA ones under KCIPHER_HAVE_CUDA.
#include "lea/lea.hpp"
#include "kit/module.hpp"

namespace kc {

extern const Kernel lea_ref_kernel;
#if defined(__x86_64__)
extern const Kernel lea_avx2_kernel;
extern const DrbgAccel lea_avx2_drbg;
extern const Kernel lea_avx512_kernel;
extern const DrbgAccel lea_avx512_drbg;
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
        x.fused_ecb = {
#if defined(__x86_64__)
#endif
            {"lea/fused", 0, lea_fused_ecb},
        };
        x.known_answers = {
            {"lea-128", "ecb", "TTAK.KO-12.0223 App. I", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "",
             "101112131415161718191a1b1c1d1e1f", "9fc84e3528c6c6185532c7a704648bfd"},
            {"lea-192", "ecb", "TTAK.KO-12.0223 App. I", "0f1e2d3c4b5a69788796a5b4c3d2e1f0f0e1d2c3b4a59687",
             "", "202122232425262728292a2b2c2d2e2f", "6fb95e325aad1b878cdcf5357674c6f2"},
            {"lea-256", "ecb", "TTAK.KO-12.0223 App. I",
             "0f1e2d3c4b5a69788796a5b4c3d2e1f0f0e1d2c3b4a5968778695a4b3c2d1e0f", "",
             "303132333435363738393a3b3c3d3e3f", "d651aff647b189c13a8900ca27f9e197"},
            {"lea-128", "ctr", "KISA lea_vs.c, CTR", "7ad36a75d55f3022094e06f7c897d8bb",
             "0c5f04e8b512195e74b3de57e970979e", "087a83fcc113a9f3e0e9d5af32a2dd3a",
             "2b73497c4fc9ef38be7a0bcb1aab87a4"},
        };
        return x;
    }();
    return m;
}

} // namespace kc
