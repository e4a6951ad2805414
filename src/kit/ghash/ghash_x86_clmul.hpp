// GHASH with carry-less multiplication on x86: the 128-bit helpers every x86 GHASH
// implementation uses (ghash_x86_pclmul.cpp, ghash_x86_vpclmul_avx2.cpp, _avx512.cpp):
// loads in GHASH's representation, unreduced products and the reduction.
//
// Must be included inside a `#pragma GCC target` region that enables pclmul and ssse3; the
// functions have internal linkage, so each file compiles its own copy for its own target.
//
// The algebra (Gueron and Kounavis, Intel's carry-less multiplication white paper): a block is
// byte-reversed into a 128-bit integer (ghash.hpp's representation); a product is four
// PCLMULQDQ of 64-bit halves, summed unreduced (shifting and reducing are linear, so several
// products can share one reduction), then shifted left one bit and reduced modulo
// x^128 + x^7 + x^2 + x + 1 with shifts and XORs (ghash_portable.cpp derives the steps).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kit/ghash/ghash.hpp"

namespace kc::ghash_x86 {
namespace {

inline __m128i byte_reverse(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

inline __m128i load_block(const uint8_t *p) { return byte_reverse(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p))); }

// An unreduced 256-bit product, kept as its low, middle and high 128-bit parts.
// (No default member initializers: GCC compiles an implicit constructor without the
// file's target options and then refuses to inline intrinsics into it.)
struct Wide {
    __m128i lo, mid, hi;
};

inline Wide zero_wide()
{
    Wide w;
    w.lo = w.mid = w.hi = _mm_setzero_si128();
    return w;
}

inline void mul_add(Wide &w, __m128i a, __m128i b)
{
    w.lo = _mm_xor_si128(w.lo, _mm_clmulepi64_si128(a, b, 0x00));
    w.hi = _mm_xor_si128(w.hi, _mm_clmulepi64_si128(a, b, 0x11));
    w.mid = _mm_xor_si128(w.mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01), _mm_clmulepi64_si128(a, b, 0x10)));
}

// The three shifts of one 64-bit word that fold the bits of degree >= 128 back (63, 62, 57
// left; as right shifts of 1, 2 and 7 on the other side).
inline __m128i fold_left(__m128i x)
{
    return _mm_xor_si128(_mm_xor_si128(_mm_slli_epi64(x, 63), _mm_slli_epi64(x, 62)), _mm_slli_epi64(x, 57));
}

// The reflected product from its unreduced parts: shift left one bit, then reduce (the
// low 128 bits hold the terms of degree >= 128; see ghash_portable.cpp for the algebra).
inline __m128i reduce(Wide w)
{
    __m128i lo = _mm_xor_si128(w.lo, _mm_slli_si128(w.mid, 8));
    __m128i hi = _mm_xor_si128(w.hi, _mm_srli_si128(w.mid, 8));
    const __m128i lc = _mm_srli_epi64(lo, 63), hc = _mm_srli_epi64(hi, 63);
    lo = _mm_or_si128(_mm_slli_epi64(lo, 1), _mm_slli_si128(lc, 8));
    hi = _mm_or_si128(_mm_or_si128(_mm_slli_epi64(hi, 1), _mm_slli_si128(hc, 8)), _mm_srli_si128(lc, 8));
    lo = _mm_xor_si128(lo, _mm_slli_si128(fold_left(lo), 8));
    __m128i r = _mm_xor_si128(lo, _mm_xor_si128(_mm_srli_epi64(lo, 1), _mm_xor_si128(_mm_srli_epi64(lo, 2), _mm_srli_epi64(lo, 7))));
    r = _mm_xor_si128(r, _mm_srli_si128(fold_left(lo), 8));
    return _mm_xor_si128(hi, r);
}

inline __m128i gf_mul(__m128i a, __m128i b)
{
    Wide w = zero_wide();
    mul_add(w, a, b);
    return reduce(w);
}

// The powers H^n .. H^1 in descending order (GhashKey::words as n __m128i, n <= 32): a run
// of n blocks X_0 .. X_(n-1) hashes as sum X_i H^(n-i), so block i of a run meets slot i,
// and the last four slots are H^4 .. H^1 for shorter runs.
inline void init_powers(__m128i *slots, const uint8_t h[16], int n)
{
    const __m128i h1 = load_block(h);
    __m128i p = h1;
    for (int i = n - 1; i >= 0; i--) {
        slots[i] = p;
        p = gf_mul(p, h1);
    }
}

// Hashes nblocks (fewer than a wide run, in the wide kernels) with low = the slots of
// H^4 .. H^1: four blocks per reduction, then one at a time.
inline __m128i update_short(const __m128i *low, __m128i acc, const uint8_t *in, size_t nblocks)
{
    const __m128i h4 = low[0], h3 = low[1], h2 = low[2], h1 = low[3];
    for (; nblocks >= 4; nblocks -= 4, in += 64) {
        Wide w = zero_wide();
        mul_add(w, _mm_xor_si128(acc, load_block(in)), h4);
        mul_add(w, load_block(in + 16), h3);
        mul_add(w, load_block(in + 32), h2);
        mul_add(w, load_block(in + 48), h1);
        acc = reduce(w);
    }
    for (; nblocks > 0; nblocks--, in += 16)
        acc = gf_mul(_mm_xor_si128(acc, load_block(in)), h1);
    return acc;
}

// GHASH over runs of Run blocks with one reduction per run, on a vector of V::per blocks
// (V: ymm or zmm operations, the file's own), then update_short for the rest. Slots: the
// powers H^Run .. H^1 (init_powers with n = Run). V supplies vec, per, zero(), load(p)
// (V::per blocks, byte-reversed), with_acc(x, acc) (acc XORed into the first block),
// powers(slots) (V::per slots), clmul<imm>(a, b), xor3(a, b, c), fold(v) (the XOR of the
// 128-bit lanes). Only a run's first block waits for the previous run's reduction, so the
// reduction overlaps the next run's multiplications.
template <class V, int Run> inline __m128i update_runs(const __m128i *slots, __m128i acc, const uint8_t *in, size_t nblocks)
{
    using vec = typename V::vec;
    for (; nblocks >= Run; nblocks -= Run, in += 16 * Run) {
        vec lo = V::zero(), mid = V::zero(), hi = V::zero();
        for (int j = 0; j < Run / V::per; j++) {
            vec x = V::load(in + 16 * V::per * j);
            if (j == 0)
                x = V::with_acc(x, acc);
            const vec p = V::powers(slots + V::per * j);
            lo = V::xor3(lo, V::template clmul<0x00>(x, p), V::zero());
            hi = V::xor3(hi, V::template clmul<0x11>(x, p), V::zero());
            mid = V::xor3(mid, V::template clmul<0x01>(x, p), V::template clmul<0x10>(x, p));
        }
        Wide w;
        w.lo = V::fold(lo);
        w.mid = V::fold(mid);
        w.hi = V::fold(hi);
        acc = reduce(w);
    }
    return update_short(slots + Run - 4, acc, in, nblocks);
}

// GhashKernel's init and update for a wide implementation: V and Run as update_runs.
template <int Run> void init_runs(GhashKey &key, const uint8_t h[16])
{
    std::memset(&key, 0, sizeof key);
    init_powers(reinterpret_cast<__m128i *>(key.words), h, Run);
}

template <class V, int Run> void update_runs(const GhashKey &key, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    const __m128i acc = update_runs<V, Run>(reinterpret_cast<const __m128i *>(key.words), load_block(y), in, nblocks);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(y), byte_reverse(acc));
}

} // namespace
} // namespace kc::ghash_x86
