// Multiplication by a fixed element P of GCM's field on the tensor cores: x -> x * P is linear
// over GF(2), a 128 x 128 bit matrix, and a binary MMA (mma.sync m16n8k128, AND then
// population count) gives, for 16 values at once and 8 output bits per instruction, the
// number of set bits of (x AND row); its lowest bit is the output bit. No lookup table, no
// secret-dependent address: the work is the same whatever the data.
//
// Layout (one warp, 32 values, "chains"): A operands are the values, B the matrix.
//   value:  bit i of little-endian word w is "natural bit" 32w + i;
//   A tile: 16 chains; lane (G = lane/4, T = lane%4) holds word T of chains G and G+8;
//   B tile j (j < 16): 8 output bits, column n being natural output bit 32(n/2) + 2j + n%2;
//           lane (G, T) holds column G's input bits 32T .. 32T+31;
//   D tile j: lane (G, T) gets output bits 32T + 2j and 32T + 2j + 1 of chains G and G+8,
// which are bits of that lane's own word T: the product lands where the next step needs it,
// with no exchange between lanes. Four tiles j = q, q+4, q+8, q+12 are chained through the
// accumulator, each count shifted a byte up (counts are at most 128), so that one AND
// extracts four parity bits at once.
#pragma once

#include "cuda/gf128_tables.cuh"

namespace kc::cuda {

constexpr int bmma_words = 16 * 32; // one B operand: 16 tiles x 32 lanes

// Natural output bit of B tile j, column n.
KC_HD int bmma_output_bit(int j, int n) { return 32 * (n / 2) + 2 * j + n % 2; }

// The B operand for multiplying by p: out[j * 32 + lane] (tile j, lane: one wavefront when
// the lanes read it from shared memory). On the host.
inline void bmma_matrix(Gf128 p, uint32_t *out)
{
    uint4 v[128]; // v[k] = (natural bit k alone) * p, in natural words
    for (int k = 0; k < 128; k++) {
        const int byte = k / 8, bit = k % 8; // natural bit k is bit `bit` of byte `byte`
        Gf128 e = p;                          // that element is x^(8 byte + 7 - bit)
        for (int d = 0; d < 8 * byte + 7 - bit; d++)
            e = gf_mulx(e);
        v[k] = gf_to_words(e);
    }
    for (int lane = 0; lane < 32; lane++)
        for (int j = 0; j < 16; j++) {
            const int o = bmma_output_bit(j, lane / 4), T = lane % 4;
            uint32_t w = 0;
            for (int i = 0; i < 32; i++) {
                const uint4 x = v[32 * T + i];
                const uint32_t ow = o / 32 == 0 ? x.x : o / 32 == 1 ? x.y : o / 32 == 2 ? x.z : x.w;
                w |= ((ow >> (o % 32)) & 1u) << i;
            }
            out[j * 32 + lane] = w;
        }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "GCM on the GPU needs binary MMA (sm_80 or newer)"
#endif

__device__ __forceinline__ void bmma(int (&d)[4], uint32_t a0, uint32_t a1, uint32_t b, const int (&c)[4])
{
#if defined(__CUDA_ARCH__)
    asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                 "{%7,%8,%9,%10};\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a0), "r"(a1), "r"(b), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
#endif
}

// Horner's rule over U steps at once for a warp's 32 chains, two A tiles: w <- w * P^U ^ x[0] *
// P^(U-1) ^ ... ^ x[U-1], where w[2t], w[2t+1] are this lane's words of chains G + 16t and
// G + 16t + 8, x[.][u] the same words of step u's blocks, and bm (shared memory,
// [slot][j][lane]) holds the B operands of P^U, P^(U-1), ..., P in slots 0 .. U-1 (x[.][U-1] is
// XORed in, not multiplied). The U products of a tile share one accumulator (the parity of a
// sum of counts is the XOR of their parities), so the counts are unpacked once per U steps:
// tiles j and j+8 are chained, the first shifted 16 bits up (counts are at most 128 U), and one
// AND takes both parities. Both A tiles are taken per B operand, so that the operands live for
// one output pair only (with the tiles one after the other, 16 U operands stayed live: spills
// at U = 4). All 32 lanes must call it together.
template <int U>
__device__ __forceinline__ void gf_bmma_horner(uint32_t (&w)[4], const uint32_t (&x)[4][U], const uint32_t *bm,
                                               uint32_t lane)
{
    static_assert(U >= 1 && U <= 128, "counts must stay below 2^16");
    uint32_t out[4] = {0, 0, 0, 0};
#pragma unroll
    for (int t0 = 0; t0 < 8; t0++) { // tiles t0 and t0 + 8: output bits 2 t0 + e and 16 above
        int d[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
#pragma unroll
        for (int half = 1; half >= 0; half--) {
            const int j = t0 + 8 * half;
            uint32_t b[U];
#pragma unroll
            for (int u = 0; u < U; u++)
                b[u] = bm[(u * 16 + j) * 32 + lane];
#pragma unroll
            for (int t = 0; t < 2; t++) {
                int c[4] = {d[t][0] << 16, d[t][1] << 16, d[t][2] << 16, d[t][3] << 16};
                bmma(d[t], w[2 * t], w[2 * t + 1], b[0], c);
#pragma unroll
                for (int u = 0; u < U - 1; u++) {
                    c[0] = d[t][0], c[1] = d[t][1], c[2] = d[t][2], c[3] = d[t][3];
                    bmma(d[t], x[2 * t][u], x[2 * t + 1][u], b[u + 1], c);
                }
            }
        }
#pragma unroll
        for (int t = 0; t < 2; t++) {
            out[2 * t] |= ((uint32_t)d[t][0] & 0x00010001u) << (2 * t0) | ((uint32_t)d[t][1] & 0x00010001u) << (2 * t0 + 1);
            out[2 * t + 1] |=
                ((uint32_t)d[t][2] & 0x00010001u) << (2 * t0) | ((uint32_t)d[t][3] & 0x00010001u) << (2 * t0 + 1);
        }
    }
#pragma unroll
    for (int r = 0; r < 4; r++)
        w[r] = out[r] ^ x[r][U - 1];
}

} // namespace kc::cuda
