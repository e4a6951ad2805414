// The byte-sliced round-key layout of the aria_x86_* kernels (aria_x86_byteslice.hpp), derived
// from the shared RFC 5794 key schedule. Plain C++, compiled for the baseline: it runs once per
// key, on any machine.
#if defined(__x86_64__)
#include "aria/aria_x86_byteslice.hpp"

#include <emmintrin.h>

#include <cstring>

#include "core/wipe.hpp"

namespace kc {
namespace {

using Block = uint8_t[16];

// The linear part of G^-1, G being the affine map with SB2 = G o SB1 that the AES-NI kernels
// apply after aesenclast (G(y) = SB2(SB3(y)), so G^-1 = SB1 o SB4, whose linear part maps bit
// i to column i below). Bitwise, so no lookup is indexed by the key byte.
uint8_t g_linear_inverse(uint8_t v)
{
    static const uint8_t column[8] = {0x41, 0xea, 0x13, 0x57, 0xb6, 0x08, 0xd6, 0x53};
    uint8_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= column[i] & (uint8_t)(0u - ((v >> i) & 1u));
    return r;
}

// out[j] = k[j] in each byte of a dword, by unpacking the block with itself twice (SSE2, the
// x86-64 baseline): a byte-by-byte multiply loop was a third of the rekey time of the
// byte-sliced kernels, which CTR_DRBG pays on every request.
void replicate(const uint8_t k[16], uint32_t out[16])
{
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(k));
    const __m128i lo = _mm_unpacklo_epi8(x, x), hi = _mm_unpackhi_epi8(x, x);
    __m128i *o = reinterpret_cast<__m128i *>(out);
    _mm_storeu_si128(o, _mm_unpacklo_epi16(lo, lo));
    _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(lo, lo));
    _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(hi, hi));
    _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(hi, hi));
}

// Where the AES-NI form computes SB2 as G(aesenclast(x, r)): byte positions 1 mod 4 in the
// type 1 layer (odd rounds), 3 mod 4 in the type 2 layer (even rounds and the last).
void fold_under_g(uint8_t k[16], bool type1_layer)
{
    for (int j = type1_layer ? 1 : 3; j < 16; j += 4)
        k[j] = g_linear_inverse(k[j]);
}

// One key sequence (encryption or decryption keys k[0..n]) in the layout of `fold`.
void slice_keys(const uint8_t (*k)[16], int n, AriaKeyFold fold, uint32_t (*out)[16])
{
    Block t;
    replicate(k[0], out[0]);
    for (int i = 1; i < n; i++) {
        if (fold == AriaKeyFold::diffusion) {
            replicate(k[i], out[i]);
        } else {
            aria_diffusion(k[i], t);
            fold_under_g(t, i % 2 == 1);
            replicate(t, out[i]);
        }
    }
    std::memcpy(t, k[n], 16);
    if (fold == AriaKeyFold::sbox)
        fold_under_g(t, false);
    replicate(t, out[n]);
    secure_wipe(t, sizeof t);
}

} // namespace

void aria_sliced_set_key(AriaSlicedKeys *ks, Cipher c, const uint8_t *key, AriaKeyFold fold)
{
    AriaRoundKeys rk;
    aria_key_schedule(c, key, &rk);
    ks->rounds = rk.rounds;
    slice_keys(rk.ek, rk.rounds, fold, ks->enc);
    slice_keys(rk.dk, rk.rounds, fold, ks->dec);
    std::memcpy(ks->enc_first, rk.ek[0], 16);
    std::memcpy(ks->enc_last, rk.ek[rk.rounds], 16);
    secure_wipe(&rk, sizeof rk);
}

} // namespace kc

#endif // __x86_64__
