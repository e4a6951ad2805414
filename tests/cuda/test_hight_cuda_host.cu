// hight/cuda-bitslice without a GPU: the bitsliced core (hight_cuda_bitslice.cuh) is
// __host__ __device__, and the kernels call exactly these functions, so checking them on the
// CPU against hight/ref checks the arithmetic of the GPU kernel. Covered: the transposes, the
// 32-block encryption and decryption, and the CTR keystream (lane patterns, the launch
// precomputation, counters near carries of every byte and near 2^64).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "hight/hight.hpp"
#include "hight/hight_cuda_bitslice.cuh"

namespace {

using namespace kc;
using namespace kc::hight_bs;

struct Keyed {
    HightRoundKeys rk;
    KeyMasks masks;
    explicit Keyed(std::mt19937_64 &rng)
    {
        uint8_t key[16];
        for (auto &b : key)
            b = (uint8_t)rng();
        hight_key_schedule(key, &rk);
        expand_key_masks(rk, &masks);
    }
};

void load_words(const uint8_t *blocks, uint32_t *w0, uint32_t *w1)
{
    for (int L = 0; L < lanes; L++) {
        w0[L] = cuda::load_le32(blocks + 8 * L);
        w1[L] = cuda::load_le32(blocks + 8 * L + 4);
    }
}

void store_words(const uint32_t *w0, const uint32_t *w1, uint8_t *blocks)
{
    for (int L = 0; L < lanes; L++) {
        cuda::store_le32(blocks + 8 * L, w0[L]);
        cuda::store_le32(blocks + 8 * L + 4, w1[L]);
    }
}

TEST(HightCudaHost, TransposeIsTheBitMatrixTranspose)
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

TEST(HightCudaHost, SlicesHoldBitBOfByteJOfBlockL)
{
    std::mt19937_64 rng(2);
    uint8_t blocks[8 * lanes], back[8 * lanes];
    for (auto &b : blocks)
        b = (uint8_t)rng();
    uint32_t w0[32], w1[32], x[8][8];
    load_words(blocks, w0, w1);
    blocks_to_slices(w0, w1, x);
    for (int L = 0; L < lanes; L++)
        for (int j = 0; j < 8; j++)
            for (int b = 0; b < 8; b++)
                ASSERT_EQ((x[j][b] >> L) & 1, (uint32_t)(blocks[8 * L + j] >> b) & 1);
    slices_to_blocks(x, w0, w1);
    store_words(w0, w1, back);
    EXPECT_EQ(0, std::memcmp(blocks, back, sizeof blocks));
}

TEST(HightCudaHost, EncryptDecrypt32MatchReference)
{
    std::mt19937_64 rng(3);
    for (int t = 0; t < 200; t++) {
        Keyed k(rng);
        uint8_t pt[8 * lanes], ct[8 * lanes], want[8 * lanes], back[8 * lanes];
        for (auto &b : pt)
            b = (uint8_t)rng();
        for (int L = 0; L < lanes; L++)
            hight_encrypt_block(k.rk, pt + 8 * L, want + 8 * L);
        uint32_t w0[32], w1[32], x[8][8];
        load_words(pt, w0, w1);
        blocks_to_slices(w0, w1, x);
        encrypt32(k.masks, x);
        slices_to_blocks(x, w0, w1);
        store_words(w0, w1, ct);
        ASSERT_EQ(0, std::memcmp(ct, want, sizeof ct)) << "trial " << t;
        load_words(ct, w0, w1);
        blocks_to_slices(w0, w1, x);
        decrypt32(k.masks, x);
        slices_to_blocks(x, w0, w1);
        store_words(w0, w1, back);
        ASSERT_EQ(0, std::memcmp(back, pt, sizeof pt)) << "trial " << t;
    }
}

// The standard's first reference value, in byte-array order (tests/vectors/README.md).
TEST(HightCudaHost, SpecVector)
{
    const uint8_t key[16] = {0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88,
                             0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x00};
    const uint8_t want[8] = {0xf2, 0x03, 0x4f, 0xd9, 0xae, 0x18, 0xf4, 0x00};
    HightRoundKeys rk;
    hight_key_schedule(key, &rk);
    KeyMasks m;
    expand_key_masks(rk, &m);
    uint8_t blocks[8 * lanes] = {};
    uint32_t w0[32], w1[32], x[8][8];
    load_words(blocks, w0, w1);
    blocks_to_slices(w0, w1, x);
    encrypt32(m, x);
    slices_to_blocks(x, w0, w1);
    store_words(w0, w1, blocks);
    for (int L = 0; L < lanes; L++)
        ASSERT_EQ(0, std::memcmp(blocks + 8 * L, want, 8));
}

// Keystream of one thread of the CTR kernel: counters hi : lo + 32 L. Checked against
// E(counter) from hight/ref.
void check_keystream(const Keyed &k, uint64_t first)
{
    // The thread's counters: bits 5..9 of the low word are the lane.
    const uint32_t hi = (uint32_t)(first >> 32), lo = (uint32_t)first & ~(31u << 5);
    uint8_t ctr[8];
    for (int i = 0; i < 8; i++)
        ctr[i] = (uint8_t)(first >> (56 - 8 * i));
    CtrPre pre;
    ctr_precompute(k.rk, ctr, &pre);
    uint32_t ks0[32], ks1[32];
    ctr_keystream32(k.masks, pre, lo, ks0, ks1);
    for (int L = 0; L < lanes; L++) {
        const uint64_t c = (uint64_t)hi << 32 | (lo + 32u * L);
        uint8_t blk[8], want[8], got[8];
        for (int i = 0; i < 8; i++)
            blk[i] = (uint8_t)(c >> (56 - 8 * i));
        hight_encrypt_block(k.rk, blk, want);
        cuda::store_le32(got, ks0[L]);
        cuda::store_le32(got + 4, ks1[L]);
        ASSERT_EQ(0, std::memcmp(got, want, 8)) << std::hex << "counter " << c;
    }
}

TEST(HightCudaHost, CtrKeystreamRandomCounters)
{
    std::mt19937_64 rng(4);
    for (int t = 0; t < 300; t++) {
        Keyed k(rng);
        check_keystream(k, rng());
    }
}

// Counters whose lanes run up to a carry out of each byte, up to 2^32 - 1 in the low word, and
// the high word at 0 and at 2^32 - 1 (the last blocks before the counter wraps at 2^64).
TEST(HightCudaHost, CtrKeystreamCarriesAndWrap)
{
    std::mt19937_64 rng(5);
    Keyed k(rng);
    const uint64_t his[] = {0, 1, 0xffffffffull, 0x00ff00ffull, 0x80000000ull};
    for (uint64_t hi : his)
        for (int bit = 10; bit <= 32; bit++) {
            const uint64_t lo = (1ull << bit) - 1024; // the thread's last group before a carry
            for (uint32_t t = 0; t < 32; t += 7)
                check_keystream(k, hi << 32 | (lo + t));
        }
    check_keystream(k, ~0ull - 1023);
    check_keystream(k, ~0ull - 1023 + 31);
    check_keystream(k, 0);
}

// Reference CTR: out = in ^ E(ctr + i), the counter a big-endian 64-bit integer.
std::vector<uint8_t> reference_ctr(const HightRoundKeys &rk, uint64_t ctr, const uint8_t *in, size_t nbytes)
{
    std::vector<uint8_t> out(nbytes);
    for (size_t i = 0; i < nbytes; i += 8) {
        uint8_t blk[8], ks[8];
        const uint64_t c = ctr + i / 8;
        for (int j = 0; j < 8; j++)
            blk[j] = (uint8_t)(c >> (56 - 8 * j));
        hight_encrypt_block(rk, blk, ks);
        for (size_t j = 0; j < 8 && i + j < nbytes; j++)
            out[i + j] = (uint8_t)((in ? in[i + j] : 0) ^ ks[j]);
    }
    return out;
}

// A whole CTR launch the way hight_bs_ctr sets it up and the kernel loops it: every group,
// every thread of the warp. The offset of the buffers (alignment) does not change the host
// path, but the lane-to-block mapping, the first group's offset and the tail do.
void run_ctr_launch(const Keyed &k, uint64_t ctr, const uint8_t *in, uint8_t *out, size_t nbytes)
{
    uint8_t c[8];
    for (int j = 0; j < 8; j++)
        c[j] = (uint8_t)(ctr >> (56 - 8 * j));
    CtrPre pre;
    ctr_precompute(k.rk, c, &pre);
    const uint32_t lo = (uint32_t)ctr;
    CtrRun run;
    run.lo_base = lo & ~(group_blocks - 1);
    run.first = lo & (group_blocks - 1);
    run.nblocks = nbytes / 8;
    run.tail = (uint32_t)(nbytes % 8);
    const uint64_t ngroups = (run.first + run.nblocks + (run.tail != 0) + group_blocks - 1) / group_blocks;
    for (uint64_t g = 0; g < ngroups; g++)
        for (uint32_t t = 0; t < 32; t++)
            ctr_group(k.masks, pre, run, g, t, in, out, (t + g) % 2 == 0);
}

TEST(HightCudaHost, CtrLaunchesAtEveryOffset)
{
    std::mt19937_64 rng(6);
    Keyed k(rng);
    const size_t sizes[] = {1, 7, 8, 9, 8 * 1023, 8 * 1024, 8 * 1024 + 5, 8 * 2500 + 3};
    for (size_t nbytes : sizes)
        for (int trial = 0; trial < 6; trial++) {
            // Offsets inside the first group, a low word near its end (no wrap inside the
            // launch, as the caller guarantees), and a high word at its extremes.
            uint64_t hi = trial % 3 == 0 ? 0xffffffffull : rng() >> 32;
            uint32_t lo = (uint32_t)rng();
            const uint64_t nblk = (nbytes + 7) / 8;
            if (trial == 1)
                lo = (uint32_t)(0x100000000ull - nblk); // ends exactly at 2^32 - 1
            if (trial == 2)
                lo = 0;
            if ((uint64_t)lo + nblk > 0x100000000ull)
                lo = (uint32_t)(0x100000000ull - nblk);
            const uint64_t ctr = hi << 32 | lo;
            std::vector<uint8_t> in(nbytes + 16), out(nbytes + 16, 0xa5);
            for (auto &b : in)
                b = (uint8_t)rng();
            const bool with_in = trial % 2 == 0;
            run_ctr_launch(k, ctr, with_in ? in.data() : nullptr, out.data(), nbytes);
            const auto want = reference_ctr(k.rk, ctr, with_in ? in.data() : nullptr, nbytes);
            ASSERT_EQ(0, std::memcmp(out.data(), want.data(), nbytes))
                << "nbytes " << nbytes << " ctr " << std::hex << ctr;
            for (size_t i = nbytes; i < out.size(); i++)
                ASSERT_EQ(out[i], 0xa5) << "wrote past the end, nbytes " << nbytes;
        }
}

TEST(HightCudaHost, CtrInPlace)
{
    std::mt19937_64 rng(7);
    Keyed k(rng);
    const size_t nbytes = 8 * 3000 + 6;
    std::vector<uint8_t> buf(nbytes);
    for (auto &b : buf)
        b = (uint8_t)rng();
    const uint64_t ctr = 0x0123456789abcdefull;
    const auto want = reference_ctr(k.rk, ctr, buf.data(), nbytes);
    run_ctr_launch(k, ctr, buf.data(), buf.data(), nbytes);
    EXPECT_EQ(0, std::memcmp(buf.data(), want.data(), nbytes));
}

// ECB launches as the kernel loops them: groups of 1024 blocks, a partial last group.
TEST(HightCudaHost, EcbLaunches)
{
    std::mt19937_64 rng(8);
    Keyed k(rng);
    for (size_t nblocks : {size_t(1), size_t(31), size_t(1024), size_t(1025), size_t(2047), size_t(3000)}) {
        std::vector<uint8_t> pt(8 * nblocks), ct(8 * nblocks + 8, 0xa5), want(8 * nblocks);
        for (auto &b : pt)
            b = (uint8_t)rng();
        for (size_t i = 0; i < nblocks; i++)
            hight_encrypt_block(k.rk, pt.data() + 8 * i, want.data() + 8 * i);
        const uint64_t ngroups = (nblocks + group_blocks - 1) / group_blocks;
        for (uint64_t g = 0; g < ngroups; g++)
            for (uint32_t t = 0; t < 32; t++)
                ecb_group<false>(k.masks, g, t, pt.data(), ct.data(), nblocks, true);
        ASSERT_EQ(0, std::memcmp(ct.data(), want.data(), want.size())) << nblocks;
        for (size_t i = want.size(); i < ct.size(); i++)
            ASSERT_EQ(ct[i], 0xa5);
        // Decrypt in place.
        for (uint64_t g = 0; g < ngroups; g++)
            for (uint32_t t = 0; t < 32; t++)
                ecb_group<true>(k.masks, g, t, ct.data(), ct.data(), nblocks, false);
        ASSERT_EQ(0, std::memcmp(ct.data(), pt.data(), pt.size())) << nblocks;
    }
}

} // namespace
