// The seed family's module (kit/module.hpp): its kernels, each with what it requires; the
// registry (src/dispatch/registry.cpp) chooses. A new seed kernel is one file in this folder
// and one line here; x86-only entries go under an x86 #if, CUDA ones under KCIPHER_HAVE_CUDA.
//
// Not offered yet, so left empty: CPU key searchers (key search runs the generic search over
// the kernels' block interface, keysearch/cpu_search.cpp), a GPU key search (the registry
// refuses it with KCIPHER_ERR_UNSUPPORTED) and CTR_DRBG fused blocks (the DRBG uses the
// kernel's ECB).
#include "seed/seed.hpp"
#include "kit/module.hpp"

namespace kc {

extern const Kernel seed_ref_kernel;

const CipherModule &seed_module()
{
    static const CipherModule m = [] {
        CipherModule x;
        x.family = "seed";
        x.kernels = {
            &seed_ref_kernel,
        };
        return x;
    }();
    return m;
}

} // namespace kc
