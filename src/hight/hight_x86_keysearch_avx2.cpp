// hight/avx2 key search: 32 candidate keys per ymm register, one per byte lane, for machines
// without AVX-512 and GFNI (kit/search/cpu_searcher.hpp). The same code as
// hight_x86_keysearch_avx512_gfni.cpp (hight_x86_keysearch_byte_lanes.hpp); this file holds its
// lane operations on ymm registers (Ymm). F0 and F1, being linear over
// GF(2), are two 16-entry lookups each, of the low and the high nibble (vpshufb with the table
// in a register and the data as the index: no memory address depends on it), XORed.
//
// Constant-time like the kernel.
#if defined(__x86_64__)
#include <immintrin.h>

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/features.hpp"
#include "core/target_region.hpp"
#include "hight/hight_key_step.hpp"
#include "kit/search/cpu_searcher.hpp"
#include "kit/search/lane_groups.hpp"
#include "kit/search/problem.hpp"

KC_TARGET_PUSH("avx2")
#include "hight/hight_x86_keysearch_byte_lanes.hpp"

namespace kc::keysearch {
namespace {

typedef uint8_t u8x32 __attribute__((vector_size(32)));

constexpr uint8_t rol8(unsigned x, int r) { return uint8_t(x << r | x >> (8 - r)); }

// ROL_a ^ ROL_b ^ ROL_c of the 16 low nibbles (high = false) or high nibbles, twice (one
// copy per 128-bit lane, as vpshufb looks up within each lane).
constexpr std::array<uint8_t, 32> nibble_table(int a, int b, int c, bool high)
{
    std::array<uint8_t, 32> t{};
    for (int n = 0; n < 32; n++) {
        unsigned x = high ? (n % 16) << 4 : n % 16;
        t[n] = uint8_t(rol8(x, a) ^ rol8(x, b) ^ rol8(x, c));
    }
    return t;
}

alignas(32) constexpr std::array<uint8_t, 32> f0_lo = nibble_table(1, 2, 7, false), f0_hi = nibble_table(1, 2, 7, true);
alignas(32) constexpr std::array<uint8_t, 32> f1_lo = nibble_table(3, 4, 6, false), f1_hi = nibble_table(3, 4, 6, true);

inline __m256i load(const std::array<uint8_t, 32> &t) { return _mm256_load_si256(reinterpret_cast<const __m256i *>(t.data())); }

inline u8x32 by_nibbles(u8x32 x, const std::array<uint8_t, 32> &lo, const std::array<uint8_t, 32> &hi)
{
    const __m256i low4 = _mm256_set1_epi8(0x0f);
    const __m256i l = _mm256_and_si256((__m256i)x, low4), h = _mm256_and_si256(_mm256_srli_epi16((__m256i)x, 4), low4);
    return (u8x32)_mm256_xor_si256(_mm256_shuffle_epi8(load(lo), l), _mm256_shuffle_epi8(load(hi), h));
}

// The lane operations of hight_x86_keysearch_byte_lanes.hpp on ymm registers.
struct Ymm {
    using vec = u8x32;
    static constexpr int lane_bits = 5;
    static vec bcast(uint8_t b) { return (vec)_mm256_set1_epi8((char)b); }
    static vec f0(vec x) { return by_nibbles(x, f0_lo, f0_hi); }
    static vec f1(vec x) { return by_nibbles(x, f1_lo, f1_hi); }
    static uint64_t equal8(const vec *x, const vec *c)
    {
        __m256i e = _mm256_cmpeq_epi8((__m256i)x[0], (__m256i)c[0]);
        for (int j = 1; j < 8; j++)
            e = _mm256_and_si256(e, _mm256_cmpeq_epi8((__m256i)x[j], (__m256i)c[j]));
        return (uint64_t)(uint32_t)_mm256_movemask_epi8(e);
    }
};

} // namespace

extern const CpuSearcher hight_x86_keysearch_avx2 = {
    "hight/avx2-keysearch", "hight/avx2", "hight", feat_avx2, hight_keysearch_byte_lanes::search_hight<Ymm>,
};

} // namespace kc::keysearch

KC_TARGET_POP()
#endif
