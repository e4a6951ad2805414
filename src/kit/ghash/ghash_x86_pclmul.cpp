// ghash/pclmul: GHASH with PCLMULQDQ (any x86-64 since Westmere).
//
// Technique (Intel's carry-less multiplication white paper, Gueron and Kounavis). Each block
// is byte-reversed into a 128-bit integer (ghash.hpp's representation); a product is four
// PCLMULQDQ of 64-bit halves, shifted left one bit and reduced modulo
// x^128 + x^7 + x^2 + x + 1 with shifts and XORs. Four blocks share one reduction
// ("aggregated reduction"): Y' = (Y ^ X1) H^4 ^ X2 H^3 ^ X3 H^2 ^ X4 H, the sixteen products
// summed unreduced, since the shift and the reduction are linear. The powers of H are made
// once per key.
//
// Constant-time: PCLMULQDQ's latency does not depend on its operands on any x86 core, and
// everything else is shifts, shuffles and XORs at fixed addresses.
#if defined(__x86_64__)
#include <immintrin.h>

#include <cstring>

#include "core/features.hpp"
#include "kit/ghash/ghash.hpp"

#pragma GCC push_options
#pragma GCC target("pclmul,ssse3")

namespace kc {
namespace {

inline __m128i byte_reverse(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

inline __m128i load_block(const uint8_t *p) { return byte_reverse(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p))); }

// An unreduced 256-bit product, kept as its low, middle and high 128-bit parts.
struct Wide {
    __m128i lo = _mm_setzero_si128(), mid = _mm_setzero_si128(), hi = _mm_setzero_si128();
};

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
    Wide w;
    mul_add(w, a, b);
    return reduce(w);
}

// key.words: H^1 .. H^4, two words each, as __m128i.
inline __m128i power(const GhashKey &k, int i) { return _mm_load_si128(reinterpret_cast<const __m128i *>(k.words) + i - 1); }

void init(GhashKey &key, const uint8_t h[16])
{
    std::memset(&key, 0, sizeof key);
    __m128i *p = reinterpret_cast<__m128i *>(key.words);
    const __m128i h1 = load_block(h);
    p[0] = h1;
    for (int i = 1; i < 4; i++)
        p[i] = gf_mul(p[i - 1], h1);
}

void update(const GhashKey &key, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    __m128i acc = load_block(y);
    const __m128i h1 = power(key, 1), h2 = power(key, 2), h3 = power(key, 3), h4 = power(key, 4);
    for (; nblocks >= 4; nblocks -= 4, in += 64) {
        Wide w;
        mul_add(w, _mm_xor_si128(acc, load_block(in)), h4);
        mul_add(w, load_block(in + 16), h3);
        mul_add(w, load_block(in + 32), h2);
        mul_add(w, load_block(in + 48), h1);
        acc = reduce(w);
    }
    for (; nblocks > 0; nblocks--, in += 16)
        acc = gf_mul(_mm_xor_si128(acc, load_block(in)), h1);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(y), byte_reverse(acc));
}

} // namespace
} // namespace kc

#pragma GCC pop_options

namespace kc {
// Descriptor: needs PCLMULQDQ and SSSE3 (the byte reversal); constant-time; rank 10.
extern const GhashKernel ghash_pclmul_kernel = {"ghash/pclmul", feat_pclmul | feat_ssse3, 10, true,
                                                init, update};
} // namespace kc
#endif
