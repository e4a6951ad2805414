// The GPU key search's arithmetic without a GPU: the candidate walk (kit/search/gpu_search.cuh) and
// the ARIA and HIGHT searchers' tests (aria_cuda_keysearch.cuh, hight_cuda_keysearch.cuh)
// are __host__ __device__, so they run here against the reference kernels. (LEA and CHAM
// reuse the host key schedule's own functions and the kernels' rounds; the GPU tests cover
// them end to end.)
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "aria/aria_cuda_keysearch.cuh"
#include "core/key_state.hpp"
#include "dispatch/registry.hpp"
#include "hight/hight_cuda_keysearch.cuh"
#include "kit/search/gpu_search.cuh"

namespace {

using namespace kc;
using kc::keysearch::cuda::Range;

uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }

void to_bytes(const uint32_t *w, int kw, uint8_t *out)
{
    for (int i = 0; i < kw; i++)
        for (int b = 0; b < 4; b++)
            out[4 * i + b] = (uint8_t)(w[i] >> (24 - 8 * b));
}

void ref_encrypt(Cipher c, const uint8_t *key, const uint8_t *in, uint8_t *out)
{
    const Kernel *k = reference_kernel(c);
    KeyState ks;
    ASSERT_TRUE(ks.init(*k, c, key));
    k->encrypt_blocks(ks.get(), in, out, 1);
}

// A mask of `bits` random positions among kw words.
Range random_range(std::mt19937_64 &rng, int kw, int bits)
{
    Range r{};
    int set = 0;
    while (set < bits) {
        const int w = (int)(rng() % kw), s = (int)(rng() % 32);
        if (!((r.mask[w] >> s) & 1)) {
            r.mask[w] |= 1u << s;
            set++;
        }
    }
    for (int w = 0; w < kw; w++)
        r.tmpl[w] = (uint32_t)rng() & ~r.mask[w];
    return r;
}

TEST(KeysearchWalk, StepsVisitTheDepositedCandidatesInOrder)
{
    std::mt19937_64 rng(1);
    for (int trial = 0; trial < 20; trial++) {
        Range r = random_range(rng, 4, 12);
        std::memcpy(r.step_mask, r.mask, sizeof r.mask);
        uint32_t walk[4], direct[4];
        keysearch::cuda::deposit<4>(r, 100, walk);
        for (uint64_t i = 100; i < 400; i++) {
            keysearch::cuda::deposit<4>(r, i, direct);
            ASSERT_EQ(0, std::memcmp(walk, direct, sizeof walk)) << i;
            keysearch::cuda::step<4>(r, walk);
        }
    }
}

TEST(KeysearchWalk, TheTemplateSurvivesAndTheMaskIsCovered)
{
    Range r{};
    r.mask[3] = 0x0000000f;
    r.mask[0] = 0x80000000;
    r.tmpl[1] = 0x12345678;
    uint32_t k[4];
    keysearch::cuda::deposit<4>(r, 0x1f, k);
    EXPECT_EQ(0x80000000u, k[0]);
    EXPECT_EQ(0x12345678u, k[1]);
    EXPECT_EQ(0x0000000fu, k[3]);
}

TEST(AriaSearchHost, FindsThePlantedKeyAndRejectsOthers)
{
    std::mt19937_64 rng(2);
    const Cipher ciphers[] = {Cipher::aria128, Cipher::aria192, Cipher::aria256};
    for (Cipher c : ciphers) {
        const int kw = (int)cipher_desc(c).key_bytes / 4;
        for (int trial = 0; trial < 8; trial++) {
            uint32_t key[8];
            uint8_t kb[32], pt[16], ct[16];
            for (int i = 0; i < kw; i++)
                key[i] = (uint32_t)rng();
            for (auto &b : pt)
                b = (uint8_t)rng();
            to_bytes(key, kw, kb);
            ref_encrypt(c, kb, pt, ct);

            aria_cuda::AriaSearchParams q{};
            for (int j = 0; j < 4; j++)
                q.pt[j] = be32(pt + 4 * j);
            q.ct0 = cuda::load_le32(ct);
            const int first = aria_first_constant(c);
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 4; j++) {
                    const uint32_t v = be32(aria_key_constants[(first + i) % 3] + 4 * j);
                    q.ck[i][j] = i == 2 ? aria_cuda::rot16(v) : v;
                }
            bool hit = false, miss = false;
            const aria_cuda::HostTab tab;
            if (c == Cipher::aria128)
                hit = aria_cuda::search_test<12, 4>(tab, q, key);
            else if (c == Cipher::aria192)
                hit = aria_cuda::search_test<14, 6>(tab, q, key);
            else
                hit = aria_cuda::search_test<16, 8>(tab, q, key);
            key[kw - 1] ^= 1;
            if (c == Cipher::aria128)
                miss = aria_cuda::search_test<12, 4>(tab, q, key);
            else if (c == Cipher::aria192)
                miss = aria_cuda::search_test<14, 6>(tab, q, key);
            else
                miss = aria_cuda::search_test<16, 8>(tab, q, key);
            EXPECT_TRUE(hit) << cipher_desc(c).name;
            EXPECT_FALSE(miss) << cipher_desc(c).name;
        }
    }
}

TEST(HightSearchHost, EachLaneIsTheCandidateOfItsIndex)
{
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 6; trial++) {
        const int bits = 5 + trial; // the lowest five take the lanes, the rest the walk
        Range r = random_range(rng, 4, bits);
        const uint64_t group = (rng() % (1ull << (bits - 5))) * 32;
        const int lane = (int)(rng() % 32);
        uint32_t key[4], lane_key[4];
        keysearch::cuda::deposit<4>(r, group, key);
        keysearch::cuda::deposit<4>(r, group + lane, lane_key);
        uint8_t kb[16], pt[8], ct[8];
        to_bytes(lane_key, 4, kb);
        for (auto &b : pt)
            b = (uint8_t)rng();
        ref_encrypt(Cipher::hight, kb, pt, ct);
        const hight_bs::HightSearchParams q = hight_bs::search_params(pt, ct, r.mask);
        EXPECT_EQ(1u << lane, hight_bs::search_test32(key, q)) << "trial " << trial;
    }
}

} // namespace
