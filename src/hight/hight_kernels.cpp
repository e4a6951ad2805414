// Every hight kernel, for the registry (src/dispatch/registry.cpp). A new hight kernel is one
// file in this folder and one line here; x86-only and aarch64-only kernels sit under the #ifs.
#include <vector>

#include "core/kernel.hpp"

namespace kc {

extern const Kernel hight_ref_kernel;
#if defined(__x86_64__)
extern const Kernel hight_avx2_kernel;
extern const Kernel hight_avx512_gfni_kernel;
#endif
#if defined(__aarch64__)
extern const Kernel hight_neon_kernel;
#endif
#if defined(KCIPHER_HAVE_CUDA)
extern const Kernel hight_cuda_bitslice_kernel;
#endif

std::vector<const Kernel *> hight_kernels()
{
    return {
        &hight_ref_kernel,
#if defined(__x86_64__)
        &hight_avx2_kernel,
        &hight_avx512_gfni_kernel,
#endif
#if defined(__aarch64__)
        &hight_neon_kernel,
#endif
#if defined(KCIPHER_HAVE_CUDA)
        &hight_cuda_bitslice_kernel,
#endif
    };
}

} // namespace kc
