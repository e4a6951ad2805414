// Scalar parts shared by the word-sliced LEA kernels (lea_x86_avx2.cpp, lea_x86_avx512.cpp,
// lea_neon.cpp): the ciphers they support, the decryption words derived from the one key
// schedule, and the CTR precomputation. The x86 kernels' vector code is
// lea_x86_word_sliced.hpp, their CTR entry lea_x86_ctr_entry.hpp. Nothing here is x86: NEON
// uses it as it is.
//
// Everything here is plain baseline C++. The kernels call it only from their code outside
// the `KC_TARGET_PUSH` regions, so every out-of-line copy of these inline functions is
// baseline code (no AVX-512 copy can win at link time and fault on an older CPU).
//
// CTR precomputation (the "nonce-only part of the first rounds" of the ARX paper, kept exact
// for the full 128-bit big-endian counter): LEA reads the counter block as four little-endian
// words, X[j] = load_le32(ctr + 4j), so X[3] holds the counter's low 32 bits (byte-swapped)
// and X[0..2] its upper 96 bits. Within a run of blocks whose low 32 bits do not wrap (a
// "segment"), X[0..2] are the same for every block and X[3] alone varies. Following the round
// function (TTAK.KO-12.0223, encryption) through the first four rounds, every value that
// depends only on X[0..2] and the round keys is computed once per segment here:
//
//   round 0: X1[0] = ROL9((X0^k0)+(X1^k1)) = a0, X1[1] = ROR5((X1^k2)+(X2^k3)) = b0 (both
//            constant), X1[2] = ROR3((X2^k4) + (X3^k5)) varies, X1[3] = X0;
//   round 1: X2[0] = ROL9((a0^k0)+(b0^k1)) = a1 constant, X2[3] = a0;
//   rounds 2 and 3: one operand of three more additions is constant.
//
// That leaves 30 vector operations for rounds 0..3 instead of 48 (LEA-128: 270 instead of
// 288 per block vector). The counter is public, but these values also depend on the key:
// they are computed with additions, XORs and fixed rotations only, and wiped after use.
#pragma once

#include <cstdint>

#include "core/bytes.hpp"
#include "lea/lea.hpp"

namespace kc {

inline bool lea_sliced_supports(Cipher c)
{
    return c == Cipher::lea128 || c == Cipher::lea192 || c == Cipher::lea256;
}

// The words one decryption round reads, in the order it reads them (see decrypt_round in
// the kernels): RK[0], RK[1], RK[1]^RK[2], RK[3], RK[3]^RK[4], RK[5]. Folding RK[1]^RK[2]
// and RK[3]^RK[4] into one word shortens the round's dependency chain from nine operations
// to seven; the number of operations is unchanged.
inline void lea_sliced_decrypt_words(const uint32_t rk[6], uint32_t out[6])
{
    out[0] = rk[0];
    out[1] = rk[1];
    out[2] = rk[1] ^ rk[2];
    out[3] = rk[3];
    out[4] = rk[3] ^ rk[4];
    out[5] = rk[5];
}

// The constants of rounds 0..3 for one CTR segment (see the file header). c[0..5] are the
// constant addends, in the order the vector code consumes them; low is the counter's low 32
// bits as an integer (the vector code adds the block index and byte-swaps it into X[3]).
struct LeaCtrHead {
    uint32_t c[6];
    uint32_t low;
};

inline LeaCtrHead lea_sliced_ctr_head(const LeaRoundKeys &rk, const uint8_t ctr[16])
{
    const uint32_t x0 = load_le32(ctr), x1 = load_le32(ctr + 4), x2 = load_le32(ctr + 8);
    const uint32_t *k0 = rk.rk[0], *k1 = rk.rk[1], *k2 = rk.rk[2], *k3 = rk.rk[3];
    const uint32_t a0 = rotl32((x0 ^ k0[0]) + (x1 ^ k0[1]), 9);
    const uint32_t b0 = rotr32((x1 ^ k0[2]) + (x2 ^ k0[3]), 5);
    const uint32_t a1 = rotl32((a0 ^ k1[0]) + (b0 ^ k1[1]), 9);
    LeaCtrHead h;
    h.c[0] = x2 ^ k0[4]; // round 0, word 2: (X0[2]^k4)
    h.c[1] = b0 ^ k1[2]; // round 1, word 1: (X1[1]^k2)
    h.c[2] = x0 ^ k1[5]; // round 1, word 2: (X1[3]^k5), X1[3] = X0[0]
    h.c[3] = a1 ^ k2[0]; // round 2, word 0: (X2[0]^k0)
    h.c[4] = a0 ^ k2[5]; // round 2, word 2: (X2[3]^k5), X2[3] = a0
    h.c[5] = a1 ^ k3[5]; // round 3, word 2: (X3[3]^k5), X3[3] = a1
    h.low = load_be32(ctr + 12);
    return h;
}

// Blocks from a counter whose low 32 bits are `low` before those bits wrap to zero (and the
// upper 96 bits change): the length of the segment that starts there.
inline uint64_t lea_sliced_segment_room(uint32_t low) { return (uint64_t{1} << 32) - low; }

} // namespace kc
