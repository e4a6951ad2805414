// The CPU multi-key searchers (src/kit/search/cpu_searcher.hpp: one candidate key per SIMD
// lane, round keys derived on the fly) against the definition and the reference kernels:
// a key planted at every index of an unaligned range (so at every lane, and at the groups'
// edges) is found, and only there; keys just outside the range are not reported; masks with
// fewer bits than a group has lanes; the top of a 64-bit mask (the index wraps at 2^64);
// random problems give no false hits; and cpu_search_first_pair through a searcher agrees
// with the reference kernel's per-key path across its chunk boundaries. Searchers this
// machine cannot run are skipped.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/key_state.hpp"
#include "dispatch/features.hpp"
#include "dispatch/registry.hpp"
#include "kit/search/candidates.hpp"
#include "keysearch/cpu_search.hpp"
#include "kit/search/cpu_searcher.hpp"

using namespace kc;
using namespace kc::keysearch;

namespace {

bool runnable(const CpuSearcher &s) { return (machine_features() & s.requires) == s.requires; }

std::vector<Cipher> ciphers_of(const CpuSearcher &s)
{
    std::vector<Cipher> out;
    for (int i = 0; i < cipher_count; i++)
        if (std::strcmp(cipher_by_index(i)->family, s.family) == 0)
            out.push_back(cipher_by_index(i)->id);
    return out;
}

// A mask of `bits` bits at scattered positions (the first and last key bytes always hold one).
void scattered_mask(Problem &p, int bits, std::mt19937_64 &g)
{
    const size_t n = cipher_desc(p.cipher).key_bytes;
    std::memset(p.mask, 0, sizeof p.mask);
    p.mask[0] |= 0x80;
    p.mask[n - 1] |= 0x01;
    int have = bits >= 2 ? 2 : 0;
    if (bits < 2) {
        p.mask[0] = 0;
        p.mask[n - 1] = bits == 1 ? 0x01 : 0;
        have = bits;
    }
    while (have < bits) {
        size_t pos = g() % (n * 8);
        uint8_t bit = uint8_t(1u << (pos % 8));
        if ((p.mask[pos / 8] & bit) == 0) {
            p.mask[pos / 8] |= bit;
            have++;
        }
    }
    p.unknown_bits = bits;
}

Problem random_problem(Cipher c, int bits, std::mt19937_64 &g)
{
    Problem p;
    p.cipher = c;
    std::memset(p.key, 0, sizeof p.key);
    for (size_t i = 0; i < cipher_desc(c).key_bytes; i++)
        p.key[i] = uint8_t(g());
    scattered_mask(p, bits, g);
    Pair pair;
    std::memset(&pair, 0, sizeof pair);
    for (size_t i = 0; i < cipher_desc(c).block_bytes; i++) {
        pair.pt[i] = uint8_t(g());
        pair.ct[i] = uint8_t(g());
    }
    p.pairs.assign(1, pair);
    return p;
}

// pairs[0].ct := E(candidate i, pairs[0].pt) with the reference kernel.
void plant(Problem &p, uint64_t i)
{
    uint8_t key[32];
    candidate_key(p, i, key);
    const Kernel &ref = *reference_kernel(p.cipher);
    KeyState ks;
    ASSERT_TRUE(ks.init(ref, p.cipher, key));
    ref.encrypt_blocks(ks.get(), p.pairs[0].pt, p.pairs[0].ct, 1);
}

std::vector<uint64_t> run(const CpuSearcher &s, const Problem &p, uint64_t first, uint64_t count)
{
    std::vector<uint64_t> hits;
    s.search(p, first, count, hits);
    return hits;
}

class KeysearchSimd : public ::testing::TestWithParam<const CpuSearcher *> {
  protected:
    void SetUp() override
    {
        if (!runnable(*GetParam()))
            GTEST_SKIP() << GetParam()->name << " needs " << feature_names(GetParam()->requires);
    }
};

TEST_P(KeysearchSimd, NamesAKernelOfItsFamily)
{
    const CpuSearcher &s = *GetParam();
    const Kernel *k = nullptr;
    for (const Kernel *x : all_kernels())
        if (std::strcmp(x->name, s.kernel) == 0)
            k = x;
    ASSERT_NE(k, nullptr) << s.kernel;
    EXPECT_STREQ(k->family, s.family);
    ASSERT_FALSE(ciphers_of(s).empty());
    for (Cipher c : ciphers_of(s))
        EXPECT_EQ(cpu_searcher_for(c, *k), &s);
}

// Every index of an unaligned range that spans three groups of up to 64 lanes.
TEST_P(KeysearchSimd, PlantedAtEveryIndexOfAnUnalignedRange)
{
    const CpuSearcher &s = *GetParam();
    std::mt19937_64 g(1234);
    for (Cipher c : ciphers_of(s)) {
        SCOPED_TRACE(cipher_desc(c).name);
        Problem p = random_problem(c, 14, g);
        const uint64_t first = 64 * (g() % 200) + 1 + g() % 62, count = 140;
        for (uint64_t i = first; i < first + count; i++) {
            plant(p, i);
            EXPECT_EQ(run(s, p, first, count), std::vector<uint64_t>{i}) << "planted at " << i;
        }
        // Just outside: not reported.
        plant(p, first - 1);
        EXPECT_TRUE(run(s, p, first, count).empty());
        plant(p, first + count);
        EXPECT_TRUE(run(s, p, first, count).empty());
        // One-key ranges.
        plant(p, first + 7);
        EXPECT_EQ(run(s, p, first + 7, 1), std::vector<uint64_t>{first + 7});
        EXPECT_TRUE(run(s, p, first + 6, 1).empty());
        EXPECT_TRUE(run(s, p, first + 8, 1).empty());
        EXPECT_TRUE(run(s, p, first + 7, 0).empty());
    }
}

// Fewer mask bits than lanes: the lanes past 2^bits repeat keys and must not report.
TEST_P(KeysearchSimd, MaskNarrowerThanAGroup)
{
    const CpuSearcher &s = *GetParam();
    std::mt19937_64 g(99);
    for (Cipher c : ciphers_of(s)) {
        SCOPED_TRACE(cipher_desc(c).name);
        for (int bits : {0, 1, 3, 5}) {
            Problem p = random_problem(c, bits, g);
            const uint64_t n = uint64_t(1) << bits;
            for (uint64_t i = 0; i < n; i++) {
                plant(p, i);
                EXPECT_EQ(run(s, p, 0, n), std::vector<uint64_t>{i}) << bits << " bits, planted at " << i;
                if (i > 0)
                    EXPECT_TRUE(run(s, p, 0, i).empty());
            }
        }
    }
}

// A 64-bit mask at the top of its range: the last group ends at 2^64 - 1.
TEST_P(KeysearchSimd, TopOfASixtyFourBitMask)
{
    const CpuSearcher &s = *GetParam();
    std::mt19937_64 g(7);
    for (Cipher c : ciphers_of(s)) {
        SCOPED_TRACE(cipher_desc(c).name);
        Problem p = random_problem(c, 64, g);
        const uint64_t count = 77, first = 0 - count; // [2^64 - 77, 2^64)
        for (uint64_t i : {first, first + 1, first + 40, ~uint64_t(0) - 1, ~uint64_t(0)}) {
            plant(p, i);
            EXPECT_EQ(run(s, p, first, count), std::vector<uint64_t>{i}) << "planted at " << i;
        }
        plant(p, first - 1);
        EXPECT_TRUE(run(s, p, first, count).empty());
    }
}

TEST_P(KeysearchSimd, RandomProblemsHaveNoHits)
{
    const CpuSearcher &s = *GetParam();
    std::mt19937_64 g(555);
    for (Cipher c : ciphers_of(s)) {
        SCOPED_TRACE(cipher_desc(c).name);
        for (int rep = 0; rep < 3; rep++) {
            Problem p = random_problem(c, 20, g);
            const uint64_t first = g() % 100000;
            EXPECT_TRUE(run(s, p, first, 5000).empty());
        }
    }
}

// cpu_search_first_pair with the searcher's kernel (the searcher, in chunks that end on
// multiples of 2^16) against the reference kernel's per-key path, across a chunk boundary.
TEST_P(KeysearchSimd, CpuSearchAgreesWithTheReferencePath)
{
    const CpuSearcher &s = *GetParam();
    const Kernel *k = nullptr;
    for (const Kernel *x : all_kernels())
        if (std::strcmp(x->name, s.kernel) == 0)
            k = x;
    ASSERT_NE(k, nullptr);
    std::mt19937_64 g(31337);
    std::atomic<bool> never{false};
    for (Cipher c : ciphers_of(s)) {
        SCOPED_TRACE(cipher_desc(c).name);
        Problem p = random_problem(c, 24, g);
        const uint64_t first = 3 * 65536 - 301, count = 700;
        for (uint64_t i : std::vector<uint64_t>{first, 3 * 65536 - 1, 3 * 65536, first + count - 1}) {
            plant(p, i);
            std::vector<uint64_t> simd, ref;
            EXPECT_EQ(cpu_search_first_pair(p, *k, first, count, never, simd), count);
            EXPECT_EQ(cpu_search_first_pair(p, *reference_kernel(c), first, count, never, ref), count);
            EXPECT_EQ(simd, ref);
            EXPECT_EQ(simd, std::vector<uint64_t>{i});
        }
    }
}

std::string searcher_name(const ::testing::TestParamInfo<const CpuSearcher *> &i)
{
    std::string n = i.param->name;
    for (char &ch : n)
        if (!isalnum((unsigned char)ch))
            ch = '_';
    return n;
}

INSTANTIATE_TEST_SUITE_P(Searchers, KeysearchSimd, ::testing::ValuesIn(all_cpu_searchers()), searcher_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KeysearchSimd); // none built (aarch64)

} // namespace
