// HIGHT key search on the GPU, the arithmetic: hight/cuda-bitslice's rounds over 32
// candidates at once, the 32 lanes of every word being 32 keys that differ in the lowest
// five bits of the candidate index. Every subkey is derived on the fly, per round, from the
// key words: a master-key bit is the same in all lanes (a sign-extended key bit) except at
// the lowest five mask positions, where the launch parameters hold the lane pattern; a
// subkey is that byte plus the constant δ_n (hight_key_step.hpp), a ripple-carry adder whose
// constant operand folds away. The whole pairs[0] block is compared, 64 bits.
//
// __host__ __device__ like the bitsliced kernel, so tests/cuda checks it on the CPU.
#pragma once

#include "hight/hight_cuda_bitslice.cuh"
#include "hight/hight_key_step.hpp"

namespace kc::hight_bs {

// Compile-time views of the key-schedule tables that device code may read.
template <int N> inline constexpr uint8_t delta_v = hight_key::delta[N];
template <int N> inline constexpr int subkey_source_v = hight_key::subkey_source(N);
template <int I> inline constexpr int whitening_source_v = hight_key::whitening_source(I);

struct HightSearchParams {
    uint32_t pt[8][8];  // pairs[0]'s plaintext, bitsliced: every word all-zero or all-one
    uint32_t ct[8][8];  // its ciphertext
    uint32_t pat[16][8]; // XORed into bit b of MK_m: the lane pattern at the lowest five mask
                         // positions, zero elsewhere
};

// Bit b of MK_m in all 32 lanes. Key bytes are big-endian in the key words: MK_m is byte
// 3 - m % 4 (from the bottom) of word m / 4.
KC_HD uint32_t mk_bit(const uint32_t *key, const HightSearchParams &p, int m, int b)
{
    const int s = 8 * (3 - m % 4) + b;
    const uint32_t uniform = (uint32_t)((int32_t)(key[m / 4] << (31 - s)) >> 31);
    return uniform ^ p.pat[m][b];
}

// SK_N = MK_source + δ_N, bitsliced; δ's bits are constants, so each adder bit is a couple
// of operations.
template <int N> KC_HD void subkey(const uint32_t *key, const HightSearchParams &p, uint32_t *out)
{
    constexpr int m = subkey_source_v<N>;
    constexpr unsigned d = delta_v<N>;
    uint32_t c = 0;
#pragma unroll
    for (int b = 0; b < 8; b++) {
        const uint32_t x = mk_bit(key, p, m, b), k = ((d >> b) & 1) ? ~0u : 0u;
        out[b] = x ^ k ^ c;
        c = (x & k) | (c & (x ^ k));
    }
}

template <int I> KC_HD void whitening_key(const uint32_t *key, const HightSearchParams &p, uint32_t *out)
{
#pragma unroll
    for (int b = 0; b < 8; b++)
        out[b] = mk_bit(key, p, whitening_source_v<I>, b);
}

template <int R> KC_HD void search_rounds(State &st, const uint32_t *key, const HightSearchParams &p)
{
    uint32_t k4[4][8];
    subkey<4 * R>(key, p, k4[0]);
    subkey<4 * R + 1>(key, p, k4[1]);
    subkey<4 * R + 2>(key, p, k4[2]);
    subkey<4 * R + 3>(key, p, k4[3]);
    encrypt_round_keys(st, R, k4); // round 31 is the last, the same code (encrypt_last_round)
    if constexpr (R < 31)
        search_rounds<R + 1>(st, key, p);
}

// Bit L set: lane L's key (the group's key with the lane's pattern) encrypts pt to ct.
KC_HD uint32_t search_test32(const uint32_t *key, const HightSearchParams &p)
{
    State st;
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int b = 0; b < 8; b++)
            st.s[j][b] = p.pt[j][b];
    uint32_t wk[8];
    whitening_key<0>(key, p, wk);
    add_key(byte_at(st, 0, 0), wk);
    whitening_key<1>(key, p, wk);
    xor_key(byte_at(st, 2, 0), wk);
    whitening_key<2>(key, p, wk);
    add_key(byte_at(st, 4, 0), wk);
    whitening_key<3>(key, p, wk);
    xor_key(byte_at(st, 6, 0), wk);
    search_rounds<0>(st, key, p);
    whitening_key<4>(key, p, wk);
    add_key(byte_at(st, 0, 31), wk);
    whitening_key<5>(key, p, wk);
    xor_key(byte_at(st, 2, 31), wk);
    whitening_key<6>(key, p, wk);
    add_key(byte_at(st, 4, 31), wk);
    whitening_key<7>(key, p, wk);
    xor_key(byte_at(st, 6, 31), wk);
    uint32_t diff = 0;
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
        for (int b = 0; b < 8; b++)
            diff |= byte_at(st, j, 31)[b] ^ p.ct[j][b];
    return ~diff;
}

// The launch parameters for pairs[0] and a mask given as big-endian words (kw = 4).
inline HightSearchParams search_params(const uint8_t *pt, const uint8_t *ct, const uint32_t *mask)
{
    HightSearchParams q{};
    for (int j = 0; j < 8; j++)
        for (int b = 0; b < 8; b++) {
            q.pt[j][b] = 0u - (uint32_t)((pt[j] >> b) & 1);
            q.ct[j][b] = 0u - (uint32_t)((ct[j] >> b) & 1);
        }
    int lane_bit_index = 0; // the lowest five mask bits, lowest first
    for (int w = 3; w >= 0 && lane_bit_index < 5; w--)
        for (int s = 0; s < 32 && lane_bit_index < 5; s++)
            if ((mask[w] >> s) & 1) {
                const int m = 4 * w + 3 - s / 8;
                q.pat[m][s % 8] = lane_bit(lane_bit_index++);
            }
    return q;
}

} // namespace kc::hight_bs
