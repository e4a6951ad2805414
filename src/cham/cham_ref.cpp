// cham/ref: the reference revised-CHAM kernel, one block at a time, the round function as the
// paper writes it (Koo et al., ICISC 2017, "encryption"; round counts of Roh et al., ICISC 2019).
// The oracle for every other CHAM kernel. One template serves 16-bit (CHAM-64/128) and 32-bit
// (CHAM-128/*) words.
//
// Block size: the Kernel descriptor says 16 for the family, but CHAM-64/128 has 8-byte blocks.
// Every function here takes the block size from the key state (ChamRoundKeys::block_bytes),
// which the layers above must match with cipher_desc(c).block_bytes.
//
// Constant-time: CHAM is ARX. A round XORs the public round number into a word, adds,
// rotates by fixed amounts and XORs a round key chosen by the public round number
// (RK_{i mod 2k/w}). No table, no branch on data or key.
#include "cham/cham.hpp"

#include "core/ctr_via_ecb.hpp"
#include "core/kernel.hpp"

namespace kc {

namespace {

using cham_word::load_le;
using cham_word::rotl;
using cham_word::rotr;
using cham_word::store_le;

// Round i (from 0), X = (X_0, X_1, X_2, X_3):
//   even i: X_3' = ROL8((X_0 ^ i) + (ROL1(X_1) ^ RK_{i mod 2k/w}))
//   odd i:  X_3' = ROL1((X_0 ^ i) + (ROL8(X_1) ^ RK_{i mod 2k/w}))
//   (X_0', X_1', X_2') = (X_1, X_2, X_3)
// R1 rotates X_1, R2 the sum: (1, 8) in even rounds, (8, 1) in odd ones; template arguments so
// that every rotation is by a constant.
template <typename W, unsigned R1, unsigned R2> void encrypt_round(W *x, int i, W rk)
{
    W t = rotl<W>((W)((x[0] ^ (W)i) + (rotl<W>(x[1], R1) ^ rk)), R2);
    x[0] = x[1];
    x[1] = x[2];
    x[2] = x[3];
    x[3] = t;
}

// The inverse of round i: (X_1, X_2, X_3) = (X_0', X_1', X_2') and
// X_0 = (ROR_{R2}(X_3') - (ROL_{R1}(X_1) ^ RK)) ^ i.
template <typename W, unsigned R1, unsigned R2> void decrypt_round(W *x, int i, W rk)
{
    W x0 = (W)((W)(rotr<W>(x[3], R2) - (rotl<W>(x[0], R1) ^ rk)) ^ (W)i);
    x[3] = x[2];
    x[2] = x[1];
    x[1] = x[0];
    x[0] = x0;
}

template <typename W> void encrypt(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    W x[4];
    for (int j = 0; j < 4; j++)
        x[j] = load_le<W>(in + sizeof(W) * j);
    const int mask = rk.nrk - 1; // 2k/w is 8 or 16, so i mod 2k/w = i & mask
    for (int i = 0; i < rk.rounds; i++) {
        if (i & 1) // the round number is public: no secret-dependent branch
            encrypt_round<W, 8, 1>(x, i, (W)rk.rk[i & mask]);
        else
            encrypt_round<W, 1, 8>(x, i, (W)rk.rk[i & mask]);
    }
    for (int j = 0; j < 4; j++)
        store_le(out + sizeof(W) * j, x[j]);
}

template <typename W> void decrypt(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    W x[4];
    for (int j = 0; j < 4; j++)
        x[j] = load_le<W>(in + sizeof(W) * j);
    const int mask = rk.nrk - 1;
    for (int i = rk.rounds - 1; i >= 0; i--) {
        if (i & 1)
            decrypt_round<W, 8, 1>(x, i, (W)rk.rk[i & mask]);
        else
            decrypt_round<W, 1, 8>(x, i, (W)rk.rk[i & mask]);
    }
    for (int j = 0; j < 4; j++)
        store_le(out + sizeof(W) * j, x[j]);
}

} // namespace

void cham_encrypt_block(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    if (rk.word_bits == 16)
        encrypt<uint16_t>(rk, in, out);
    else
        encrypt<uint32_t>(rk, in, out);
}

void cham_decrypt_block(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out)
{
    if (rk.word_bits == 16)
        decrypt<uint16_t>(rk, in, out);
    else
        decrypt<uint32_t>(rk, in, out);
}

namespace {

bool cham_supports(Cipher c)
{
    return c == Cipher::cham64_128 || c == Cipher::cham128_128 || c == Cipher::cham128_256;
}

void cham_set_key(void *state, Cipher c, const uint8_t *key)
{
    cham_key_schedule(c, key, static_cast<ChamRoundKeys *>(state), cham_revised_rounds(c));
}

void cham_encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const ChamRoundKeys &rk = *static_cast<const ChamRoundKeys *>(state);
    const size_t bb = (size_t)rk.block_bytes;
    for (size_t b = 0; b < nblocks; b++)
        cham_encrypt_block(rk, in + bb * b, out + bb * b);
}

void cham_decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const ChamRoundKeys &rk = *static_cast<const ChamRoundKeys *>(state);
    const size_t bb = (size_t)rk.block_bytes;
    for (size_t b = 0; b < nblocks; b++)
        cham_decrypt_block(rk, in + bb * b, out + bb * b);
}

// The counter is the whole block (8 or 16 bytes) as one big-endian integer.
void cham_ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                         size_t nblocks)
{
    const ChamRoundKeys &rk = *static_cast<const ChamRoundKeys *>(state);
    ctr_xor_via_ecb(cham_encrypt_blocks, (size_t)rk.block_bytes, state, ctr, in, out, nblocks);
}

} // namespace

// Descriptor: block_bytes: CHAM-128/*; CHAM-64/128 uses 8 (cipher_desc(c).block_bytes decides);
// constant_time: ARX only (see the file header); requires: portable C++; rank: the fallback every
// machine can run.
extern const Kernel cham_ref_kernel = {
    "cham/ref", "cham", 16, 1, true, 0, 0, sizeof(ChamRoundKeys),
    cham_supports, cham_set_key, cham_encrypt_blocks, cham_decrypt_blocks, cham_ctr_xor_blocks};

} // namespace kc
