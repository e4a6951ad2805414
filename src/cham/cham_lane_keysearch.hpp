// The CHAM key search on one key per SIMD lane, written once over the vector width: the
// search of cham_x86_keysearch_avx512.cpp and cham_x86_keysearch_avx2.cpp (nothing here is
// x86: the vectors are GCC vector types). A key search file includes this header inside its
// `KC_TARGET_PUSH` region, so that the search, and the key schedule's templates that it
// instantiates on lane vectors (cham_key_step.hpp, first included here), are compiled for its
// instruction set, and supplies the lane operations as Lanes<W> for W = uint16_t and uint32_t
// (the searcher is search_cham<Lanes>):
//
//   using vec;                  a GCC vector of W lanes (+ ^ | << >> lane-wise)
//   static constexpr int count; lanes per register (a power of two, 8 to 32)
//   static vec bcast(W-sized value as uint32_t);
//   template <int R> static vec rol(vec);
//   static uint32_t load(const uint8_t *);               a little-endian W
//   static uint64_t equal4(const vec *x, const vec *c);   lanes where x[0..3] == c[0..3]
//
// Round keys: cham_key::rk_first_lanes / rk_second_lanes / second_index (the host schedule's
// own functions, cham_key_step.hpp) on lane vectors, once per group, kept in registers for
// every round. All rounds are unrolled (std::index_sequence): the word rotation of the state
// is renaming and the round number a constant.
#pragma once
// Must be included inside a key search file's target region, after that file has included
// core/cipher.hpp and kit/search/lane_groups.hpp outside it (so that their inline functions
// are compiled for the baseline), and not cham_key_step.hpp.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cham/cham_key_step.hpp"
#include "core/cipher.hpp"
#include "kit/search/lane_groups.hpp"
#include "kit/search/problem.hpp"

// Internal linkage: each key search file compiles its own copy for its own instruction set,
// and no copy built for AVX-512 can be the one the linker keeps for another file.
namespace kc::keysearch::cham_keysearch {
namespace {

// Round I: X_3' = ROL_{R2}((X_0 ^ I) + (ROL_{R1}(X_1) ^ RK_{I mod NRK})), (R1, R2) = (1, 8)
// for even I and (8, 1) for odd; the other words move down one place (renamed).
template <class L, typename W, int NRK, int I>
[[gnu::always_inline]] inline void round(typename L::vec *x, const typename L::vec *rk)
{
    constexpr int r1 = I % 2 == 0 ? 1 : 8, r2 = I % 2 == 0 ? 8 : 1;
    const typename L::vec t =
        L::template rol<r2>((x[0] ^ L::bcast(W(I))) + (L::template rol<r1>(x[1]) ^ rk[I % NRK]));
    x[0] = x[1];
    x[1] = x[2];
    x[2] = x[3];
    x[3] = t;
}

template <class L, typename W, int NRK, size_t... I>
[[gnu::always_inline]] inline void rounds(typename L::vec *x, const typename L::vec *rk, std::index_sequence<I...>)
{
    (round<L, W, NRK, int(I)>(x, rk), ...);
}

// L: the lane operations; W: the word; KW: key words; R: rounds (revised CHAM).
template <class L, typename W, int KW, int R>
void search(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    using vec = typename L::vec;
    constexpr int lane_bits = L::count == 8 ? 3 : L::count == 16 ? 4 : 5;
    constexpr int bytes = sizeof(W);
    LaneGroups lg(p, lane_bits);
    vec lane[KW], pt[4], ct[4];
    for (int w = 0; w < KW; w++)
        for (int l = 0; l < L::count; l++)
            lane[w][l] = W(L::load(lg.lane_key(l) + bytes * w));
    for (int j = 0; j < 4; j++) {
        pt[j] = L::bcast(W(L::load(p.pairs[0].pt + bytes * j)));
        ct[j] = L::bcast(W(L::load(p.pairs[0].ct + bytes * j)));
    }
    search_lane_groups(lg, first, count, hits, [&](const uint8_t *base) {
        vec rk[2 * KW], x[4];
        for (int i = 0; i < KW; i++) {
            const vec k = L::bcast(W(L::load(base + bytes * i))) | lane[i];
            rk[i] = cham_key::rk_first_lanes<W>(k);
            rk[cham_key::second_index(i, KW)] = cham_key::rk_second_lanes<W>(k);
        }
        for (int j = 0; j < 4; j++)
            x[j] = pt[j];
        rounds<L, W, 2 * KW>(x, rk, std::make_index_sequence<R>());
        return L::equal4(x, ct);
    });
}

template <template <typename> class Lanes>
void search_cham(const Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    switch (p.cipher) {
    case Cipher::cham64_128: return search<Lanes<uint16_t>, uint16_t, 8, 88>(p, first, count, hits);
    case Cipher::cham128_128: return search<Lanes<uint32_t>, uint32_t, 4, 112>(p, first, count, hits);
    default: return search<Lanes<uint32_t>, uint32_t, 8, 120>(p, first, count, hits);
    }
}

} // namespace
} // namespace kc::keysearch::cham_keysearch
