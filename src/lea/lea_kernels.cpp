// Every lea kernel, for the registry (src/dispatch/registry.cpp). A new lea kernel is one
// file in this folder and one line here; x86-only kernels sit under the #if.
#include <vector>

#include "core/kernel.hpp"

namespace kc {

extern const Kernel lea_ref_kernel;
#if defined(__x86_64__)
extern const Kernel lea_avx2_kernel;
extern const Kernel lea_avx512_kernel;
#endif
#if defined(__aarch64__)
extern const Kernel lea_neon_kernel;
#endif
#if defined(KCIPHER_HAVE_CUDA)
extern const Kernel lea_cuda_kernel;
#endif

std::vector<const Kernel *> lea_kernels()
{
    return {
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
}

} // namespace kc
