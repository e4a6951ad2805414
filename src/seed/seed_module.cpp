// The seed family's module (kit/module.hpp): its kernels, each with what it requires; the
// registry (src/dispatch/registry.cpp) chooses. A new seed kernel is one file in this folder
// and one line here; x86-only entries go under an x86 #if, CUDA ones under KCIPHER_HAVE_CUDA.
//
// Not offered, so left empty: SIMD CPU key searchers (key search runs the generic search over
// the kernels' block interface, keysearch/cpu_search.cpp) and CTR_DRBG fused blocks (the DRBG
// uses the kernel's ECB).
#include "seed/seed.hpp"
#include "kit/module.hpp"

namespace kc {

extern const char seed_known_answers[]; // seed_known_answers.txt, compiled in by the build

extern const Kernel seed_ref_kernel;
#if defined(__x86_64__)
extern const Kernel seed_avx2_vaes_kernel;
extern const Kernel seed_avx512_gfni_kernel;
#endif
#if defined(KCIPHER_HAVE_CUDA)
extern const Kernel seed_cuda_kernel;
namespace keysearch::cuda {
int seed_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);
}
#endif

const CipherModule &seed_module()
{
    static const CipherModule m = [] {
        CipherModule x;
        x.family = "seed";
        x.kernels = {&seed_ref_kernel};
#if defined(__x86_64__)
        x.kernels.insert(x.kernels.end(), {&seed_avx2_vaes_kernel, &seed_avx512_gfni_kernel});
#endif
#if defined(KCIPHER_HAVE_CUDA)
        x.kernels.push_back(&seed_cuda_kernel);
        x.gpu_search = keysearch::cuda::seed_cuda_search;
#endif
        // Scalar SEED reads its S-boxes at secret indexes: constant-time contexts keep their own
        // kernel for the chains (dispatch/registry.hpp: chain_kernel).
        x.chain_kernels = {&seed_ref_kernel};
        x.known_answers = read_known_answers(seed_known_answers);
        return x;
    }();
    return m;
}

} // namespace kc
