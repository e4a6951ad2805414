// The aria family's module (kit/module.hpp): its kernels, key searchers and CTR_DRBG
// accelerations, each with what it requires; the registry (src/dispatch/registry.cpp) chooses.
// A new aria kernel is one file in this folder and one line here; x86-only entries sit under
// the x86 #if, CUDA ones under KCIPHER_HAVE_CUDA.
#include "aria/aria.hpp"
#include "kit/module.hpp"

namespace kc {

extern const char aria_known_answers[]; // aria_known_answers.txt, compiled in by the build

extern const Kernel aria_ref_kernel;
extern const Kernel aria_table_kernel;
#if defined(__x86_64__)
extern const Kernel aria_aesni_block_kernel;
extern const ChainAccel aria_aesni_block_chains;
extern const Kernel aria_avx512_gfni_block_kernel;
extern const ChainAccel aria_avx512_gfni_block_chains;
extern const Kernel aria_avx_gfni_block_kernel;
extern const ChainAccel aria_avx_gfni_block_chains;
extern const Kernel aria_avx512_gfni_kernel;
extern const DrbgAccel aria_avx512_gfni_drbg;
extern const XtsAccel aria_avx512_gfni_xts;
extern const Kernel aria_avx2_gfni_kernel;
extern const DrbgAccel aria_avx2_gfni_drbg;
extern const XtsAccel aria_avx2_gfni_xts;
extern const Kernel aria_avx_gfni_kernel;
extern const DrbgAccel aria_avx_gfni_drbg;
extern const XtsAccel aria_avx_gfni_xts;
extern const Kernel aria_avx_aesni_kernel;
extern const DrbgAccel aria_avx_aesni_drbg;
extern const XtsAccel aria_avx_aesni_xts;
extern const Kernel aria_avx2_aesni_kernel;
extern const DrbgAccel aria_avx2_aesni_drbg;
extern const XtsAccel aria_avx2_aesni_xts;
extern const Kernel aria_avx2_vaes_kernel;
extern const DrbgAccel aria_avx2_vaes_drbg;
extern const XtsAccel aria_avx2_vaes_xts;
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
            &aria_aesni_block_kernel,
            &aria_avx512_gfni_block_kernel,
            &aria_avx_gfni_block_kernel,
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
        // One block at a time: GFNI and AES-NI in one register (AVX-512, else AVX), or AES-NI
        // alone (all constant-time), else the T-tables, which constant-time contexts never get
        // (dispatch/registry.hpp: chain_kernel).
        x.chain_kernels = {
#if defined(__x86_64__)
            &aria_avx512_gfni_block_kernel,
            &aria_avx_gfni_block_kernel,
            &aria_aesni_block_kernel,
#endif
            &aria_table_kernel,
        };
        x.chain_accels = {
#if defined(__x86_64__)
            &aria_avx512_gfni_block_chains,
            &aria_avx_gfni_block_chains,
            &aria_aesni_block_chains,
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
        x.xts_accels = {
#if defined(__x86_64__)
            &aria_avx512_gfni_xts,
            &aria_avx2_gfni_xts,
            &aria_avx_gfni_xts,
            &aria_avx_aesni_xts,
            &aria_avx2_aesni_xts,
            &aria_avx2_vaes_xts,
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
        x.known_answers = read_known_answers(aria_known_answers);
        return x;
    }();
    return m;
}

} // namespace kc
