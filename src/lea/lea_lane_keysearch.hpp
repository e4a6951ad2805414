// The LEA key search on one key per SIMD lane, written once over the vector width: the search
// of lea_x86_keysearch_avx512.cpp and lea_x86_keysearch_avx2.cpp (nothing here is x86: the
// vectors are GCC vector types). A key search file includes this header inside its
// `KC_TARGET_PUSH` region, so that the search, and the key schedule's templates that it
// instantiates on lane vectors (lea_key_step.hpp, first included here), are compiled for its
// instruction set, and supplies the lane operations V (the searcher is search_lea<V>):
//
//   using vec;                          a GCC vector of 32-bit lanes (+ ^ | << >> lane-wise)
//   static constexpr int lanes, groups; lanes per register, registers interleaved
//   static vec bcast(uint32_t);
//   template <int R> static vec rol(vec), ror(vec);
//   static uint64_t equal4(const vec *x, const vec *c); // lanes where x[0..3] == c[0..3]
//
// Every operation must be inlined, like the rounds below ([[gnu::always_inline]]): the state
// and the key state live in registers across all rounds.
//
// Round keys: lea_key::next_round_key (the host schedule's own update, lea_key_step.hpp) on
// lane vectors, one round ahead of each round, so a lane holds the 4-8 key-state words and
// never a round-key table. All rounds are unrolled (std::index_sequence): every rotation and
// constant is an immediate or a broadcast, and X[0..3] turn by renaming.
//
// Constant-time like the kernels (ARX only); a key search has no secret to keep, but the code
// is the same.
#pragma once
// Must be included inside a key search file's target region, after that file has included
// core/bytes.hpp and kit/search/lane_groups.hpp outside it (so that their inline functions
// are compiled for the baseline), and not lea_key_step.hpp (whose templates must be compiled
// for the region's instruction set).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/bytes.hpp"
#include "core/cipher.hpp"
#include "kit/search/lane_groups.hpp"
#include "kit/search/problem.hpp"
#include "lea/lea_key_step.hpp"

// Internal linkage: each key search file compiles its own copy for its own instruction set,
// and no copy built for AVX-512 can be the one the linker keeps for another file.
namespace kc::keysearch::lea_keysearch {
namespace {

// Round I on every group: the next round key from the key state, then the round function
// (lea_ref.cpp).
template <class V, int KW, int I>
[[gnu::always_inline]] inline void round(typename V::vec (*t)[KW], typename V::vec (*x)[4])
{
    using vec = typename V::vec;
#pragma GCC unroll 4
    for (int g = 0; g < V::groups; g++) {
        vec rk[6];
        lea_key::next_round_key<KW>(t[g], I, rk);
        const vec n0 = V::template rol<9>((x[g][0] ^ rk[0]) + (x[g][1] ^ rk[1]));
        const vec n1 = V::template ror<5>((x[g][1] ^ rk[2]) + (x[g][2] ^ rk[3]));
        const vec n2 = V::template ror<3>((x[g][2] ^ rk[4]) + (x[g][3] ^ rk[5]));
        x[g][3] = x[g][0];
        x[g][0] = n0;
        x[g][1] = n1;
        x[g][2] = n2;
    }
}

template <class V, int KW, size_t... I>
[[gnu::always_inline]] inline void rounds(typename V::vec (*t)[KW], typename V::vec (*x)[4], std::index_sequence<I...>)
{
    (round<V, KW, int(I)>(t, x), ...);
}

constexpr int log2(int n) { return n > 1 ? 1 + log2(n / 2) : 0; }

template <class V, int KW, int R>
void search(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    using vec = typename V::vec;
    constexpr int G = V::groups, N = V::lanes;
    LaneGroups lg(p, log2(G * N));
    // Lane part of key word w for lanes N·g .. N·g + N-1, and pairs[0] as broadcast words.
    vec lane[G][KW];
    for (int g = 0; g < G; g++)
        for (int w = 0; w < KW; w++)
            for (int l = 0; l < N; l++)
                lane[g][w][l] = load_le32(lg.lane_key(N * g + l) + 4 * w);
    vec pt[4], ct[4];
    for (int j = 0; j < 4; j++) {
        pt[j] = V::bcast(load_le32(p.pairs[0].pt + 4 * j));
        ct[j] = V::bcast(load_le32(p.pairs[0].ct + 4 * j));
    }
    search_lane_groups(lg, first, count, hits, [&](const uint8_t *base) {
        vec t[G][KW], x[G][4];
        for (int w = 0; w < KW; w++) {
            const vec b = V::bcast(load_le32(base + 4 * w));
            for (int g = 0; g < G; g++)
                t[g][w] = b | lane[g][w];
        }
        for (int g = 0; g < G; g++)
            for (int j = 0; j < 4; j++)
                x[g][j] = pt[j];
        rounds<V, KW>(t, x, std::make_index_sequence<R>());
        uint64_t m = 0;
        for (int g = 0; g < G; g++)
            m |= V::equal4(x[g], ct) << (N * g);
        return m;
    });
}

// CpuSearcher::search: LEA-128, -192 or -256 by the problem's cipher.
template <class V> void search_lea(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    switch (p.cipher) {
    case Cipher::lea128: return search<V, 4, 24>(p, first, count, hits);
    case Cipher::lea192: return search<V, 6, 28>(p, first, count, hits);
    default: return search<V, 8, 32>(p, first, count, hits);
    }
}

} // namespace
} // namespace kc::keysearch::lea_keysearch
