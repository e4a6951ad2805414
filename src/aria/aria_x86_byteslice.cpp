// The byte-sliced round-key layout of the aria_x86_* kernels (aria_x86_byteslice.hpp), derived
// from the shared RFC 5794 key schedule, and their supports and set_key entry points. Plain C++, compiled for the baseline: it runs once per
// key, on any machine.
#if defined(__x86_64__)
#include "aria/aria_x86_byteslice.hpp"

#include <emmintrin.h>
#include <tmmintrin.h>

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

// G^-1's linear part by nibble: g_inv_lo[n] = G^-1(n), g_inv_hi[n] = G^-1(n << 4), so that
// G^-1(v) = g_inv_lo[v & 15] ^ g_inv_hi[v >> 4] (it is linear), two PSHUFBs for 16 bytes.
struct GInvNibbles {
    alignas(16) uint8_t lo[16], hi[16];
};

const GInvNibbles &g_inv_nibbles()
{
    static const GInvNibbles t = [] {
        GInvNibbles r{};
        for (int n = 0; n < 16; n++) {
            r.lo[n] = g_linear_inverse((uint8_t)n);
            r.hi[n] = g_linear_inverse((uint8_t)(n << 4));
        }
        return r;
    }();
    return t;
}

// Where the AES-NI form computes SB2 as G(aesenclast(x, r)): byte positions 1 mod 4 in the
// type 1 layer (odd rounds), 3 mod 4 in the type 2 layer (even rounds and the last). Only the
// AES-NI kernels (AVX, so SSSE3) fold keys this way. The key bytes index PSHUFB's in-register
// table, not memory: constant-time, and a tenth of the bit loop's time per key.
__attribute__((target("ssse3"))) void fold_under_g(uint8_t k[16], bool type1_layer)
{
    const GInvNibbles &t = g_inv_nibbles();
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(k));
    const __m128i nib = _mm_set1_epi8(0x0f);
    const __m128i g = _mm_xor_si128(
        _mm_shuffle_epi8(_mm_load_si128(reinterpret_cast<const __m128i *>(t.lo)), _mm_and_si128(x, nib)),
        _mm_shuffle_epi8(_mm_load_si128(reinterpret_cast<const __m128i *>(t.hi)),
                         _mm_and_si128(_mm_srli_epi16(x, 4), nib)));
    const __m128i pick = type1_layer ? _mm_set1_epi32(0x0000ff00) : _mm_set1_epi32(int(0xff000000u));
    const __m128i r = _mm_or_si128(_mm_and_si128(pick, g), _mm_andnot_si128(pick, x));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(k), r);
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
            aria_diffusion_ssse3(k[i], t); // the AES-NI kernels' machines have SSSE3
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

void aria_sliced_set_key(AriaSlicedKeys *ks, Cipher c, const uint8_t *key, AriaKeyFold fold, bool decryption)
{
    AriaRoundKeys rk;
    if (decryption)
        aria_key_schedule(c, key, &rk);
    else
        aria_encryption_key_schedule(c, key, &rk);
    ks->rounds = rk.rounds;
    slice_keys(rk.ek, rk.rounds, fold, ks->enc);
    if (decryption)
        slice_keys(rk.dk, rk.rounds, fold, ks->dec);
    std::memcpy(ks->enc_first, rk.ek[0], 16);
    std::memcpy(ks->enc_last, rk.ek[rk.rounds], 16);
    secure_wipe(&rk, sizeof rk);
}

bool aria_sliced_supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

void aria_sliced_set_key_diffusion(void *state, Cipher c, const uint8_t *key)
{
    aria_sliced_set_key(static_cast<AriaSlicedKeys *>(state), c, key, AriaKeyFold::diffusion);
}

void aria_sliced_set_key_sbox(void *state, Cipher c, const uint8_t *key)
{
    aria_sliced_set_key(static_cast<AriaSlicedKeys *>(state), c, key, AriaKeyFold::sbox);
}

void aria_sliced_set_encrypt_key_diffusion(void *state, Cipher c, const uint8_t *key)
{
    aria_sliced_set_key(static_cast<AriaSlicedKeys *>(state), c, key, AriaKeyFold::diffusion, false);
}

void aria_sliced_set_encrypt_key_sbox(void *state, Cipher c, const uint8_t *key)
{
    aria_sliced_set_key(static_cast<AriaSlicedKeys *>(state), c, key, AriaKeyFold::sbox, false);
}

namespace {

// Every dword entry (a byte in four lanes) of the rounds in use, copied across a 32-byte row.
void widen(AriaSlicedKeysYmm *ky, bool decryption)
{
    const AriaSlicedKeys &ks = ky->s;
    for (int r = 0; r <= ks.rounds; r++)
        for (int j = 0; j < 16; j++) {
            std::memset(ky->enc[r][j], (int)(ks.enc[r][j] & 0xff), 32);
            if (decryption)
                std::memset(ky->dec[r][j], (int)(ks.dec[r][j] & 0xff), 32);
        }
}

void set_key_ymm(void *state, Cipher c, const uint8_t *key, AriaKeyFold fold, bool decryption)
{
    auto *ky = static_cast<AriaSlicedKeysYmm *>(state);
    aria_sliced_set_key(&ky->s, c, key, fold, decryption);
    widen(ky, decryption);
}

} // namespace

void aria_sliced_set_key_diffusion_ymm(void *state, Cipher c, const uint8_t *key)
{
    set_key_ymm(state, c, key, AriaKeyFold::diffusion, true);
}

void aria_sliced_set_key_sbox_ymm(void *state, Cipher c, const uint8_t *key)
{
    set_key_ymm(state, c, key, AriaKeyFold::sbox, true);
}

void aria_sliced_set_encrypt_key_diffusion_ymm(void *state, Cipher c, const uint8_t *key)
{
    set_key_ymm(state, c, key, AriaKeyFold::diffusion, false);
}

void aria_sliced_set_encrypt_key_sbox_ymm(void *state, Cipher c, const uint8_t *key)
{
    set_key_ymm(state, c, key, AriaKeyFold::sbox, false);
}

} // namespace kc

#endif // __x86_64__
