// seed/ref: the reference SEED-128 kernel, one block at a time, written as RFC 4269 section 2
// writes it: the G function from the two S-boxes and the four masks, the F function of three
// G layers and modular additions, sixteen Feistel rounds, and the key schedule with the KC
// constants. It is the oracle every other SEED kernel is tested against.
//
// NOT constant-time: G looks up S1 and S2 (seed.hpp) at indexes that are bytes of the
// key-dependent round state, so the memory addresses it touches depend on secrets (cache
// timing). The descriptor says so, and tests/CMakeLists.txt has valgrind catch it.
#include "seed/seed.hpp"

#include "core/bytes.hpp"
#include "core/kernel.hpp"
#include "kit/block_loop.hpp"

namespace kc {

namespace {

using seed_spec::masks;
using seed_spec::s1;
using seed_spec::s2;

// G (RFC 4269 section 2.2): X = X3 || X2 || X1 || X0 (X0 the least significant byte),
// Y_j = S1(X_j) for even j and S2(X_j) for odd j, then
//   Z0 = (Y0 & m0) ^ (Y1 & m1) ^ (Y2 & m2) ^ (Y3 & m3)
//   Z1 = (Y0 & m1) ^ (Y1 & m2) ^ (Y2 & m3) ^ (Y3 & m0)
//   Z2 = (Y0 & m2) ^ (Y1 & m3) ^ (Y2 & m0) ^ (Y3 & m1)
//   Z3 = (Y0 & m3) ^ (Y1 & m0) ^ (Y2 & m1) ^ (Y3 & m2)
// and G(X) = Z3 || Z2 || Z1 || Z0.
uint32_t g_function(uint32_t x)
{
    const uint8_t y0 = s1[x & 0xff], y1 = s2[(x >> 8) & 0xff], y2 = s1[(x >> 16) & 0xff], y3 = s2[x >> 24];
    const uint8_t m0 = masks[0], m1 = masks[1], m2 = masks[2], m3 = masks[3];
    const uint32_t z0 = (y0 & m0) ^ (y1 & m1) ^ (y2 & m2) ^ (y3 & m3);
    const uint32_t z1 = (y0 & m1) ^ (y1 & m2) ^ (y2 & m3) ^ (y3 & m0);
    const uint32_t z2 = (y0 & m2) ^ (y1 & m3) ^ (y2 & m0) ^ (y3 & m1);
    const uint32_t z3 = (y0 & m3) ^ (y1 & m0) ^ (y2 & m1) ^ (y3 & m2);
    return (z3 << 24) | (z2 << 16) | (z1 << 8) | z0;
}

// F (RFC 4269 section 2.1) on the 64-bit half C || D with round key K_i = (K_{i,0}, K_{i,1}),
// all additions mod 2^32:
//   c = C ^ K_{i,0}, d = D ^ K_{i,1}
//   t = G(c ^ d), u = G(t + c), D' = G(u + t), C' = D' + u
// (the RFC's nested form C' = G[G[G{c^d} + c] + G{c^d}] + G[G{c^d} + c], D' = G[G[G{c^d} +
// c] + G{c^d}], with the repeated sub-expressions named once). Returns C' in out[0], D' in
// out[1].
void f_function(uint32_t c_in, uint32_t d_in, const uint32_t *k, uint32_t *out)
{
    const uint32_t c = c_in ^ k[0], d = d_in ^ k[1];
    const uint32_t t = g_function(c ^ d);
    const uint32_t u = g_function(t + c);
    const uint32_t dp = g_function(u + t);
    out[0] = dp + u;
    out[1] = dp;
}

// Sixteen rounds over L || R: L_i = R_{i-1}, R_i = L_{i-1} ^ F(K_i, R_{i-1}); the output is
// R_16 || L_16 (the last round does not swap, so decryption is the same walk with the round
// keys in reverse order).
void feistel(const SeedRoundKeys &rk, const uint8_t *in, uint8_t *out, bool decrypt)
{
    uint32_t l[2] = {load_be32(in), load_be32(in + 4)};
    uint32_t r[2] = {load_be32(in + 8), load_be32(in + 12)};
    for (int n = 0; n < seed_rounds; n++) {
        const int i = decrypt ? seed_rounds - 1 - n : n;
        uint32_t f[2];
        f_function(r[0], r[1], rk.k[i], f);
        const uint32_t nl0 = r[0], nl1 = r[1];
        r[0] = l[0] ^ f[0];
        r[1] = l[1] ^ f[1];
        l[0] = nl0;
        l[1] = nl1;
    }
    store_be32(out, r[0]);
    store_be32(out + 4, r[1]);
    store_be32(out + 8, l[0]);
    store_be32(out + 12, l[1]);
}

} // namespace

// RFC 4269 section 2.3: Key = Key0 || Key1 || Key2 || Key3; for i = 1..16
//   K_{i,0} = G(Key0 + Key2 - KC_i), K_{i,1} = G(Key1 - Key3 + KC_i)
//   then, for odd i, Key0 || Key1 = (Key0 || Key1) >>> 8, for even i, Key2 || Key3 <<<= 8.
void seed_key_schedule(Cipher, const uint8_t *key, SeedRoundKeys *out)
{
    uint32_t k0 = load_be32(key), k1 = load_be32(key + 4), k2 = load_be32(key + 8), k3 = load_be32(key + 12);
    for (int i = 0; i < seed_rounds; i++) {
        out->k[i][0] = g_function(k0 + k2 - seed_spec::kc[i]);
        out->k[i][1] = g_function(k1 - k3 + seed_spec::kc[i]);
        if (i % 2 == 0) { // i + 1 odd: rotate the 64-bit Key0 || Key1 right by 8
            const uint32_t t = k0;
            k0 = (k0 >> 8) | (k1 << 24);
            k1 = (k1 >> 8) | (t << 24);
        } else { // i + 1 even: rotate Key2 || Key3 left by 8
            const uint32_t t = k2;
            k2 = (k2 << 8) | (k3 >> 24);
            k3 = (k3 << 8) | (t >> 24);
        }
    }
}

void seed_encrypt_block(const SeedRoundKeys &rk, const uint8_t *in, uint8_t *out) { feistel(rk, in, out, false); }

void seed_decrypt_block(const SeedRoundKeys &rk, const uint8_t *in, uint8_t *out) { feistel(rk, in, out, true); }

// The block interface only, one block at a time (kit/block_loop.hpp); no GPU ops and no CTR_DRBG
// accelerations: the DRBG runs SEED over these entry points. Not constant-time (S-box lookups
// at secret indexes, see the file header); portable C++; rank 0, the fallback every machine runs.
using SeedRefLoop = BlockLoop<SeedRoundKeys, 16, seed_encrypt_block, seed_decrypt_block, seed_key_schedule>;
extern const Kernel seed_ref_kernel = {"seed/ref", "seed", 16, 1, false, 0, 0, sizeof(SeedRoundKeys), seed_supports,
                                       SeedRefLoop::set_key, SeedRefLoop::encrypt_blocks, SeedRefLoop::decrypt_blocks,
                                       SeedRefLoop::ctr_xor_blocks};

} // namespace kc
