// hight/cuda-bitslice, the arithmetic: HIGHT on 32 blocks at once, bitsliced. Every function
// here is __host__ __device__, so the GPU kernels (hight_cuda_bitslice.cu) run exactly the code
// that tests/cuda/test_hight_cuda_host.cu checks against hight/ref on the CPU.
//
// Layout. A bitsliced byte is 8 words x[0..7]; bit L of x[b] is bit b of that byte of block L
// (the 32 blocks are the 32 "lanes" of every word). A state is 8 such bytes, X_0..X_7 in the
// standard's numbering, where X_j starts as P_j, byte j of the 8-byte array (hight.hpp).
//
//   - F0 and F1 are byte rotations XORed together: wiring plus one 3-input XOR per bit.
//   - A subkey byte is 8 mask words, each all-zero or all-one (KeyMasks, built on the host):
//     XOR with a subkey bit is an XOR with its mask, and a carry with a subkey bit is the
//     majority of three words, so the key never selects an instruction or an address.
//   - Byte addition is a ripple-carry adder, subtraction a ripple-borrow subtractor: each bit
//     is a sum (XOR of three) and a carry (majority or multiplexer of three), one LOP3 each.
//   - The round's byte rotation costs nothing: byte j of the state after round r sits in slot
//     (j - r) mod 8 of the 64 words, and the unrolled rounds index slots by the round number.
//
// Constant-time: only bitwise logic (LOP3), shifts by constants and byte permutes with fixed
// selectors; masks are read at indices that depend on the round and bit numbers only. No
// table, no branch on data or key (the branches in ecb_group and ctr_group test lengths and
// alignment, which are public).
#pragma once

#include <cstdint>

#include "cuda/device_util.cuh"
#include "hight/hight.hpp"

namespace kc::hight_bs {

constexpr int lanes = 32; // blocks per bitsliced state

// The key as mask words: wk[i][b] = -(bit b of WK_i), sk[i][b] = -(bit b of SK_i); plus the
// whitening bytes themselves, for the per-thread scalar part of CTR.
struct KeyMasks {
    uint32_t wk[8][8];
    uint32_t sk[128][8];
    uint32_t wk_byte[8];
};

inline void expand_key_masks(const HightRoundKeys &rk, KeyMasks *m)
{
    for (int i = 0; i < 8; i++) {
        m->wk_byte[i] = rk.wk[i];
        for (int b = 0; b < 8; b++)
            m->wk[i][b] = 0u - (uint32_t)((rk.wk[i] >> b) & 1);
    }
    for (int i = 0; i < 128; i++)
        for (int b = 0; b < 8; b++)
            m->sk[i][b] = 0u - (uint32_t)((rk.sk[i] >> b) & 1);
}

// ---- the byte operations, 32 blocks at a time ------------------------------------------

// One LOP3: bit i of Lut is the result for inputs (a, b, c) = bits (2, 1, 0) of i, so that
// Lut is written as an expression of a = 0xf0, b = 0xcc, c = 0xaa. Written out rather than
// left to ptxas, which otherwise folds 2-input XORs of one round into the 3-input XORs of the
// next and duplicates work (about 10% more LOP3 in measured SASS).
template <unsigned Lut> KC_HD uint32_t lop3(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(Lut));
    return r;
#else
    uint32_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        if ((Lut >> i) & 1)
            r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    return r;
#endif
}

constexpr unsigned lut_xor3 = 0x96; // a ^ b ^ c
constexpr unsigned lut_maj = 0xe8;  // majority(a, b, c)
constexpr unsigned lut_mux = 0xca;  // a ? b : c
constexpr unsigned lut_mux_not = 0x3a; // a ? ~b : c
static_assert(lut_xor3 == (0xf0 ^ 0xcc ^ 0xaa) && lut_maj == ((0xf0 & 0xcc) | (0xf0 & 0xaa) | (0xcc & 0xaa)) &&
                  lut_mux == ((0xf0 & 0xcc) | (~0xf0 & 0xaa & 0xff)) &&
                  lut_mux_not == ((0xf0 & ~0xcc & 0xff) | (~0xf0 & 0xaa & 0xff)),
              "LOP3 tables");

KC_HD uint32_t xor3(uint32_t a, uint32_t b, uint32_t c) { return lop3<lut_xor3>(a, b, c); }

// Bit b of F0(x) = ROL1 ^ ROL2 ^ ROL7 is x[b-1] ^ x[b-2] ^ x[b-7] (indices mod 8).
KC_HD uint32_t f0_bit(const uint32_t *x, int b) { return xor3(x[(b + 7) & 7], x[(b + 6) & 7], x[(b + 1) & 7]); }
// Bit b of F1(x) = ROL3 ^ ROL4 ^ ROL6 is x[b-3] ^ x[b-4] ^ x[b-6].
KC_HD uint32_t f1_bit(const uint32_t *x, int b) { return xor3(x[(b + 5) & 7], x[(b + 4) & 7], x[(b + 2) & 7]); }

// X ^= F0(x) + K (the even-to-odd step of the round and of its inverse). With a = F0 bit:
// sum bit a ^ k ^ c, carry majority(a, k, c). Bit 0 has no carry in, bit 7 no carry out.
// 4 LOP3 a bit, 30 a byte.
KC_HD void xor_f0_plus(uint32_t *X, const uint32_t *x, const uint32_t *K)
{
    uint32_t c = 0;
#pragma unroll
    for (int b = 0; b < 8; b++) {
        const uint32_t a = f0_bit(x, b), k = K[b];
        if (b == 0) {
            X[b] = xor3(X[b], a, k);
            c = a & k;
        } else {
            X[b] = xor3(X[b], xor3(a, k, c), 0);
            if (b < 7)
                c = lop3<lut_maj>(a, k, c);
        }
    }
}

// X += F1(x) ^ K. With p = X ^ F1 bit ^ k: sum = p ^ c, carry = p ? c : X. 30 LOP3 a byte.
KC_HD void add_f1_xor(uint32_t *X, const uint32_t *x, const uint32_t *K)
{
    uint32_t c = 0;
#pragma unroll
    for (int b = 0; b < 8; b++) {
        const uint32_t p = xor3(X[b], f1_bit(x, b), K[b]);
        const uint32_t n = b == 0 ? ~p & X[b] : lop3<lut_mux>(p, c, X[b]);
        X[b] = b == 0 ? p : p ^ c;
        c = n;
    }
}

// X -= F1(x) ^ K. With p as above: difference = p ^ borrow, borrow out = p ? ~X : borrow.
KC_HD void sub_f1_xor(uint32_t *X, const uint32_t *x, const uint32_t *K)
{
    uint32_t c = 0;
#pragma unroll
    for (int b = 0; b < 8; b++) {
        const uint32_t p = xor3(X[b], f1_bit(x, b), K[b]);
        const uint32_t n = b == 0 ? p & ~X[b] : lop3<lut_mux_not>(p, X[b], c);
        X[b] = b == 0 ? p : p ^ c;
        c = n;
    }
}

// X += K and X -= K, for the whitening keys.
KC_HD void add_key(uint32_t *X, const uint32_t *K)
{
    uint32_t c = 0;
#pragma unroll
    for (int b = 0; b < 8; b++) {
        const uint32_t x = X[b], k = K[b];
        X[b] = x ^ k ^ c;
        c = (x & k) | (c & (x ^ k));
    }
}

KC_HD void sub_key(uint32_t *X, const uint32_t *K)
{
    uint32_t c = 0;
#pragma unroll
    for (int b = 0; b < 8; b++) {
        const uint32_t x = X[b], k = K[b];
        X[b] = x ^ k ^ c;
        c = (~x & k) | (c & ~(x ^ k));
    }
}

KC_HD void xor_key(uint32_t *X, const uint32_t *K)
{
#pragma unroll
    for (int b = 0; b < 8; b++)
        X[b] ^= K[b];
}

// ---- rounds ------------------------------------------------------------------------------

// s[slot][bit]; before round r byte j of the state is s[(j - r) & 7].
struct State {
    uint32_t s[8][8];
};

KC_HD uint32_t *byte_at(State &st, int j, int r) { return st.s[(j - r) & 7]; }

// Round r = 0..30 (hight_ref.cpp, encrypt_round): the four odd bytes take the F-values of
// the even bytes in place; the byte rotation is the change of slot numbering from r to r+1.
// k4 = SK_{4r}..SK_{4r+3}: the key search derives them per round (hight_cuda_keysearch.cuh).
KC_HD void encrypt_round_keys(State &st, int r, const uint32_t (*k4)[8])
{
    xor_f0_plus(byte_at(st, 7, r), byte_at(st, 6, r), k4[3]);
    add_f1_xor(byte_at(st, 1, r), byte_at(st, 0, r), k4[0]);
    xor_f0_plus(byte_at(st, 3, r), byte_at(st, 2, r), k4[1]);
    add_f1_xor(byte_at(st, 5, r), byte_at(st, 4, r), k4[2]);
}

KC_HD void encrypt_round(State &st, int r, const uint32_t (*sk)[8]) { encrypt_round_keys(st, r, sk + 4 * r); }

// Round 31 updates the odd bytes without rotation; with the slot numbering of round 31 it is
// the same code.
KC_HD void encrypt_last_round(State &st, const uint32_t (*sk)[8]) { encrypt_round(st, 31, sk); }

// The inverse of round r (hight_ref.cpp, decrypt_round): the state X_{r+1} sits in the slots
// of round r+1, which are those of round r with the odd bytes holding the values to undo.
KC_HD void decrypt_round(State &st, int r, const uint32_t (*sk)[8])
{
    xor_f0_plus(byte_at(st, 7, r), byte_at(st, 6, r), sk[4 * r + 3]);
    sub_f1_xor(byte_at(st, 1, r), byte_at(st, 0, r), sk[4 * r + 0]);
    xor_f0_plus(byte_at(st, 3, r), byte_at(st, 2, r), sk[4 * r + 1]);
    sub_f1_xor(byte_at(st, 5, r), byte_at(st, 4, r), sk[4 * r + 2]);
}

// x[j][b] in, x[j][b] out, logical byte order both ways.
KC_HD void encrypt32(const KeyMasks &k, uint32_t (*x)[8])
{
    State st;
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int b = 0; b < 8; b++)
            st.s[j][b] = x[j][b];
    add_key(byte_at(st, 0, 0), k.wk[0]);
    xor_key(byte_at(st, 2, 0), k.wk[1]);
    add_key(byte_at(st, 4, 0), k.wk[2]);
    xor_key(byte_at(st, 6, 0), k.wk[3]);
#pragma unroll
    for (int r = 0; r < 31; r++)
        encrypt_round(st, r, k.sk);
    encrypt_last_round(st, k.sk);
    add_key(byte_at(st, 0, 31), k.wk[4]);
    xor_key(byte_at(st, 2, 31), k.wk[5]);
    add_key(byte_at(st, 4, 31), k.wk[6]);
    xor_key(byte_at(st, 6, 31), k.wk[7]);
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int b = 0; b < 8; b++)
            x[j][b] = byte_at(st, j, 31)[b];
}

KC_HD void decrypt32(const KeyMasks &k, uint32_t (*x)[8])
{
    State st;
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int b = 0; b < 8; b++)
            byte_at(st, j, 31)[b] = x[j][b];
    sub_key(byte_at(st, 0, 31), k.wk[4]);
    xor_key(byte_at(st, 2, 31), k.wk[5]);
    sub_key(byte_at(st, 4, 31), k.wk[6]);
    xor_key(byte_at(st, 6, 31), k.wk[7]);
    decrypt_round(st, 31, k.sk); // the last round, undone in place
#pragma unroll
    for (int r = 30; r >= 0; r--)
        decrypt_round(st, r, k.sk);
    sub_key(byte_at(st, 0, 0), k.wk[0]);
    xor_key(byte_at(st, 2, 0), k.wk[1]);
    sub_key(byte_at(st, 4, 0), k.wk[2]);
    xor_key(byte_at(st, 6, 0), k.wk[3]);
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int b = 0; b < 8; b++)
            x[j][b] = st.s[j][b];
}

// ---- between blocks and bitsliced bytes ---------------------------------------------------

// In-place 32x32 bit-matrix transpose: afterwards bit c of m[r] is what bit r of m[c] was.
// Stage j swaps bit j of the row index with bit j of the column index: rows k and k+j
// (k without bit j) exchange their columns c|j and c. The byte stages (j = 16, 8) are one
// PRMT per word, the bit stages a shift and a bit select.
KC_HD void transpose32(uint32_t *m)
{
#pragma unroll
    for (int k = 0; k < 16; k++) {
        const uint32_t a = m[k], b = m[k + 16];
        m[k] = cuda::byte_perm(a, b, 0x5410);
        m[k + 16] = cuda::byte_perm(a, b, 0x7632);
    }
#pragma unroll
    for (int k = 0; k < 32; k++) {
        if (k & 8)
            continue;
        const uint32_t a = m[k], b = m[k + 8];
        m[k] = cuda::byte_perm(a, b, 0x6240);
        m[k + 8] = cuda::byte_perm(a, b, 0x7351);
    }
    constexpr uint32_t hi[3] = {0xf0f0f0f0u, 0xccccccccu, 0xaaaaaaaau};
#pragma unroll
    for (int s = 0; s < 3; s++) {
        const int j = 4 >> s;
        const uint32_t mh = hi[s];
#pragma unroll
        for (int k = 0; k < 32; k++) {
            if (k & j)
                continue;
            const uint32_t a = m[k], b = m[k + j];
            m[k] = lop3<lut_mux>(mh, b << j, a);     // (a & ~mh) | ((b << j) & mh)
            m[k + j] = lop3<lut_mux>(mh, b, a >> j); // (b & mh) | ((a >> j) & ~mh)
        }
    }
}

// 32 blocks, words w0[L] = bytes 0..3 and w1[L] = bytes 4..7 of block L read little-endian,
// to bitsliced bytes x[j][b] (and back: the same transposes, as they are involutions).
KC_HD void blocks_to_slices(uint32_t *w0, uint32_t *w1, uint32_t (*x)[8])
{
    transpose32(w0);
    transpose32(w1);
#pragma unroll
    for (int r = 0; r < 32; r++) {
        x[r / 8][r % 8] = w0[r];
        x[4 + r / 8][r % 8] = w1[r];
    }
}

KC_HD void slices_to_blocks(uint32_t (*x)[8], uint32_t *w0, uint32_t *w1)
{
#pragma unroll
    for (int r = 0; r < 32; r++) {
        w0[r] = x[r / 8][r % 8];
        w1[r] = x[4 + r / 8][r % 8];
    }
    transpose32(w0);
    transpose32(w1);
}

// ---- CTR ------------------------------------------------------------------------------------
//
// The counter is the 8-byte block as a big-endian integer, so P_0..P_3 are its high 32 bits
// (fixed for a launch: gpu_ops.hpp) and P_4..P_7 its low 32 bits, P_7 the lowest byte. A warp
// takes 1024 consecutive counters from a multiple of 1024: thread t of the warp (bits 0..4 of
// the counter) and lane L of its words (bits 5..9). Bits 5..9 across the lanes are then the
// constant words below, every other bit is the same in all 32 lanes of a thread, and no
// transpose is needed on the way in; on the way out, lane L of thread t is block 32L + t of
// the warp's run, so each store instruction of a warp writes 256 contiguous bytes.

// Bit k of L, for lanes L = 0..31: 0xaaaaaaaa, 0xcccccccc, 0xf0f0f0f0, 0xff00ff00, 0xffff0000.
KC_HD constexpr uint32_t lane_bit(int k)
{
    uint32_t w = 0;
    for (int L = 0; L < 32; L++)
        w |= (uint32_t)((L >> k) & 1) << L;
    return w;
}

// Which state bytes at the input of round r are the same for the whole launch: X_0..X_3 at
// round 0, then wherever a round combines two such bytes.
KC_HD constexpr unsigned fixed_bytes(int r)
{
    unsigned m = 0x0f;
    for (int i = 0; i < r; i++) {
        auto f = [m](int j) { return (m >> (j & 7)) & 1u; };
        unsigned n = 0;
        n |= (f(7) & f(6)) << 0;
        n |= f(0) << 1;
        n |= (f(1) & f(0)) << 2;
        n |= f(2) << 3;
        n |= (f(3) & f(2)) << 4;
        n |= f(4) << 5;
        n |= (f(5) & f(4)) << 6;
        n |= f(6) << 7;
        m = n;
    }
    return m;
}
constexpr int fixed_rounds = 5; // rounds 0..4 have fixed input bytes, round 5 none
static_assert(fixed_bytes(fixed_rounds - 1) != 0 && fixed_bytes(fixed_rounds) == 0, "fixed rounds");

// What the host computes once per launch from the counter's high 32 bits: the fixed bytes of
// the state at the input of rounds 0..4, as mask words (the other bytes are left zero).
struct CtrPre {
    uint32_t st[fixed_rounds][8][8];
};

inline void ctr_precompute(const HightRoundKeys &rk, const uint8_t *ctr, CtrPre *pre)
{
    auto rol = [](uint8_t v, int n) { return (uint8_t)((v << n) | (v >> (8 - n))); };
    auto f0 = [&](uint8_t v) { return (uint8_t)(rol(v, 1) ^ rol(v, 2) ^ rol(v, 7)); };
    auto f1 = [&](uint8_t v) { return (uint8_t)(rol(v, 3) ^ rol(v, 4) ^ rol(v, 6)); };
    uint8_t x[8] = {(uint8_t)(ctr[0] + rk.wk[0]), ctr[1], (uint8_t)(ctr[2] ^ rk.wk[1]), ctr[3], 0, 0, 0, 0};
    for (int r = 0; r < fixed_rounds; r++) {
        const unsigned fixed = fixed_bytes(r);
        for (int j = 0; j < 8; j++)
            for (int b = 0; b < 8; b++)
                pre->st[r][j][b] = (fixed >> j) & 1 ? 0u - (uint32_t)((x[j] >> b) & 1) : 0u;
        // One round on bytes; only the fixed bytes of the result are meaningful.
        const uint8_t *sk = rk.sk + 4 * r;
        uint8_t n[8];
        n[0] = (uint8_t)(x[7] ^ (uint8_t)(f0(x[6]) + sk[3]));
        n[1] = x[0];
        n[2] = (uint8_t)(x[1] + (f1(x[0]) ^ sk[0]));
        n[3] = x[2];
        n[4] = (uint8_t)(x[3] ^ (uint8_t)(f0(x[2]) + sk[1]));
        n[5] = x[4];
        n[6] = (uint8_t)(x[5] + (f1(x[4]) ^ sk[2]));
        n[7] = x[6];
        for (int j = 0; j < 8; j++)
            x[j] = n[j];
    }
}

// Round r < fixed_rounds of CTR: fixed input bytes come from pre, a path whose two inputs
// are fixed is skipped (its output is fixed too, and read from pre at round r+1).
KC_HD void ctr_fixed_round(State &st, int r, const KeyMasks &k, const CtrPre &pre)
{
    const unsigned fixed = fixed_bytes(r);
#pragma unroll
    for (int j = 0; j < 8; j++)
        if ((fixed >> j) & 1)
#pragma unroll
            for (int b = 0; b < 8; b++)
                byte_at(st, j, r)[b] = pre.st[r][j][b];
    auto varies = [fixed](int j1, int j0) { return !(((fixed >> j1) & 1) && ((fixed >> j0) & 1)); };
    if (varies(7, 6))
        xor_f0_plus(byte_at(st, 7, r), byte_at(st, 6, r), k.sk[4 * r + 3]);
    if (varies(1, 0))
        add_f1_xor(byte_at(st, 1, r), byte_at(st, 0, r), k.sk[4 * r + 0]);
    if (varies(3, 2))
        xor_f0_plus(byte_at(st, 3, r), byte_at(st, 2, r), k.sk[4 * r + 1]);
    if (varies(5, 4))
        add_f1_xor(byte_at(st, 5, r), byte_at(st, 4, r), k.sk[4 * r + 2]);
}

// Keystream of 32 blocks: lane L is the counter hi32 : (lo + 32 L), where lo has bits 5..9
// clear and hi32 is the one pre was made from. Out: ks0[L], ks1[L] = words 0 and 1 of
// block L (bytes 0..3 and 4..7, little-endian), ready to store.
KC_HD void ctr_keystream32(const KeyMasks &k, const CtrPre &pre, uint32_t lo, uint32_t *ks0, uint32_t *ks1)
{
    // Bytes 4..7 of the state after the initial transformation, as one scalar for the bits
    // that are the same in every lane: X_4 = P_4 + WK_2, X_5 = P_5, X_6 = P_6 ^ WK_3, X_7 = P_7.
    const uint32_t u = ((((lo >> 24) + k.wk_byte[2]) & 0xff) << 24) | (lo & 0x00ff00ffu) |
                       (((lo >> 8) ^ k.wk_byte[3]) & 0xff) << 8;
    State st;
#pragma unroll
    for (int kbit = 0; kbit < 32; kbit++) {
        const int j = 7 - kbit / 8, b = kbit % 8; // counter bit kbit is bit b of P_j
        uint32_t w;
        if (kbit >= 5 && kbit < 8)
            w = lane_bit(kbit - 5);
        else if (kbit == 8 || kbit == 9)
            w = lane_bit(kbit - 5) ^ k.wk[3][kbit - 8];
        else
            w = (uint32_t)((int32_t)(u << (31 - kbit)) >> 31); // bit kbit of u, in every lane
        byte_at(st, j, 0)[b] = w;
    }
#pragma unroll
    for (int r = 0; r < fixed_rounds; r++)
        ctr_fixed_round(st, r, k, pre);
#pragma unroll
    for (int r = fixed_rounds; r < 31; r++)
        encrypt_round(st, r, k.sk);
    encrypt_last_round(st, k.sk);
    add_key(byte_at(st, 0, 31), k.wk[4]);
    xor_key(byte_at(st, 2, 31), k.wk[5]);
    add_key(byte_at(st, 4, 31), k.wk[6]);
    xor_key(byte_at(st, 6, 31), k.wk[7]);
#pragma unroll
    for (int r = 0; r < 32; r++) {
        ks0[r] = byte_at(st, r / 8, 31)[r % 8];
        ks1[r] = byte_at(st, 4 + r / 8, 31)[r % 8];
    }
    transpose32(ks0);
    transpose32(ks1);
}

// ---- one warp's run of 1024 blocks -------------------------------------------------------
//
// A launch is cut into groups of 1024 blocks, one per warp; thread t of the warp computes
// lanes L = 0..31 = blocks 32L + t of its group. The functions below are one thread's share
// of one group; the kernels loop them over the groups, the host tests call them directly.

// 8 bytes at p: one 8-byte access where aligned, else bytes (the flag is uniform per launch).
KC_HD void load8(const uint8_t *p, bool aligned, uint32_t &w0, uint32_t &w1)
{
#ifdef __CUDA_ARCH__
    if (aligned) {
        const uint2 v = *reinterpret_cast<const uint2 *>(p);
        w0 = v.x, w1 = v.y;
        return;
    }
#else
    (void)aligned;
#endif
    w0 = cuda::load_le32(p), w1 = cuda::load_le32(p + 4);
}

KC_HD void store8(uint8_t *p, bool aligned, uint32_t w0, uint32_t w1)
{
#ifdef __CUDA_ARCH__
    if (aligned) {
        *reinterpret_cast<uint2 *>(p) = make_uint2(w0, w1);
        return;
    }
#else
    (void)aligned;
#endif
    cuda::store_le32(p, w0), cuda::store_le32(p + 4, w1);
}

constexpr uint32_t group_blocks = 32 * lanes; // 1024 blocks per warp

// ECB: blocks g * 1024 + 32 L + t of nblocks; lanes past the end are zero and not stored.
template <bool Decrypt>
KC_HD void ecb_group(const KeyMasks &k, uint64_t g, uint32_t t, const uint8_t *in, uint8_t *out,
                     uint64_t nblocks, bool aligned)
{
    const uint64_t base = g * group_blocks + t;
    const bool full = (g + 1) * group_blocks <= nblocks; // the same for the whole warp
    uint32_t w0[lanes], w1[lanes];
    if (full) {
#pragma unroll
        for (int L = 0; L < lanes; L++)
            load8(in + 8 * (base + 32 * L), aligned, w0[L], w1[L]);
    } else {
#pragma unroll
        for (int L = 0; L < lanes; L++) {
            w0[L] = w1[L] = 0;
            if (base + 32 * L < nblocks)
                load8(in + 8 * (base + 32 * L), aligned, w0[L], w1[L]);
        }
    }
    uint32_t x[8][8];
    blocks_to_slices(w0, w1, x);
    if (Decrypt)
        decrypt32(k, x);
    else
        encrypt32(k, x);
    slices_to_blocks(x, w0, w1);
#pragma unroll
    for (int L = 0; L < lanes; L++)
        if (full || base + 32 * L < nblocks)
            store8(out + 8 * (base + 32 * L), aligned, w0[L], w1[L]);
}

// What a CTR launch shares besides the key: the first counter's low 32 bits split into the
// group-aligned part and the offset of the request inside its first group, and the length.
struct CtrRun {
    uint32_t lo_base; // low 32 bits of the first counter, bits 0..9 cleared
    uint32_t first;   // low 10 bits of the first counter: unused lanes of group 0
    uint64_t nblocks; // whole blocks of the request
    uint32_t tail;    // bytes of one more, partial block (0..7)
};

// Counter of lane L of thread t in group g: hi32 : lo_base + 1024 g + 32 L + t (no carry into
// hi32 for any block of the request: gpu_ops.hpp). Its block of the request is that
// minus first; lanes before the request or past its end are computed and not stored.
KC_HD void ctr_group(const KeyMasks &k, const CtrPre &pre, const CtrRun &run, uint64_t g, uint32_t t,
                     const uint8_t *in, uint8_t *out, bool aligned)
{
    uint32_t ks0[lanes], ks1[lanes];
    ctr_keystream32(k, pre, run.lo_base + (uint32_t)g * group_blocks + t, ks0, ks1);
    const uint64_t start = g * group_blocks; // request block of lane 0, thread 0, plus first
    const bool full = start >= run.first && start + group_blocks - run.first <= run.nblocks;
    if (full && aligned) {
        const uint64_t base = start - run.first + t;
        uint8_t *o = out + 8 * base;
        if (in != nullptr) {
            const uint8_t *i = in + 8 * base;
#pragma unroll
            for (int L = 0; L < lanes; L++) {
                uint32_t d0, d1;
                load8(i + 256 * L, true, d0, d1);
                store8(o + 256 * L, true, ks0[L] ^ d0, ks1[L] ^ d1);
            }
        } else {
#pragma unroll
            for (int L = 0; L < lanes; L++)
                store8(o + 256 * L, true, ks0[L], ks1[L]);
        }
        return;
    }
    // The first and last groups of a request, and unaligned buffers.
#pragma unroll
    for (int L = 0; L < lanes; L++) {
        const uint64_t v = start + 32 * L + t; // block of the request, plus first
        if (v < run.first)
            continue;
        const uint64_t b = v - run.first;
        uint32_t w0 = ks0[L], w1 = ks1[L];
        if (b < run.nblocks) {
            if (in != nullptr) {
                uint32_t d0, d1;
                load8(in + 8 * b, aligned, d0, d1);
                w0 ^= d0, w1 ^= d1;
            }
            store8(out + 8 * b, aligned, w0, w1);
        } else if (b == run.nblocks) {
#pragma unroll
            for (uint32_t i = 0; i < 8; i++) {
                if (i < run.tail) {
                    const uint8_t ksb = (uint8_t)((i < 4 ? w0 : w1) >> (8 * (i % 4)));
                    out[8 * b + i] = in != nullptr ? (uint8_t)(in[8 * b + i] ^ ksb) : ksb;
                }
            }
        }
    }
}

} // namespace kc::hight_bs
