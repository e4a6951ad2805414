// aria/ref: ARIA exactly as RFC 5794 writes it, byte by byte, one block at a time. It is the
// oracle that every other ARIA kernel must match bit for bit, so it favours following the
// RFC's text over speed.
//
// Not constant-time: the substitution layers look the S-boxes up with secret bytes (key XOR
// data) as indexes, so which cache lines are touched depends on secrets.
#include <cstring>

#include "aria/aria.hpp"
#include "core/ctr_via_ecb.hpp"
#include "core/kernel.hpp"

namespace kc {
namespace {

// Section 2.3.2: the type 1 layer applies SB1, SB2, SB3, SB4 to bytes 0..3 and repeats the
// pattern; type 2 applies SB3, SB4, SB1, SB2. Since SB3 = SB1^-1 and SB4 = SB2^-1, SL2 is the
// inverse of SL1.
void substitution_layer1(const uint8_t x[16], uint8_t y[16])
{
    static const uint8_t *const sbox[4] = {aria_sb1, aria_sb2, aria_sb3, aria_sb4};
    for (int i = 0; i < 16; i++)
        y[i] = sbox[i % 4][x[i]];
}

void substitution_layer2(const uint8_t x[16], uint8_t y[16])
{
    static const uint8_t *const sbox[4] = {aria_sb3, aria_sb4, aria_sb1, aria_sb2};
    for (int i = 0; i < 16; i++)
        y[i] = sbox[i % 4][x[i]];
}

void xor_block(const uint8_t a[16], const uint8_t b[16], uint8_t out[16])
{
    for (int i = 0; i < 16; i++)
        out[i] = a[i] ^ b[i];
}

// Section 2.2.2.1, for n = 12, 14 or 16 rounds and round keys k1..k(n+1):
//   P1 = FO(P, k1), P2 = FE(P1, k2), ..., P(n-1) = FO(P(n-2), k(n-1)),
//   C = SL2(P(n-1) ^ kn) ^ k(n+1).
// Section 2.2.2.2: decryption is the same process with the decryption round keys.
void crypt_block(const uint8_t (*keys)[16], int rounds, const uint8_t in[16], uint8_t out[16])
{
    uint8_t p[16], t[16];
    std::memcpy(p, in, 16);
    for (int i = 1; i <= rounds - 1; i++) {
        if (i % 2 == 1)
            aria_fo(p, keys[i - 1], p);
        else
            aria_fe(p, keys[i - 1], p);
    }
    xor_block(p, keys[rounds - 1], t);
    substitution_layer2(t, p);
    xor_block(p, keys[rounds], out);
}

bool supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

void set_key(void *state, Cipher c, const uint8_t *key)
{
    aria_key_schedule(c, key, static_cast<AriaRoundKeys *>(state));
}

void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const auto *rk = static_cast<const AriaRoundKeys *>(state);
    for (size_t b = 0; b < nblocks; b++)
        crypt_block(rk->ek, rk->rounds, in + 16 * b, out + 16 * b);
}

void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const auto *rk = static_cast<const AriaRoundKeys *>(state);
    for (size_t b = 0; b < nblocks; b++)
        crypt_block(rk->dk, rk->rounds, in + 16 * b, out + 16 * b);
}

void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                    size_t nblocks)
{
    ctr_xor_via_ecb(encrypt_blocks, 16, state, ctr, in, out, nblocks);
}

} // namespace

// Section 2.3.3: the diffusion layer A, an involution on 16 bytes, as the RFC writes it.
void aria_diffusion(const uint8_t x[16], uint8_t y[16])
{
    uint8_t t[16];
    t[0] = x[3] ^ x[4] ^ x[6] ^ x[8] ^ x[9] ^ x[13] ^ x[14];
    t[1] = x[2] ^ x[5] ^ x[7] ^ x[8] ^ x[9] ^ x[12] ^ x[15];
    t[2] = x[1] ^ x[4] ^ x[6] ^ x[10] ^ x[11] ^ x[12] ^ x[15];
    t[3] = x[0] ^ x[5] ^ x[7] ^ x[10] ^ x[11] ^ x[13] ^ x[14];
    t[4] = x[0] ^ x[2] ^ x[5] ^ x[8] ^ x[11] ^ x[14] ^ x[15];
    t[5] = x[1] ^ x[3] ^ x[4] ^ x[9] ^ x[10] ^ x[14] ^ x[15];
    t[6] = x[0] ^ x[2] ^ x[7] ^ x[9] ^ x[10] ^ x[12] ^ x[13];
    t[7] = x[1] ^ x[3] ^ x[6] ^ x[8] ^ x[11] ^ x[12] ^ x[13];
    t[8] = x[0] ^ x[1] ^ x[4] ^ x[7] ^ x[10] ^ x[13] ^ x[15];
    t[9] = x[0] ^ x[1] ^ x[5] ^ x[6] ^ x[11] ^ x[12] ^ x[14];
    t[10] = x[2] ^ x[3] ^ x[5] ^ x[6] ^ x[8] ^ x[13] ^ x[15];
    t[11] = x[2] ^ x[3] ^ x[4] ^ x[7] ^ x[9] ^ x[12] ^ x[14];
    t[12] = x[1] ^ x[2] ^ x[6] ^ x[7] ^ x[9] ^ x[11] ^ x[12];
    t[13] = x[0] ^ x[3] ^ x[6] ^ x[7] ^ x[8] ^ x[10] ^ x[13];
    t[14] = x[0] ^ x[3] ^ x[4] ^ x[5] ^ x[9] ^ x[11] ^ x[14];
    t[15] = x[1] ^ x[2] ^ x[4] ^ x[5] ^ x[8] ^ x[10] ^ x[15];
    std::memcpy(y, t, 16);
}

// Section 2.3.1: the odd round function FO(D, RK) = A(SL1(D ^ RK)).
void aria_fo(const uint8_t d[16], const uint8_t rk[16], uint8_t out[16])
{
    uint8_t t[16];
    xor_block(d, rk, t);
    substitution_layer1(t, t);
    aria_diffusion(t, out);
}

// Section 2.3.1: the even round function FE(D, RK) = A(SL2(D ^ RK)).
void aria_fe(const uint8_t d[16], const uint8_t rk[16], uint8_t out[16])
{
    uint8_t t[16];
    xor_block(d, rk, t);
    substitution_layer2(t, t);
    aria_diffusion(t, out);
}

// Descriptor: constant_time: S-box lookups indexed by secret bytes; requires: portable C++; rank:
// the oracle, picked only when nothing faster runs.
extern const Kernel aria_ref_kernel = {
    "aria/ref", "aria", 16, 1, false, 0, 0, sizeof(AriaRoundKeys),
    supports, set_key, encrypt_blocks, decrypt_blocks, ctr_xor_blocks};

} // namespace kc
