// The `kcipher` command-line tool, run as a separate process (KC_CLI_PATH): round trips for
// every cipher and mode through files and through stdin/stdout, byte-identity with
// `openssl enc` for ARIA (with inputs larger than the tool's 4 MiB chunk), a known answer,
// argument errors (non-zero exit, a message, and no output file left behind), atomic
// replacement of the output, full disks, info/selftest/bench and --version.
//
// Every test works in its own fresh temporary directory, removed afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "kcipher/kcipher.h"
#include "kcipher/kcipher.hpp"
#include "support/cli_kit.hpp"
#include "support/run_process.hpp"
#include "support/sample.hpp"
#include "support/vectors.hpp"

namespace {

using namespace kct;

constexpr size_t kChunk = 4u << 20; // the CLI's streaming chunk (tools/kcipher/cmd_crypt.cpp)

// ---- the ciphers the CLI must know --------------------------------------------------------

struct CipherSpec {
    const char *name;
    size_t key_bytes, block_bytes;
};

const CipherSpec kCiphers[] = {
    {"aria-128", 16, 16},     {"aria-192", 24, 16},     {"aria-256", 32, 16}, {"lea-128", 16, 16},
    {"lea-192", 24, 16},      {"lea-256", 32, 16},      {"hight", 16, 8},     {"cham-64-128", 16, 8},
    {"cham-128-128", 16, 16}, {"cham-128-256", 32, 16}, {"seed-128", 16, 16},
};
const char *const kModes[] = {"ecb", "cbc", "ctr", "cfb", "cfb8", "ofb"};

// CTR, CFB, CFB8 and OFB take any length and never pad.
bool any_length(const std::string &mode) { return mode != "ecb" && mode != "cbc"; }
const char *const kKernels[] = {"aria/ref", "aria/table", "lea/ref", "hight/ref", "cham/ref", "seed/ref"};

// The library's answer, to hold the CLI's output against: ECB and CBC padded with PKCS#7, the
// CLI's default.
std::string library_encrypt(const CipherSpec &c, const std::string &mode, const std::vector<uint8_t> &key,
                            const std::vector<uint8_t> &iv, const std::string &plain)
{
    kcipher::Cipher k(c.name, key);
    std::vector<uint8_t> p = str_bytes(plain);
    if (mode == "ecb")
        return bytes_str(k.ecb_encrypt_padded(p));
    if (mode == "cbc")
        return bytes_str(k.cbc_encrypt_padded(iv, p));
    if (mode == "cfb")
        return bytes_str(k.cfb_encrypt(iv, p));
    if (mode == "cfb8")
        return bytes_str(k.cfb8_encrypt(iv, p));
    if (mode == "ofb")
        return bytes_str(k.ofb_xor(iv, p));
    return bytes_str(k.ctr_xor(iv, p));
}

std::vector<std::string> crypt_args(const std::string &verb, const std::string &cipher_mode,
                                    const std::vector<uint8_t> &key, const std::vector<uint8_t> &iv)
{
    std::vector<std::string> a = {verb, "--cipher", cipher_mode, "--key", hex(key)};
    if (!iv.empty()) {
        a.push_back("--iv");
        a.push_back(hex(iv));
    }
    return a;
}

// =============================================================================================
// 0. The process helper itself: stdin/stdout/stderr plumbing, exit codes, and the time limit.
// =============================================================================================

TEST(CliHelper, CapturesStreamsAndExitCode)
{
    kct::ProcessOptions o;
    o.stdin_bytes = random_str(300000, 1); // more than a pipe buffer, through cat and back
    auto r = kct::run_process({"cat"}, o);
    ASSERT_TRUE(r.spawned) << r.spawn_error;
    EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    EXPECT_TRUE(SameBytes(r.out, *o.stdin_bytes));

    r = kct::run_process({"sh", "-c", "printf out; printf err >&2; exit 3"});
    EXPECT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.out, "out");
    EXPECT_EQ(r.err, "err");

    kct::ProcessOptions e;
    e.env_set = {{"KC_HELPER_TEST", "x y"}};
    r = kct::run_process({"sh", "-c", "printf %s \"$KC_HELPER_TEST\""}, e);
    EXPECT_EQ(r.out, "x y");

    r = kct::run_process({"/no/such/program"});
    EXPECT_FALSE(r.spawned);
    EXPECT_FALSE(r.spawn_error.empty());
}

TEST(CliHelper, TimeoutKillsHungChild)
{
    kct::ProcessOptions o;
    o.timeout_seconds = 0.3;
    auto r = kct::run_process({"sleep", "30"}, o);
    ASSERT_TRUE(r.spawned) << r.spawn_error;
    EXPECT_TRUE(r.timed_out);
    EXPECT_FALSE(r.exited);
    EXPECT_EQ(r.term_signal, SIGKILL);
    EXPECT_LT(r.seconds, 10.0);
}

// =============================================================================================
// 1. Round trips: every cipher x every mode, through files and through stdin/stdout.
// =============================================================================================

struct RoundTripParam {
    CipherSpec cipher;
    std::string mode;
    uint64_t seed;
};

std::vector<RoundTripParam> round_trip_params()
{
    std::vector<RoundTripParam> v;
    uint64_t seed = 0x5eed0000;
    for (const CipherSpec &c : kCiphers)
        for (const char *m : kModes)
            v.push_back({c, m, seed += 16});
    return v;
}

void PrintTo(const RoundTripParam &p, std::ostream *os) { *os << p.cipher.name << "-" << p.mode << " (seed " << p.seed << ")"; }

class CliRoundTrip : public ::testing::TestWithParam<RoundTripParam> {};

TEST_P(CliRoundTrip, FileAndStdio)
{
    const RoundTripParam &p = GetParam();
    const CipherSpec &c = p.cipher;
    SCOPED_TRACE(std::string(c.name) + "-" + p.mode + ", seed " + std::to_string(p.seed));

    // The test's table and the library's must agree, or the sizes below are wrong.
    kcipher_cipher_info info;
    ASSERT_EQ(kcipher_cipher_find(c.name, &info), KCIPHER_OK);
    ASSERT_EQ(info.key_bytes, c.key_bytes);
    ASSERT_EQ(info.block_bytes, c.block_bytes);

    TempDir dir;
    std::vector<uint8_t> key = kct::random_bytes(c.key_bytes, p.seed);
    std::vector<uint8_t> iv = p.mode == "ecb" ? std::vector<uint8_t>{} : kct::random_bytes(c.block_bytes, p.seed + 1);
    // Lengths that end in a partial block: CTR, CFB, CFB8 and OFB take them as they are, ECB
    // and CBC pad.
    size_t size = any_length(p.mode) ? 4099 : 257 * c.block_bytes + 5;
    std::string plain = random_str(size, p.seed + 2);
    std::string cm = std::string(c.name) + "-" + p.mode;
    write_file(dir / "plain", plain);

    // Files.
    auto r = kc(crypt_args("enc", cm, key, iv) + std::vector<std::string>{"--in", dir / "plain", "--out", dir / "ct"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(r.out, "") << "nothing on stdout when --out is given";
    std::string ct = read_file(dir / "ct");
    ASSERT_EQ(ct.size(), any_length(p.mode) ? plain.size() : plain.size() / c.block_bytes * c.block_bytes + c.block_bytes);
    EXPECT_TRUE(ct != plain) << "the ciphertext equals the plaintext";
    EXPECT_TRUE(SameBytes(ct, library_encrypt(c, p.mode, key, iv, plain))) << "CLI vs library";

    r = kc(crypt_args("dec", cm, key, iv) + std::vector<std::string>{"--in", dir / "ct", "--out", dir / "back"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_TRUE(SameBytes(read_file(dir / "back"), plain)) << "file round trip";

    // Standard input (a pipe) to standard output.
    kct::ProcessOptions o;
    o.stdin_bytes = plain;
    r = kc(crypt_args("enc", cm, key, iv), o);
    ASSERT_TRUE(Succeeded(r));
    EXPECT_TRUE(SameBytes(r.out, ct)) << "stdin/stdout encryption vs file encryption";

    // Standard input (a regular file) to standard output, and "-" for both.
    kct::ProcessOptions o2;
    o2.stdin_path = dir / "ct";
    r = kc(crypt_args("dec", cm, key, iv), o2);
    ASSERT_TRUE(Succeeded(r));
    EXPECT_TRUE(SameBytes(r.out, plain)) << "stdin/stdout round trip";

    o.stdin_bytes = ct;
    r = kc(crypt_args("dec", cm, key, iv) + std::vector<std::string>{"--in", "-", "--out", "-"}, o);
    ASSERT_TRUE(Succeeded(r));
    EXPECT_TRUE(SameBytes(r.out, plain)) << "--in - --out - round trip";

    // Nothing but our own files in the directory (no temp files left behind).
    EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"back", "ct", "plain"}));
}

INSTANTIATE_TEST_SUITE_P(Cli, CliRoundTrip, ::testing::ValuesIn(round_trip_params()),
                         [](const ::testing::TestParamInfo<RoundTripParam> &i) {
                             std::string n = std::string(i.param.cipher.name) + "_" + i.param.mode;
                             std::replace(n.begin(), n.end(), '-', '_');
                             return n;
                         });

// Empty input: CTR, CFB, CFB8, OFB, and ECB and CBC with --nopad, give an empty output (and succeed); padded
// ECB and CBC encrypt it to one block of padding, and refuse to decrypt nothing (as
// `openssl enc -d`: "bad decrypt").
TEST(CliRoundTripEdge, EmptyInput)
{
    TempDir dir;
    write_file(dir / "empty", "");
    std::vector<uint8_t> key = kct::random_bytes(16, 7), iv = kct::random_bytes(16, 8);
    for (const char *m : kModes) {
        for (bool nopad : {false, true}) {
            const bool stream = any_length(m);
            if (stream && nopad)
                continue;
            SCOPED_TRACE(std::string(m) + (nopad ? " --nopad" : ""));
            std::vector<uint8_t> v = std::string(m) == "ecb" ? std::vector<uint8_t>{} : iv;
            std::vector<std::string> flags = nopad ? std::vector<std::string>{"--nopad"} : std::vector<std::string>{};
            auto r = kc(crypt_args("enc", std::string("lea-128-") + m, key, v) + flags +
                        std::vector<std::string>{"--in", dir / "empty", "--out", dir / "out"});
            ASSERT_TRUE(Succeeded(r));
            EXPECT_EQ(read_file(dir / "out"), stream || nopad ? "" : library_encrypt(kCiphers[3], m, key, v, ""));
            kct::ProcessOptions o;
            o.stdin_bytes = "";
            r = kc(crypt_args("dec", std::string("lea-128-") + m, key, v) + flags, o);
            if (stream || nopad) {
                ASSERT_TRUE(Succeeded(r));
            } else {
                EXPECT_TRUE(FailedWith(r, 1, "bad decrypt"));
            }
            EXPECT_EQ(r.out, "");
        }
    }
}

// =============================================================================================
// 2. Byte-identical to `openssl enc` for ARIA, both ways, across the 4 MiB chunk boundary.
// =============================================================================================

struct OpensslParam {
    int bits;
    std::string mode;
    bool nopad = false; // ECB/CBC: --nopad against openssl's -nopad; else both pad
};

void PrintTo(const OpensslParam &p, std::ostream *os)
{
    *os << "aria-" << p.bits << "-" << p.mode << (p.nopad ? " nopad" : "");
}

class CliOpenssl : public ::testing::TestWithParam<OpensslParam> {};

TEST_P(CliOpenssl, SameBytesBothWays)
{
    auto openssl = kct::find_on_path("openssl");
    if (!openssl)
        GTEST_SKIP() << "the openssl command is not on PATH; the comparison with `openssl enc` is skipped";
    const OpensslParam &p = GetParam();
    const std::string cipher = "aria-" + std::to_string(p.bits);
    const std::string cm = cipher + "-" + p.mode;
    const bool ctr = any_length(p.mode), ecb = p.mode == "ecb";
    TempDir dir;

    struct Case {
        size_t size;
        std::string iv_hex; // empty: random
    };
    std::vector<Case> cases;
    // Under qemu or the sanitizers (a sampled run), where a 9 MiB run of kcipher takes tens of
    // seconds: inputs up to one chunk crossing (kChunk + 16) only; natively every size. The
    // CTR carry cases below stay: they are the only test of a chunk starting on a carry.
    const bool sampled = kct::Sample("cli-openssl").sampling();
    if (p.mode == "cfb8") {
        // One block encryption per byte (about 350 c/B on both sides): one chunk crossing
        // natively; under qemu or the sanitizers small inputs only.
        for (size_t n : {size_t(0), size_t(1), size_t(15), size_t(17), size_t(4099), kChunk + 1})
            if (!sampled || n < kChunk)
                cases.push_back({n, ""});
    } else if (ctr) {
        for (size_t n : {size_t(0), size_t(1), size_t(15), size_t(17), size_t(4099), kChunk + 1, 9 * size_t(1 << 20) + 5})
            if (!sampled || n <= kChunk + 16)
                cases.push_back({n, ""});
        if (p.bits == 128 && p.mode == "ctr") {
            // The second 4 MiB chunk starts at block 0x40000: with these counters it begins
            // exactly on a carry out of the low 64 bits, and on the wrap at 2^128.
            cases.push_back({9 * size_t(1 << 20) + 5, "0000000000000000fffffffffffc0000"});
            cases.push_back({9 * size_t(1 << 20) + 5, "fffffffffffffffffffffffffffc0000"});
        }
    } else if (p.nopad) {
        for (size_t n : {size_t(0), size_t(16), size_t(4096 + 48), kChunk + 16, 9 * size_t(1 << 20) + 48})
            if (!sampled || n <= kChunk + 16)
                cases.push_back({n, ""});
    } else {
        // Padded: partial last blocks, and plaintexts whose padded ciphertext ends exactly on
        // a chunk (kChunk - 1) or one block past it (kChunk), where decryption holds the last
        // block of a full chunk back.
        for (size_t n : {size_t(0), size_t(1), size_t(15), size_t(16), size_t(4096 + 48 + 7), kChunk - 1, kChunk,
                         kChunk + 16, 9 * size_t(1 << 20) + 48 + 3})
            if (!sampled || n <= kChunk + 16)
                cases.push_back({n, ""});
    }

    uint64_t seed = 0xa71a0000u + (uint64_t)p.bits * 64 + (ecb ? 0 : ctr ? 2 : 1) * 16 + (p.nopad ? 8 : 0) +
                    p.mode.size() * 1024;
    for (const Case &cs : cases) {
        seed += 3;
        SCOPED_TRACE(cm + ", " + std::to_string(cs.size) + " bytes, seed " + std::to_string(seed) +
                     (cs.iv_hex.empty() ? "" : ", iv " + cs.iv_hex));
        std::vector<uint8_t> key = kct::random_bytes((size_t)p.bits / 8, seed);
        std::vector<uint8_t> iv = ecb ? std::vector<uint8_t>{}
                                      : cs.iv_hex.empty() ? kct::random_bytes(16, seed + 1) : kct::unhex(cs.iv_hex);
        std::string plain = random_str(cs.size, seed + 2);
        write_file(dir / "plain", plain);

        std::vector<std::string> ossl = {*openssl, "enc", "-" + cm, "-K", hex(key)};
        if (!ecb)
            ossl = ossl + std::vector<std::string>{"-iv", hex(iv)};
        std::vector<std::string> flags;
        if (p.nopad) {
            ossl.push_back("-nopad");
            flags.push_back("--nopad");
        }

        // Encrypt with both; the same bytes.
        auto r = kc(crypt_args("enc", cm, key, iv) + flags +
                    std::vector<std::string>{"--in", dir / "plain", "--out", dir / "ours"});
        ASSERT_TRUE(Succeeded(r));
        auto o = kct::run_process(ossl + std::vector<std::string>{"-in", dir / "plain", "-out", dir / "theirs"});
        ASSERT_TRUE(o.exited && o.exit_code == 0) << "openssl enc: " << o.describe() << ": " << o.err;
        std::string ours = read_file(dir / "ours"), theirs = read_file(dir / "theirs");
        ASSERT_TRUE(SameBytes(ours, theirs)) << "kcipher enc vs openssl enc";
        if (cs.size >= 16) {
            EXPECT_TRUE(ours != plain) << "the ciphertext equals the plaintext";
        }

        // openssl decrypts ours; we decrypt theirs.
        o = kct::run_process(ossl + std::vector<std::string>{"-d", "-in", dir / "ours", "-out", dir / "theirs_back"});
        ASSERT_TRUE(o.exited && o.exit_code == 0) << "openssl enc -d: " << o.describe() << ": " << o.err;
        EXPECT_TRUE(SameBytes(read_file(dir / "theirs_back"), plain)) << "openssl enc -d of kcipher's output";
        r = kc(crypt_args("dec", cm, key, iv) + flags +
               std::vector<std::string>{"--in", dir / "theirs", "--out", dir / "ours_back"});
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(read_file(dir / "ours_back"), plain)) << "kcipher dec of openssl's output";
    }
}

INSTANTIATE_TEST_SUITE_P(Cli, CliOpenssl,
                         ::testing::Values(OpensslParam{128, "ecb"}, OpensslParam{128, "cbc"}, OpensslParam{128, "ctr"},
                                           OpensslParam{192, "ecb"}, OpensslParam{192, "cbc"}, OpensslParam{192, "ctr"},
                                           OpensslParam{256, "ecb"}, OpensslParam{256, "cbc"}, OpensslParam{256, "ctr"},
                                           OpensslParam{128, "ecb", true}, OpensslParam{128, "cbc", true},
                                           OpensslParam{192, "ecb", true}, OpensslParam{192, "cbc", true},
                                           OpensslParam{256, "ecb", true}, OpensslParam{256, "cbc", true},
                                           OpensslParam{128, "cfb"}, OpensslParam{128, "cfb8"}, OpensslParam{128, "ofb"},
                                           OpensslParam{256, "cfb"}, OpensslParam{256, "cfb8"}, OpensslParam{256, "ofb"}),
                         [](const ::testing::TestParamInfo<OpensslParam> &i) {
                             return "aria_" + std::to_string(i.param.bits) + "_" + i.param.mode +
                                    (i.param.nopad ? "_nopad" : "");
                         });

// =============================================================================================
// 3. Known answer: RFC 5794 A.1 through the CLI.
// =============================================================================================

// One block in, one block out: --nopad (the padded default would add a block of padding).
TEST(CliKnownAnswer, Rfc5794A1Aria128Ecb)
{
    TempDir dir;
    const std::string key = "000102030405060708090a0b0c0d0e0f";
    const std::string pt = bytes_str(kct::unhex("00112233445566778899aabbccddeeff"));
    const std::string ct = bytes_str(kct::unhex("d718fbd6ab644c739da95f3be6451778"));
    ASSERT_EQ(pt.size(), 16u);
    ASSERT_EQ(ct.size(), 16u);

    write_file(dir / "pt", pt);
    auto r = kc({"enc", "--cipher", "aria-128-ecb", "--key", key, "--nopad", "--in", dir / "pt", "--out", dir / "ct"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(kct::tohex(str_bytes(read_file(dir / "ct"))), "d718fbd6ab644c739da95f3be6451778");

    kct::ProcessOptions o;
    o.stdin_bytes = pt;
    r = kc({"enc", "-c", "aria-128-ecb", "-k", key, "--nopad"}, o);
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(kct::tohex(str_bytes(r.out)), "d718fbd6ab644c739da95f3be6451778");

    o.stdin_bytes = ct;
    r = kc({"dec", "--cipher", "aria-128-ecb", "--key", "000102030405060708090A0B0C0D0E0F", "--nopad"}, o); // upper case too
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(kct::tohex(str_bytes(r.out)), "00112233445566778899aabbccddeeff");

    // Every ARIA kernel gives the same answer.
    for (const char *k : {"aria/ref", "aria/table"}) {
        o.stdin_bytes = pt;
        r = kc({"enc", "--cipher", "aria-128-ecb", "--key", key, "--nopad", "--kernel", k}, o);
        ASSERT_TRUE(Succeeded(r)) << k;
        EXPECT_EQ(kct::tohex(str_bytes(r.out)), "d718fbd6ab644c739da95f3be6451778") << k;
    }
}

// =============================================================================================
// 4. Bad arguments: exit status, a message, and no output (not even a temp file).
// =============================================================================================

class CliErrors : public ::testing::Test {
  protected:
    void SetUp() override
    {
        in_dir_ = dir_.mkdir("in");
        out_dir_ = dir_.mkdir("out");
        plain_ = in_dir_ + "/plain";
        write_file(plain_, random_str(64, 99)); // a multiple of every block size
    }

    // Runs `args` twice: with --out <empty dir>/G, which must stay empty, and to stdout,
    // which must stay empty. Both must exit with `code` and say `message` on stderr.
    void expect_failure(const std::vector<std::string> &args, int code, const std::string &message,
                        const kct::ProcessOptions &opt = {})
    {
        {
            SCOPED_TRACE("--out to a file");
            auto r = kc(args + std::vector<std::string>{"--out", out_dir_ + "/G"}, opt);
            EXPECT_TRUE(FailedWith(r, code, message));
            EXPECT_EQ(r.out, "");
            EXPECT_EQ(list_dir(out_dir_), std::vector<std::string>{}) << "output left behind";
        }
        {
            SCOPED_TRACE("to standard output");
            auto r = kc(args, opt);
            EXPECT_TRUE(FailedWith(r, code, message));
            EXPECT_EQ(r.out.size(), 0u) << "bytes on stdout after a failure";
        }
    }

    std::vector<std::string> enc(const std::string &cm, const std::string &key_hex, const std::string &iv_hex = "")
    {
        std::vector<std::string> a = {"enc", "--cipher", cm, "--key", key_hex, "--in", plain_};
        if (!iv_hex.empty())
            a = a + std::vector<std::string>{"--iv", iv_hex};
        return a;
    }

    const std::string k16 = "000102030405060708090a0b0c0d0e0f";
    const std::string iv16 = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    TempDir dir_;
    std::string in_dir_, out_dir_, plain_;
};

TEST_F(CliErrors, UnknownCipher)
{
    expect_failure(enc("aria-999-ctr", k16, iv16), 2, "--cipher 'aria-999-ctr': unknown cipher");
    expect_failure(enc("des-ecb", k16), 2, "unknown cipher");
}

TEST_F(CliErrors, MissingMode)
{
    expect_failure(enc("aria-128", k16), 2, "--cipher 'aria-128' names no mode");
    expect_failure(enc("hight", k16), 2, "names no mode");
}

TEST_F(CliErrors, UnknownMode)
{
    expect_failure(enc("aria-128-cfb1", k16, iv16), 2, "--cipher 'aria-128-cfb1': unknown mode");
}

TEST_F(CliErrors, KeyWrongLength)
{
    expect_failure(enc("aria-128-ecb", k16.substr(0, 30)), 2, "--key must be 16 bytes (32 hex digits) for aria-128, got 15 bytes");
    expect_failure(enc("aria-256-ecb", k16), 2, "--key must be 32 bytes (64 hex digits) for aria-256, got 16 bytes");
    expect_failure(enc("lea-128-ecb", k16 + "00"), 2, "--key must be 16 bytes");
}

TEST_F(CliErrors, KeyNotHex)
{
    expect_failure(enc("aria-128-ecb", "000102030405060708090a0b0c0d0e0g"), 2, "--key is not valid hex");
    expect_failure(enc("aria-128-ecb", k16.substr(0, 31)), 2, "--key is not valid hex"); // odd digit count
    expect_failure(enc("aria-128-ecb", "0x0102030405060708090a0b0c0d0e0f"), 2, "--key is not valid hex");
}

TEST_F(CliErrors, IvWrongLength)
{
    expect_failure(enc("aria-128-cbc", k16, "0001020304050607"), 2, "--iv must be 16 bytes (32 hex digits) for aria-128, got 8 bytes");
    expect_failure(enc("hight-ctr", k16, iv16), 2, "--iv must be 8 bytes (16 hex digits) for hight, got 16 bytes");
    expect_failure(enc("lea-128-ctr", k16, "zz"), 2, "--iv is not valid hex");
}

TEST_F(CliErrors, MissingIv)
{
    expect_failure(enc("aria-128-cbc", k16), 2, "aria-128-cbc needs --iv (32 hex digits)");
    expect_failure(enc("aria-128-ctr", k16), 2, "aria-128-ctr needs --iv (32 hex digits)");
    expect_failure(enc("cham-64-128-ctr", k16), 2, "needs --iv (16 hex digits)");
}

TEST_F(CliErrors, IvGivenForEcb)
{
    expect_failure(enc("aria-128-ecb", k16, iv16), 2, "ECB takes no IV");
}

// --nopad: ECB and CBC of whole blocks only (the padded default: test_cli_padding.cpp).
TEST_F(CliErrors, PartialBlockFromFile)
{
    const std::vector<std::string> nopad = {"--nopad"};
    write_file(plain_, random_str(33, 5));
    expect_failure(enc("aria-128-ecb", k16) + nopad, 1, "is 33 bytes, not a multiple of the 16-byte block");
    expect_failure(enc("aria-128-cbc", k16, iv16) + nopad, 1, "not a multiple of the 16-byte block");
    write_file(plain_, random_str(12, 6));
    expect_failure(enc("hight-ecb", k16) + nopad, 1, "is 12 bytes, not a multiple of the 8-byte block");
    // Decryption too.
    write_file(plain_, random_str(17, 7));
    expect_failure({"dec", "--cipher", "lea-128-cbc", "--key", k16, "--iv", iv16, "--in", plain_, "--nopad"}, 1,
                   "not a multiple of the 16-byte block");
}

TEST_F(CliErrors, PartialBlockFromStdin)
{
    kct::ProcessOptions o;
    o.stdin_bytes = random_str(33, 8);
    expect_failure({"enc", "--cipher", "aria-128-ecb", "--key", k16, "--nopad"}, 1, "partial block (33 bytes in all)", o);
    expect_failure({"dec", "--cipher", "aria-128-cbc", "--key", k16, "--iv", iv16, "--nopad"}, 1, "partial block", o);
    o.stdin_bytes = random_str(8 * 1000 + 3, 9);
    expect_failure({"enc", "--cipher", "cham-64-128-ecb", "--key", k16, "--nopad"}, 1,
                   "partial block (8003 bytes in all)", o);
    // A regular file as stdin.
    write_file(plain_, random_str(31, 10));
    kct::ProcessOptions f;
    f.stdin_path = plain_;
    expect_failure({"enc", "--cipher", "lea-256-ecb", "--key", k16 + k16, "--nopad"}, 1, "partial block", f);
}

TEST_F(CliErrors, MissingInputFile)
{
    std::string missing = in_dir_ + "/no-such-file";
    expect_failure({"enc", "--cipher", "aria-128-ctr", "--key", k16, "--iv", iv16, "--in", missing}, 1,
                   "cannot open input '" + missing + "': No such file or directory");
}

TEST_F(CliErrors, InputIsDirectory)
{
    expect_failure({"enc", "--cipher", "aria-128-ctr", "--key", k16, "--iv", iv16, "--in", in_dir_}, 1,
                   "input '" + in_dir_ + "' is a directory");
}

TEST_F(CliErrors, OutputInMissingDirectory)
{
    std::string out = out_dir_ + "/no-such-dir/G";
    auto r = kc(enc("aria-128-ctr", k16, iv16) + std::vector<std::string>{"--out", out});
    EXPECT_TRUE(FailedWith(r, 1, "cannot create output file '" + out + "': No such file or directory"));
    EXPECT_EQ(list_dir(out_dir_), std::vector<std::string>{});
}

TEST_F(CliErrors, OutputUnderProc)
{
    // /proc takes no new files, even from root.
    auto r = kc(enc("aria-128-ctr", k16, iv16) + std::vector<std::string>{"--out", "/proc/version"});
    EXPECT_TRUE(FailedWith(r, 1, "'/proc/version'"));
    EXPECT_EQ(r.out, "");
    auto r2 = kc(enc("aria-128-ctr", k16, iv16) + std::vector<std::string>{"--out", "/proc/kcipher-test-output"});
    EXPECT_TRUE(FailedWith(r2, 1, "cannot create output file '/proc/kcipher-test-output'"));
    EXPECT_FALSE(exists("/proc/kcipher-test-output"));
}

TEST_F(CliErrors, OutputDirectoryNotWritable)
{
    if (::geteuid() == 0)
        GTEST_SKIP() << "running as root: directory permissions do not stop root's writes "
                        "(OutputInMissingDirectory and OutputUnderProc cover unwritable outputs)";
    ASSERT_EQ(::chmod(out_dir_.c_str(), 0500), 0);
    auto r = kc(enc("aria-128-ctr", k16, iv16) + std::vector<std::string>{"--out", out_dir_ + "/G"});
    ::chmod(out_dir_.c_str(), 0700);
    EXPECT_TRUE(FailedWith(r, 1, "cannot create output file '" + out_dir_ + "/G': Permission denied"));
    EXPECT_EQ(list_dir(out_dir_), std::vector<std::string>{});
}

TEST_F(CliErrors, OutputIsDirectory)
{
    auto r = kc(enc("aria-128-ctr", k16, iv16) + std::vector<std::string>{"--out", out_dir_});
    EXPECT_TRUE(FailedWith(r, 1, "output path '" + out_dir_ + "' is a directory"));
    auto r2 = kc(enc("aria-128-ctr", k16, iv16) + std::vector<std::string>{"--out", out_dir_ + "/"});
    EXPECT_TRUE(FailedWith(r2, 1, "directory"));
    EXPECT_EQ(list_dir(out_dir_), std::vector<std::string>{});
    EXPECT_EQ(list_dir(dir_.path()), (std::vector<std::string>{"in", "out"}));
}

TEST_F(CliErrors, UnknownKernel)
{
    expect_failure(enc("aria-128-ctr", k16, iv16) + std::vector<std::string>{"--kernel", "aria/nope"}, 2,
                   "unknown kernel");
}

TEST_F(CliErrors, KernelOfAnotherFamily)
{
    expect_failure(enc("aria-128-ctr", k16, iv16) + std::vector<std::string>{"--kernel", "lea/ref"}, 2,
                   "does not implement this cipher");
    expect_failure(enc("hight-ecb", k16) + std::vector<std::string>{"--kernel", "cham/ref"}, 2,
                   "does not implement this cipher");
}

TEST_F(CliErrors, UnknownKernelInEnvironment)
{
    kct::ProcessOptions o;
    o.env_set = {{"KCIPHER_KERNEL", "nope/x"}};
    expect_failure(enc("aria-128-ctr", k16, iv16), 2, "unknown kernel", o);
}

TEST_F(CliErrors, MissingRequiredOption)
{
    // --key (--key-file, --key-env) or --pass: checked after parsing; bad usage all the same.
    expect_failure({"enc", "--cipher", "aria-128-ctr", "--iv", iv16, "--in", plain_}, 2,
                   "--key, --key-file or --key-env is required (or --pass with --pbkdf2)");
    expect_failure({"dec", "--key", k16, "--in", plain_}, 2, "--cipher is required");
    expect_failure(enc("aria-128-ecb", k16) + std::vector<std::string>{"--no-such-option"}, 2,
                   "--no-such-option");
}

// =============================================================================================
// 5. The output appears whole or not at all.
// =============================================================================================

class CliAtomic : public ::testing::Test {
  protected:
    void SetUp() override
    {
        out_dir_ = dir_.mkdir("out");
        g_ = out_dir_ + "/G";
        write_file(g_, previous_);
    }
    const std::string previous_ = "previous contents of G\n";
    const std::string k16 = "8899aabbccddeeff0011223344556677";
    TempDir dir_;
    std::string out_dir_, g_;
};

TEST_F(CliAtomic, FailureAfterMoreThanOneChunkKeepsExistingOutput)
{
    for (const char *cm : {"aria-128-ecb", "lea-192-cbc"}) {
        SCOPED_TRACE(cm);
        std::string key = std::string(cm) == "lea-192-cbc" ? k16 + "0102030405060708" : k16;
        // More than a chunk of good data, then a partial block: the failure comes after the
        // first 4 MiB have been encrypted and written to the temporary file.
        kct::ProcessOptions o;
        o.stdin_bytes = random_str(kChunk + 4096 + 5, 11);
        std::vector<std::string> a = {"enc", "--cipher", cm, "--key", key, "--nopad", "--out", g_};
        if (std::string(cm).find("cbc") != std::string::npos)
            a = a + std::vector<std::string>{"--iv", "00000000000000000000000000000000"};
        auto r = kc(a, o);
        EXPECT_TRUE(FailedWith(r, 1, "partial block (" + std::to_string(kChunk + 4096 + 5) + " bytes in all)"));
        EXPECT_EQ(read_file(g_), previous_) << "G was changed by a failed run";
        EXPECT_EQ(list_dir(out_dir_), std::vector<std::string>{"G"}) << "a temp file was left behind: " << join(list_dir(out_dir_));
    }
}

TEST_F(CliAtomic, FailureWithoutExistingOutputLeavesNothing)
{
    ASSERT_EQ(::unlink(g_.c_str()), 0);
    kct::ProcessOptions o;
    o.stdin_bytes = random_str(2 * kChunk + 7, 12);
    auto r = kc({"enc", "--cipher", "cham-128-128-ecb", "--key", k16, "--nopad", "--out", g_}, o);
    EXPECT_TRUE(FailedWith(r, 1, "partial block"));
    EXPECT_EQ(list_dir(out_dir_), std::vector<std::string>{});
}

TEST_F(CliAtomic, SuccessReplacesAtomically)
{
    // A hard link to the old G keeps the old inode: after an atomic rename it still holds the
    // old bytes, where a truncate-and-rewrite of G would have changed them.
    ASSERT_EQ(::link(g_.c_str(), (out_dir_ + "/old").c_str()), 0);
    struct stat before, after;
    ASSERT_EQ(::stat(g_.c_str(), &before), 0);

    std::string plain = random_str(kChunk + 1000, 13);
    std::vector<uint8_t> key = kct::unhex(k16), iv = kct::random_bytes(16, 14);
    kct::ProcessOptions o;
    o.stdin_bytes = plain;
    auto r = kc(crypt_args("enc", "aria-128-ctr", key, iv) + std::vector<std::string>{"--out", g_}, o);
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(r.out, "");
    ASSERT_EQ(::stat(g_.c_str(), &after), 0);
    EXPECT_NE(before.st_ino, after.st_ino) << "G was rewritten in place, not replaced";
    EXPECT_TRUE(SameBytes(read_file(g_), library_encrypt(kCiphers[0], "ctr", key, iv, plain)));
    EXPECT_EQ(read_file(out_dir_ + "/old"), previous_);
    EXPECT_EQ(list_dir(out_dir_), (std::vector<std::string>{"G", "old"}));
}

// Replacing an existing output keeps its permission bits: decrypting into a file the user
// made private (0600) must not leave the plaintext world-readable.
TEST_F(CliAtomic, ReplacementKeepsExistingMode)
{
    ASSERT_EQ(::chmod(g_.c_str(), 0600), 0);
    std::string ct = random_str(64, 18);
    kct::ProcessOptions o;
    o.stdin_bytes = ct;
    auto r = kc({"dec", "--cipher", "aria-128-ecb", "--key", k16, "--nopad", "--out", g_}, o); // random bytes: no pad
    ASSERT_TRUE(Succeeded(r));
    struct stat st;
    ASSERT_EQ(::stat(g_.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u) << "mode " << std::oct << (st.st_mode & 07777) << " after replacing a 0600 file";
    std::vector<uint8_t> key = kct::unhex(k16);
    EXPECT_TRUE(SameBytes(read_file(g_), bytes_str(kcipher::Cipher("aria-128", key).ecb_decrypt(str_bytes(ct)))));
}

TEST_F(CliAtomic, SymlinkOutputReplacesItsTarget)
{
    // As `openssl enc -out` does: the link stays a link, the file it names gets the output.
    std::string link = out_dir_ + "/L";
    ASSERT_EQ(::symlink("G", link.c_str()), 0);
    std::string plain = random_str(48, 19);
    kct::ProcessOptions o;
    o.stdin_bytes = plain;
    std::vector<uint8_t> key = kct::unhex(k16);
    auto r = kc({"enc", "--cipher", "aria-128-ecb", "--key", k16, "--out", link}, o);
    ASSERT_TRUE(Succeeded(r));
    struct stat st;
    ASSERT_EQ(::lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the symlink was replaced by a file";
    EXPECT_TRUE(SameBytes(read_file(g_), bytes_str(kcipher::Cipher("aria-128", key).ecb_encrypt_padded(str_bytes(plain)))));
    EXPECT_EQ(list_dir(out_dir_), (std::vector<std::string>{"G", "L"}));
}

TEST_F(CliAtomic, SameFileAsInputAndOutput)
{
    std::string plain = random_str(4096, 15);
    write_file(g_, plain);
    std::vector<uint8_t> key = kct::unhex(k16), iv = kct::random_bytes(16, 16);
    auto r = kc(crypt_args("enc", "aria-128-cbc", key, iv) + std::vector<std::string>{"--in", g_, "--out", g_});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_TRUE(SameBytes(read_file(g_), library_encrypt(kCiphers[0], "cbc", key, iv, plain)));
    r = kc(crypt_args("dec", "aria-128-cbc", key, iv) + std::vector<std::string>{"--in", g_, "--out", g_});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_TRUE(SameBytes(read_file(g_), plain));
    EXPECT_EQ(list_dir(out_dir_), std::vector<std::string>{"G"});
}

TEST_F(CliAtomic, TerminatedMidRunLeavesNoTempFile)
{
    // The child encrypts one chunk into its temporary file, then waits for more input;
    // SIGTERM then must remove the temporary file and leave G alone.
    kct::ProcessOptions o;
    o.stdin_bytes = random_str(kChunk + 16, 17);
    o.keep_stdin_open = true;
    o.timeout_seconds = 30;
    bool sent = false;
    std::string tmp_seen;
    o.on_tick = [&](pid_t pid, double, bool stdin_done) {
        if (sent || !stdin_done)
            return;
        for (const std::string &n : list_dir(out_dir_)) {
            struct stat st;
            if (n.rfind(".G.kcipher-", 0) == 0 && ::stat((out_dir_ + "/" + n).c_str(), &st) == 0 && st.st_size > 0) {
                tmp_seen = n;
                ::kill(pid, SIGTERM);
                sent = true;
            }
        }
    };
    auto r = kc({"enc", "--cipher", "aria-256-ecb", "--key", k16 + k16, "--out", g_}, o);
    ASSERT_TRUE(sent) << "the temporary file never appeared; " << r.describe() << ", stderr: " << r.err;
    EXPECT_FALSE(r.timed_out);
    EXPECT_FALSE(r.exited) << "exit " << r.exit_code;
    EXPECT_EQ(r.term_signal, SIGTERM);
    EXPECT_EQ(read_file(g_), previous_);
    EXPECT_EQ(list_dir(out_dir_), std::vector<std::string>{"G"}) << tmp_seen << " was left behind";
}

// =============================================================================================
// 6. Full disks and outputs that are not regular files.
// =============================================================================================

TEST(CliFullDisk, StdoutIsDevFull)
{
    TempDir dir;
    write_file(dir / "small", random_str(32, 20));
    // Small: the write is buffered and fails at the final flush.
    kct::ProcessOptions o;
    o.stdout_path = "/dev/full";
    o.stdin_path = dir / "small";
    auto r = kc({"enc", "--cipher", "aria-128-ecb", "--key", "000102030405060708090a0b0c0d0e0f"}, o);
    EXPECT_TRUE(FailedWith(r, 1, "standard output"));
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    // Large: fails in the middle of the stream.
    kct::ProcessOptions big;
    big.stdout_path = "/dev/full";
    big.stdin_bytes = random_str(kChunk + 12345, 21);
    r = kc({"enc", "--cipher", "lea-128-ctr", "--key", "000102030405060708090a0b0c0d0e0f", "--iv",
            "000102030405060708090a0b0c0d0e0f"},
           big);
    EXPECT_TRUE(FailedWith(r, 1, "standard output"));
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
}

TEST(CliFullDisk, ReportsOnAFullStdoutFail)
{
    // info, selftest and --version print to standard output; a lost report is a failure.
    for (std::vector<std::string> args : {std::vector<std::string>{"info"}, {"selftest"}, {"--version"}}) {
        kct::ProcessOptions o;
        o.stdout_path = "/dev/full";
        auto r = kc(args, o);
        EXPECT_NE(r.exit_code, 0) << args[0] << " exited 0 with stdout on /dev/full";
        EXPECT_NE(r.err.find("standard output"), std::string::npos) << args[0] << ": " << r.err;
    }
}

// `--out /dev/full`. The CLI writes a temporary file beside the output and renames it over
// the output; where the process may create files in /dev (root on a writable devtmpfs) that
// would replace the machine's real /dev/full, so the test then uses its own device node with
// the same numbers (1, 7) in its temporary directory.
TEST(CliFullDisk, OutputPathIsDevFull)
{
    TempDir dir;
    write_file(dir / "plain", random_str(64, 22));
    std::string target = "/dev/full";
    bool own_node = ::access("/dev", W_OK) == 0;
    if (own_node) {
        target = dir / "full";
        if (::mknod(target.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
            GTEST_SKIP() << "/dev is writable here and mknod failed (" << std::strerror(errno)
                         << "): not running `--out /dev/full` against the real device";
    }
    auto r = kc({"enc", "--cipher", "aria-128-ecb", "--key", "000102030405060708090a0b0c0d0e0f", "--in",
                 dir / "plain", "--out", target});
    EXPECT_TRUE(FailedWith(r, 1, "'" + target + "'")) << "a write to a full device must fail";
    struct stat st;
    ASSERT_EQ(::lstat(target.c_str(), &st), 0) << target << " is gone";
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << target << " is no longer a character device (replaced by the output?)";
    if (own_node) {
        EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"full", "plain"}));
    }
}

// A named pipe as --out gets the bytes written into it (as with `openssl enc -out`), and
// stays a named pipe.
TEST(CliSpecialOutput, FifoIsWrittenThrough)
{
    TempDir dir;
    std::string plain = random_str(64, 23);
    write_file(dir / "plain", plain);
    std::string fifo = dir / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    int rd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK); // a reader, so the writer's open does not block
    ASSERT_GE(rd, 0);
    std::vector<uint8_t> key = kct::random_bytes(16, 24);
    auto r = kc(crypt_args("enc", "lea-128-ecb", key, {}) + std::vector<std::string>{"--in", dir / "plain", "--out", fifo});
    std::string got;
    char buf[4096];
    for (ssize_t n; (n = ::read(rd, buf, sizeof buf)) > 0;)
        got.append(buf, (size_t)n);
    ::close(rd);
    EXPECT_TRUE(Succeeded(r));
    struct stat st;
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the named pipe was replaced by a regular file";
    EXPECT_TRUE(SameBytes(got, library_encrypt(kCiphers[3], "ecb", key, {}, plain))) << "bytes read from the pipe";
    EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"fifo", "plain"}));
}

// `--out /dev/null` succeeds and leaves /dev/null a device (the same care as above about
// running it where the process may create files in /dev).
TEST(CliSpecialOutput, DevNullAccepted)
{
    TempDir dir;
    write_file(dir / "plain", random_str(64, 25));
    std::string target = "/dev/null";
    bool own_node = ::access("/dev", W_OK) == 0;
    if (own_node) {
        target = dir / "null";
        if (::mknod(target.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            GTEST_SKIP() << "/dev is writable here and mknod failed (" << std::strerror(errno)
                         << "): not running `--out /dev/null` against the real device";
    }
    auto r = kc({"enc", "--cipher", "aria-128-ctr", "--key", "000102030405060708090a0b0c0d0e0f", "--iv",
                 "000102030405060708090a0b0c0d0e0f", "--in", dir / "plain", "--out", target});
    EXPECT_TRUE(Succeeded(r));
    struct stat st;
    ASSERT_EQ(::lstat(target.c_str(), &st), 0) << target << " is gone";
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << target << " is no longer a character device (replaced by the output?)";
    if (own_node) {
        EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"null", "plain"}));
    }
}

// =============================================================================================
// 7. info, selftest, KCIPHER_KERNEL, bench.
// =============================================================================================

std::vector<std::string> tokens(const std::string &line)
{
    std::istringstream s(line);
    std::vector<std::string> t;
    for (std::string w; s >> w;)
        t.push_back(w);
    return t;
}

// The first line of `text` whose first word is `first`, split into words; empty if none.
std::vector<std::string> row(const std::string &text, const std::string &first)
{
    std::istringstream s(text);
    for (std::string line; std::getline(s, line);) {
        auto t = tokens(line);
        if (!t.empty() && t[0] == first)
            return t;
    }
    return {};
}

TEST(CliInfo, ListsCiphersAndKernels)
{
    auto r = kc({"info"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_NE(r.out.find(std::string("kcipher ") + kcipher_version()), std::string::npos);
    for (const CipherSpec &c : kCiphers) {
        auto t = row(r.out, c.name);
        ASSERT_EQ(t.size(), 4u) << "no row for cipher " << c.name << " in:\n" << r.out;
        EXPECT_EQ(t[1], std::to_string(c.block_bytes)) << c.name;
        EXPECT_EQ(t[2], std::to_string(c.key_bytes)) << c.name;
        std::string family = std::string(c.name).substr(0, std::string(c.name).find('-'));
        EXPECT_EQ(t[3].rfind(family + "/", 0), 0u) << c.name << "'s default kernel " << t[3];
    }
    for (const char *k : kKernels) {
        auto t = row(r.out, k);
        ASSERT_GE(t.size(), 6u) << "no row for kernel " << k << " in:\n" << r.out;
        EXPECT_EQ(t[1], std::string(k).substr(0, std::string(k).find('/'))) << k << "'s family";
        EXPECT_EQ(t[5], "yes") << k << " is portable C++ and must be available";
    }
}

TEST(CliInfo, SelftestPasses)
{
    auto r = kc({"selftest"});
    ASSERT_TRUE(Succeeded(r)) << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("selftest: ([0-9]+) passed, 0 failed"))) << r.out;
    EXPECT_GT(std::stoi(m[1]), 0);
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
}

TEST(CliInfo, EnvironmentChoosesDefaultKernel)
{
    kct::ProcessOptions o;
    o.env_set = {{"KCIPHER_KERNEL", "aria/ref"}};
    auto r = kc({"info"}, o);
    ASSERT_TRUE(Succeeded(r));
    for (const char *c : {"aria-128", "aria-192", "aria-256"}) {
        auto t = row(r.out, c);
        ASSERT_EQ(t.size(), 4u) << r.out;
        EXPECT_EQ(t[3], "aria/ref") << c;
    }
    // The other families keep theirs.
    auto lea = row(r.out, "lea-128");
    ASSERT_EQ(lea.size(), 4u);
    EXPECT_EQ(lea[3].rfind("lea/", 0), 0u);

    o.env_set = {{"KCIPHER_KERNEL", "aria/table"}};
    r = kc({"info"}, o);
    ASSERT_TRUE(Succeeded(r));
    auto t = row(r.out, "aria-128");
    ASSERT_EQ(t.size(), 4u);
    EXPECT_EQ(t[3], "aria/table");
}

TEST(CliInfo, UnknownKernelInEnvironmentFailsEnc)
{
    kct::ProcessOptions o;
    o.env_set = {{"KCIPHER_KERNEL", "nope/x"}};
    o.stdin_bytes = std::string(32, 'a');
    auto r = kc({"enc", "--cipher", "aria-128-ctr", "--key", "000102030405060708090a0b0c0d0e0f", "--iv",
                 "000102030405060708090a0b0c0d0e0f"},
                o);
    EXPECT_TRUE(FailedWith(r, 2, "unknown kernel"));
    EXPECT_EQ(r.out, "");
}

TEST(CliBench, WritesJsonRecords)
{
    TempDir dir;
    std::string json = dir / "bench.json";
    auto r = kc({"bench", "--cipher", "aria-128-ctr", "--size", "1024", "--threads", "1", "--seconds", "0.01",
                 "--rounds", "3", "--json", json});
    ASSERT_TRUE(Succeeded(r)) << r.out;
    EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"bench.json"}) << "a temp file was left behind";
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(read_file(json)));
    ASSERT_TRUE(j.is_array());
    ASSERT_FALSE(j.empty());
    int ours = 0, openssl = 0;
    for (const auto &rec : j) {
        ASSERT_TRUE(rec.is_object());
        for (const char *k : {"cipher", "mode", "kernel", "bytes", "threads", "bytes_per_second", "cycles_per_byte",
                              "implementation", "clock_ghz", "clock_method", "round_bytes_per_second"})
            ASSERT_TRUE(rec.contains(k)) << "a record lacks \"" << k << "\": " << rec.dump();
        EXPECT_TRUE(rec["cipher"].is_string());
        EXPECT_EQ(rec["mode"], "ctr") << rec.dump();
        EXPECT_TRUE(rec["kernel"].is_string());
        EXPECT_EQ(rec["bytes"], 1024) << rec.dump();
        EXPECT_EQ(rec["threads"], 1) << rec.dump();
        ASSERT_TRUE(rec["bytes_per_second"].is_number());
        ASSERT_TRUE(rec["cycles_per_byte"].is_number());
        EXPECT_GT(rec["bytes_per_second"].get<double>(), 0.0);
        EXPECT_GT(rec["cycles_per_byte"].get<double>(), 0.0);
        // Every row carries its own clock reading and one rate per interleaved round.
        EXPECT_GT(rec["clock_ghz"].get<double>(), 0.0) << rec.dump();
        EXPECT_EQ(rec["round_bytes_per_second"].size(), 3u) << rec.dump();
        if (rec["implementation"] == "kcipher") {
            ours++;
            EXPECT_EQ(rec["cipher"], "aria-128");
            EXPECT_EQ(rec["kernel"].get<std::string>().rfind("aria/", 0), 0u) << rec.dump();
        }
        if (rec["implementation"] == "openssl" && rec["cipher"] == "aria-128")
            openssl++;
    }
    EXPECT_GE(ours, 1) << "no kcipher record";
#ifdef KC_HAVE_OPENSSL
    EXPECT_GE(openssl, 1) << "no OpenSSL ARIA record (OpenSSL was found for the tests, so the CLI has it too)";
#endif
    // The table: a column of clocks and one of cycles per byte, a row per implementation.
    EXPECT_NE(r.out.find("GHz"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("c/B"), std::string::npos) << r.out;
}

// --stream: the MAC rows time updates of one stream (GMAC's is GHASH alone), are ours alone
// (a peer's per-message MAC would not compare), and say so in their records; without it a
// GMAC row is a whole message's tag.
TEST(CliBench, StreamTimesMacUpdates)
{
    TempDir dir;
    for (bool stream : {true, false}) {
        std::string json = dir / (stream ? "stream.json" : "mac.json");
        std::vector<std::string> args{"bench", "-c", "aria-128-gmac", "-c", "lea-128-cmac", "-s", "1024", "--seconds",
                                      "0.01", "--rounds", "1", "--no-cryptopp", "--json", json};
        if (stream)
            args.push_back("--stream");
        auto r = kc(args);
        ASSERT_TRUE(Succeeded(r)) << r.out;
        const nlohmann::json j = nlohmann::json::parse(read_file(json));
        int ours = 0;
        for (const auto &rec : j) {
            if (rec["implementation"] != "kcipher") {
                EXPECT_FALSE(stream) << "a peer row under --stream: " << rec.dump();
                continue;
            }
            ours++;
            EXPECT_EQ(rec["operation"], stream ? "update" : "mac") << rec.dump();
            EXPECT_GT(rec["cycles_per_byte"].get<double>(), 0.0) << rec.dump();
        }
        EXPECT_EQ(ours, 2) << r.out;
        EXPECT_EQ(r.out.find("--stream:") != std::string::npos, stream) << r.out;
    }
}

// The user's options are there; the experiments (bench/lab's kcipher-lab) are not.
TEST(CliBench, HelpShowsTheUsersOptions)
{
    auto r = kc({"bench", "--help"});
    ASSERT_TRUE(Succeeded(r));
    for (const char *opt : {"--cipher", "--kernel", "--size", "--threads", "--all", "--seconds", "--rounds", "--json",
                            "--no-openssl", "--no-cryptopp", "--gpu", "--keysearch", "kcipher-lab"})
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt << " missing from:\n" << r.out;
    for (const char *opt : {"--ct-check", "--scaling", "--preset", "--drbg", "--sweep", "--pairs", "--keysearch-gpu"})
        EXPECT_EQ(r.out.find(opt), std::string::npos) << opt << " is an experiment's option:\n" << r.out;
}

TEST(CliBench, ExperimentOptionsAreRefused)
{
    for (const char *opt : {"--ct-check", "--scaling", "--preset", "--drbg", "--keysearch-gpu"}) {
        auto r = kc({"bench", opt});
        EXPECT_EQ(r.exit_code, 2) << opt << ": " << r.describe();
    }
}

// bench --gpu (host to host through the public API): a clear error where there is no GPU.
TEST(CliBench, GpuWhereThereIsNone)
{
    if (kcipher_gpu_count() > 0)
        GTEST_SKIP() << "this machine has a GPU";
    auto r = kc({"bench", "--gpu", "-c", "lea-128"});
    EXPECT_TRUE(FailedWith(r, 1, "--gpu: no usable GPU")) << r.out;
}

// =============================================================================================
// 8. --version and a missing subcommand.
// =============================================================================================

TEST(CliMisc, Version)
{
    auto r = kc({"--version"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(r.out, std::string("kcipher ") + kcipher_version() + "\n");
}

TEST(CliMisc, NoSubcommand)
{
    auto r = kc({});
    EXPECT_TRUE(FailedWith(r, 2, "subcommand is required"));
    EXPECT_EQ(r.out, "");
}

TEST(CliMisc, HelpExitsZero)
{
    auto r = kc({"enc", "--help"});
    ASSERT_TRUE(Succeeded(r));
    for (const char *opt : {"--cipher", "--key", "--iv", "--in", "--out", "--kernel"})
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

} // namespace

// --gpu: the same bytes as the CPU where a GPU is present; a clear error and no output where
// there is none.
TEST_F(CliErrors, GpuWhereThereIsNone)
{
    if (kcipher_gpu_count() > 0)
        GTEST_SKIP() << "this machine has a GPU (CliGpu covers it)";
    expect_failure(enc("lea-128-ctr", k16, iv16) + std::vector<std::string>{"--gpu"}, 1, "--gpu: no usable GPU");
    expect_failure(enc("lea-128-ctr", k16, iv16) + std::vector<std::string>{"--gpu-device", "0"}, 1, "no usable GPU");
    // Large enough for the CPU to stand in while the GPU starts: the start's failure still
    // ends the run, and no output file is left behind.
    TempDir dir;
    write_file(dir / "big", random_str((size_t(65) << 20) + 3, 5));
    auto r = kc({"enc", "-c", "aria-128-ctr", "-k", k16, "--iv", iv16, "-i", dir / "big", "-o", dir / "out", "--gpu"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("--gpu: no usable GPU"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(dir / "out"));
}

TEST(CliGpu, SameBytesAsTheCpu)
{
    if (kcipher_gpu_count() == 0)
        GTEST_SKIP() << "no GPU on this machine";
    TempDir dir;
    const std::string pt = random_str((9 << 20) + 5, 7); // more than two 4 MiB staging chunks
    write_file(dir / "pt", pt);
    const std::string key = "000102030405060708090a0b0c0d0e0f", iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    for (const char *cipher : {"aria-128-ctr", "lea-128-ctr", "cham-128-128-ctr"}) {
        auto r = kc({"enc", "-c", cipher, "-k", key, "--iv", iv, "--in", dir / "pt", "--out", dir / "cpu"});
        ASSERT_TRUE(Succeeded(r)) << cipher;
        r = kc({"enc", "-c", cipher, "-k", key, "--iv", iv, "--in", dir / "pt", "--out", dir / "gpu", "--gpu"});
        ASSERT_TRUE(Succeeded(r)) << cipher;
        EXPECT_EQ(read_file(dir / "cpu"), read_file(dir / "gpu")) << cipher;
        r = kc({"dec", "-c", cipher, "-k", key, "--iv", iv, "--in", dir / "gpu", "--out", dir / "back", "--gpu-device", "0"});
        ASSERT_TRUE(Succeeded(r)) << cipher;
        EXPECT_EQ(read_file(dir / "back"), pt) << cipher;
    }
}

// A file of 64 MiB or more starts on the CPU while the GPU starts (tools/kcipher/gpu_start.hpp)
// and moves to the GPU mid-stream. 1 GiB takes longer than the GPU's start (about 0.3 s on an
// H200 host), so the move should fall inside it; the test cannot see where it fell, but the
// bytes must equal the CPU's wherever it did. CTR carries a position across it, CBC a chain
// value, ECB a pad at the end.
TEST(CliGpu, LargeInputMovesFromTheCpuToTheGpuWithTheSameBytes)
{
    if (kcipher_gpu_count() == 0)
        GTEST_SKIP() << "no GPU on this machine";
    TempDir dir;
    const std::string pt = random_str((size_t(1) << 30) + 21, 11);
    write_file(dir / "pt", pt);
    const std::string key = "000102030405060708090a0b0c0d0e0f", iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    for (const std::string cipher : {"aria-128-ctr", "lea-128-ecb", "lea-128-cbc"}) {
        const std::vector<std::string> keys = cipher == "lea-128-ecb" ? std::vector<std::string>{"-k", key}
                                                                      : std::vector<std::string>{"-k", key, "--iv", iv};
        auto args = [&](const char *cmd, const std::string &in, const std::string &out, bool gpu) {
            std::vector<std::string> a = {cmd, "-c", cipher, "--in", in, "--out", out};
            a.insert(a.end(), keys.begin(), keys.end());
            if (gpu)
                a.push_back("--gpu");
            return a;
        };
        auto r = kc(args("enc", dir / "pt", dir / "cpu", false));
        ASSERT_TRUE(Succeeded(r)) << cipher;
        r = kc(args("enc", dir / "pt", dir / "gpu", true));
        ASSERT_TRUE(Succeeded(r)) << cipher;
        EXPECT_TRUE(read_file(dir / "cpu") == read_file(dir / "gpu")) << cipher;
        r = kc(args("dec", dir / "gpu", dir / "back", true));
        ASSERT_TRUE(Succeeded(r)) << cipher;
        EXPECT_TRUE(read_file(dir / "back") == pt) << cipher;
    }
}
