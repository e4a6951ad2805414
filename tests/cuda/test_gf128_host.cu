// GCM's field arithmetic of the GPU without a GPU: the bitwise product and the lookup tables
// (cuda/gf128_tables.cuh) against the CPU's GHASH, and the tensor-core multiplication
// (cuda/gf128_bmma.cuh) emulated here instruction by instruction (an m16n8k128 AND-popc MMA
// is a plain sum over lanes' registers; the per-lane packing is the device code's) against
// the bitwise product, on random values and multipliers.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cuda/gf128_bmma.cuh"
#include "kit/ghash/ghash.hpp"

namespace {

using namespace kc;
using namespace kc::cuda;

Gf128 random_gf(std::mt19937_64 &r) { return {r(), r()}; }

uint32_t word(const uint4 &v, int w) { return w == 0 ? v.x : w == 1 ? v.y : w == 2 ? v.z : v.w; }

TEST(Gf128Host, SlowProductIsGhash)
{
    std::mt19937_64 r(7);
    for (int n = 0; n < 200; n++) {
        const Gf128 a = random_gf(r), h = random_gf(r);
        uint8_t hb[16], ab[16], y[16] = {};
        gf_to_bytes(h, hb);
        gf_to_bytes(a, ab);
        GhashKey key;
        ghash_portable_kernel.init(key, hb);
        ghash_portable_kernel.update(key, y, ab, 1); // y = (0 ^ a) * h
        const Gf128 p = gf_mul_slow(a, h);
        uint8_t pb[16];
        gf_to_bytes(p, pb);
        ASSERT_EQ(0, std::memcmp(pb, y, 16)) << n;
    }
}

// One m16n8k128 AND-popc MMA for the whole warp: a[lane][2], b[lane], c, d [lane][4].
void mma_warp(const uint32_t a[32][2], const uint32_t b[32], const int c[32][4], int d[32][4])
{
    for (int lane = 0; lane < 32; lane++) {
        const int G = lane / 4, T = lane % 4;
        for (int j = 0; j < 4; j++) {
            const int row = G + (j >= 2 ? 8 : 0), col = 2 * T + (j & 1);
            int sum = c[lane][j];
            for (int t = 0; t < 4; t++) // k chunk t: A's row `row` from lane (row % 8, t), reg row / 8
                sum += __builtin_popcount(a[(row % 8) * 4 + t][row / 8] & b[col * 4 + t]);
            d[lane][j] = sum;
        }
    }
}

// gf_bmma_mul for one A tile, every lane at once, with mma_warp for the instruction.
void bmma_mul_warp(uint32_t w[32][2], const uint32_t *bm)
{
    uint32_t out[32][2] = {};
    for (int q = 0; q < 4; q++) {
        int d[32][4] = {};
        for (int s = 3; s >= 0; s--) {
            int c[32][4];
            uint32_t b[32];
            for (int l = 0; l < 32; l++) {
                for (int j = 0; j < 4; j++)
                    c[l][j] = d[l][j] << 8;
                b[l] = bm[l * 16 + q + 4 * s];
            }
            mma_warp(w, b, c, d);
        }
        for (int l = 0; l < 32; l++) {
            out[l][0] |= ((uint32_t)d[l][0] & 0x01010101u) << (2 * q) | ((uint32_t)d[l][1] & 0x01010101u) << (2 * q + 1);
            out[l][1] |= ((uint32_t)d[l][2] & 0x01010101u) << (2 * q) | ((uint32_t)d[l][3] & 0x01010101u) << (2 * q + 1);
        }
    }
    std::memcpy(w, out, sizeof out);
}

TEST(Gf128Host, TensorCoreProductIsTheFieldProduct)
{
    std::mt19937_64 r(11);
    for (int n = 0; n < 20; n++) {
        const Gf128 p = random_gf(r);
        uint32_t bm[bmma_words];
        bmma_matrix(p, bm);
        Gf128 x[16];
        uint32_t w[32][2];
        for (int c = 0; c < 16; c++)
            x[c] = random_gf(r);
        for (int lane = 0; lane < 32; lane++) // word T of chains G and G+8
            for (int rr = 0; rr < 2; rr++)
                w[lane][rr] = word(gf_to_words(x[lane / 4 + 8 * rr]), lane % 4);
        bmma_mul_warp(w, bm);
        for (int c = 0; c < 16; c++) {
            const uint4 want = gf_to_words(gf_mul_slow(x[c], p));
            for (int T = 0; T < 4; T++)
                ASSERT_EQ(word(want, T), w[(c % 8) * 4 + T][c / 8]) << "chain " << c << " word " << T;
        }
    }
}

} // namespace
