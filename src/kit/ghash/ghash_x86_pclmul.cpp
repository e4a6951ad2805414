// ghash/pclmul: GHASH with PCLMULQDQ (any x86-64 since Westmere), four blocks per
// reduction (ghash_x86_clmul.hpp has the technique).
//
// Constant-time: PCLMULQDQ's latency does not depend on its operands on any x86 core, and
// everything else is shifts, shuffles and XORs at fixed addresses.
#if defined(__x86_64__)
#include <cstring>

#include "core/features.hpp"
#include "core/target_region.hpp"
#include "kit/ghash/ghash.hpp"

KC_TARGET_PUSH("pclmul,ssse3")
#include "kit/ghash/ghash_x86_clmul.hpp"

namespace kc {
namespace {

using namespace ghash_x86;

void init(GhashKey &key, const uint8_t h[16])
{
    std::memset(&key, 0, sizeof key);
    init_powers(reinterpret_cast<__m128i *>(key.words), h, 4);
}

void update(const GhashKey &key, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    const __m128i acc = update_short(reinterpret_cast<const __m128i *>(key.words), load_block(y), in, nblocks);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(y), byte_reverse(acc));
}

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {
// Descriptor: needs PCLMULQDQ and SSSE3 (the byte reversal); constant-time; rank 10.
extern const GhashKernel ghash_pclmul_kernel = {"ghash/pclmul", feat_pclmul | feat_ssse3, 10, true,
                                                init, update};
} // namespace kc
#endif
