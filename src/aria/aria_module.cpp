// The aria family's module (kit/module.hpp): its kernels, key searchers and CTR_DRBG
// accelerations, each with what it requires; the registry (src/dispatch/registry.cpp) chooses.
// A new aria kernel is one file in this folder and one line here; x86-only entries sit under
// the x86 #if, CUDA ones under KCIPHER_HAVE_CUDA.
#include "aria/aria.hpp"
#include "kit/module.hpp"

// The plaintext of the ARIA test vectors (2004) for CBC and CTR.
#define ARIA_PDF_PT                                                                              \
    "11111111aaaaaaaa11111111bbbbbbbb11111111cccccccc11111111dddddddd22222222aaaaaaaa22222222bbbb" \
    "bbbb22222222cccccccc22222222dddddddd33333333aaaaaaaa33333333bbbbbbbb33333333cccccccc33333333" \
    "dddddddd44444444aaaaaaaa44444444bbbbbbbb44444444cccccccc44444444dddddddd55555555aaaaaaaa5555" \
    "5555bbbbbbbb55555555cccccccc55555555dddddddd"

namespace kc {

extern const Kernel aria_ref_kernel;
extern const Kernel aria_table_kernel;
#if defined(__x86_64__)
extern const Kernel aria_avx512_gfni_kernel;
extern const DrbgAccel aria_avx512_gfni_drbg;
extern const Kernel aria_avx2_gfni_kernel;
extern const DrbgAccel aria_avx2_gfni_drbg;
extern const Kernel aria_avx_gfni_kernel;
extern const DrbgAccel aria_avx_gfni_drbg;
extern const Kernel aria_avx_aesni_kernel;
extern const DrbgAccel aria_avx_aesni_drbg;
extern const Kernel aria_avx2_aesni_kernel;
extern const DrbgAccel aria_avx2_aesni_drbg;
extern const Kernel aria_avx2_vaes_kernel;
extern const DrbgAccel aria_avx2_vaes_drbg;
#endif
#if defined(__aarch64__)
extern const Kernel aria_neon_4pt_kernel;
extern const Kernel aria_neon_16pt_kernel;
extern const Kernel aria_neon_aes_kernel;
#endif
#if defined(KCIPHER_HAVE_CUDA)
extern const Kernel aria_cuda_global_kernel;
extern const Kernel aria_cuda_constant_kernel;
extern const Kernel aria_cuda_shared_kernel;
extern const Kernel aria_cuda_shared_nx256_kernel;
extern const Kernel aria_cuda_shared_256xn_kernel;
extern const Kernel aria_cuda_shared_1k_x32_kernel;
extern const Kernel aria_cuda_shared_4k_x32_kernel;
extern const Kernel aria_cuda_bitslice_kernel;
#endif

namespace keysearch {
extern const CpuSearcher aria_table_keysearch;
#if defined(__x86_64__)
extern const CpuSearcher aria_x86_keysearch_avx512_gfni;
#endif
#if defined(KCIPHER_HAVE_CUDA)
namespace cuda {
int aria_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);
}
#endif
} // namespace keysearch

const CipherModule &aria_module()
{
    static const CipherModule m = [] {
        CipherModule x;
        x.family = "aria";
        x.kernels = {
            &aria_ref_kernel,
            &aria_table_kernel,
#if defined(__x86_64__)
            &aria_avx512_gfni_kernel,
            &aria_avx2_gfni_kernel,
            &aria_avx_gfni_kernel,
            &aria_avx_aesni_kernel,
            &aria_avx2_aesni_kernel,
            &aria_avx2_vaes_kernel,
#endif
#if defined(__aarch64__)
            &aria_neon_4pt_kernel,
            &aria_neon_16pt_kernel,
            &aria_neon_aes_kernel,
#endif
#if defined(KCIPHER_HAVE_CUDA)
            &aria_cuda_global_kernel,
            &aria_cuda_constant_kernel,
            &aria_cuda_shared_kernel,
            &aria_cuda_shared_nx256_kernel,
            &aria_cuda_shared_256xn_kernel,
            &aria_cuda_shared_1k_x32_kernel,
            &aria_cuda_shared_4k_x32_kernel,
            &aria_cuda_bitslice_kernel,
#endif
        };
        x.cpu_searchers = {
#if defined(__x86_64__)
            &keysearch::aria_x86_keysearch_avx512_gfni,
#endif
            &keysearch::aria_table_keysearch,
        };
#if defined(KCIPHER_HAVE_CUDA)
        x.gpu_search = keysearch::cuda::aria_cuda_search;
#endif
        x.drbg_accels = {
#if defined(__x86_64__)
            &aria_avx512_gfni_drbg,
            &aria_avx2_gfni_drbg,
            &aria_avx_gfni_drbg,
            &aria_avx_aesni_drbg,
            &aria_avx2_aesni_drbg,
            &aria_avx2_vaes_drbg,
#endif
        };
        x.fused_ecb = {
#if defined(__x86_64__)
            {"aria/fused-avx512-gfni", feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni, aria_fused_ecb_gfni},
#endif
        };
#if defined(__x86_64__)
        // The key schedule's S-box layers by GFNI (aria_x86_key_gfni.cpp) instead of scans.
        x.options = {{"aria/key-schedule-gfni", feat_gfni | feat_ssse3, aria_key_schedule_enable_gfni}};
#endif
        x.known_answers = {
            {"aria-128", "ecb", "RFC 5794 A.1", "000102030405060708090a0b0c0d0e0f", "",
             "00112233445566778899aabbccddeeff", "d718fbd6ab644c739da95f3be6451778"},
            {"aria-192", "ecb", "RFC 5794 A.2", "000102030405060708090a0b0c0d0e0f1011121314151617", "",
             "00112233445566778899aabbccddeeff", "26449c1805dbe7aa25a468ce263a9e79"},
            {"aria-256", "ecb", "RFC 5794 A.3",
             "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "",
             "00112233445566778899aabbccddeeff", "f92bd7c79fb72e2f2b8f80c1972d24fc"},
            {"aria-128", "ctr", "ARIA test vectors (2004), CTR", "00112233445566778899aabbccddeeff",
             "00000000000000000000000000000000", ARIA_PDF_PT,
             "ac5d7de805a0bf1c57c854501af60fa11497e2a34519dea1569e91e5b5ccae2ff3bfa1bf975f4571f48be191613546c3"
             "911163c085f871f0e7ae5f2a085b81851c2a3ddf20ecb8fa51901aec8ee4ba32a35dab67bb72cd9140ad188a967ac0fb"
             "bdfa94ea6cce47dcf8525ab5a814cfeb2bb60ee2b126e2d9d847c1a9e96f9019e3e6a7fe40d3829afb73db1cc245646a"
             "ddb62d9b907baaafbe46a73dbc131d3d"},
            {"aria-256", "cbc", "ARIA test vectors (2004), CBC",
             "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
             "0f1e2d3c4b5a69788796a5b4c3d2e1f0", ARIA_PDF_PT,
             "523a8a806ae621f155fdd28dbc34e1ab7b9b42432ad8b2efb96e23b13f0a6e52f36185d50ad002c5f601bee5493f118b"
             "243ee2e313642bffc3902e7b2efd9a12fa682edd2d23c8b9c5f043c18b17c1ec4b5867918270fbec1027c19ed6af833d"
             "a5d620994668ca22f599791d292dd6273b2959082aafb7a996167cce1eec5f0cfd15f610d87e2dda9ba68ce1260ca54b"
             "222491418374294e7909b1e8551cd8de"},
        };
        return x;
    }();
    return m;
}

} // namespace kc
