// CHAM for the CTR_DRBG chain (src/kit/fused_ecb.hpp) with AVX-512VL (and VBMI2 for the
// 16-bit words of CHAM-64/128): up to four blocks, one per lane, transposed so that vector j
// holds word j of every block. A round is then five vector operations for all the blocks
// (XOR of the round number, rotation, XOR of the round key, addition, rotation), where the
// scalar form (cham_fused.cpp) spends five per block and runs out of general registers with
// three blocks and sixteen round keys. The round keys are broadcast once into registers.
//
// Constant-time: ARX only, as cham/ref.
#if defined(__x86_64__)

#include "core/target_region.hpp"
KC_TARGET_PUSH("avx512f,avx512vl,avx512bw,avx512vbmi2")
#include <immintrin.h>

#include "cham/cham.hpp"
#include "cham/cham_key_step.hpp"
#include "core/wipe.hpp"

namespace kc {

namespace {

using cham_word::load_le;

// Word operations on 16-bit (CHAM-64/128) or 32-bit lanes.
template <typename W> struct Lanes;
template <> struct Lanes<uint16_t> {
    static __m128i set1(uint32_t v) { return _mm_set1_epi16((short)v); }
    static __m128i add(__m128i a, __m128i b) { return _mm_add_epi16(a, b); }
    template <int R> static __m128i rol(__m128i a) { return _mm_shldi_epi16(a, a, R); }
    // Blocks of 8 bytes: a holds blocks 0 and 1, b blocks 2 and 3; x[j] gets word j of each
    // block in lanes 0..3 (the lanes above are don't-care).
    static void transpose_in(__m128i a, __m128i b, __m128i *x)
    {
        const __m128i t0 = _mm_unpacklo_epi16(a, b), t1 = _mm_unpackhi_epi16(a, b);
        const __m128i u0 = _mm_unpacklo_epi16(t0, t1), u1 = _mm_unpackhi_epi16(t0, t1);
        x[0] = u0, x[1] = _mm_srli_si128(u0, 8), x[2] = u1, x[3] = _mm_srli_si128(u1, 8);
    }
    static void transpose_out(const __m128i *x, __m128i *a, __m128i *b)
    {
        const __m128i p = _mm_unpacklo_epi16(x[0], x[1]), q = _mm_unpacklo_epi16(x[2], x[3]);
        *a = _mm_unpacklo_epi32(p, q), *b = _mm_unpackhi_epi32(p, q);
    }
};
template <> struct Lanes<uint32_t> {
    static __m128i set1(uint32_t v) { return _mm_set1_epi32((int)v); }
    static __m128i add(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
    template <int R> static __m128i rol(__m128i a) { return _mm_rol_epi32(a, R); }
    // The 4x4 transpose of 32-bit words (its own inverse).
    static void transpose(const __m128i *in, __m128i *out)
    {
        const __m128i t0 = _mm_unpacklo_epi32(in[0], in[1]), t1 = _mm_unpacklo_epi32(in[2], in[3]);
        const __m128i t2 = _mm_unpackhi_epi32(in[0], in[1]), t3 = _mm_unpackhi_epi32(in[2], in[3]);
        out[0] = _mm_unpacklo_epi64(t0, t1), out[1] = _mm_unpackhi_epi64(t0, t1);
        out[2] = _mm_unpacklo_epi64(t2, t3), out[3] = _mm_unpackhi_epi64(t2, t3);
    }
};

template <typename W, int KW, int ROUNDS> void rounds(const uint8_t *key, __m128i *x)
{
    using L = Lanes<W>;
    constexpr int nrk = 2 * KW;
    __m128i rk[nrk];
    for (int i = 0; i < KW; i++) {
        const W k = load_le<W>(key + sizeof(W) * i);
        rk[i] = L::set1(cham_key::rk_first<W>(k));
        rk[cham_key::second_index(i, KW)] = L::set1(cham_key::rk_second<W>(k));
    }
    // Round i writes word i mod 4 (cham_fused.cpp); ROUNDS is a multiple of 4.
#pragma GCC unroll 128
    for (int i = 0; i < ROUNDS; i += 2) {
        __m128i &a = x[i & 3], &b = x[(i + 1) & 3], &c = x[(i + 2) & 3];
        a = L::template rol<8>(L::add(_mm_xor_si128(a, L::set1(i)), _mm_xor_si128(L::template rol<1>(b), rk[i & (nrk - 1)])));
        b = L::template rol<1>(L::add(_mm_xor_si128(b, L::set1(i + 1)), _mm_xor_si128(L::template rol<8>(c), rk[(i + 1) & (nrk - 1)])));
    }
    secure_wipe(rk, sizeof rk);
}

template <int KW, int ROUNDS> void fused32(const uint8_t *key, const uint8_t *in, uint8_t *out, size_t n)
{
    __m128i blocks[4], x[4];
    for (size_t b = 0; b < 4; b++)
        blocks[b] = b < n ? _mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 16 * b)) : _mm_setzero_si128();
    Lanes<uint32_t>::transpose(blocks, x);
    rounds<uint32_t, KW, ROUNDS>(key, x);
    Lanes<uint32_t>::transpose(x, blocks);
    for (size_t b = 0; b < n; b++)
        _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 16 * b), blocks[b]);
    secure_wipe(blocks, sizeof blocks);
    secure_wipe(x, sizeof x);
}

void fused16(const uint8_t *key, const uint8_t *in, uint8_t *out, size_t n)
{
    const __mmask16 lo = (__mmask16)(n >= 2 ? 0xffff : n == 1 ? 0xff : 0);
    const __mmask16 hi = (__mmask16)(n >= 4 ? 0xffff : n == 3 ? 0xff : 0);
    __m128i a = _mm_maskz_loadu_epi8(lo, in), b = _mm_maskz_loadu_epi8(hi, in + 16), x[4];
    Lanes<uint16_t>::transpose_in(a, b, x);
    rounds<uint16_t, 8, 88>(key, x);
    Lanes<uint16_t>::transpose_out(x, &a, &b);
    _mm_mask_storeu_epi8(out, lo, a);
    _mm_mask_storeu_epi8(out + 16, hi, b);
    secure_wipe(x, sizeof x);
}

} // namespace

void cham_fused_ecb_avx512(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const size_t bb = cipher_desc(c).block_bytes;
    for (size_t done = 0; done < nblocks; done += 4) {
        const size_t n = nblocks - done < 4 ? nblocks - done : 4;
        if (c == Cipher::cham64_128)
            fused16(key, in + bb * done, out + bb * done, n);
        else if (c == Cipher::cham128_128)
            fused32<4, 112>(key, in + bb * done, out + bb * done, n);
        else
            fused32<8, 120>(key, in + bb * done, out + bb * done, n);
    }
}

} // namespace kc

KC_TARGET_POP()

#endif // __x86_64__
