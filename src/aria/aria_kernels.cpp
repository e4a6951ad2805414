// Every aria kernel, for the registry (src/dispatch/registry.cpp). A new aria kernel is one
// file in this folder and one line here; x86-only kernels sit under the #if.
#include <vector>

#include "core/kernel.hpp"

namespace kc {

extern const Kernel aria_ref_kernel;
extern const Kernel aria_table_kernel;

std::vector<const Kernel *> aria_kernels()
{
    return {
        &aria_ref_kernel,
        &aria_table_kernel,
#if defined(__x86_64__)
#endif
    };
}

} // namespace kc
