// aria/cuda-bitslice, the arithmetic: ARIA (RFC 5794) on 32 blocks at once, bitsliced. Every
// function here is __host__ __device__, so the GPU kernels (aria_cuda_bitslice.cu) run exactly
// the code that tests/cuda/test_aria_bitslice_host.cu checks against aria/ref on the CPU.
//
// Layout. A sliced state is 128 words s[8j + b]: bit L of s[8j + b] is bit b (LSB = 0) of byte
// j of block L, so the 32 blocks are the 32 lanes of every word. Then:
//   - an S-box layer is 16 S-box circuits, one per byte position (aria_cuda_bitslice_sbox.cuh:
//     71-77 LOP3 each, for 32 blocks, on bytes held in a tower basis: to_basis / from_basis);
//   - the diffusion layer A is XORs of whole words, bit plane by bit plane (diffuse);
//   - a round key is 128 mask words, each all-zero or all-one (AriaBsKeys, built on the host),
//     XORed in by the last 3-input XOR of the diffusion.
// Slicing is four 32x32 bit transposes: s[32m + j] holds word m (bytes 4m..4m+3,
// little-endian) of block j before the transpose, and byte 4m + p/8, bit p%8 after, which is
// s[8(4m + p/8) + p%8] = s[32m + p]: the transpose alone gives the layout above.
//
// Constant-time: only AND, XOR, NOT and shifts, rotations and byte permutes by constants on
// words; mask words are read at indices that depend on the round number only. No table, no
// branch on data or key, on the GPU and on the host (which builds the masks and the CTR
// precomputation with these same functions).
#pragma once

#include <cstdint>
#include <cstring>

#include "aria/aria.hpp"
#include "cuda/device_util.cuh"

namespace kc::aria_bs {

constexpr int lanes = 32;   // blocks per sliced state
constexpr int words = 128;  // words per sliced state

// LOP3 with truth table Lut over (a, b, c) = (0xf0, 0xcc, 0xaa).
template <unsigned Lut> KC_HD uint32_t lop3(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(Lut));
    return r;
#else
    uint32_t r = 0;
    for (int i = 0; i < 8; i++)
        if ((Lut >> i) & 1)
            r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
#endif
}

#include "aria/aria_cuda_bitslice_sbox.cuh"

// Section 2.3.2: the type 1 layer applies SB1, SB2, SB3, SB4 to bytes 0..3 and repeats (the
// type 2 layer is P.SL1.P, see diffuse_ap). On the GPU it is a loop of four turns over the
// columns (bytes 4c..4c+3): each turn substitutes s[0..31] into s[96..127] and moves the
// other 96 words down by 32, so after four turns every column is done and back in place.
// The moves are register copies (IMAD.MOV, on the FMA pipe, which the circuits leave idle);
// the point is code size. Unrolled, the layer is 16 circuits, 23 KB of a 30 KB round loop
// that did not fit the instruction cache (ncu, H100: a third of the cycles between two
// issues went to warps waiting for an instruction fetch); rolled, the round loop is 16 KB.
// Measured on the H100 (ARIA-128 keystream): 2449 Gbps rolled against 2398-2428 unrolled;
// two columns per turn (more registers, longer code) 2300-2522.
KC_HD void substitute(uint32_t *s)
{
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
    for (int c = 0; c < 4; c++) {
        uint32_t t[32];
#pragma unroll
        for (int i = 0; i < 32; i++)
            t[i] = s[i];
        sb1_core(t);
        sb2_core(t + 8);
        sb3_core(t + 16);
        sb4_core(t + 24);
#pragma unroll
        for (int i = 0; i < 96; i++)
            s[i] = s[i + 32];
#pragma unroll
        for (int i = 0; i < 32; i++)
            s[96 + i] = t[i];
    }
}

// XORs as explicit LOP3s: written as C++ operators, ptxas re-associates the diffusion's
// shared sub-sums and the layer took 48 LOP3 per plane instead of 38 (SASS, sm_90).
KC_HD uint32_t xor3(uint32_t a, uint32_t b, uint32_t c) { return lop3<0x96>(a, b, c); }
KC_HD uint32_t xor2(uint32_t a, uint32_t b) { return lop3<0x3c>(a, b, 0u); }

// P: bytes j and j ^ 2 swap places (0 <-> 2, 1 <-> 3, 4 <-> 6, ...). It turns one substitution
// layer type into the other, SL2 = P.SL1.P, and it commutes with A (section 2.3.3: row j ^ 2
// of A is row j with its columns moved by P; the tests check A.P = P.A). So with the state
// held as P(x) after every odd layer, every round is the same code,
//   s <- A.P(SL1(s)) ^ k,
// and the loop over rounds holds one substitution layer instead of two (half the code, which
// must stay in the instruction cache). Keys added after odd layers are stored permuted.
KC_HD constexpr int perm_p(int j) { return j ^ 2; }

// s <- A(P(s)) ^ k, on each of the 8 bit planes (A only XORs bytes, so bit b of an output byte
// is the XOR of bit b of seven input bytes). The sub-sums are those of aria_x86_byteslice.hpp
// (diffuse_short): 22 XORs of two or three words, then one 3-input XOR per output that also
// adds the key mask, 38 LOP3 per plane. P costs nothing: it only renames the inputs.
KC_HD void diffuse_ap(uint32_t *s, const uint32_t *k)
{
    uint32_t kp[16][2];
#pragma unroll
    for (int b = 0; b < 8; b++) {
        if (b % 2 == 0) // key words of planes b and b + 1 are adjacent: one 64-bit load
            for (int j = 0; j < 16; j++) {
#ifdef __CUDA_ARCH__
                const uint2 kk = *reinterpret_cast<const uint2 *>(k + 8 * j + b);
                kp[j][0] = kk.x, kp[j][1] = kk.y;
#else
                kp[j][0] = k[8 * j + b], kp[j][1] = k[8 * j + b + 1];
#endif
            }
        uint32_t x[16];
#pragma unroll
        for (int j = 0; j < 16; j++)
            x[j] = s[8 * perm_p(j) + b];
        const uint32_t t0 = xor3(x[2], x[5], x[15]), t1 = xor3(x[6], x[8], x[13]);
        const uint32_t t2 = xor3(x[7], x[9], x[12]), t3 = xor3(x[0], x[11], x[14]);
        const uint32_t t4 = xor3(x[1], x[4], x[10]), t5 = xor3(x[3], x[4], x[9]);
        const uint32_t t6 = xor2(x[15], t4), t7 = xor2(x[5], t3), t8 = xor2(x[3], t1);
        const uint32_t t9 = xor2(x[2], t2), t10 = xor2(x[8], t0);
        const uint32_t t11 = xor3(x[1], x[11], x[12]), t12 = xor3(x[1], x[6], x[12]);
        const uint32_t t13 = xor3(x[0], x[7], x[10]), t14 = xor3(x[7], x[10], x[13]);
        const uint32_t t15 = xor3(x[0], x[7], x[13]), t16 = xor3(x[1], x[6], x[11]);
        const uint32_t t17 = xor3(x[3], x[9], x[14]), t18 = xor3(x[6], x[11], x[12]);
        const uint32_t t19 = xor3(x[0], x[10], x[13]), t20 = xor3(x[14], t5, t1);
        const uint32_t t21 = xor3(x[3], x[4], x[14]);
        s[8 * 0 + b] = xor2(t20, kp[0][b % 2]);
        s[8 * 1 + b] = xor3(t2, t10, kp[1][b % 2]);
        s[8 * 2 + b] = xor3(t18, t6, kp[2][b % 2]);
        s[8 * 3 + b] = xor3(t14, t7, kp[3][b % 2]);
        s[8 * 4 + b] = xor3(t3, t10, kp[4][b % 2]);
        s[8 * 5 + b] = xor3(t17, t6, kp[5][b % 2]);
        s[8 * 6 + b] = xor3(t19, t9, kp[6][b % 2]);
        s[8 * 7 + b] = xor3(t11, t8, kp[7][b % 2]);
        s[8 * 8 + b] = xor3(t15, t6, kp[8][b % 2]);
        s[8 * 9 + b] = xor3(t12, t7, kp[9][b % 2]);
        s[8 * 10 + b] = xor3(t0, t8, kp[10][b % 2]);
        s[8 * 11 + b] = xor3(t21, t9, kp[11][b % 2]);
        s[8 * 12 + b] = xor3(t16, t9, kp[12][b % 2]);
        s[8 * 13 + b] = xor3(t13, t8, kp[13][b % 2]);
        s[8 * 14 + b] = xor3(t5, t7, kp[14][b % 2]);
        s[8 * 15 + b] = xor3(t4, t10, kp[15][b % 2]);
    }
}

// s <- P(s): renaming only, once after the last layer.
KC_HD void permute_p(uint32_t *s)
{
#pragma unroll
    for (int j = 0; j < 16; j++) {
        if ((j & 2) == 0) {
#pragma unroll
            for (int b = 0; b < 8; b++) {
                const uint32_t t = s[8 * j + b];
                s[8 * j + b] = s[8 * perm_p(j) + b];
                s[8 * perm_p(j) + b] = t;
            }
        }
    }
}

KC_HD void add_key(uint32_t *s, const uint32_t *k)
{
#pragma unroll
    for (int i = 0; i < words; i++)
        s[i] ^= k[i];
}

// One step of the 32x32 transpose: for rows i, i + W (bit W of i clear), swap the bits at
// columns c + W of row i with those at columns c of row i + W (bit W of c clear). After the
// steps for W = 16, 8, 4, 2, 1, bit p of word j has moved to bit j of word p. Byte and
// half-word steps are byte permutes (PRMT), the others two shifts and two LOP3.
template <int W> KC_HD void swap_step(uint32_t &a, uint32_t &b)
{
    if constexpr (W == 16) {
        const uint32_t na = cuda::byte_perm(a, b, 0x5410), nb = cuda::byte_perm(a, b, 0x7632);
        a = na, b = nb;
    } else if constexpr (W == 8) {
        const uint32_t na = cuda::byte_perm(a, b, 0x6240), nb = cuda::byte_perm(a, b, 0x7351);
        a = na, b = nb;
    } else {
        constexpr uint32_t lo = W == 4 ? 0x0f0f0f0fu : W == 2 ? 0x33333333u : 0x55555555u;
#ifdef __CUDA_ARCH__
        // The shifts as multiplications (IMAD.SHL, IMAD.HI) run on the FMA pipe, and each
        // bit select is one LOP3 with the mask as its immediate: 2 ALU operations per pair
        // instead of 4 (left to itself ptxas splits the select in two).
        uint32_t bs, as, na, nb;
        asm("mul.lo.u32 %0, %1, %2;" : "=r"(bs) : "r"(b), "n"(1u << W));
        asm("mul.hi.u32 %0, %1, %2;" : "=r"(as) : "r"(a), "n"(1u << (32 - W)));
        asm("lop3.b32 %0, %1, %2, %3, 0xe2;" : "=r"(na) : "r"(a), "n"(lo), "r"(bs));
        asm("lop3.b32 %0, %1, %2, %3, 0xe2;" : "=r"(nb) : "r"(as), "n"(lo), "r"(b));
#else
        const uint32_t na = (a & lo) | ((b << W) & ~lo), nb = ((a >> W) & lo) | (b & ~lo);
#endif
        a = na, b = nb;
    }
}

template <int W> KC_HD void transpose_steps(uint32_t *a)
{
#pragma unroll
    for (int i = 0; i < 32; i++)
        if ((i & W) == 0)
            swap_step<W>(a[i], a[i + W]);
}

// a[p] bit j <- a[j] bit p. Its own inverse.
KC_HD void transpose32(uint32_t *a)
{
    transpose_steps<16>(a);
    transpose_steps<8>(a);
    transpose_steps<4>(a);
    transpose_steps<2>(a);
    transpose_steps<1>(a);
}

// s[32m + j] = word m of block j  <->  the sliced layout. Its own inverse.
KC_HD void slice(uint32_t *s)
{
#pragma unroll
    for (int m = 0; m < 4; m++)
        transpose32(s + 32 * m);
}

// Round keys as masks, for one direction. mask[i] is added before S-box layer i + 1 (i < n)
// and mask[n] after the last layer, with the S-box constants folded in (fold_constants) and,
// for odd i, permuted by P (diffuse_ap).
struct AriaBsKeys {
    alignas(16) uint32_t mask[aria_max_rounds + 1][words];
    int32_t rounds;
};

// Both directions: the kernel's key state. A launch passes one of them by value.
struct AriaBsKeyState {
    AriaBsKeys enc, dec;
};

// Section 2.2.2: layers first..n, A after every layer but the last; in the form of diffuse_ap
// every layer is SL1 followed by A.P, and the last one, SL2 = P.SL1.P on a state held as P(x),
// is SL1 followed by P. s holds the input of layer `first` with mask[first - 1] added.
KC_HD void layers(uint32_t *s, const AriaBsKeys &k, int first, bool lockstep = false)
{
#ifdef __CUDA_ARCH__
#pragma unroll 1
#endif
    for (int i = first;; i++) {
#ifdef __CUDA_ARCH__
        if (lockstep)
            __syncthreads();
#else
        (void)lockstep;
#endif
        substitute(s);
        if (i == k.rounds)
            break;
        diffuse_ap(s, k.mask[i]);
    }
    permute_p(s);
    add_key(s, k.mask[k.rounds]);
#pragma unroll
    for (int j = 0; j < 16; j++)
        from_basis(s + 8 * j);
}

// ECB on a sliced state: encryption with the ek masks, decryption with the dk masks.
KC_HD void crypt_sliced(uint32_t *s, const AriaBsKeys &k, bool lockstep = false)
{
#pragma unroll
    for (int j = 0; j < 16; j++)
        to_basis(s + 8 * j);
    add_key(s, k.mask[0]);
    layers(s, k, 1, lockstep);
}

// CTR. Lane L of a state computes counter block number ctr_lo + 32 L in its low 32 bits
// (bytes 12..15, big-endian); bytes 0..11 are the launch's, the same in every lane.
// Their part of layer 1 and of its diffusion is done once per launch on the host
// (ctr_round2): then a thread computes 4 S-boxes of layer 1, not 16.
struct AriaBsCtr {
    alignas(16) uint32_t round2[words]; // A.P(SL1(bytes 0..11 ^ key)) ^ mask[1], as masks
    uint32_t ctr_lo;        // low 32 bits of the launch's first counter
};

// The sliced counter bytes 12..15 of lanes L = 0..31, counter value v + 32 L, into s[96..127].
// Bits 0..4 are those of v in every lane. Above them the lanes count q, q + 1, ..., q + 31
// (q = v >> 5): with q = 32 h + t, bits 5..9 are the lane numbers' bits rotated by t, and bits
// 10..31 are those of h in lanes L < 32 - t and of h + 1 in the others. Every v works; a lane
// whose value passes 2^32 wraps (it is past the launch's blocks, see GpuOps::ctr).
KC_HD void slice_counters(uint32_t v, uint32_t *s)
{
    const uint32_t t = (v >> 5) & 31, h = v >> 10;
    const uint32_t carry = t ? 0xffffffffu << (32 - t) : 0u; // lanes holding h + 1
    const uint32_t lane_bits[5] = {0xaaaaaaaau, 0xccccccccu, 0xf0f0f0f0u, 0xff00ff00u, 0xffff0000u};
#pragma unroll
    for (int i = 0; i < 32; i++) {
        uint32_t w;
        if (i < 5)
            w = 0u - ((v >> i) & 1);
        else if (i < 10)
            w = cuda::rotr32(lane_bits[i - 5], t);
        else
            w = lop3<0xca>(carry, 0u - (((h + 1) >> (i - 10)) & 1), 0u - ((h >> (i - 10)) & 1));
        s[8 * (15 - i / 8) + i % 8] = w;
    }
}

// Keystream of 32 blocks, sliced (slice() turns it into blocks).
KC_HD void ctr_keystream_sliced(uint32_t *s, const AriaBsKeys &k, const AriaBsCtr &c, uint32_t v,
                                bool lockstep = false)
{
    slice_counters(v, s);
#pragma unroll
    for (int j = 12; j < 16; j++)
        to_basis(s + 8 * j);
    // Layer 1 on bytes 12..15 (type 1: SB1, SB2, SB3, SB4), then A of that part plus the
    // precomputed rest; bytes 0..11 are zero here and the compiler drops their XORs.
#pragma unroll
    for (int i = 96; i < words; i++)
        s[i] ^= k.mask[0][i];
    sb1_core(s + 96);
    sb2_core(s + 104);
    sb3_core(s + 112);
    sb4_core(s + 120);
#pragma unroll
    for (int i = 0; i < 96; i++)
        s[i] = 0;
    diffuse_ap(s, c.round2);
    layers(s, k, 2, lockstep);
}

// ---- host side: key masks and CTR precomputation (constant-time: bitwise work only) ----

// Which S-box (0..3 = SB1..SB4) a layer of type 1 or 2 applies at byte j.
inline int sbox_at(int type, int j) { return (j + (type == 2 ? 2 : 0)) & 3; }

// SBk(x) = sbk_core(x ^ in_const[k]) ^ out_const[k] (aria_cuda_bitslice_sbox.cuh).
constexpr uint8_t sbox_in_const[4] = {0x00, 0x00, 0x63, 0xe2};
constexpr uint8_t sbox_out_const[4] = {0x63, 0xe2, 0x00, 0x00};

// The circuits leave out the S-boxes' constants; the keys take them instead. Layer i (type
// t_i: 1 if i is odd) computes core(x ^ key_i ^ c_in(t_i)) ^ c_out(t_i), and A is linear, so
//   key'_1 = key_1 ^ c_in(t_1),  key'_i = key_i ^ c_in(t_i) ^ A(c_out(t_(i-1))),
//   key'_(n+1) = key_(n+1) ^ c_out(t_n).
inline void fold_constants(const uint8_t (*keys)[16], int rounds, AriaBsKeys *out)
{
    uint8_t c_in[3][16], c_out[3][16], a_c_out[3][16];
    for (int t = 1; t <= 2; t++) {
        for (int j = 0; j < 16; j++) {
            c_in[t][j] = sbox_in_const[sbox_at(t, j)];
            c_out[t][j] = sbox_out_const[sbox_at(t, j)];
        }
        aria_diffusion(c_out[t], a_c_out[t]);
    }
    out->rounds = rounds;
    for (int i = 0; i <= rounds; i++) {
        uint8_t k[16];
        for (int j = 0; j < 16; j++) {
            const int layer = i + 1; // the layer this key enters (n + 1: the final key)
            uint8_t v = keys[i][j];
            if (layer <= rounds)
                v ^= c_in[layer % 2 ? 1 : 2][j];
            if (layer >= 2)
                v ^= layer <= rounds ? a_c_out[(layer - 1) % 2 ? 1 : 2][j] : c_out[2][j];
            k[j] = to_basis_byte(v);
        }
        const bool permuted = i % 2 == 1 && i < rounds; // follows an odd layer
        for (int j = 0; j < 16; j++)
            for (int b = 0; b < 8; b++)
                out->mask[i][8 * j + b] = 0u - (uint32_t)((k[permuted ? perm_p(j) : j] >> b) & 1);
    }
}

inline void make_key_state(const AriaRoundKeys &rk, AriaBsKeyState *ks)
{
    std::memset(ks, 0, sizeof *ks);
    fold_constants(rk.ek, rk.rounds, &ks->enc);
    fold_constants(rk.dk, rk.rounds, &ks->dec);
}

// The launch's part of CTR layer 1: bytes 0..11 of the counter block are fixed, so their
// S-boxes and their contribution to A are the same in every lane and thread.
inline void ctr_precompute(const AriaBsKeys &k, const uint8_t ctr[16], AriaBsCtr *c)
{
    uint32_t s[words];
    for (int j = 0; j < 16; j++)
        for (int b = 0; b < 8; b++)
            s[8 * j + b] = j < 12 ? 0u - (uint32_t)((to_basis_byte(ctr[j]) >> b) & 1) : 0u;
    add_key(s, k.mask[0]);
    substitute(s);
    for (int i = 96; i < words; i++)
        s[i] = 0;
    diffuse_ap(s, k.mask[1]);
    std::memcpy(c->round2, s, sizeof s);
    c->ctr_lo = (uint32_t)ctr[12] << 24 | (uint32_t)ctr[13] << 16 | (uint32_t)ctr[14] << 8 | ctr[15];
}

} // namespace kc::aria_bs
