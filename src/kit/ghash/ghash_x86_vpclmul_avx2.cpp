// ghash/vpclmul-avx2: GHASH with VPCLMULQDQ on ymm registers (CPUs with VPCLMULQDQ and AVX2
// but no AVX-512: Zen 3, Alder Lake), 16 blocks per reduction.
//
// Technique: ghash_x86_vpclmul_avx512.cpp's, with eight ymm registers of two blocks per run,
// and Karatsuba's three products per block instead of four: on Zen 3 a ymm VPCLMULQDQ issues
// every other cycle on the one multiplier, so per 16-block run 24 + 2 of them take 52 cycles
// (0.20 c/B) where four products took 68 (0.27 c/B); the extra VPSHUFD and VPXOR per register
// run on the other vector pipes. (H_lo ^ H_hi of each power is stored beside the powers.)
//
// Constant-time: carry-less multiplication's latency does not depend on its operands, and
// everything else is shifts, shuffles and XORs at fixed addresses.
#if defined(__x86_64__)
#include <cstring>

#include "core/features.hpp"
#include "core/target_region.hpp"
#include "kit/ghash/ghash.hpp"

KC_TARGET_PUSH("avx2,vpclmulqdq,pclmul,ssse3")
#include "kit/ghash/ghash_x86_clmul.hpp"

namespace kc::ghash_x86 {
namespace {

constexpr int run_blocks = 16;

struct Ymm {
    using vec = __m256i;
    static constexpr bool karatsuba = true;
    static constexpr int per = 2;
    static vec zero() { return _mm256_setzero_si256(); }
    static vec load(const uint8_t *p)
    {
        const __m256i reverse = _mm256_broadcastsi128_si256(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
        return _mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)), reverse);
    }
    static vec with_acc(vec x, __m128i acc) { return _mm256_xor_si256(x, _mm256_zextsi128_si256(acc)); }
    static vec powers(const __m128i *slots) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(slots)); }
    static vec broadcast(__m128i x) { return _mm256_broadcastsi128_si256(x); }
    template <int Imm> static vec clmul(vec a, vec b) { return _mm256_clmulepi64_epi128(a, b, Imm); }
    static vec xor3(vec a, vec b, vec c) { return _mm256_xor_si256(a, _mm256_xor_si256(b, c)); }
    static vec swap_halves(vec x) { return _mm256_shuffle_epi32(x, 0x4e); }
    static __m128i fold(vec v) { return _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)); }
};

} // namespace
} // namespace kc::ghash_x86

KC_TARGET_POP()

namespace kc {
// Descriptor: needs AVX2 and VPCLMULQDQ; constant-time; rank 20.
extern const GhashKernel ghash_vpclmul_avx2_kernel = {"ghash/vpclmul-avx2",
                                                      feat_avx2 | feat_vpclmul | feat_pclmul | feat_ssse3, 20, true,
    ghash_x86::init_runs<ghash_x86::Ymm, ghash_x86::run_blocks>, ghash_x86::update_runs<ghash_x86::Ymm, ghash_x86::run_blocks>};
} // namespace kc
#endif
