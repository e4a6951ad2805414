// The HIGHT key search with one candidate key per byte lane, written once over the vector width
// for hight_x86_keysearch_avx512_gfni.cpp (64 lanes) and hight_x86_keysearch_avx2.cpp (32).
// Register j of the key holds master-key byte MK_j of every lane's candidate; subkeys
// SK_n = MK_{subkey_source(n)} + δ_n and whitening keys MK_{whitening_source(i)} come from
// hight_key_step.hpp (the host schedule's own constants and sources) and are derived as each
// round needs them. All 32 rounds are unrolled (std::index_sequence): the state's byte
// rotation is renaming and every source and δ a constant.
//
// A searcher file includes this header inside its `KC_TARGET_PUSH` region, so that the
// search is compiled for its instruction set, and supplies the lane operations Ops:
//
//   using vec;                       a GCC vector of bytes (+ ^ | lane-wise)
//   static constexpr int lane_bits;  log2 of the lanes (6: zmm, 5: ymm)
//   static vec bcast(uint8_t);
//   static vec f0(vec), f1(vec);     HIGHT's F0 and F1 on every byte
//   static uint64_t equal8(const vec *x, const vec *c); // lanes where x[0..7] == c[0..7]
//
// The searcher's CpuSearcher (kit/search/cpu_searcher.hpp) points at search_hight<Ops>.
//
// Constant-time like the kernels: ARX on bytes, F0 and F1 computed by Ops.
#pragma once
// The project includes below must come first outside the target region, in the searcher file,
// so that their inline functions are compiled for the baseline: an inline function with
// external linkage built for AVX-512 here could be the copy the linker keeps for every file.

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "hight/hight_key_step.hpp"
#include "kit/search/lane_groups.hpp"
#include "kit/search/problem.hpp"

// Internal linkage: each searcher file compiles its own copy for its own instruction set.
namespace kc::hight_keysearch_byte_lanes {
namespace {

// All of it works on the 8 state and 16 key registers of one lane group, which must stay in
// registers.
#define KC_HIGHT_KS_INLINE [[gnu::always_inline]] inline

// SK_n of every lane, from its master key.
template <class Ops, int N> KC_HIGHT_KS_INLINE typename Ops::vec subkey(const typename Ops::vec *mk)
{
    return mk[hight_key::subkey_source(N)] + Ops::bcast(hight_key::delta[N]);
}

// Round I = 0..30 (hight_ref.cpp: encrypt_round), the byte rotation by renaming.
template <class Ops, int I> KC_HIGHT_KS_INLINE void round(typename Ops::vec *x, const typename Ops::vec *mk)
{
    using vec = typename Ops::vec;
    const vec n0 = x[7] ^ (Ops::f0(x[6]) + subkey<Ops, 4 * I + 3>(mk));
    const vec n2 = x[1] + (Ops::f1(x[0]) ^ subkey<Ops, 4 * I>(mk));
    const vec n4 = x[3] ^ (Ops::f0(x[2]) + subkey<Ops, 4 * I + 1>(mk));
    const vec n6 = x[5] + (Ops::f1(x[4]) ^ subkey<Ops, 4 * I + 2>(mk));
    x[7] = x[6];
    x[5] = x[4];
    x[3] = x[2];
    x[1] = x[0];
    x[0] = n0;
    x[2] = n2;
    x[4] = n4;
    x[6] = n6;
}

template <class Ops, size_t... I>
KC_HIGHT_KS_INLINE void rounds(typename Ops::vec *x, const typename Ops::vec *mk, std::index_sequence<I...>)
{
    (round<Ops, int(I)>(x, mk), ...);
}

// CpuSearcher::search: the candidates [first, first + count) of p whose key encrypts
// p.pairs[0].pt to p.pairs[0].ct are appended to hits.
template <class Ops>
void search_hight(const keysearch::Problem &p, uint64_t first, uint64_t count, std::vector<uint64_t> &hits)
{
    using hight_key::whitening_source;
    using vec = typename Ops::vec;
    keysearch::LaneGroups lg(p, Ops::lane_bits);
    vec lane[16], pt[8], ct[8];
    for (int j = 0; j < 16; j++)
        for (int l = 0; l < (1 << Ops::lane_bits); l++)
            lane[j][l] = lg.lane_key(l)[j];
    for (int j = 0; j < 8; j++) {
        pt[j] = Ops::bcast(p.pairs[0].pt[j]);
        ct[j] = Ops::bcast(p.pairs[0].ct[j]);
    }
    keysearch::search_lane_groups(lg, first, count, hits, [&](const uint8_t *base) {
        vec mk[16], x[8];
        for (int j = 0; j < 16; j++)
            mk[j] = Ops::bcast(base[j]) | lane[j];
        // Initial transformation, 31 rounds, the last round (no byte rotation), the final
        // transformation (hight_ref.cpp).
        for (int j = 0; j < 8; j++)
            x[j] = pt[j];
        x[0] += mk[whitening_source(0)];
        x[2] ^= mk[whitening_source(1)];
        x[4] += mk[whitening_source(2)];
        x[6] ^= mk[whitening_source(3)];
        rounds<Ops>(x, mk, std::make_index_sequence<31>());
        x[1] += Ops::f1(x[0]) ^ subkey<Ops, 124>(mk);
        x[3] ^= Ops::f0(x[2]) + subkey<Ops, 125>(mk);
        x[5] += Ops::f1(x[4]) ^ subkey<Ops, 126>(mk);
        x[7] ^= Ops::f0(x[6]) + subkey<Ops, 127>(mk);
        x[0] += mk[whitening_source(4)];
        x[2] ^= mk[whitening_source(5)];
        x[4] += mk[whitening_source(6)];
        x[6] ^= mk[whitening_source(7)];
        return Ops::equal8(x, ct);
    });
}

#undef KC_HIGHT_KS_INLINE

} // namespace
} // namespace kc::hight_keysearch_byte_lanes
