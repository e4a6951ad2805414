// GCM's field arithmetic of the GPU without a GPU: the bitwise product and the lookup tables
// (cuda/gf128_tables.cuh) against the CPU's GHASH, and the tensor-core multiplication
// (cuda/gf128_bmma.cuh) emulated here instruction by instruction (an m16n8k128 AND-popc MMA
// is a plain sum over lanes' registers; the per-lane packing is the device code's) against
// the bitwise product, on random values and multipliers.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

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

// gf_bmma_horner<U> for one of its two A tiles (the tiles share the B operands and nothing
// else), every lane at once, with mma_warp for the instruction: w <- w * P^U ^ x[0] * P^(U-1)
// ^ ... ^ x[U-1]; bm holds slots [r][j][lane] of P^(U - r).
template <int U> void horner_warp(uint32_t w[32][2], const uint32_t (*x)[32][2], const uint32_t *bm)
{
    uint32_t out[32][2] = {};
    for (int t0 = 0; t0 < 8; t0++) {
        int d[32][4] = {};
        for (int half = 1; half >= 0; half--) {
            const int j = t0 + 8 * half;
            int c[32][4];
            uint32_t b[32];
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 4; i++)
                    c[l][i] = d[l][i] << 16;
                b[l] = bm[j * 32 + l];
            }
            mma_warp(w, b, c, d);
            for (int u = 0; u < U - 1; u++) {
                for (int l = 0; l < 32; l++) {
                    std::memcpy(c[l], d[l], sizeof c[l]);
                    b[l] = bm[((u + 1) * 16 + j) * 32 + l];
                }
                mma_warp(x[u], b, c, d);
            }
        }
        for (int l = 0; l < 32; l++) {
            out[l][0] |= ((uint32_t)d[l][0] & 0x00010001u) << (2 * t0) | ((uint32_t)d[l][1] & 0x00010001u) << (2 * t0 + 1);
            out[l][1] |= ((uint32_t)d[l][2] & 0x00010001u) << (2 * t0) | ((uint32_t)d[l][3] & 0x00010001u) << (2 * t0 + 1);
        }
    }
    for (int l = 0; l < 32; l++)
        for (int r = 0; r < 2; r++)
            w[l][r] = out[l][r] ^ x[U - 1][l][r];
}

// Chains in the tensor layout: lane (G, T) holds word T of chains G and G+8.
void to_lanes(const Gf128 *v, uint32_t w[32][2])
{
    for (int lane = 0; lane < 32; lane++)
        for (int r = 0; r < 2; r++)
            w[lane][r] = word(gf_to_words(v[lane / 4 + 8 * r]), lane % 4);
}

template <int U> void check_horner(std::mt19937_64 &rng)
{
    const Gf128 p = random_gf(rng);
    std::vector<uint32_t> bm(U * bmma_words);
    Gf128 pr = p;
    for (int r = U - 1; r >= 0; r--) {
        bmma_matrix(pr, bm.data() + r * bmma_words);
        pr = gf_mul_slow(pr, p);
    }
    Gf128 acc[16], xs[U][16];
    uint32_t w[32][2], x[U][32][2];
    for (int c = 0; c < 16; c++)
        acc[c] = random_gf(rng);
    to_lanes(acc, w);
    for (int u = 0; u < U; u++) {
        for (int c = 0; c < 16; c++)
            xs[u][c] = random_gf(rng);
        to_lanes(xs[u], x[u]);
    }
    horner_warp<U>(w, x, bm.data());
    for (int c = 0; c < 16; c++) {
        Gf128 want = acc[c];
        for (int u = 0; u < U; u++) { // Horner: (want * p) ^ x[u]
            want = gf_mul_slow(want, p);
            want.hi ^= xs[u][c].hi, want.lo ^= xs[u][c].lo;
        }
        const uint4 ww = gf_to_words(want);
        for (int T = 0; T < 4; T++)
            ASSERT_EQ(word(ww, T), w[(c % 8) * 4 + T][c / 8]) << "U " << U << " chain " << c << " word " << T;
    }
}

TEST(Gf128Host, TensorCoreHornerIsTheFieldHorner)
{
    std::mt19937_64 r(11);
    for (int n = 0; n < 10; n++) {
        check_horner<1>(r);
        check_horner<2>(r);
        check_horner<4>(r);
    }
}

} // namespace
