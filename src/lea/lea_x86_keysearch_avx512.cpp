// lea/avx512 key search: 16 candidate keys per zmm register, one per 32-bit lane, for the CPU
// key search (kit/search/cpu_searcher.hpp). The lea/avx512 kernel slices the blocks of one
// key; here every lane has its own key, so the round keys are derived on the fly, one round
// ahead of each round, by the key schedule's own update (lea_key_step.hpp: update_lanes and
// next_round_key on a vector of lanes), as the GPU search does. A lane holds the 4-8
// key-state words and never a round-key table.
//
// Per round and 16 keys (LEA-128): 4 additions and 4 rotations for the key, 6 XORs, 3
// additions and 3 rotations for the data: 20 vector operations, 7 of them rotations
// (vprold/vprord). All rounds are unrolled (std::index_sequence), so every rotation and
// constant is an immediate or a broadcast; two groups of 16 keys run interleaved so that a
// round's three-deep chains overlap.
//
// Constant-time like the kernel (ARX only); a key search has no secret to keep, but the code
// is the same.
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

KC_TARGET_PUSH("avx512f")
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() (initialised from itself) as the
// unused merge source, and -Wuninitialized reports it once inlined (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // clang has no -Wmaybe-uninitialized
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
// The search over the lanes below: its templates, and lea_key_step.hpp's on lane vectors, are
// compiled for this region's instruction set.
#include "lea/lea_lane_keysearch.hpp"

namespace kc::keysearch {
namespace {

typedef uint32_t u32x16 __attribute__((vector_size(64)));

struct Zmm {
    using vec = u32x16;
    static constexpr int lanes = 16, groups = 2; // two independent chains per round
    static vec bcast(uint32_t w) { return (vec)_mm512_set1_epi32((int)w); }
    template <int R> static vec rol(vec x) { return (vec)_mm512_rol_epi32((__m512i)x, R); }
    template <int R> static vec ror(vec x) { return (vec)_mm512_ror_epi32((__m512i)x, R); }
    static uint64_t equal4(const vec *x, const vec *c)
    {
        __mmask16 e = _mm512_cmpeq_epi32_mask((__m512i)x[0], (__m512i)c[0]);
        for (int j = 1; j < 4; j++)
            e &= _mm512_cmpeq_epi32_mask((__m512i)x[j], (__m512i)c[j]);
        return e;
    }
};

} // namespace

extern const CpuSearcher lea_x86_keysearch_avx512 = {
    "lea/avx512-keysearch", "lea/avx512", "lea", feat_avx512f, lea_keysearch::search_lea<Zmm>,
};

} // namespace kc::keysearch

#pragma GCC diagnostic pop
KC_TARGET_POP()
#endif
