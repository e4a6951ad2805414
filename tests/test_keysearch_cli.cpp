// `kcipher keysearch` as a separate process: a planted key found (text and JSON), exit 1 for
// an empty range, exit 2 with a message for bad input, exit 3 for a checkpoint that cannot be
// written (at once, with the OS's reason) or is damaged, Ctrl-C (SIGINT) then a resumed run
// that finds the key with no candidate tested twice, a stop at the first key unless
// --all-keys, and shards that cover a range once.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "kcipher/kcipher.hpp"
#include "support/run_process.hpp"
#include "support/vectors.hpp"

namespace {

const std::string kCli = [] {
    const char *e = std::getenv("KCIPHER_TEST_CLI");
    return std::string(e != nullptr && *e != '\0' ? e : KC_CLI_PATH);
}();

// HIGHT with 20 unknown bits spread over the key; the true key is candidate `index`.
struct CliPlanted {
    std::string pt, ct, pt2, ct2, tmpl, mask, key;
};

CliPlanted plant(uint64_t index)
{
    std::vector<uint8_t> mask(16, 0), key = kct::random_bytes(16, 11);
    const int positions[20] = {0, 3, 9, 17, 22, 31, 40, 47, 55, 60, 66, 71, 80, 88, 97, 101, 110, 115, 121, 127};
    for (int j = 0; j < 20; j++) {
        int pos = positions[j]; // bit of the big-endian number
        size_t byte = 15 - pos / 8;
        uint8_t bit = uint8_t(1u << (pos % 8));
        mask[byte] |= bit;
        key[byte] = uint8_t((key[byte] & ~bit) | (((index >> j) & 1) ? bit : 0));
    }
    std::vector<uint8_t> tmpl = key;
    for (size_t i = 0; i < 16; i++)
        tmpl[i] ^= mask[i]; // wrong bits under the mask: they must be ignored
    kcipher::Cipher c("hight", key);
    auto pt = kct::random_bytes(8, 12), pt2 = kct::random_bytes(8, 13);
    return {kct::tohex(pt), kct::tohex(c.ecb_encrypt(pt)), kct::tohex(pt2), kct::tohex(c.ecb_encrypt(pt2)),
            kct::tohex(tmpl), kct::tohex(mask), kct::tohex(key)};
}

// The planted search's arguments; an option in `extra` replaces its default (for
// --plaintext, the first pair's), the rest are appended.
std::vector<std::string> args(const CliPlanted &p, std::vector<std::string> extra)
{
    std::vector<std::pair<std::string, std::string>> defaults = {
        {"--plaintext", p.pt}, {"--ciphertext", p.ct}, {"--plaintext", p.pt2}, {"--ciphertext", p.ct2},
        {"--key", p.tmpl},     {"--mask", p.mask},     {"--threads", "2"}};
    for (size_t i = 0; i + 1 < extra.size(); i++)
        for (auto &d : defaults)
            if (d.first == extra[i] && !d.second.empty()) {
                d.second = extra[i + 1];
                extra.erase(extra.begin() + long(i), extra.begin() + long(i) + 2);
                i--;
                break;
            }
    std::vector<std::string> a = {kCli, "keysearch", "--cipher", "hight"};
    for (auto &d : defaults) {
        a.push_back(d.first);
        a.push_back(d.second);
    }
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

std::string temp_path(const std::string &name)
{
    return ::testing::TempDir() + "kc_kscli_" + std::to_string(::getpid()) + "_" + name;
}

TEST(KeysearchCli, FindsPlantedKeyTextAndJson)
{
    CliPlanted p = plant(700001);
    auto r = kct::run_process(args(p, {}));
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("found key " + p.key + " (candidate 700001)"), std::string::npos) << r.out;
    r = kct::run_process(args(p, {"--json", "--start", "700000", "--count", "10"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["found"].size(), 1u);
    EXPECT_EQ(j["found"][0]["key"], p.key);
    EXPECT_EQ(j["found"][0]["index"], 700001u);
    EXPECT_EQ(j["tested"], 10u);
    EXPECT_EQ(j["complete"], true);
}

TEST(KeysearchCli, NoKeyInRangeExitsOne)
{
    CliPlanted p = plant(5);
    auto r = kct::run_process(args(p, {"--start", "6", "--count", "1000"}));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("no key in the range"), std::string::npos) << r.err;
}

TEST(KeysearchCli, BadInputExitsTwoWithMessage)
{
    CliPlanted p = plant(5);
    struct Case {
        std::vector<std::string> extra;
        std::string message;
    };
    std::string wide = "ffffffffffffffffff00000000000000"; // 72 bits
    std::vector<Case> cases = {
        {{"--mask", wide}, "more than 64 bits"},
        {{"--plaintext", "0011"}, "--plaintext must be 8 bytes"},
        {{"--start", "1048576"}, "past the last candidate"},
        {{"--start", "10", "--count", "1048567"}, "runs past the last candidate"},
        {{"--shard", "3/3"}, "--shard I: '3' is too large: at most 2"},
        {{"--device", "tpu"}, "--device 'tpu'"},
        {{"--key", "zz"}, "not valid hex"},
    };
    for (const Case &c : cases) {
        auto r = kct::run_process(args(p, c.extra));
        EXPECT_EQ(r.exit_code, 2) << c.message << ": " << r.out << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    }
    auto r = kct::run_process({kCli, "keysearch", "--cipher", "hight", "--key", p.tmpl, "--mask", p.mask,
                               "--plaintext", p.pt, "--ciphertext", p.ct, "--ciphertext", p.ct2});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("in pairs"), std::string::npos) << r.err;
    r = kct::run_process(args(p, {"--checkpoint", temp_path("x.ckpt"), "--count", "5"}));
    ASSERT_EQ(r.exit_code, 1) << r.err;
    r = kct::run_process(args(p, {"--checkpoint", temp_path("x.ckpt"), "--count", "6"}));
    EXPECT_EQ(r.exit_code, 3); // a checkpoint failure is a runtime error, not bad usage
    EXPECT_NE(r.err.find("belongs to a different search"), std::string::npos) << r.err;
    std::remove(temp_path("x.ckpt").c_str());
}

TEST(KeysearchCli, UnwritableCheckpointFailsAtOnceWithTheReason)
{
    CliPlanted p = plant(5);
    auto r = kct::run_process(args(p, {"--checkpoint", "/nonexistent-kcipher-dir/x.ckpt", "--json"}));
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << r.err;
    auto j = nlohmann::json::parse(r.out); // JSON even after a runtime error
    EXPECT_EQ(j["tested"], 0u) << "candidates tested before the path was tried";
    EXPECT_EQ(j["exit"], 3);
}

TEST(KeysearchCli, ForgedCheckpointRefusedAsDamaged)
{
    CliPlanted p = plant(700001);
    std::string ck = temp_path("forged.ckpt");
    std::remove(ck.c_str());
    auto r = kct::run_process(args(p, {"--checkpoint", ck, "--count", "5000"}));
    ASSERT_EQ(r.exit_code, 1) << r.err;
    std::string text;
    {
        std::ifstream f(ck);
        text.assign(std::istreambuf_iterator<char>(f), {});
    }
    size_t at = text.find("finished 0 4999");
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, 15, "finished 0 -1");
    std::ofstream(ck, std::ios::trunc) << text;
    r = kct::run_process(args(p, {"--checkpoint", ck, "--count", "5000"}));
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("damaged"), std::string::npos) << r.err;
    std::remove(ck.c_str());
}

TEST(KeysearchCli, StopsAtTheFirstKeyUnlessAllKeys)
{
    CliPlanted p = plant(5000);
    auto r = kct::run_process(args(p, {"--json", "--threads", "1", "--kernel", "hight/ref", "--chunk-keys", "4096"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["found"].size(), 1u);
    EXPECT_EQ(j["found"][0]["key"], p.key);
    EXPECT_LT(j["tested"].get<uint64_t>(), uint64_t(1) << 18) << "the search went on after the key";
    EXPECT_EQ(j["complete"], false);
    r = kct::run_process(args(p, {"--json", "--all-keys"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["found"].size(), 1u);
    EXPECT_EQ(j["tested"], uint64_t(1) << 20);
    EXPECT_EQ(j["complete"], true);
}

TEST(KeysearchCli, SigintSavesCheckpointAndRerunResumes)
{
    CliPlanted p = plant((1 << 20) - 3); // near the end: the first run cannot have reached it
    std::string ck = temp_path("sigint.ckpt");
    std::remove(ck.c_str());
    kct::ProcessOptions opt;
    opt.timeout_seconds = 120;
    bool sent = false;
    // SIGINT once the first checkpoint exists, so the run is surely under way.
    opt.on_tick = [&](pid_t pid, double, bool) {
        struct stat st;
        if (!sent && ::stat(ck.c_str(), &st) == 0) {
            ::kill(pid, SIGINT);
            sent = true;
        }
    };
    auto a = args(p, {"--checkpoint", ck, "--checkpoint-seconds", "0.05", "--chunk-keys", "1024", "--json",
                      "--threads", "1", "--kernel", "hight/ref"});
    auto first = kct::run_process(a, opt);
    ASSERT_TRUE(sent) << "the search ended before a checkpoint appeared: " << first.out << first.err;
    ASSERT_EQ(first.exit_code, 130) << first.err;
    auto j1 = nlohmann::json::parse(first.out);
    EXPECT_EQ(j1["complete"], false);
    EXPECT_GT(j1["tested"].get<uint64_t>(), 0u);
    EXPECT_NE(first.err.find("resume"), std::string::npos);

    a = args(p, {"--checkpoint", ck, "--json", "--all-keys"});
    auto second = kct::run_process(a, {});
    ASSERT_EQ(second.exit_code, 0) << second.err;
    auto j2 = nlohmann::json::parse(second.out);
    EXPECT_EQ(j1["tested"].get<uint64_t>() + j2["tested"].get<uint64_t>(), uint64_t(1) << 20)
        << "a candidate was tested twice or never";
    ASSERT_EQ(j2["found"].size(), 1u);
    EXPECT_EQ(j2["found"][0]["key"], p.key);
    std::remove(ck.c_str());
}

// SIGTERM is 128 + 15, as a shell reports it; the progress is saved as for Ctrl-C.
TEST(KeysearchCli, SigtermExits143AfterSaving)
{
    CliPlanted p = plant((1 << 20) - 3);
    std::string ck = temp_path("sigterm.ckpt");
    std::remove(ck.c_str());
    kct::ProcessOptions opt;
    opt.timeout_seconds = 120;
    bool sent = false;
    opt.on_tick = [&](pid_t pid, double, bool) {
        struct stat st;
        if (!sent && ::stat(ck.c_str(), &st) == 0) {
            ::kill(pid, SIGTERM);
            sent = true;
        }
    };
    auto r = kct::run_process(args(p, {"--checkpoint", ck, "--checkpoint-seconds", "0.05", "--chunk-keys", "1024",
                                       "--threads", "1", "--kernel", "hight/ref"}),
                              opt);
    ASSERT_TRUE(sent) << r.out << r.err;
    EXPECT_EQ(r.exit_code, 143) << r.err;
    EXPECT_NE(r.err.find("progress saved in " + ck), std::string::npos) << r.err;
    std::remove(ck.c_str());
}

// --all-keys: by default the shard holding the key stops there, and how much of it its threads had
// tested by then depends on their timing (under qemu a third of it was left).
TEST(KeysearchCli, ShardsCoverTheRangeOnce)
{
    CliPlanted p = plant(123456);
    const int n = 3;
    uint64_t next = 1000, tested = 0;
    int found = 0;
    for (int i = 0; i < n; i++) {
        auto r = kct::run_process(args(p, {"--json", "--all-keys", "--start", "1000", "--count", "200000", "--shard",
                                           std::to_string(i) + "/" + std::to_string(n)}));
        ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
        auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["range"]["first"].get<uint64_t>(), next);
        next = j["range"]["last"].get<uint64_t>() + 1;
        tested += j["tested"].get<uint64_t>();
        found += int(j["found"].size());
    }
    EXPECT_EQ(next, 201000u);
    EXPECT_EQ(tested, 200000u);
    EXPECT_EQ(found, 1);
}

// A family with no CPU key searcher of its own (seed) runs the generic search over its
// kernels' block interface (keysearch/cpu_search.cpp). On a GPU, --device gpu finds the key
// with seed/cuda's search (src/seed/seed_cuda_keysearch.cu), or, in a build whose module
// offers none, is refused with a message (never run with another family's kernel). 16
// unknown bits in three bytes, two pairs.
TEST(KeysearchCli, SeedWithoutItsOwnSearchers)
{
    std::vector<uint8_t> key = kct::random_bytes(16, 21), mask(16, 0);
    mask[0] = 0xf0, mask[7] = 0x0f, mask[15] = 0xff; // mask bits 0..7 in byte 15, 8..11 in 7, 12..15 in 0
    std::vector<uint8_t> tmpl = key;
    for (size_t i = 0; i < 16; i++)
        tmpl[i] ^= mask[i]; // wrong bits under the mask: they must be ignored
    const uint64_t index = key[15] | uint64_t(key[7] & 0x0f) << 8 | uint64_t(key[0] >> 4) << 12;
    kcipher::Cipher c("seed-128", key);
    const std::vector<uint8_t> pt = kct::random_bytes(16, 22), pt2 = kct::random_bytes(16, 23);
    std::vector<std::string> a = {kCli, "keysearch", "--cipher", "seed-128", "--plaintext", kct::tohex(pt),
                                  "--ciphertext", kct::tohex(c.ecb_encrypt(pt)), "--plaintext", kct::tohex(pt2),
                                  "--ciphertext", kct::tohex(c.ecb_encrypt(pt2)), "--key", kct::tohex(tmpl),
                                  "--mask", kct::tohex(mask), "--threads", "2", "--all-keys", "--json"};
    // --all-keys: the whole range, so that `tested` does not depend on how far the other thread
    // had got when the key was found (under qemu it had not: 51366 of 65536).
    auto r = kct::run_process(a);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["found"].size(), 1u) << r.out;
    EXPECT_EQ(j["found"][0]["key"], kct::tohex(key));
    EXPECT_EQ(j["found"][0]["index"], index);
    EXPECT_EQ(j["tested"], 65536u);
    EXPECT_EQ(j["complete"], true);
    if (kcipher_gpu_count() == 0)
        return;
    a.insert(a.end(), {"--device", "gpu"});
    r = kct::run_process(a);
    if (r.exit_code == 2) {
        EXPECT_NE(r.err.find("no GPU key search"), std::string::npos) << r.err;
        return;
    }
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["found"].size(), 1u) << r.out;
    EXPECT_EQ(j["found"][0]["key"], kct::tohex(key));
}

TEST(KeysearchCli, GpuFindsPlantedKey)
{
    if (kcipher_gpu_count() == 0)
        GTEST_SKIP() << "no GPU on this machine";
    CliPlanted p = plant(654321);
    auto r = kct::run_process(args(p, {"--device", "gpu", "--json"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["found"].size(), 1u);
    EXPECT_EQ(j["found"][0]["key"], p.key);
}

} // namespace
