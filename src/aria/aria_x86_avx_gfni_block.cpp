// aria/avx-gfni-block: ARIA one block at a time (aria_x86_gfni_block.hpp: the technique) on
// cores with GFNI and AVX but not AVX-512, the selects by vpblendvb and A's XORs two at a time.
#if defined(__x86_64__)

#include <immintrin.h>

#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "kit/block_loop.hpp"

KC_TARGET_PUSH("avx,gfni,aes")
// Included in the region, so that the loops and the block take the target.
#include "aria/aria_x86_gfni_block.hpp"

namespace kc {
namespace {

// AVX only (GFNI without AVX-512: Intel's client cores since Alder Lake, and the E-core
// Xeons): vpblendvb for a select (the masks' bytes are 0 or 0xff), and A's eight leaves in a
// chain of vpxor in the order the shuffles issue, the key first. GCC reassociates XORs (it put
// the key beside the last shuffle, a cycle later); an empty asm on each partial sum keeps this
// order.
struct Logic {
    static __m128i select(__m128i m, __m128i a, __m128i b) { return _mm_blendv_epi8(b, a, m); }
    static __m128i pin(__m128i x)
    {
        asm("" : "+x"(x));
        return x;
    }
    static __m128i diffuse(const __m128i *p, __m128i key)
    {
        __m128i x = pin(_mm_xor_si128(_mm_xor_si128(p[0], key), p[1]));
        x = pin(_mm_xor_si128(x, _mm_xor_si128(p[2], p[3])));
        x = pin(_mm_xor_si128(x, _mm_xor_si128(p[4], p[5])));
        return _mm_xor_si128(x, p[6]);
    }
};

using Block = AriaGfniBlock<Logic>;

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {

namespace {
constexpr uint32_t needs = feat_avx | feat_gfni | feat_aesni;
} // namespace

extern const Kernel aria_avx_gfni_block_kernel = Block::kernel("aria/avx-gfni-block", needs);
extern const ChainAccel aria_avx_gfni_block_chains = Block::chains(&aria_avx_gfni_block_kernel, needs);

} // namespace kc

#endif // __x86_64__
