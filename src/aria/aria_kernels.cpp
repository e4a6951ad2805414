// Every aria kernel, for the registry (src/dispatch/registry.cpp). A new aria kernel is one
// file in this folder and one line here; x86-only kernels sit under the #if.
#include <vector>

#include "core/kernel.hpp"

namespace kc {

extern const Kernel aria_ref_kernel;
extern const Kernel aria_table_kernel;
#if defined(__x86_64__)
extern const Kernel aria_avx512_gfni_kernel;
extern const Kernel aria_avx2_gfni_kernel;
extern const Kernel aria_avx_gfni_kernel;
extern const Kernel aria_avx_aesni_kernel;
extern const Kernel aria_avx2_aesni_kernel;
extern const Kernel aria_avx2_vaes_kernel;
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

std::vector<const Kernel *> aria_kernels()
{
    return {
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
}

} // namespace kc
