// The 16-block byte-sliced layout of ARIA on NEON (the ARM/GPU paper's 16-PT), shared by
// aria/neon-16pt (S-boxes by TBL) and aria/neon-aes (S-boxes by AESE/AESD): loading and
// storing a batch, the diffusion layer, and the batch driver. Each kernel supplies only its
// substitution layer.
//
// Layout. Register x[j] holds byte j of the 16 blocks of a batch, so that the whole register
// takes one S-box (RFC 5794 section 2.3.2: byte j uses SB1..SB4 by j mod 4) and the diffusion
// A (section 2.3.3) is XORs between whole registers. Four LD4 (64 bytes, four blocks each)
// already put the bytes of one residue mod 4 into one register, "arranging the state while
// loading" as the paper does; a 4x4 byte transpose per residue (eight TRN) finishes the job.
// Lane L of a sliced register then holds block 4 (L mod 4) + L / 4 of the batch.
//
// Constant-time: loads and stores at addresses fixed by the public length, XOR, TRN; the
// S-box layers say why theirs are.
#pragma once

#if defined(__aarch64__)

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/wipe.hpp"

namespace kc {
namespace aria_neon {

using u8x16 = uint8x16_t;
constexpr size_t batch_blocks = 16;

inline u8x16 trn1_16(u8x16 a, u8x16 b)
{
    return vreinterpretq_u8_u16(vtrn1q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
}
inline u8x16 trn2_16(u8x16 a, u8x16 b)
{
    return vreinterpretq_u8_u16(vtrn2q_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
}

// Inside every 4-byte group, register g lane 4b+w <-> register w lane 4b+g (an involution).
inline void transpose4x4(u8x16 &a, u8x16 &b, u8x16 &c, u8x16 &d)
{
    const u8x16 t0 = vtrn1q_u8(a, b), t1 = vtrn2q_u8(a, b);
    const u8x16 t2 = vtrn1q_u8(c, d), t3 = vtrn2q_u8(c, d);
    a = trn1_16(t0, t2);
    b = trn1_16(t1, t3);
    c = trn2_16(t0, t2);
    d = trn2_16(t1, t3);
}

// LD4 group g gives register r with lane 4b+w = byte 4w+r of block 4g+b; the transpose over
// the four groups moves it to register 4w+r, lane 4b+g.
inline void load_sliced(u8x16 x[16], const uint8_t *in)
{
    uint8x16x4_t v[4];
    for (int g = 0; g < 4; g++)
        v[g] = vld4q_u8(in + 64 * g);
    for (int r = 0; r < 4; r++) {
        transpose4x4(v[0].val[r], v[1].val[r], v[2].val[r], v[3].val[r]);
        for (int w = 0; w < 4; w++)
            x[4 * w + r] = v[w].val[r];
    }
}

inline void store_sliced(u8x16 x[16], uint8_t *out)
{
    uint8x16x4_t v[4];
    for (int r = 0; r < 4; r++) {
        transpose4x4(x[r], x[4 + r], x[8 + r], x[12 + r]);
        for (int g = 0; g < 4; g++)
            v[g].val[r] = x[4 * g + r];
    }
    for (int g = 0; g < 4; g++)
        vst4q_u8(out + 64 * g, v[g]);
}

// x[j] ^= k[j] in every lane (LD1R: a load, no shuffle).
inline void add_key(u8x16 x[16], const uint8_t k[16])
{
    for (int j = 0; j < 16; j++)
        x[j] = veorq_u8(x[j], vld1q_dup_u8(k + j));
}

// W (word mixing) on one byte column: (w0, w1, w2, w3) ->
// (w0^w1^w2, w0^w2^w3, w0^w1^w3, w1^w2^w3) in six in-place XORs.
inline void mix_words(u8x16 &w0, u8x16 &w1, u8x16 &w2, u8x16 &w3)
{
    w1 = veorq_u8(w1, w2);
    w2 = veorq_u8(w2, w3);
    w0 = veorq_u8(w0, w1);
    w3 = veorq_u8(w3, w1);
    w2 = veorq_u8(w2, w0);
    w1 = veorq_u8(w1, w2);
}

// The diffusion A as the word factorisation A = W . P . W . M of the T-table code
// (aria_table.cpp): M makes every byte of a word the XOR of the other three, W mixes words,
// P reverses bytes inside words 1..3 (renaming here). 72 two-input XORs, and every step
// works in place, so the 16 state registers leave room for a TBL S-box's table and indexes.
inline void diffuse(u8x16 x[16])
{
    for (int w = 0; w < 4; w++) { // M
        u8x16 &a = x[4 * w], &b = x[4 * w + 1], &c = x[4 * w + 2], &d = x[4 * w + 3];
        const u8x16 p = veorq_u8(a, b), q = veorq_u8(c, d);
        const u8x16 na = veorq_u8(b, q), nb = veorq_u8(a, q), nc = veorq_u8(d, p);
        d = veorq_u8(c, p), a = na, b = nb, c = nc;
    }
    for (int b = 0; b < 4; b++)
        mix_words(x[b], x[4 + b], x[8 + b], x[12 + b]);
    // P: word w, byte r <- byte r ^ w
    std::swap(x[4], x[5]), std::swap(x[6], x[7]);
    std::swap(x[8], x[10]), std::swap(x[9], x[11]);
    std::swap(x[12], x[15]), std::swap(x[13], x[14]);
    for (int b = 0; b < 4; b++)
        mix_words(x[b], x[4 + b], x[8 + b], x[12 + b]);
}

// RFC 5794 section 2.2.2.1 on one sliced batch, keys k[0..n]: round i < n substitutes with
// SL1 (i even, FO) or SL2 (i odd, FE) after adding k[i], then diffuses except in the last
// round; k[n] is added at the end. S::layer<Type>(x, k) does "add k[i], then SL<Type>" in its
// own way (its key layout may differ from the RFC's bytes).
template <class S>
inline void crypt_batch(const uint8_t (*k)[16], int rounds, const uint8_t *in, uint8_t *out)
{
    u8x16 x[16];
    load_sliced(x, in);
    for (int i = 0; i < rounds - 2; i += 2) {
        S::template layer<1>(x, k[i]);
        diffuse(x);
        S::template layer<2>(x, k[i + 1]);
        diffuse(x);
    }
    S::template layer<1>(x, k[rounds - 2]);
    diffuse(x);
    S::template layer<2>(x, k[rounds - 1]);
    add_key(x, k[rounds]);
    store_sliced(x, out);
}

// ECB over n blocks: whole batches, then the rest as one batch in a zero-padded stack buffer
// (wiped after: it held data).
template <class S>
inline void ecb(const uint8_t (*k)[16], int rounds, const uint8_t *in, uint8_t *out, size_t n)
{
    constexpr size_t bytes = 16 * batch_blocks;
    for (; n >= batch_blocks; n -= batch_blocks, in += bytes, out += bytes)
        crypt_batch<S>(k, rounds, in, out);
    if (n == 0)
        return;
    alignas(16) uint8_t buf[bytes] = {};
    std::memcpy(buf, in, 16 * n);
    crypt_batch<S>(k, rounds, buf, buf);
    std::memcpy(out, buf, 16 * n);
    secure_wipe(buf, sizeof buf);
}

} // namespace aria_neon
} // namespace kc

#endif // __aarch64__
