// Every cham kernel, for the registry (src/dispatch/registry.cpp). A new cham kernel is one
// file in this folder and one line here; x86-only kernels sit under the #if.
#include <vector>

#include "core/kernel.hpp"

namespace kc {

extern const Kernel cham_ref_kernel;
#if defined(__x86_64__)
extern const Kernel cham_avx2_kernel;
extern const Kernel cham_avx512_kernel;
extern const Kernel cham_avx512_vbmi2_kernel;
#endif
#if defined(__aarch64__)
extern const Kernel cham_neon_kernel;
#endif
#if defined(KCIPHER_HAVE_CUDA)
extern const Kernel cham_cuda_kernel;
#endif

std::vector<const Kernel *> cham_kernels()
{
    return {
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
}

} // namespace kc
