// cham/avx512 key search: one candidate key per SIMD lane, for the CPU key search
// (kit/search/cpu_searcher.hpp): 16 keys per zmm register in 32-bit lanes (CHAM-128/*), 32
// in 16-bit lanes (CHAM-64/128). The cham/avx512 kernel slices the blocks of one key; here
// every lane has its own key, and its 8 or 16 round keys come from the key schedule's own
// functions on lane vectors (cham_key_step.hpp: rk_first_lanes, rk_second_lanes,
// second_index), once per group of keys, kept in registers for all the rounds.
//
// A round (cham_ref.cpp) is an XOR with the round number, a rotation and an XOR with the round
// key on X_1, an addition and a rotation: with every round unrolled (std::index_sequence) the
// word rotation of the state is renaming, and the 32-bit rotations are vprold. For 16-bit
// lanes ROL8 is a byte shuffle (vpshufb) and ROL1 two shifts and an OR.
//
// Constant-time like the kernels (ARX only).
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <utility>

#include "core/bytes.hpp"
#include "core/features.hpp"
#include "core/target_region.hpp"
#include "kit/search/cpu_searcher.hpp"
#include "kit/search/lane_groups.hpp"

KC_TARGET_PUSH("avx512f,avx512bw")
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() (initialised from itself) as the
// unused merge source, and -Wuninitialized reports it once inlined (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// The search over the lanes below: its templates, and cham_key_step.hpp's on lane vectors, are
// compiled for this region's instruction set.
#include "cham/cham_lane_keysearch.hpp"

namespace kc::keysearch {
namespace {

typedef uint32_t u32x16 __attribute__((vector_size(64)));
typedef uint16_t u16x32 __attribute__((vector_size(64)));

// The word type W's lane vector and its operations.
template <typename W> struct Lanes;

template <> struct Lanes<uint32_t> {
    using vec = u32x16;
    static constexpr int count = 16;
    static vec bcast(uint32_t w) { return (vec)_mm512_set1_epi32((int)w); }
    template <int R> static vec rol(vec x) { return (vec)_mm512_rol_epi32((__m512i)x, R); }
    static uint64_t equal4(const vec *x, const vec *c)
    {
        __mmask16 e = _mm512_cmpeq_epi32_mask((__m512i)x[0], (__m512i)c[0]);
        for (int j = 1; j < 4; j++)
            e &= _mm512_cmpeq_epi32_mask((__m512i)x[j], (__m512i)c[j]);
        return e;
    }
    static uint32_t load(const uint8_t *p) { return load_le32(p); }
};

template <> struct Lanes<uint16_t> {
    using vec = u16x32;
    static constexpr int count = 32;
    static vec bcast(uint16_t w) { return (vec)_mm512_set1_epi16((short)w); }
    template <int R> static vec rol(vec x)
    {
        if constexpr (R == 8) {
            const __m512i swap = _mm512_set4_epi32(0x0e0f0c0d, 0x0a0b0809, 0x06070405, 0x02030001);
            return (vec)_mm512_shuffle_epi8((__m512i)x, swap);
        } else {
            return (x << R) | (x >> (16 - R));
        }
    }
    static uint64_t equal4(const vec *x, const vec *c)
    {
        __mmask32 e = _mm512_cmpeq_epi16_mask((__m512i)x[0], (__m512i)c[0]);
        for (int j = 1; j < 4; j++)
            e &= _mm512_cmpeq_epi16_mask((__m512i)x[j], (__m512i)c[j]);
        return e;
    }
    static uint32_t load(const uint8_t *p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8; }
};

} // namespace

extern const CpuSearcher cham_x86_keysearch_avx512 = {
    "cham/avx512-keysearch", "cham/avx512", "cham", feat_avx512f | feat_avx512bw, cham_keysearch::search_cham<Lanes>,
};

} // namespace kc::keysearch

#pragma GCC diagnostic pop
KC_TARGET_POP()
#endif
