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
    };
}

} // namespace kc
