// aria/cuda-bitslice without a GPU: the bitsliced core (aria_cuda_bitslice.cuh) is
// __host__ __device__, and the kernels call exactly these functions, so checking them on the
// CPU against the RFC's byte-level functions checks the arithmetic of the GPU kernel.
// Covered: every S-box circuit on all 256 inputs, the transposes, the diffusion (A.P, and
// that A.P = P.A), 32-block
// encryption and decryption for the three key sizes, and the CTR keystream (lane patterns,
// the launch precomputation, counters with every alignment and near carries of every byte).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "aria/aria.hpp"
#include "aria/aria_cuda_bitslice.cuh"

namespace {

using namespace kc;
using namespace kc::aria_bs;

const uint8_t *const sboxes[4] = {aria_sb1, aria_sb2, aria_sb3, aria_sb4};

// RFC 5794 section 2.2.2, byte by byte (as aria/ref).
void ref_crypt(const uint8_t (*keys)[16], int rounds, const uint8_t in[16], uint8_t out[16])
{
    uint8_t p[16];
    std::memcpy(p, in, 16);
    for (int i = 1; i <= rounds - 1; i++) {
        if (i % 2 == 1)
            aria_fo(p, keys[i - 1], p);
        else
            aria_fe(p, keys[i - 1], p);
    }
    for (int j = 0; j < 16; j++)
        out[j] = sboxes[sbox_at(2, j)][p[j] ^ keys[rounds - 1][j]] ^ keys[rounds][j];
}

// 32 blocks (512 bytes) -> sliced state and back, as the kernels do it.
void to_sliced(const uint8_t *blocks, uint32_t *s)
{
    for (int L = 0; L < lanes; L++)
        for (int m = 0; m < 4; m++)
            s[32 * m + L] = cuda::load_le32(blocks + 16 * L + 4 * m);
    slice(s);
}

void from_sliced(uint32_t *s, uint8_t *blocks)
{
    slice(s);
    for (int L = 0; L < lanes; L++)
        for (int m = 0; m < 4; m++)
            cuda::store_le32(blocks + 16 * L + 4 * m, s[32 * m + L]);
}

Cipher cipher_for(int key_bytes)
{
    return key_bytes == 16 ? Cipher::aria128 : key_bytes == 24 ? Cipher::aria192 : Cipher::aria256;
}

struct Keyed {
    AriaRoundKeys rk;
    AriaBsKeyState ks;
    Keyed(std::mt19937_64 &rng, int key_bytes)
    {
        uint8_t key[32];
        for (auto &b : key)
            b = (uint8_t)rng();
        aria_key_schedule(cipher_for(key_bytes), key, &rk);
        make_key_state(rk, &ks);
    }
};

TEST(AriaBitsliceHost, SboxCircuitsMatchTheTables)
{
    for (int k = 0; k < 4; k++) {
        for (int base = 0; base < 256; base += lanes) {
            uint32_t x[8] = {};
            for (int L = 0; L < lanes; L++)
                for (int b = 0; b < 8; b++)
                    x[b] |= (uint32_t)((to_basis_byte((uint8_t)((base + L) ^ sbox_in_const[k])) >> b) & 1) << L;
            switch (k) {
            case 0: sb1_core(x); break;
            case 1: sb2_core(x); break;
            case 2: sb3_core(x); break;
            default: sb4_core(x); break;
            }
            for (int L = 0; L < lanes; L++) {
                uint8_t y = 0;
                for (int b = 0; b < 8; b++)
                    y |= (uint8_t)(((x[b] >> L) & 1) << b);
                ASSERT_EQ(from_basis_byte(y) ^ sbox_out_const[k], sboxes[k][base + L])
                    << "SB" << k + 1 << " at " << base + L;
            }
        }
    }
}

TEST(AriaBitsliceHost, TransposeIsTheBitMatrixTranspose)
{
    std::mt19937_64 rng(1);
    for (int t = 0; t < 100; t++) {
        uint32_t m[32], orig[32];
        for (auto &w : m)
            w = (uint32_t)rng();
        std::memcpy(orig, m, sizeof m);
        transpose32(m);
        for (int r = 0; r < 32; r++)
            for (int c = 0; c < 32; c++)
                ASSERT_EQ((m[r] >> c) & 1, (orig[c] >> r) & 1);
        transpose32(m);
        ASSERT_EQ(0, std::memcmp(m, orig, sizeof m));
    }
}

TEST(AriaBitsliceHost, SlicingPutsByteBitsInTheirWords)
{
    std::mt19937_64 rng(2);
    uint8_t blocks[16 * lanes], back[16 * lanes];
    for (auto &b : blocks)
        b = (uint8_t)rng();
    uint32_t s[words];
    to_sliced(blocks, s);
    for (int L = 0; L < lanes; L++)
        for (int j = 0; j < 16; j++)
            for (int b = 0; b < 8; b++)
                ASSERT_EQ((s[8 * j + b] >> L) & 1, (uint32_t)(blocks[16 * L + j] >> b) & 1);
    from_sliced(s, back);
    EXPECT_EQ(0, std::memcmp(blocks, back, sizeof blocks));
}

TEST(AriaBitsliceHost, DiffusionIsAAfterP)
{
    std::mt19937_64 rng(3);
    uint8_t blocks[16 * lanes], got[16 * lanes], key[16];
    for (auto &b : blocks)
        b = (uint8_t)rng();
    for (auto &b : key)
        b = (uint8_t)rng();
    uint32_t s[words], k[words];
    for (int j = 0; j < 16; j++)
        for (int b = 0; b < 8; b++)
            k[8 * j + b] = 0u - (uint32_t)((key[j] >> b) & 1);
    to_sliced(blocks, s);
    diffuse_ap(s, k);
    from_sliced(s, got);
    for (int L = 0; L < lanes; L++) {
        uint8_t px[16], want[16], apx[16], pax[16];
        for (int j = 0; j < 16; j++)
            px[j] = blocks[16 * L + perm_p(j)];
        aria_diffusion(px, want);
        for (int j = 0; j < 16; j++)
            ASSERT_EQ(got[16 * L + j], want[j] ^ key[j]) << "lane " << L << " byte " << j;
        // The identity the round structure rests on: A.P = P.A.
        aria_diffusion(px, apx);
        aria_diffusion(blocks + 16 * L, want);
        for (int j = 0; j < 16; j++)
            pax[j] = want[perm_p(j)];
        ASSERT_EQ(0, std::memcmp(apx, pax, 16));
    }
}

TEST(AriaBitsliceHost, EcbMatchesTheReference)
{
    std::mt19937_64 rng(4);
    for (int key_bytes : {16, 24, 32}) {
        for (int t = 0; t < 8; t++) {
            Keyed kd(rng, key_bytes);
            uint8_t pt[16 * lanes], ct[16 * lanes], back[16 * lanes];
            for (auto &b : pt)
                b = (uint8_t)rng();
            uint32_t s[words];
            to_sliced(pt, s);
            crypt_sliced(s, kd.ks.enc);
            from_sliced(s, ct);
            for (int L = 0; L < lanes; L++) {
                uint8_t want[16];
                ref_crypt(kd.rk.ek, kd.rk.rounds, pt + 16 * L, want);
                ASSERT_EQ(0, std::memcmp(ct + 16 * L, want, 16)) << key_bytes << "-byte key, lane " << L;
            }
            to_sliced(ct, s);
            crypt_sliced(s, kd.ks.dec);
            from_sliced(s, back);
            ASSERT_EQ(0, std::memcmp(pt, back, sizeof pt)) << key_bytes << "-byte key";
        }
    }
}

// RFC 5794 Appendix A.1 through the sliced path (every lane the same block).
TEST(AriaBitsliceHost, Rfc5794Aria128)
{
    const uint8_t key[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
                             0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
    const uint8_t pt[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                            0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    const uint8_t want[16] = {0xd7, 0x18, 0xfb, 0xd6, 0xab, 0x64, 0x4c, 0x73,
                              0x9d, 0xa9, 0x5f, 0x3b, 0xe6, 0x45, 0x17, 0x78};
    AriaRoundKeys rk;
    aria_key_schedule(Cipher::aria128, key, &rk);
    static AriaBsKeyState ks;
    make_key_state(rk, &ks);
    uint8_t blocks[16 * lanes];
    for (int L = 0; L < lanes; L++)
        std::memcpy(blocks + 16 * L, pt, 16);
    uint32_t s[words];
    to_sliced(blocks, s);
    crypt_sliced(s, ks.enc);
    from_sliced(s, blocks);
    for (int L = 0; L < lanes; L++)
        ASSERT_EQ(0, std::memcmp(blocks + 16 * L, want, 16)) << "lane " << L;
}

// Lane L computes counter v + 32 L (low 32 bits), bytes 0..11 from the launch's counter.
void check_ctr(const Keyed &kd, const uint8_t nonce[12], uint32_t v)
{
    uint8_t ctr[16];
    std::memcpy(ctr, nonce, 12);
    ctr[12] = (uint8_t)(v >> 24), ctr[13] = (uint8_t)(v >> 16), ctr[14] = (uint8_t)(v >> 8), ctr[15] = (uint8_t)v;
    AriaBsCtr c;
    ctr_precompute(kd.ks.enc, ctr, &c);
    ASSERT_EQ(c.ctr_lo, v);
    uint32_t s[words];
    ctr_keystream_sliced(s, kd.ks.enc, c, v);
    uint8_t ks[16 * lanes];
    from_sliced(s, ks);
    for (int L = 0; L < lanes; L++) {
        const uint32_t x = v + 32u * (uint32_t)L;
        uint8_t blk[16], want[16];
        std::memcpy(blk, nonce, 12);
        blk[12] = (uint8_t)(x >> 24), blk[13] = (uint8_t)(x >> 16), blk[14] = (uint8_t)(x >> 8), blk[15] = (uint8_t)x;
        ref_crypt(kd.rk.ek, kd.rk.rounds, blk, want);
        ASSERT_EQ(0, std::memcmp(ks + 16 * L, want, 16)) << "counter " << std::hex << v << " lane " << std::dec << L;
    }
}

TEST(AriaBitsliceHost, CtrCountersAndKeystream)
{
    std::mt19937_64 rng(5);
    for (int key_bytes : {16, 24, 32}) {
        Keyed kd(rng, key_bytes);
        uint8_t nonce[12];
        for (auto &b : nonce)
            b = (uint8_t)rng();
        // Every alignment within 1024 (bits 0..9), carries out of each byte, random values.
        for (uint32_t v = 0; v < 1024; v += 1 + (key_bytes == 16 ? 0 : 6))
            check_ctr(kd, nonce, v);
        for (uint32_t base : {0x000000ffu, 0x0000ffffu, 0x00ffffffu, 0x7fffffffu, 0xfffff000u})
            for (uint32_t d : {0u, 1u, 31u, 32u, 33u, 500u, 991u, 992u, 1000u})
                check_ctr(kd, nonce, base - d);
        for (int t = 0; t < 50; t++)
            check_ctr(kd, nonce, (uint32_t)rng() & ~0u >> (t % 2 ? 0 : 12));
    }
}

} // namespace
