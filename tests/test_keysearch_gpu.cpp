// The GPU key search (gpu_search_first_pair) on its own, for every cipher: a key planted at
// a random index of a scattered mask is found, and nothing else, whatever the launch shape
// and wherever the range starts (not a multiple of a bitsliced searcher's 32 lanes).
// Skipped where there is no GPU; the driver's GPU tests are in test_keysearch.cpp.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/key_state.hpp"
#include "cuda/devices.hpp"
#include "dispatch/registry.hpp"
#include "keysearch/search_gpu.hpp"

namespace {

using namespace kc;
using namespace kc::keysearch;

class GpuKeysearch : public ::testing::TestWithParam<int> {
  protected:
    void SetUp() override
    {
        if (cuda_device_count() == 0)
            GTEST_SKIP() << "no GPU on this machine (or no CUDA build)";
    }
};

// A problem for cipher c with `bits` unknown bits at random positions; the key of index
// `planted` encrypts pairs[0].
Problem planted_problem(Cipher c, int bits, uint64_t planted, std::mt19937_64 &rng)
{
    const CipherDesc &d = cipher_desc(c);
    Problem p{};
    p.cipher = c;
    p.unknown_bits = bits;
    for (size_t i = 0; i < d.key_bytes; i++)
        p.key[i] = (uint8_t)rng();
    for (int set = 0; set < bits;) {
        const size_t byte = rng() % d.key_bytes;
        const uint8_t bit = (uint8_t)(1u << (rng() % 8));
        if (!(p.mask[byte] & bit)) {
            p.mask[byte] |= bit;
            set++;
        }
    }
    Pair pair{};
    for (size_t i = 0; i < d.block_bytes; i++)
        pair.pt[i] = (uint8_t)rng();
    uint8_t key[32];
    candidate_key(p, planted, key);
    const Kernel *ref = reference_kernel(c);
    KeyState ks;
    EXPECT_TRUE(ks.init(*ref, c, key));
    ref->encrypt_blocks(ks.get(), pair.pt, pair.ct, 1);
    p.pairs.push_back(pair);
    return p;
}

// A family whose module offers no GPU key search (in a CUDA build every family has one today)
// is refused with KCIPHER_ERR_UNSUPPORTED, never searched with another family's kernel; true
// when refused.
bool refused_without_gpu_search(Cipher c)
{
    if (gpu_search_for(c) != nullptr)
        return false;
    std::mt19937_64 rng(5);
    const Problem p = planted_problem(c, 8, 5, rng);
    std::vector<uint64_t> hits;
    EXPECT_EQ(KCIPHER_ERR_UNSUPPORTED, gpu_search_first_pair(p, 0, 256, 0, hits)) << cipher_desc(c).name;
    EXPECT_TRUE(hits.empty());
    return true;
}

TEST_P(GpuKeysearch, FindsThePlantedKeyInAScatteredMask)
{
    const Cipher c = (Cipher)GetParam();
    if (refused_without_gpu_search(c))
        GTEST_SKIP() << cipher_desc(c).name << ": its family has no GPU key search (refused, as it must be)";
    std::mt19937_64 rng(1000 + GetParam());
    const int bits = 22;
    const uint64_t planted = rng() % (1ull << bits);
    const Problem p = planted_problem(c, bits, planted, rng);
    std::vector<uint64_t> hits;
    ASSERT_EQ(KCIPHER_OK, gpu_search_first_pair(p, 0, 1ull << bits, 0, hits)) << kcipher_gpu_last_error();
    EXPECT_EQ(std::vector<uint64_t>{planted}, hits) << cipher_desc(c).name;
}

TEST_P(GpuKeysearch, AnyShapeAndUnalignedRangesGiveTheSameHits)
{
    const Cipher c = (Cipher)GetParam();
    if (refused_without_gpu_search(c))
        GTEST_SKIP() << cipher_desc(c).name << ": its family has no GPU key search (refused, as it must be)";
    std::mt19937_64 rng(2000 + GetParam());
    const int bits = 16;
    const uint64_t planted = 1000 + rng() % 3000;
    const Problem p = planted_problem(c, bits, planted, rng);
    const GpuSearchShape shapes[] = {{}, {32, 3, 0}, {64, 0, 32}, {256, 7, 96}};
    for (const GpuSearchShape &s : shapes) {
        for (uint64_t lo : {planted - 37, planted, planted - 1}) {
            std::vector<uint64_t> hits;
            const uint64_t count = planted + 45 - lo;
            ASSERT_EQ(KCIPHER_OK, gpu_search_first_pair(p, lo, count, 0, hits, s)) << kcipher_gpu_last_error();
            EXPECT_EQ(std::vector<uint64_t>{planted}, hits)
                << cipher_desc(c).name << " threads " << s.threads << " lo " << lo;
            hits.clear();
            ASSERT_EQ(KCIPHER_OK, gpu_search_first_pair(p, planted + 1, 500, 0, hits, s));
            EXPECT_TRUE(hits.empty()) << cipher_desc(c).name;
        }
    }
}

TEST(GpuKeysearchErrors, NoSuchGpu)
{
    std::mt19937_64 rng(3);
    const Problem p = planted_problem(Cipher::lea128, 8, 5, rng);
    std::vector<uint64_t> hits;
    EXPECT_EQ(KCIPHER_ERR_NO_GPU, gpu_search_first_pair(p, 0, 256, 1000, hits));
    EXPECT_EQ(KCIPHER_ERR_NO_GPU, gpu_search_first_pair(p, 0, 256, -1, hits));
}

std::string cipher_name(const ::testing::TestParamInfo<int> &info)
{
    std::string n = cipher_desc((Cipher)info.param).name;
    for (char &ch : n)
        if (ch == '-')
            ch = '_';
    return n;
}

INSTANTIATE_TEST_SUITE_P(AllCiphers, GpuKeysearch, ::testing::Range(0, cipher_count), cipher_name);

} // namespace
