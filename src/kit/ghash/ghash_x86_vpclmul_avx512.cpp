// ghash/vpclmul-avx512: GHASH with VPCLMULQDQ on zmm registers (Ice Lake and later, Zen 4),
// 32 blocks per reduction.
//
// Technique (ghash_x86_clmul.hpp has the algebra and the loop). A run of 32 blocks is eight
// zmm registers of four blocks; register j meets the powers H^(32-4j) .. H^(29-4j) lane by
// lane (stored that way at init), so four VPCLMULQDQ per register give its lanes' unreduced
// products (schoolbook: Karatsuba's third product would cost a VPSHUFD on the same port 5 as
// the multiplier). The 32 products are summed per lane, the four lanes reduced at once (two
// VPCLMULQDQ by the polynomial) and then added. Only the first block of a run depends on the
// previous run's result, and its products are summed last, so the reduction's latency
// overlaps the next run's multiplications. A last run of fewer blocks takes the last slots
// (H^n .. H^1) and one reduction too.
//
// Port 5 on Ice Lake / Sapphire Rapids, per run of 32 blocks (objdump of update_runs): 32
// VPCLMULQDQ and 8 VPSHUFB (byte reversal) for the data, 2 VPCLMULQDQ, 2 VPSHUFD and 2
// VEXTRACT for the reduction and the fold: 46 uops per 512 bytes, a ceiling of 0.090 c/B; the
// 27 VPTERNLOG/VPXOR go to port 0.
//
// Constant-time: carry-less multiplication's latency does not depend on its operands, and
// everything else is shifts, shuffles and XORs at fixed addresses.
#if defined(__x86_64__)
#include <cstring>

#include "core/features.hpp"
#include "core/target_region.hpp"
#include "kit/ghash/ghash.hpp"

KC_TARGET_PUSH("avx512f,avx512bw,avx512vl,vpclmulqdq,pclmul,ssse3")
// GCC's own AVX-512 headers trip these inside their casts (the undefined upper lanes).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "kit/ghash/ghash_x86_clmul.hpp"

namespace kc::ghash_x86 {
namespace {

constexpr int run_blocks = 32;

struct Zmm {
    using vec = __m512i;
    static constexpr bool karatsuba = false;
    static constexpr int per = 4;
    static vec zero() { return _mm512_setzero_si512(); }
    static vec load(const uint8_t *p)
    {
        const __m512i reverse = _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
        return _mm512_shuffle_epi8(_mm512_loadu_si512(p), reverse);
    }
    static vec with_acc(vec x, __m128i acc) { return _mm512_xor_si512(x, _mm512_zextsi128_si512(acc)); }
    static vec powers(const __m128i *slots) { return _mm512_loadu_si512(slots); }
    static vec broadcast(__m128i x) { return _mm512_broadcast_i32x4(x); }
    template <int Imm> static vec clmul(vec a, vec b) { return _mm512_clmulepi64_epi128(a, b, Imm); }
    static vec xor3(vec a, vec b, vec c) { return _mm512_ternarylogic_epi64(a, b, c, 0x96); }
    static vec swap_halves(vec x) { return _mm512_shuffle_epi32(x, (_MM_PERM_ENUM)0x4e); }
    static __m128i fold(vec v)
    {
        const __m256i h = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
        return _mm_xor_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    }
};

} // namespace
} // namespace kc::ghash_x86

#pragma GCC diagnostic pop
KC_TARGET_POP()

namespace kc {
// Descriptor: needs AVX-512 F/BW/VL and VPCLMULQDQ; constant-time; rank 30.
extern const GhashKernel ghash_vpclmul_avx512_kernel = {
    "ghash/vpclmul-avx512", feat_avx512f | feat_avx512bw | feat_avx512vl | feat_vpclmul | feat_pclmul | feat_ssse3, 30,
    true, ghash_x86::init_runs<ghash_x86::Zmm, ghash_x86::run_blocks>, ghash_x86::update_runs<ghash_x86::Zmm, ghash_x86::run_blocks>};
} // namespace kc
#endif
