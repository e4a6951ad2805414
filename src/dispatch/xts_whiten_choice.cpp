#include "dispatch/xts_whiten_choice.hpp"

#include "dispatch/registry.hpp"

namespace kc {

const std::vector<const XtsWhitenKernel *> &all_xts_whiten_kernels()
{
    static const std::vector<const XtsWhitenKernel *> all = {
#if defined(__x86_64__)
        &xts_whiten_avx512_vpclmul_kernel,
        &xts_whiten_avx512_kernel,
        &xts_whiten_avx2_kernel,
#endif
        &xts_whiten_portable_kernel,
    };
    return all;
}

const XtsWhitenKernel &xts_whiten_kernel()
{
    static const XtsWhitenKernel *chosen = [] {
        const XtsWhitenKernel *best = &xts_whiten_portable_kernel;
        for (const XtsWhitenKernel *w : all_xts_whiten_kernels())
            if (runnable(w->requires) && w->rank > best->rank)
                best = w;
        return best;
    }();
    return *chosen;
}

} // namespace kc
