// The ARIA key schedule, RFC 5794 section 2.2.1, shared by every ARIA kernel.
//
// It runs once per key, byte by byte through the reference round functions FO and FE, so it
// is not constant-time (S-box lookups indexed by key bytes); the cost of a key schedule is
// negligible next to the data it then encrypts, and a constant-time kernel that needs
// constant-time key setup must do its own (none does yet).
#include <cstring>

#include "aria/aria.hpp"
#include "core/wipe.hpp"

namespace kc {
namespace {

using Block = uint8_t[16];

// Section 2.2.1: the 128-bit constants C1, C2, C3 (the fractional part of 1/pi).
const uint8_t key_constants[3][16] = {
    {0x51, 0x7c, 0xc1, 0xb7, 0x27, 0x22, 0x0a, 0x94, 0xfe, 0x13, 0xab, 0xe8, 0xfa, 0x9a, 0x6e,
     0xe0},
    {0x6d, 0xb1, 0x4a, 0xcc, 0x9e, 0x21, 0xc8, 0x20, 0xff, 0x28, 0xb1, 0xd5, 0xef, 0x5d, 0xe2,
     0xb0},
    {0xdb, 0x92, 0x37, 0x1d, 0x21, 0x26, 0xe9, 0x70, 0x03, 0x24, 0x97, 0x75, 0x04, 0xe8, 0xc9,
     0x0e},
};

// Section 2.2.1: CK1, CK2, CK3 are C1, C2, C3 rotated by the key size: (C1, C2, C3) for
// 128-bit keys, (C2, C3, C1) for 192 and (C3, C1, C2) for 256. Returns the index of CK1.
int first_constant(Cipher c)
{
    switch (c) {
    case Cipher::aria192:
        return 1;
    case Cipher::aria256:
        return 2;
    default:
        return 0;
    }
}

void xor_block(const uint8_t a[16], const uint8_t b[16], uint8_t out[16])
{
    for (int i = 0; i < 16; i++)
        out[i] = a[i] ^ b[i];
}

uint64_t load_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

void store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

// x >>> n on a 128-bit value written as 16 big-endian bytes (the RFC's notation, section 2.1).
// A left rotation by n is a right rotation by 128 - n.
void rotate_right(const uint8_t x[16], unsigned n, uint8_t out[16])
{
    uint64_t hi = load_be64(x), lo = load_be64(x + 8);
    n %= 128;
    if (n >= 64) {
        uint64_t t = hi;
        hi = lo;
        lo = t;
        n -= 64;
    }
    if (n != 0) {
        uint64_t h = (hi >> n) | (lo << (64 - n));
        uint64_t l = (lo >> n) | (hi << (64 - n));
        hi = h;
        lo = l;
    }
    store_be64(out, hi);
    store_be64(out + 8, lo);
}

// Section 2.2.1: KL || KR = MK || 0...0, then
//   W0 = KL, W1 = FO(W0, CK1) ^ KR, W2 = FE(W1, CK2) ^ W0, W3 = FO(W2, CK3) ^ W1.
void initial_words(Cipher c, const uint8_t *key, Block w[4])
{
    const size_t key_bytes = cipher_desc(c).key_bytes;
    Block kr = {0};
    std::memcpy(kr, key + 16, key_bytes - 16);
    const int ck = first_constant(c);
    Block t;

    std::memcpy(w[0], key, 16);
    aria_fo(w[0], key_constants[ck], t);
    xor_block(t, kr, w[1]);
    aria_fe(w[1], key_constants[(ck + 1) % 3], t);
    xor_block(t, w[0], w[2]);
    aria_fo(w[2], key_constants[(ck + 2) % 3], t);
    xor_block(t, w[1], w[3]);
    secure_wipe(kr, sizeof kr);
    secure_wipe(t, sizeof t);
}

// Section 2.2.1: the encryption round keys come in groups of four,
//   ek(4g+1) = W0 ^ (W1 >>> r), ek(4g+2) = W1 ^ (W2 >>> r),
//   ek(4g+3) = W2 ^ (W3 >>> r), ek(4g+4) = (W0 >>> r) ^ W3,
// with r = 19, 31, then left rotations by 61, 31 and 19 (= right by 67, 97, 109); ek17 is the
// first key of a fifth group. So ek(k+1) = W(k mod 4) ^ (W((k+1) mod 4) >>> r(k / 4)).
void encryption_keys(const Block w[4], AriaRoundKeys *rk)
{
    static const unsigned right_rotation[5] = {19, 31, 128 - 61, 128 - 31, 128 - 19};
    Block t;
    for (int k = 0; k <= rk->rounds; k++) {
        rotate_right(w[(k + 1) % 4], right_rotation[k / 4], t);
        xor_block(w[k % 4], t, rk->ek[k]);
    }
    secure_wipe(t, sizeof t);
}

// Section 2.2.1: the decryption round keys are the encryption keys in reverse order, each but
// the first and the last passed through the diffusion layer A:
//   dk1 = ek(n+1), dk(i) = A(ek(n+2-i)) for 1 < i < n+1, dk(n+1) = ek1.
// (Running the rounds backwards moves each key addition across A, which is linear and its
// own inverse, so the key k becomes A(k).)
void decryption_keys(AriaRoundKeys *rk)
{
    const int n = rk->rounds;
    std::memcpy(rk->dk[0], rk->ek[n], 16);
    for (int i = 1; i < n; i++)
        aria_diffusion(rk->ek[n - i], rk->dk[i]);
    std::memcpy(rk->dk[n], rk->ek[0], 16);
}

} // namespace

int aria_rounds(Cipher c)
{
    switch (c) {
    case Cipher::aria192:
        return 14;
    case Cipher::aria256:
        return 16;
    default:
        return 12;
    }
}

void aria_key_schedule(Cipher c, const uint8_t *key, AriaRoundKeys *rk)
{
    std::memset(rk, 0, sizeof *rk);
    rk->rounds = aria_rounds(c);
    Block w[4];
    initial_words(c, key, w);
    encryption_keys(w, rk);
    decryption_keys(rk);
    secure_wipe(w, sizeof w);
}

} // namespace kc
