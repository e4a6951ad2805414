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
        x.known_answers = {
            {"seed-128", "ecb", "RFC 4269 App. B.1", "00000000000000000000000000000000", "",
             "000102030405060708090a0b0c0d0e0f", "5ebac6e0054e166819aff1cc6d346cdb"},
            {"seed-128", "ecb", "RFC 4269 App. B.2", "000102030405060708090a0b0c0d0e0f", "",
             "00000000000000000000000000000000", "c11f22f20140505084483597e4370f43"},
            {"seed-128", "ecb", "RFC 4269 App. B.3", "4706480851e61be85d74bfb3fd956185", "",
             "83a2f8a288641fb9a4e9a5cc2f131c7d", "ee54d13ebcae706d226bc3142cd40d4a"},
            // No standard gives SEED CBC values; these are OpenSSL's (legacy provider: `openssl enc
            // -provider legacy -provider default -seed-cbc -nopad`), an implementation independent of ours.
            {"seed-128", "cbc", "OpenSSL 3 SEED-CBC", "28dbc3bc49ffd87dcfa509b11d422be7",
             "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
             "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f",
             "e8b135b5ee6f90cb69b7c7f54451e68479d8d36afbffcadf7e05cbeaae409d66b9a8c861a63744215b6fd8e0eb074c95"},
        };
        return x;
    }();
    return m;
}

} // namespace kc
