// cham/avx2 key search: one candidate key per SIMD lane for machines without AVX-512
// (kit/search/cpu_searcher.hpp): 8 keys per ymm register in 32-bit lanes (CHAM-128/*), 16 in
// 16-bit lanes (CHAM-64/128). The same code as cham_x86_keysearch_avx512.cpp
// (cham_lane_keysearch.hpp); rotations by 8 are byte shuffles (vpshufb), the others two shifts
// and an OR.
//
// Constant-time like the kernels (ARX only).
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "core/bytes.hpp"
#include "core/features.hpp"
#include "core/target_region.hpp"
#include "kit/search/cpu_searcher.hpp"
#include "kit/search/lane_groups.hpp"

KC_TARGET_PUSH("avx2")
// The search over the lanes below: its templates, and cham_key_step.hpp's on lane vectors, are
// compiled for this region's instruction set.
#include "cham/cham_lane_keysearch.hpp"

namespace kc::keysearch {
namespace {

typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));

// All four words equal, as a vector of all-ones lanes.
inline __m256i equal4_bytes(const __m256i *x, const __m256i *c, bool words16)
{
    __m256i e[4];
    for (int j = 0; j < 4; j++)
        e[j] = words16 ? _mm256_cmpeq_epi16(x[j], c[j]) : _mm256_cmpeq_epi32(x[j], c[j]);
    return _mm256_and_si256(_mm256_and_si256(e[0], e[1]), _mm256_and_si256(e[2], e[3]));
}

template <typename W> struct Lanes;

template <> struct Lanes<uint32_t> {
    using vec = u32x8;
    static constexpr int count = 8;
    static vec bcast(uint32_t w) { return (vec)_mm256_set1_epi32((int)w); }
    template <int R> static vec rol(vec x)
    {
        if constexpr (R == 8) {
            const __m256i rot8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2,
                                                  7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
            return (vec)_mm256_shuffle_epi8((__m256i)x, rot8);
        } else {
            return (x << R) | (x >> (32 - R));
        }
    }
    static uint64_t equal4(const vec *x, const vec *c)
    {
        const __m256i e = equal4_bytes(reinterpret_cast<const __m256i *>(x), reinterpret_cast<const __m256i *>(c), false);
        return (uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(e));
    }
    static uint32_t load(const uint8_t *p) { return load_le32(p); }
};

template <> struct Lanes<uint16_t> {
    using vec = u16x16;
    static constexpr int count = 16;
    static vec bcast(uint16_t w) { return (vec)_mm256_set1_epi16((short)w); }
    template <int R> static vec rol(vec x)
    {
        if constexpr (R == 8) {
            const __m256i swap = _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5,
                                                  4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
            return (vec)_mm256_shuffle_epi8((__m256i)x, swap);
        } else {
            return (x << R) | (x >> (16 - R));
        }
    }
    static uint64_t equal4(const vec *x, const vec *c)
    {
        const __m256i e = equal4_bytes(reinterpret_cast<const __m256i *>(x), reinterpret_cast<const __m256i *>(c), true);
        // Two mask bits per 16-bit lane: keep the even ones, packed.
        uint32_t m = (uint32_t)_mm256_movemask_epi8(e) & 0x55555555u;
        m = (m | m >> 1) & 0x33333333u;
        m = (m | m >> 2) & 0x0f0f0f0fu;
        m = (m | m >> 4) & 0x00ff00ffu;
        m = (m | m >> 8) & 0x0000ffffu;
        return m;
    }
    static uint32_t load(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8; }
};

} // namespace

extern const CpuSearcher cham_x86_keysearch_avx2 = {
    "cham/avx2-keysearch", "cham/avx2", "cham", feat_avx2, cham_keysearch::search_cham<Lanes>,
};

} // namespace kc::keysearch

KC_TARGET_POP()
#endif
