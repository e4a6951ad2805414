// aria/avx512-gfni-block: ARIA one block at a time (aria_x86_gfni_block.hpp: the technique, the
// dependent path and its count) on cores with AVX-512 and GFNI, the selects and XORs by
// vpternlogd. The ARIA chains' kernel where it runs.
#if defined(__x86_64__)

#include <immintrin.h>

#include "core/kernel.hpp"
#include "core/target_region.hpp"
#include "kit/block_loop.hpp"

KC_TARGET_PUSH("avx512f,avx512bw,avx512vl,gfni,aes")
// Included in the region, so that the loops and the block take the target.
#include "aria/aria_x86_gfni_block.hpp"

namespace kc {
namespace {

// vpternlogd: a select is one instruction, and A's eight leaves three of them and a vpxor,
// chained in the order the shuffles issue, the key in the first, so it costs no latency.
struct Logic {
    static __m128i select(__m128i m, __m128i a, __m128i b) { return _mm_ternarylogic_epi32(m, a, b, 0xca); }
    static __m128i diffuse(const __m128i *p, __m128i key)
    {
        const __m128i a = _mm_ternarylogic_epi32(p[0], p[1], key, 0x96);
        const __m128i b = _mm_ternarylogic_epi32(p[2], p[3], a, 0x96);
        const __m128i c = _mm_ternarylogic_epi32(p[4], p[5], b, 0x96);
        return _mm_xor_si128(p[6], c);
    }
};

using Block = AriaGfniBlock<Logic>;

} // namespace
} // namespace kc

KC_TARGET_POP()

namespace kc {

namespace {
constexpr uint32_t needs = feat_avx512f | feat_avx512bw | feat_avx512vl | feat_gfni | feat_aesni;
} // namespace

extern const Kernel aria_avx512_gfni_block_kernel = Block::kernel("aria/avx512-gfni-block", needs);
extern const ChainAccel aria_avx512_gfni_block_chains = Block::chains(&aria_avx512_gfni_block_kernel, needs);

} // namespace kc

#endif // __x86_64__
