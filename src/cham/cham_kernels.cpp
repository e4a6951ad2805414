// Every cham kernel, for the registry (src/dispatch/registry.cpp). A new cham kernel is one
// file in this folder and one line here; x86-only kernels sit under the #if.
#include <vector>

#include "core/kernel.hpp"

namespace kc {

extern const Kernel cham_ref_kernel;

std::vector<const Kernel *> cham_kernels()
{
    return {
        &cham_ref_kernel,
#if defined(__x86_64__)
#endif
    };
}

} // namespace kc
