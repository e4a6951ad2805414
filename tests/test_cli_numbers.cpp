// Every numeric option goes through one parser (tools/kcipher/numbers.hpp): the same forms
// (leading zeros, k/M/G/T and KiB/MiB/GiB/TiB suffixes) are accepted everywhere, signs and
// values past 64 bits or past the option's limit are refused with exit 2 and a message that
// names the option and the limit, before anything runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kcipher/kcipher.hpp"
#include "support/cli_kit.hpp"

namespace {

using namespace kct;

const std::string k16 = "000102030405060708090a0b0c0d0e0f";

// HIGHT with the key's last byte unknown: a search of 256 candidates.
struct SmallSearch {
    std::vector<std::string> args;
    std::string key;
};

SmallSearch small_search()
{
    std::vector<uint8_t> key = kct::random_bytes(16, 41), tmpl = key, mask(16, 0);
    tmpl[15] = 0;
    mask[15] = 0xff;
    kcipher::Cipher c("hight", key);
    auto pt = kct::random_bytes(8, 42);
    return {{"keysearch", "-c", "hight", "--plaintext", kct::tohex(pt), "--ciphertext", kct::tohex(c.ecb_encrypt(pt)),
             "--mask", kct::tohex(mask), "--threads", "1", "--no-progress", "-k", kct::tohex(tmpl)},
            kct::tohex(key)};
}

TEST(CliNumbers, LeadingZerosAndSuffixes)
{
    auto r = kc({"rand", "-c", "lea-128", "-n", "00000000000001", "--hex"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(r.out.size(), 3u); // one byte as two hex digits and a newline
    for (const char *n : {"1k", "1K", "1KiB", "0001024"}) {
        r = kc({"rand", "-c", "lea-128", "-n", n});
        ASSERT_TRUE(Succeeded(r)) << n;
        EXPECT_EQ(r.out.size(), 1024u) << n;
    }
    r = kc({"rand", "-c", "lea-128", "-n", "1MiB"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(r.out.size(), size_t(1) << 20);
}

TEST(CliNumbers, SignsAreRefused)
{
    SmallSearch s = small_search();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {s.args + std::vector<std::string>{"--start", "-1"}, "--start: '-1' is not a number"},
        {s.args + std::vector<std::string>{"--count", "-1"}, "--count: '-1' is not a number"},
        {s.args + std::vector<std::string>{"--count", "+1"}, "--count: '+1' is not a number"},
        {s.args + std::vector<std::string>{"--shard", "1/-1"}, "--shard N: '-1' is not a number"},
        {s.args + std::vector<std::string>{"--chunk-keys", "-5"}, "--chunk-keys: '-5' is not a number"},
        {{"rand", "-c", "lea-128", "-n", "+1"}, "--bytes: '+1' is not a number"},
        {{"enc", "-c", "aria-128-ctr", "-k", k16, "--iv", k16, "--threads", "-1"}, "--threads: '-1' is not a number"},
    };
    for (const auto &c : cases) {
        auto r = kc(c.first);
        EXPECT_TRUE(FailedWith(r, 2, c.second)) << c.second;
        EXPECT_EQ(r.out, "") << c.second;
    }
}

TEST(CliNumbers, LimitsAreNamed)
{
    SmallSearch s = small_search();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"enc", "-c", "aria-128-ctr", "-k", k16, "--iv", k16, "--threads", "5000"},
         "--threads: '5000' is too large: at most 1024"},
        {{"rand", "-c", "lea-128", "-n", "16", "--threads", "99999"}, "--threads: '99999' is too large: at most 1024"},
        {{"bench", "-t", "2000", "-c", "hight-ctr"}, "--threads: '2000' is too large: at most 1024"},
        {s.args + std::vector<std::string>{"--start", "18446744073709551616"}, "--start: '18446744073709551616' is too large"},
        {s.args + std::vector<std::string>{"--count", "99999999999999999999T"}, "is too large"},
        {s.args + std::vector<std::string>{"--count", "0"}, "--count: '0' is too small: at least 1"},
        {s.args + std::vector<std::string>{"--threads", "4096"}, "--threads: '4096' is too large: at most 1024"},
        {{"enc", "-c", "aria-128-gcm", "-k", k16, "--iv", k16, "--tag-len", "17"}, "--tag-len: '17' is too large"},
        {{"mac", "-c", "aria-128-cmac", "-k", k16, "--tag-len", "0"}, "--tag-len: '0' is too small"},
        {{"rand", "-c", "lea-128", "-n", "2T"}, "--bytes: '2T' is too large: at most 1099511627776 (1T)"},
    };
    for (const auto &c : cases) {
        auto r = kc(c.first);
        EXPECT_TRUE(FailedWith(r, 2, c.second)) << c.second;
        EXPECT_EQ(r.out, "") << c.second;
    }
}

// The help writes sizes as 1M and 1G: those forms must parse for every size option.
TEST(CliNumbers, SuffixesOnEverySizeOption)
{
    auto r = kc({"bench", "-c", "hight-ctr", "-s", "1k", "--seconds", "0.001", "--rounds", "1", "--no-openssl",
                 "--no-cryptopp"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_NE(r.out.find(" 1024 "), std::string::npos) << r.out;
    // --gpu-bytes 1G passes parsing: the run then stops at the unknown kernel, checked next.
    r = kc({"bench", "--gpu", "--gpu-bytes", "1G", "--kernel", "nosuch"});
    EXPECT_TRUE(FailedWith(r, 2, "--kernel 'nosuch'"));

    SmallSearch s = small_search();
    r = kc(s.args + std::vector<std::string>{"--count", "0000256", "--start", "0k", "--chunk-keys", "1k"});
    EXPECT_EQ(r.exit_code, 0) << r.describe() << r.err;
    EXPECT_NE(r.out.find(s.key), std::string::npos) << r.out;
}

TEST(CliNumbers, ShardHalvesAreCheckedNumbers)
{
    SmallSearch s = small_search();
    auto r = kc(s.args + std::vector<std::string>{"--shard", "4/4"});
    EXPECT_TRUE(FailedWith(r, 2, "--shard I: '4' is too large: at most 3"));
    r = kc(s.args + std::vector<std::string>{"--shard", "0/0"});
    EXPECT_TRUE(FailedWith(r, 2, "--shard N: '0' is too small: at least 1"));
    r = kc(s.args + std::vector<std::string>{"--shard", "0/00001"});
    EXPECT_EQ(r.exit_code, 0) << r.describe() << r.err;
}

} // namespace
