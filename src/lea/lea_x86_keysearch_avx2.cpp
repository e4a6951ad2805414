// lea/avx2 key search: 8 candidate keys per ymm register, one per 32-bit lane, two registers
// interleaved, for the CPU key search on machines without AVX-512
// (kit/search/cpu_searcher.hpp). The same code as lea_x86_keysearch_avx512.cpp
// (lea_lane_keysearch.hpp), with rotations as two shifts and an OR (AVX2 has no vprold).
//
// Constant-time like the kernel (ARX only).
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
// The search over the lanes below: its templates, and lea_key_step.hpp's on lane vectors, are
// compiled for this region's instruction set.
#include "lea/lea_lane_keysearch.hpp"

namespace kc::keysearch {
namespace {

typedef uint32_t u32x8 __attribute__((vector_size(32)));

struct Ymm {
    using vec = u32x8;
    static constexpr int lanes = 8, groups = 2;
    static vec bcast(uint32_t w) { return (vec)_mm256_set1_epi32((int)w); }
    template <int R> static vec rol(vec x) { return (x << R) | (x >> (32 - R)); }
    template <int R> static vec ror(vec x) { return (x >> R) | (x << (32 - R)); }
    static uint64_t equal4(const vec *x, const vec *c)
    {
        const __m256i e = _mm256_and_si256(
            _mm256_and_si256(_mm256_cmpeq_epi32((__m256i)x[0], (__m256i)c[0]),
                             _mm256_cmpeq_epi32((__m256i)x[1], (__m256i)c[1])),
            _mm256_and_si256(_mm256_cmpeq_epi32((__m256i)x[2], (__m256i)c[2]),
                             _mm256_cmpeq_epi32((__m256i)x[3], (__m256i)c[3])));
        return (uint64_t)(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(e));
    }
};

} // namespace

extern const CpuSearcher lea_x86_keysearch_avx2 = {
    "lea/avx2-keysearch", "lea/avx2", "lea", feat_avx2, lea_keysearch::search_lea<Ymm>,
};

} // namespace kc::keysearch

KC_TARGET_POP()
#endif
