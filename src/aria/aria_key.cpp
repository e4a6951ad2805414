// The ARIA key schedule, RFC 5794 section 2.2.1, shared by every ARIA kernel.
//
// Constant-time, because the constant-time kernels (byte-sliced GFNI/AES-NI) take their
// round keys from it: the three FO/FE calls of W1..W3 take their S-boxes from GFNI where the
// CPU has it (aria_x86_key_gfni.cpp), else read each S-box entry by scanning the whole table
// with a mask (256 reads per byte, the same addresses whatever the key: about 12k reads, a few
// microseconds); the rest is XORs and fixed rotations.
#include <atomic>
#include <cstring>

#include "aria/aria.hpp"
#include "core/wipe.hpp"

namespace kc {

// Section 2.2.1: the 128-bit constants C1, C2, C3 (the fractional part of 1/pi).
const uint8_t aria_key_constants[3][16] = {
    {0x51, 0x7c, 0xc1, 0xb7, 0x27, 0x22, 0x0a, 0x94, 0xfe, 0x13, 0xab, 0xe8, 0xfa, 0x9a, 0x6e,
     0xe0},
    {0x6d, 0xb1, 0x4a, 0xcc, 0x9e, 0x21, 0xc8, 0x20, 0xff, 0x28, 0xb1, 0xd5, 0xef, 0x5d, 0xe2,
     0xb0},
    {0xdb, 0x92, 0x37, 0x1d, 0x21, 0x26, 0xe9, 0x70, 0x03, 0x24, 0x97, 0x75, 0x04, 0xe8, 0xc9,
     0x0e},
};

// Section 2.2.1: CK1, CK2, CK3 are C1, C2, C3 rotated by the key size: (C1, C2, C3) for
// 128-bit keys, (C2, C3, C1) for 192 and (C3, C1, C2) for 256. Returns the index of CK1.
int aria_first_constant(Cipher c)
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

namespace {

using Block = uint8_t[16];

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

// y ^ (x >>> n) on 128-bit values written as 16 big-endian bytes (the RFC's notation, section
// 2.1). A left rotation by n is a right rotation by 128 - n. The XOR is done on the 64-bit
// halves before they are stored: storing the rotation as two halves and reloading it as one
// block stalls store forwarding, which cost a third of the whole key schedule.
void xor_rotated_right(const uint8_t y[16], const uint8_t x[16], unsigned n, uint8_t out[16])
{
    const uint64_t y_hi = load_be64(y), y_lo = load_be64(y + 8);
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
    store_be64(out, y_hi ^ hi);
    store_be64(out + 8, y_lo ^ lo);
}

// S[x] without an address that depends on x: every entry is read, the one wanted is kept by
// a mask computed without a branch ((d - 1) >> 8 is all ones only for d == 0).
uint8_t sbox_scan(const uint8_t sbox[256], uint8_t x)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t d = i ^ x;
        r |= sbox[i] & ((d - 1) >> 8);
    }
    return (uint8_t)r;
}

// GFNI is used when the registry has enabled it (the ARIA module's option, on machines with
// GFNI) and no test has turned it off.
std::atomic<bool> gfni_enabled{false}, gfni_allowed{true};

bool use_gfni()
{
#if defined(__x86_64__)
    return gfni_enabled.load(std::memory_order_relaxed) && gfni_allowed.load(std::memory_order_relaxed);
#else
    return false;
#endif
}

// FO and FE of section 2.3.1 for the key schedule: A(SL(D ^ RK)) with the S-boxes computed by
// GFNI or scanned. Layer 1 uses (SB1, SB2, SB3, SB4) by byte position mod 4, layer 2
// (SB3, SB4, SB1, SB2).
void key_round(const uint8_t d[16], const uint8_t rk[16], int layer, uint8_t out[16])
{
    const uint8_t *const boxes[2][4] = {{aria_sb1, aria_sb2, aria_sb3, aria_sb4},
                                        {aria_sb3, aria_sb4, aria_sb1, aria_sb2}};
    uint8_t t[16];
    for (int i = 0; i < 16; i++)
        t[i] = (uint8_t)(d[i] ^ rk[i]);
    if (use_gfni()) {
        aria_key_layer_gfni(t, layer, t);
        aria_diffusion_ssse3(t, out);
    } else {
        for (int i = 0; i < 16; i++)
            t[i] = sbox_scan(boxes[layer - 1][i % 4], t[i]);
        aria_diffusion(t, out); // XORs only
    }
    secure_wipe(t, sizeof t);
}

// Section 2.2.1: KL || KR = MK || 0...0, then
//   W0 = KL, W1 = FO(W0, CK1) ^ KR, W2 = FE(W1, CK2) ^ W0, W3 = FO(W2, CK3) ^ W1.
void initial_words(Cipher c, const uint8_t *key, Block w[4])
{
    const size_t key_bytes = cipher_desc(c).key_bytes;
    Block kr = {0};
    std::memcpy(kr, key + 16, key_bytes - 16);
    const int ck = aria_first_constant(c);
    Block t;

    std::memcpy(w[0], key, 16);
    key_round(w[0], aria_key_constants[ck], 1, t); // FO
    xor_block(t, kr, w[1]);
    key_round(w[1], aria_key_constants[(ck + 1) % 3], 2, t); // FE
    xor_block(t, w[0], w[2]);
    key_round(w[2], aria_key_constants[(ck + 2) % 3], 1, t); // FO
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
    for (int k = 0; k <= rk->rounds; k++)
        xor_rotated_right(w[k % 4], w[(k + 1) % 4], aria_ek_rotation(k / 4), rk->ek[k]);
}

// Section 2.2.1: the decryption round keys are the encryption keys in reverse order, each but
// the first and the last passed through the diffusion layer A:
//   dk1 = ek(n+1), dk(i) = A(ek(n+2-i)) for 1 < i < n+1, dk(n+1) = ek1.
// (Running the rounds backwards moves each key addition across A, which is linear and its
// own inverse, so the key k becomes A(k).)
void decryption_keys(AriaRoundKeys *rk)
{
    const int n = rk->rounds;
    const bool simd = use_gfni();
    std::memcpy(rk->dk[0], rk->ek[n], 16);
    for (int i = 1; i < n; i++) {
        if (simd)
            aria_diffusion_ssse3(rk->ek[n - i], rk->dk[i]);
        else
            aria_diffusion(rk->ek[n - i], rk->dk[i]);
    }
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

void aria_key_schedule_allow_gfni(bool allow) { gfni_allowed.store(allow, std::memory_order_relaxed); }

void aria_key_schedule_enable_gfni() { gfni_enabled.store(true, std::memory_order_relaxed); }

bool aria_key_schedule_uses_gfni() { return use_gfni(); }

void aria_key_schedule(Cipher c, const uint8_t *key, AriaRoundKeys *rk)
{
    aria_encryption_key_schedule(c, key, rk);
    decryption_keys(rk);
}

void aria_encryption_key_schedule(Cipher c, const uint8_t *key, AriaRoundKeys *rk)
{
    std::memset(rk, 0, sizeof *rk);
    rk->rounds = aria_rounds(c);
    Block w[4];
    initial_words(c, key, w);
    encryption_keys(w, rk);
    secure_wipe(w, sizeof w);
}

} // namespace kc
