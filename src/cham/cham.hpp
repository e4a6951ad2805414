// Revised CHAM (Roh et al., "Revised Version of Block Cipher CHAM", ICISC 2019; the cipher of
// Koo et al., ICISC 2017, with more rounds): the round keys every CHAM kernel starts from, and
// the reference block functions.
//
//   cipher        block  key  word  rounds (revised 2019)  rounds (original 2017)
//   CHAM-64/128    8 B   16 B  16 b   88                     80
//   CHAM-128/128  16 B   16 B  32 b  112                     80
//   CHAM-128/256  16 B   32 B  32 b  120                     96
//
// kcipher always runs the revised round counts. The round count is nevertheless a field of
// the key state, because the only multi-block and CTR vectors that exist (Crypto++'s
// cham.txt) are for the original cipher: the tests run them with 80/80/96 rounds through
// cham_key_schedule(..., rounds) or cham_set_rounds_for_test().
//
// Byte order: words are loaded little-endian (as in the designers' reference code and the
// revised paper's byte vectors). Crypto++ loads them big-endian; see tests/vectors/README.md.
#pragma once

#include <cstdint>

#include "core/bytes.hpp"
#include "core/cipher.hpp"

namespace kc {

struct ChamRoundKeys {
    uint32_t rk[16];    // RK_0..RK_{2k/w-1}; 16-bit values for CHAM-64/128
    int nrk;            // 2k/w: 16 for CHAM-64/128 and CHAM-128/256, 8 for CHAM-128/128
    int rounds;         // revised: 88, 112, 120
    int word_bits;      // 16 or 32
    int block_bytes;    // 8 or 16: the Kernel struct says 16 for the family, this is the truth
    Cipher cipher;
};

int cham_revised_rounds(Cipher c);  // 88, 112, 120: what kcipher uses
int cham_original_rounds(Cipher c); // 80, 80, 96: the 2017 cipher, for tests only

// c is cham64_128, cham128_128 or cham128_256; key holds cipher_desc(c).key_bytes bytes.
void cham_key_schedule(Cipher c, const uint8_t *key, ChamRoundKeys *out, int rounds);
inline void cham_key_schedule(Cipher c, const uint8_t *key, ChamRoundKeys *out)
{
    cham_key_schedule(c, key, out, cham_revised_rounds(c));
}

// Test hook: sets the round count of a key state that is a ChamRoundKeys (cham/ref's, after
// set_key), so that the tests can run the original cipher's vectors. The library never calls it.
void cham_set_rounds_for_test(void *state, int rounds);

// One block of rk.block_bytes bytes; in == out is allowed.
void cham_encrypt_block(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out);
void cham_decrypt_block(const ChamRoundKeys &rk, const uint8_t *in, uint8_t *out);

// Word helpers for code written once for both word sizes: W is uint16_t (CHAM-64/128) or
// uint32_t (CHAM-128/*). Rotation amounts are 0 < r < bits.
namespace cham_word {

template <typename W> inline W rotl(W x, unsigned r)
{
    constexpr unsigned bits = 8 * sizeof(W);
    return (W)((x << r) | (x >> (bits - r)));
}
template <typename W> inline W rotr(W x, unsigned r) { return rotl<W>(x, 8 * sizeof(W) - r); }

template <typename W> inline W load_le(const uint8_t *p)
{
    if constexpr (sizeof(W) == 2)
        return load_le16(p);
    else
        return load_le32(p);
}
inline void store_le(uint8_t *p, uint16_t v) { store_le16(p, v); }
inline void store_le(uint8_t *p, uint32_t v) { store_le32(p, v); }

} // namespace cham_word

// ECB of nblocks blocks of cipher c's size straight from the raw key, no key state: the
// CTR_DRBG chain's Update blocks (cham_fused.cpp, src/kit/fused_ecb.hpp).
void cham_fused_ecb(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks);
// The same with the blocks in the lanes of one register, AVX-512VL and VBMI2 (x86 only:
// cham_x86_fused_avx512.cpp).
void cham_fused_ecb_avx512(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out, size_t nblocks);

} // namespace kc
