// ARIA for the CTR_DRBG chain (src/kit/fused_ecb.hpp): ECB of the two or three blocks of an
// Update straight from the raw key, everything in xmm registers, with GFNI and AVX-512VL.
// The chain runs one call per request, one after the other, so this is written for latency:
// one block per register in the RFC's byte order, where the byte-sliced kernels transpose 64
// blocks for throughput.
//
// A round is the key XOR, the S-box layer and the diffusion layer A:
//   - the four S-boxes on all 16 bytes are four GF2P8AFFINE(INV)QB chains (the key schedule's
//     maps, aria_x86_key_gfni.cpp), and two levels of masked byte blends keep S-box j mod 4 on
//     byte j;
//   - A is seven byte shuffles XORed together (aria_x86_diffusion.cpp says why), three at a
//     time with VPTERNLOGQ.
// The key schedule is the same round function (FO, FE) three times, and each encryption key
// W_i ^ (W_{i+1} >>> r) is a 128-bit rotation in two 64-bit lanes: written straight through,
// the core starts the blocks' first round as soon as W0 and W1 are known, beside W2 and W3.
//
// Constant-time: no table is read and nothing branches on key or data.
#if defined(__x86_64__)

#include "core/target_region.hpp"
KC_TARGET_PUSH("avx512f,avx512bw,avx512vl,gfni,ssse3")
#include <immintrin.h>

#include "aria/aria.hpp"
#include "aria/aria_x86_byteslice.hpp"

namespace kc {

namespace {

inline __m128i load(const uint8_t *p) { return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)); }

inline __m128i xor3(__m128i a, __m128i b, __m128i c) { return _mm_ternarylogic_epi64(a, b, c, 0x96); }

// Substitution layer 1 (SB1, SB2, SB3, SB4 by byte j mod 4) or 2 (SB3, SB4, SB1, SB2).
template <int LAYER> inline __m128i substitute(__m128i x)
{
    const __m128i id = _mm_set1_epi64x(gf_identity);
    const __m128i s1 = _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x(gf_sb1_post), 0x63);
    const __m128i s2 = _mm_gf2p8affineinv_epi64_epi8(x, _mm_set1_epi64x(gf_sb2_post), 0xe2);
    const __m128i s3 = _mm_gf2p8affineinv_epi64_epi8(_mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x(gf_sb3_pre), 0x05), id, 0);
    const __m128i s4 = _mm_gf2p8affineinv_epi64_epi8(_mm_gf2p8affine_epi64_epi8(x, _mm_set1_epi64x(gf_sb4_pre), 0x2c), id, 0);
    const __mmask16 odd = 0xaaaa, high = 0xcccc; // j mod 4 in {1, 3}; j mod 4 in {2, 3}
    const __m128i p = _mm_mask_blend_epi8(odd, LAYER == 1 ? s1 : s3, LAYER == 1 ? s2 : s4);
    const __m128i q = _mm_mask_blend_epi8(odd, LAYER == 1 ? s3 : s1, LAYER == 1 ? s4 : s2);
    return _mm_mask_blend_epi8(high, p, q);
}

// The diffusion layer A: out[i] = XOR over k of in[perm[k][i]] (aria_x86_diffusion.cpp).
inline __m128i diffuse(__m128i x)
{
    const __m128i a = _mm_shuffle_epi8(x, _mm_setr_epi8(8, 7, 4, 11, 14, 10, 9, 13, 15, 6, 3, 2, 12, 0, 5, 1));
    const __m128i b = _mm_shuffle_epi8(x, _mm_setr_epi8(14, 12, 10, 7, 15, 1, 0, 11, 4, 5, 13, 9, 6, 8, 3, 2));
    const __m128i c = _mm_shuffle_epi8(x, _mm_setr_epi8(3, 5, 11, 10, 0, 15, 7, 1, 13, 14, 8, 12, 2, 6, 9, 4));
    const __m128i d = _mm_shuffle_epi8(x, _mm_setr_epi8(13, 9, 1, 0, 8, 14, 2, 6, 7, 12, 15, 3, 11, 10, 4, 5));
    const __m128i e = _mm_shuffle_epi8(x, _mm_setr_epi8(6, 2, 15, 13, 11, 9, 10, 12, 1, 0, 5, 4, 7, 3, 14, 8));
    const __m128i f = _mm_shuffle_epi8(x, _mm_setr_epi8(4, 15, 12, 5, 2, 3, 13, 8, 0, 1, 6, 14, 9, 7, 11, 10));
    const __m128i g = _mm_shuffle_epi8(x, _mm_setr_epi8(9, 8, 6, 14, 5, 4, 12, 3, 10, 11, 2, 7, 1, 13, 0, 15));
    return xor3(xor3(a, b, c), xor3(d, e, f), g);
}

// FO (layer 1) and FE (layer 2) of RFC 5794 section 2.3.1: A(SL(d ^ k)).
template <int LAYER> inline __m128i round_fn(__m128i d, __m128i k)
{
    return diffuse(substitute<LAYER>(_mm_xor_si128(d, k)));
}

// The RFC's blocks are big-endian 128-bit numbers; as little-endian 64-bit lanes they rotate
// with shifts. Byte reversal both ways.
inline __m128i reverse(__m128i x)
{
    return _mm_shuffle_epi8(x, _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
}

// y ^ (x >>> n) on byte-reversed operands (x as two little-endian lanes: lane 0 the low half).
template <unsigned N> inline __m128i xor_rotated_right(__m128i y_rev, __m128i x_rev)
{
    constexpr unsigned s = N % 64;
    const __m128i swapped = _mm_shuffle_epi32(x_rev, 0x4e);
    const __m128i a = N >= 64 ? swapped : x_rev, b = N >= 64 ? x_rev : swapped;
    const __m128i r = s == 0 ? a : _mm_or_si128(_mm_srli_epi64(a, s), _mm_slli_epi64(b, 64 - s));
    return reverse(_mm_xor_si128(y_rev, r));
}

template <int K> inline __m128i ek(const __m128i *w_rev)
{
    return xor_rotated_right<aria_ek_rotation(K / 4)>(w_rev[K % 4], w_rev[(K + 1) % 4]);
}

// ek(1) .. ek(LAST + 1) into k[0..LAST].
template <int K, int LAST> inline void all_keys(const __m128i *w_rev, __m128i *k)
{
    k[K] = ek<K>(w_rev);
    if constexpr (K < LAST)
        all_keys<K + 1, LAST>(w_rev, k);
}

template <int ROUNDS, int N> void fused(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out)
{
    const size_t key_bytes = cipher_desc(c).key_bytes;
    uint8_t kr_bytes[16] = {0};
    for (size_t i = 16; i < key_bytes; i++)
        kr_bytes[i - 16] = key[i];
    const int ck = aria_first_constant(c);
    __m128i w[4], w_rev[4], k[ROUNDS + 1], x[N];
    w[0] = load(key);
    w[1] = _mm_xor_si128(round_fn<1>(w[0], load(aria_key_constants[ck])), load(kr_bytes));
    w[2] = _mm_xor_si128(round_fn<2>(w[1], load(aria_key_constants[(ck + 1) % 3])), w[0]);
    w[3] = _mm_xor_si128(round_fn<1>(w[2], load(aria_key_constants[(ck + 2) % 3])), w[1]);
    for (int i = 0; i < 4; i++)
        w_rev[i] = reverse(w[i]);
    all_keys<0, ROUNDS>(w_rev, k);
    for (int b = 0; b < N; b++)
        x[b] = load(in + 16 * b);
    // Rounds 1 .. n - 1 alternate FO and FE (n is even, so the last of them is FO); round n
    // is SL2 between the last two keys, without A.
#pragma GCC unroll 16
    for (int r = 0; r < ROUNDS - 2; r += 2)
        for (int b = 0; b < N; b++)
            x[b] = round_fn<2>(round_fn<1>(x[b], k[r]), k[r + 1]);
    for (int b = 0; b < N; b++) {
        const __m128i fo = round_fn<1>(x[b], k[ROUNDS - 2]);
        const __m128i last = _mm_xor_si128(substitute<2>(_mm_xor_si128(fo, k[ROUNDS - 1])), k[ROUNDS]);
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 16 * b), last);
    }
    secure_wipe(kr_bytes, sizeof kr_bytes);
    // The registers' spills, if any, are on this stack frame: wipe the arrays that held keys.
    secure_wipe(w, sizeof w);
    secure_wipe(w_rev, sizeof w_rev);
    secure_wipe(k, sizeof k);
    secure_wipe(x, sizeof x);
}

template <int ROUNDS> void fused_n(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t n)
{
    for (; n >= 3; n -= 3, in += 48, out += 48)
        fused<ROUNDS, 3>(c, key, in, out);
    if (n == 2)
        fused<ROUNDS, 2>(c, key, in, out);
    else if (n == 1)
        fused<ROUNDS, 1>(c, key, in, out);
}

} // namespace

void aria_fused_ecb_gfni(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const int rounds = aria_rounds(c);
    if (rounds == 12)
        fused_n<12>(c, key, in, out, nblocks);
    else if (rounds == 14)
        fused_n<14>(c, key, in, out, nblocks);
    else
        fused_n<16>(c, key, in, out, nblocks);
}

} // namespace kc

KC_TARGET_POP()

#endif // __x86_64__
