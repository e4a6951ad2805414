// GHASH with carry-less multiplication on x86: the 128-bit helpers every x86 GHASH
// implementation uses (ghash_x86_pclmul.cpp, ghash_x86_vpclmul_avx2.cpp, _avx512.cpp), and
// the wide loop the VPCLMULQDQ files instantiate with their own vector type.
//
// Must be included inside a `KC_TARGET_PUSH` region that enables pclmul and ssse3; the
// functions have internal linkage, so each file compiles its own copy for its own target.
//
// The algebra (Gueron and Kounavis, Intel's carry-less multiplication white paper; the
// reduction as in Linux's aes-gcm-avx10-x86_64.S). A block is byte-reversed into a 128-bit
// integer (ghash.hpp's representation: integer bit j is the coefficient of x^(127-j)). The
// integer carry-less product of a and b then holds the coefficient of x^k of a*b at bit 254-k:
// one bit short of the 256-bit layout "bit m is x^(255-m)" whose high half is the reduced
// result's place. Instead of shifting every product, the key stores each power of H times
// x^-1 (init_powers): a * (b x^-1) in that one-bit-short layout is a * b in the wanted one.
//
// A product is four PCLMULQDQ of 64-bit halves kept unreduced as lo (bits 0..127), mid
// (64..191) and hi (128..255); shifting and reducing are linear, so products of a whole run of
// blocks are summed first and reduced once. reduce() folds the lowest 64 bits (x^255..x^192)
// into mid, then mid's lowest 64 into hi, each by x^128 = x^7 + x^2 + x + 1: the 64-bit part
// moves up 128 bits (a qword swap) and its multiple by x^7+x^2+x (0xC2 << 56 here) is added.
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kit/ghash/ghash.hpp"

namespace kc::ghash_x86 {
namespace {

inline __m128i reverse_mask() { return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); }
inline __m128i byte_reverse(__m128i x) { return _mm_shuffle_epi8(x, reverse_mask()); }
inline __m128i load_block(const uint8_t *p) { return byte_reverse(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p))); }

// The reduction constant: x^7 + x^2 + x in the top byte of the high qword (reduce() uses that
// qword alone); the low qword's 1 makes it x^-1 for premultiply().
inline __m128i poly() { return _mm_set_epi64x((long long)0xC200000000000000ull, 1); }

// x * x^-1: x shifted left one bit as a 128-bit integer (each coefficient down one degree);
// the bit shifted out (x^0) comes back as x^-1 = x^127 + x^6 + x + 1, added under a mask.
inline __m128i premultiply(__m128i x)
{
    const __m128i carry = _mm_shuffle_epi32(_mm_srai_epi32(x, 31), 0xff); // all ones when bit 127 is set
    const __m128i shifted = _mm_or_si128(_mm_slli_epi64(x, 1), _mm_slli_si128(_mm_srli_epi64(x, 63), 8));
    return _mm_xor_si128(shifted, _mm_and_si128(carry, poly()));
}

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

// w += a * b (b a stored power: premultiplied).
inline void mul_add(Wide &w, __m128i a, __m128i b)
{
    w.lo = _mm_xor_si128(w.lo, _mm_clmulepi64_si128(a, b, 0x00));
    w.hi = _mm_xor_si128(w.hi, _mm_clmulepi64_si128(a, b, 0x11));
    w.mid = _mm_xor_si128(w.mid, _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01), _mm_clmulepi64_si128(a, b, 0x10)));
}

// The reduced product from its unreduced parts (the header comment has the algebra).
inline __m128i reduce(Wide w)
{
    const __m128i p = poly();
    const __m128i mid = _mm_xor_si128(_mm_xor_si128(w.mid, _mm_shuffle_epi32(w.lo, 0x4e)), _mm_clmulepi64_si128(w.lo, p, 0x10));
    return _mm_xor_si128(_mm_xor_si128(w.hi, _mm_shuffle_epi32(mid, 0x4e)), _mm_clmulepi64_si128(mid, p, 0x10));
}

inline __m128i gf_mul(__m128i a, __m128i b)
{
    Wide w = zero_wide();
    mul_add(w, a, b);
    return reduce(w);
}

// The powers H^n .. H^1 in descending order, each premultiplied (GhashKey::words as n
// __m128i, n <= 32): a run of m <= n blocks X_0 .. X_(m-1) hashes as sum X_i H^(m-i), so it
// meets the last m slots, block i slot n-m+i. (H^k x^-1) * (H x^-1), reduced, is
// H^(k+1) x^-1.
inline void init_powers(__m128i *slots, const uint8_t h[16], int n)
{
    const __m128i h1 = premultiply(load_block(h));
    __m128i p = h1;
    for (int i = n - 1; i >= 0; i--) {
        slots[i] = p;
        p = gf_mul(p, h1);
    }
}

// Hashes nblocks with low = the slots of H^4 .. H^1: four blocks per reduction, then one at
// a time (ghash/pclmul).
inline __m128i update_short(const __m128i *low, __m128i acc, const uint8_t *in, size_t nblocks)
{
    const __m128i h4 = low[0], h3 = low[1], h2 = low[2], h1 = low[3];
    for (; nblocks >= 4; nblocks -= 4, in += 64) {
        Wide w = zero_wide();
        mul_add(w, load_block(in + 16), h3);
        mul_add(w, load_block(in + 32), h2);
        mul_add(w, load_block(in + 48), h1);
        mul_add(w, _mm_xor_si128(acc, load_block(in)), h4);
        acc = reduce(w);
    }
    for (; nblocks > 0; nblocks--, in += 16)
        acc = gf_mul(_mm_xor_si128(acc, load_block(in)), h1);
    return acc;
}

// Keeps GCC from reassociating the XOR chains across this point (it would otherwise compute
// every product of a run before summing any, and spill them) and from hoisting the powers'
// loads out of the loop into registers it does not have (16 ymm). No instruction.
template <class T> inline void keep(T &x) { asm("" : "+v"(x)); }
inline void keep_ptr(const __m128i *&p) { asm("" : "+r"(p)); }

// The unreduced sum of a run, lane by lane, in V's vectors.
template <class V> struct Sums {
    typename V::vec lo, mid, hi;
};

// s += x * p lane by lane (p: V::per stored powers from memory). With V::karatsuba, the
// middle part is the one product (x_lo ^ x_hi)(h_lo ^ h_hi) (p[Run] onwards holds h_lo ^ h_hi
// of each power, init_runs): three multiplications instead of four, and s.mid then sums
// lo ^ mid ^ hi, corrected once per run (run()). Worth it where the multiplier, not the
// shuffle port, is the bottleneck (Zen 3: a ymm VPCLMULQDQ every other cycle).
template <class V, int Run> inline void mul_add(Sums<V> &s, typename V::vec x, const __m128i *p)
{
    const typename V::vec h = V::powers(p);
    s.lo = V::xor3(s.lo, V::template clmul<0x00>(x, h), V::zero());
    s.hi = V::xor3(s.hi, V::template clmul<0x11>(x, h), V::zero());
    if constexpr (V::karatsuba) {
        const typename V::vec xk = V::xor3(x, V::swap_halves(x), V::zero());
        s.mid = V::xor3(s.mid, V::template clmul<0x00>(xk, V::powers(p + Run)), V::zero());
    } else {
        s.mid = V::xor3(s.mid, V::template clmul<0x01>(x, h), V::template clmul<0x10>(x, h));
    }
    keep(s.lo);
    keep(s.mid);
    keep(s.hi);
}

// One run of n blocks (1 <= n <= Run; N = n when known at compile time, else 0) against the
// last n slots ending at slots_end, with one reduction: the blocks beyond the first go first
// (whole vectors, then single blocks), the first block (which carries acc) last, so that only
// its product and the reduction wait for the previous run. The reduction runs on every lane
// of V's vectors at once (it is linear), then the lanes are summed (V::fold).
template <class V, int Run, int N> inline __m128i run(const __m128i *slots_end, __m128i acc, const uint8_t *in, size_t n)
{
    using vec = typename V::vec;
    if (N != 0)
        n = N;
    const __m128i *p = slots_end - n;
    keep_ptr(p);
    Sums<V> s;
    s.lo = s.mid = s.hi = V::zero();
    Wide w = zero_wide(); // single blocks, when n is not a multiple of V::per
    const size_t whole = n / V::per, single = n % V::per;
    for (size_t j = 1; j < whole; j++)
        mul_add<V, Run>(s, V::load(in + 16 * V::per * j), p + V::per * j);
    for (size_t i = n - single; i < n; i++)
        mul_add(w, i == 0 ? _mm_xor_si128(acc, load_block(in)) : load_block(in + 16 * i), p[i]);
    if (whole > 0)
        mul_add<V, Run>(s, V::with_acc(V::load(in), acc), p);
    if constexpr (V::karatsuba)
        s.mid = V::xor3(s.mid, s.lo, s.hi);
    s.lo = V::with_acc(s.lo, w.lo);
    s.mid = V::with_acc(s.mid, w.mid);
    s.hi = V::with_acc(s.hi, w.hi);
    // reduce() on every lane (a vector form of it), then the lanes' sum.
    const vec q = V::broadcast(poly());
    const vec mid = V::xor3(s.mid, V::swap_halves(s.lo), V::template clmul<0x10>(s.lo, q));
    return V::fold(V::xor3(s.hi, V::swap_halves(mid), V::template clmul<0x10>(mid, q)));
}

// GHASH over runs of Run blocks with one reduction per run, then the rest (fewer than Run
// blocks) as one shorter run. V (ymm or zmm operations, the file's own) supplies vec, per,
// karatsuba (mul_add), zero(), load(p) (V::per blocks, byte-reversed), with_acc(x, a) (a XORed into the first
// lane), powers(slots) (V::per slots), broadcast(x), clmul<imm>(a, b), xor3(a, b, c),
// swap_halves(x) (the qwords of each lane swapped) and fold(v) (the XOR of the lanes).
// Slots: the powers H^Run .. H^1 (init_powers with n = Run).
template <class V, int Run> inline __m128i update_runs(const __m128i *slots, __m128i acc, const uint8_t *in, size_t nblocks)
{
    for (; nblocks >= Run; nblocks -= Run, in += 16 * Run)
        acc = run<V, Run, Run>(slots + Run, acc, in, Run);
    if (nblocks > 0)
        acc = run<V, Run, 0>(slots + Run, acc, in, nblocks);
    return acc;
}

// GhashKernel's init and update for a wide implementation: V and Run as update_runs. With
// V::karatsuba, slots Run .. 2 Run - 1 hold h_lo ^ h_hi of each power in both halves.
template <class V, int Run> void init_runs(GhashKey &key, const uint8_t h[16])
{
    static_assert(Run <= 32 && (!V::karatsuba || Run <= 16), "GhashKey holds 32 slots");
    std::memset(&key, 0, sizeof key);
    __m128i *slots = reinterpret_cast<__m128i *>(key.words);
    init_powers(slots, h, Run);
    if constexpr (V::karatsuba)
        for (int i = 0; i < Run; i++)
            slots[Run + i] = _mm_xor_si128(slots[i], _mm_shuffle_epi32(slots[i], 0x4e));
}

template <class V, int Run> void update_runs(const GhashKey &key, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    const __m128i acc = update_runs<V, Run>(reinterpret_cast<const __m128i *>(key.words), load_block(y), in, nblocks);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(y), byte_reverse(acc));
}

} // namespace
} // namespace kc::ghash_x86
