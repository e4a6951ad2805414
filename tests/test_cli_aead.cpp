// `kcipher enc`/`dec` in GCM and CCM and `kcipher mac`, run as a separate process
// (KC_CLI_PATH, as tests/test_cli.cpp does): ciphertext || tag equal to the library's seal and
// to OpenSSL's EVP (ARIA-GCM, ARIA-CCM, CMAC over ARIA-CBC), through files, stdin/stdout and
// inputs longer than the 4 MiB chunk; a bad tag, AAD or key leaves no output file, nothing on
// stdout, exit 1 and "authentication failed"; --aad/--aad-file, --tag-len; mac printing and
// --verify (exit 0/1) for CMAC over ARIA and HIGHT and GMAC; option combinations refused.
// Every case runs natively; under emulation and sanitizers the grids of long inputs run as a
// seeded sample (support/sample.hpp: KCIPHER_TEST_SAMPLE), each case there being several
// processes over 4 MiB.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kcipher/kcipher.hpp"
#include "support/cli_kit.hpp"
#include "support/openssl_aead.hpp"
#include "support/run_process.hpp"
#include "support/sample.hpp"
#include "support/vectors.hpp"


namespace {

using namespace kct;
using Bytes = std::vector<uint8_t>;

constexpr size_t kChunk = 4u << 20; // the CLI's streaming chunk (tools/kcipher/crypt_aead.cpp)


std::vector<std::string> aead_args(const std::string &verb, const std::string &cipher_mode, const Bytes &key,
                                   const Bytes &iv)
{
    return {verb, "-c", cipher_mode, "-k", hex(key), "--iv", hex(iv)};
}

// ---- round trips ----------------------------------------------------------------------------

struct RoundTrip {
    const char *cipher;
    size_t key_bytes;
    kcipher_mode mode;
    size_t iv_bytes;
};

// The CLI's enc equals the library's seal, through a file and through stdin/stdout, and dec
// gives the plaintext back both ways; lengths around the chunk put the tag across two reads.
TEST(CliAeadRoundTrip, FilesAndStdio)
{
    const RoundTrip cases[] = {{"aria-128", 16, KCIPHER_MODE_GCM, 12}, {"lea-256", 32, KCIPHER_MODE_GCM, 1},
                               {"cham-128-128", 16, KCIPHER_MODE_GCM, 60}, {"aria-192", 24, KCIPHER_MODE_CCM, 7},
                               {"seed-128", 16, KCIPHER_MODE_CCM, 12}}; // 12: up to 16 MiB
    const size_t sizes[] = {0, 1, 100, kChunk - 5, kChunk + 17};
    TempDir dir;
    int seed = 0;
    Sample sample("CliAeadRoundTrip");
    for (const RoundTrip &rt : cases) {
        const bool gcm = rt.mode == KCIPHER_MODE_GCM;
        const std::string name = std::string(rt.cipher) + (gcm ? "-gcm" : "-ccm");
        for (size_t size : sizes) {
            if (size > 1000 && seed % 2 == 1)
                continue; // the long sizes on some ciphers only: each is 4 MiB through a process
            SCOPED_TRACE(name + ", " + std::to_string(size) + " bytes");
            seed++;
            if (!sample.keep())
                continue;
            const Bytes key = kct::random_bytes(rt.key_bytes, seed), iv = kct::random_bytes(rt.iv_bytes, seed + 100);
            const Bytes plain = kct::random_bytes(size, seed + 200);
            const std::string expected = bytes_str(kcipher::Cipher(rt.cipher, key).seal(rt.mode, iv, plain));
            write_file(dir / "plain", bytes_str(plain));
            auto enc = aead_args("enc", name, key, iv);
            auto dec = aead_args("dec", name, key, iv);

            ASSERT_TRUE(Succeeded(kc(enc + std::vector<std::string>{"-i", dir / "plain", "-o", dir / "sealed"})));
            ASSERT_TRUE(SameBytes(read_file(dir / "sealed"), expected));
            ASSERT_TRUE(Succeeded(kc(dec + std::vector<std::string>{"-i", dir / "sealed", "-o", dir / "back"})));
            EXPECT_TRUE(SameBytes(read_file(dir / "back"), bytes_str(plain)));

            kct::ProcessOptions in_plain, in_sealed;
            in_plain.stdin_bytes = bytes_str(plain); // a pipe: CCM holds it in a temporary file first
            in_sealed.stdin_bytes = expected;
            auto r = kc(enc, in_plain);
            ASSERT_TRUE(Succeeded(r));
            EXPECT_TRUE(SameBytes(r.out, expected));
            r = kc(dec, in_sealed);
            ASSERT_TRUE(Succeeded(r));
            EXPECT_TRUE(SameBytes(r.out, bytes_str(plain)));
        }
    }
}

// ---- a bad tag releases nothing ---------------------------------------------------------------

class CliAeadBadTag : public ::testing::Test {
  protected:
    // dec of `sealed` fails with exit 1 and "authentication failed": no output file (and
    // nothing else) appears in out/, an existing file keeps its bytes, and stdout stays empty.
    void expect_refused(const std::string &cipher_mode, const std::string &sealed,
                        const std::vector<std::string> &extra = {})
    {
        write_file(dir_ / "sealed", sealed);
        auto args = aead_args("dec", cipher_mode, key_, iv_) + extra;
        ::mkdir((dir_ / "out").c_str(), 0700);
        auto r = kc(args + std::vector<std::string>{"-i", dir_ / "sealed", "-o", dir_ / "out/plain"});
        EXPECT_TRUE(FailedWith(r, 1, "authentication failed"));
        EXPECT_EQ(list_dir(dir_ / "out"), std::vector<std::string>{}) << "output left behind";
        write_file(dir_ / "out/plain", "old");
        r = kc(args + std::vector<std::string>{"-i", dir_ / "sealed", "-o", dir_ / "out/plain"});
        EXPECT_TRUE(FailedWith(r, 1, "authentication failed"));
        EXPECT_EQ("old", read_file(dir_ / "out/plain"));
        ::unlink((dir_ / "out/plain").c_str());

        r = kc(args + std::vector<std::string>{"-i", dir_ / "sealed"});
        EXPECT_TRUE(FailedWith(r, 1, "authentication failed"));
        EXPECT_EQ(0u, r.out.size()) << "plaintext on stdout before the tag was checked";
        kct::ProcessOptions piped;
        piped.stdin_bytes = sealed;
        r = kc(args, piped);
        EXPECT_TRUE(FailedWith(r, 1, "authentication failed"));
        EXPECT_EQ(0u, r.out.size()) << "plaintext on stdout before the tag was checked (piped input)";
    }
    std::string seal(kcipher_mode m, const Bytes &plain, const Bytes &aad = {}, size_t tag = 16)
    {
        return bytes_str(kcipher::Cipher("aria-256", key_).seal(m, iv_, plain, aad, tag));
    }

    TempDir dir_;
    const Bytes key_ = kct::random_bytes(32, 1), iv_ = kct::random_bytes(12, 2);
};

TEST_F(CliAeadBadTag, FlippedTagOrCiphertextByte)
{
    for (kcipher_mode m : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM}) {
        const std::string name = m == KCIPHER_MODE_GCM ? "aria-256-gcm" : "aria-256-ccm";
        SCOPED_TRACE(name);
        std::string s = seal(m, kct::random_bytes(1000, 3));
        s.back() ^= 1; // the tag
        expect_refused(name, s);
        s.back() ^= 1;
        s[10] ^= 0x40; // the ciphertext
        expect_refused(name, s);
    }
}

// More than one chunk of plaintext comes out of the stream before the tag: none may reach
// stdout or the output file.
TEST_F(CliAeadBadTag, LongerThanAChunkToStdout)
{
    if (!Sample("CliAeadBadTag.LongerThanAChunkToStdout", false).keep())
        GTEST_SKIP() << "left out of this run's sample (KCIPHER_TEST_SAMPLE)";
    std::string s = seal(KCIPHER_MODE_GCM, kct::random_bytes(2 * kChunk + 3, 4));
    s[s.size() - 3] ^= 0x10;
    expect_refused("aria-256-gcm", s);
}

TEST_F(CliAeadBadTag, WrongAadOrTagLength)
{
    const std::string s = seal(KCIPHER_MODE_GCM, kct::random_bytes(50, 5), {1, 2, 3});
    expect_refused("aria-256-gcm", s, {"--aad", "010204"});
    expect_refused("aria-256-gcm", s); // no AAD at all
    expect_refused("aria-256-gcm", s, {"--aad", "010203", "--tag-len", "12"});
}

// ---- AAD and tag lengths ------------------------------------------------------------------------

TEST(CliAeadOptions, AadHexAndAadFileAgree)
{
    TempDir dir;
    const Bytes key = kct::random_bytes(16, 6), iv = kct::random_bytes(12, 7), aad = kct::random_bytes(300, 8);
    const Bytes plain = kct::random_bytes(77, 9);
    write_file(dir / "plain", bytes_str(plain));
    write_file(dir / "aad", bytes_str(aad));
    for (kcipher_mode m : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM}) {
        const std::string name = m == KCIPHER_MODE_GCM ? "lea-128-gcm" : "lea-128-ccm";
        SCOPED_TRACE(name);
        const std::string expected = bytes_str(kcipher::Cipher("lea-128", key).seal(m, iv, plain, aad));
        auto enc = aead_args("enc", name, key, iv) + std::vector<std::string>{"-i", dir / "plain"};
        auto r = kc(enc + std::vector<std::string>{"--aad", hex(aad)});
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(r.out, expected));
        r = kc(enc + std::vector<std::string>{"--aad-file", dir / "aad"});
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(r.out, expected));
        // The AAD file from a pipe (standard input), the data from a file.
        kct::ProcessOptions piped;
        piped.stdin_bytes = bytes_str(aad);
        r = kc(enc + std::vector<std::string>{"--aad-file", "-"}, piped);
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(r.out, expected));

        write_file(dir / "sealed", expected);
        r = kc(aead_args("dec", name, key, iv) + std::vector<std::string>{"-i", dir / "sealed", "--aad-file", dir / "aad"});
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(r.out, bytes_str(plain)));
    }
}

TEST(CliAeadOptions, TagLengths)
{
    TempDir dir;
    const Bytes key = kct::random_bytes(16, 10), iv = kct::random_bytes(12, 11), plain = kct::random_bytes(40, 12);
    write_file(dir / "plain", bytes_str(plain));
    kcipher::Cipher c("aria-128", key);
    const std::pair<kcipher_mode, size_t> cases[] = {{KCIPHER_MODE_GCM, 4}, {KCIPHER_MODE_GCM, 8}, {KCIPHER_MODE_GCM, 13},
                                                     {KCIPHER_MODE_CCM, 4}, {KCIPHER_MODE_CCM, 10}};
    for (auto [m, t] : cases) {
        const std::string name = m == KCIPHER_MODE_GCM ? "aria-128-gcm" : "aria-128-ccm";
        SCOPED_TRACE(name + " --tag-len " + std::to_string(t));
        auto r = kc(aead_args("enc", name, key, iv) + std::vector<std::string>{"-i", dir / "plain", "--tag-len", std::to_string(t)});
        ASSERT_TRUE(Succeeded(r));
        EXPECT_EQ(plain.size() + t, r.out.size());
        EXPECT_TRUE(SameBytes(r.out, bytes_str(c.seal(m, iv, plain, {}, t))));
        write_file(dir / "sealed", r.out);
        r = kc(aead_args("dec", name, key, iv) + std::vector<std::string>{"-i", dir / "sealed", "--tag-len", std::to_string(t)});
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(r.out, bytes_str(plain)));
    }
}

// ---- byte-identity with OpenSSL ----------------------------------------------------------------

#ifdef KC_HAVE_OPENSSL
TEST(CliAeadOpenssl, GcmCcmAndCmacEqualEvp)
{
    TempDir dir;
    const Bytes key = kct::random_bytes(16, 13), aad = kct::random_bytes(20, 14), plain = kct::random_bytes(5000, 15);
    write_file(dir / "plain", bytes_str(plain));
    const Bytes iv = kct::random_bytes(12, 16), nonce = kct::random_bytes(11, 17);
    auto r = kc(aead_args("enc", "aria-128-gcm", key, iv) + std::vector<std::string>{"-i", dir / "plain", "--aad", hex(aad)});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_TRUE(SameBytes(r.out, bytes_str(evp_aead("ARIA-128-GCM", true, key, iv, aad, plain, 16))));
    r = kc(aead_args("enc", "aria-128-ccm", key, nonce) +
           std::vector<std::string>{"-i", dir / "plain", "--aad", hex(aad), "--tag-len", "8"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_TRUE(SameBytes(r.out, bytes_str(evp_aead("ARIA-128-CCM", false, key, nonce, aad, plain, 8))));
    r = kc({"mac", "-c", "aria-128-cmac", "-k", hex(key), "-i", dir / "plain"});
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(hex(evp_cmac("ARIA-128-CBC", key, plain)) + "\n", r.out);
}
#endif

// ---- kcipher mac ---------------------------------------------------------------------------------

TEST(CliAeadMac, CmacPrintsTheTagForEveryBlockSize)
{
    TempDir dir;
    const Bytes data = kct::random_bytes(kChunk + 9, 18);
    write_file(dir / "data", bytes_str(data));
    Sample sample("CliAeadMac", false); // each case is half a minute under qemu
    for (const char *cipher : {"aria-128", "hight", "cham-64-128"}) {
        if (!sample.keep()) {
            std::printf("[ SKIPPED  ] %s: left out of this run's sample (KCIPHER_TEST_SAMPLE)\n", cipher);
            continue;
        }
        SCOPED_TRACE(cipher);
        const Bytes key = kct::random_bytes(16, 19);
        kcipher::Cipher c(cipher, key);
        const Bytes tag = c.mac(KCIPHER_MODE_CMAC, {}, data);
        EXPECT_EQ(c.block_size(), tag.size());
        const std::vector<std::string> args = {"mac", "-c", std::string(cipher) + "-cmac", "-k", hex(key)};
        auto r = kc(args + std::vector<std::string>{"-i", dir / "data"});
        ASSERT_TRUE(Succeeded(r));
        EXPECT_EQ(hex(tag) + "\n", r.out);
        kct::ProcessOptions piped;
        piped.stdin_bytes = bytes_str(data);
        r = kc(args, piped);
        ASSERT_TRUE(Succeeded(r));
        EXPECT_EQ(hex(tag) + "\n", r.out);
        r = kc(args + std::vector<std::string>{"-i", dir / "data", "--tag-len", "4"});
        ASSERT_TRUE(Succeeded(r));
        EXPECT_EQ(hex(tag).substr(0, 8) + "\n", r.out);

        r = kc(args + std::vector<std::string>{"-i", dir / "data", "--verify", hex(tag)});
        EXPECT_TRUE(Succeeded(r));
        EXPECT_EQ("", r.out);
        r = kc(args + std::vector<std::string>{"-i", dir / "data", "--verify", hex(tag).substr(0, 10)}); // 5 bytes
        EXPECT_TRUE(Succeeded(r));
        Bytes bad = tag;
        bad[0] ^= 1;
        r = kc(args + std::vector<std::string>{"-i", dir / "data", "--verify", hex(bad)});
        EXPECT_TRUE(FailedWith(r, 1, "tag mismatch"));
        EXPECT_EQ("", r.out);
    }
}

TEST(CliAeadMac, GmacTakesTheInputAsAad)
{
    TempDir dir;
    const Bytes key = kct::random_bytes(16, 20), iv = kct::random_bytes(12, 21), data = kct::random_bytes(999, 22);
    write_file(dir / "data", bytes_str(data));
    kcipher::Cipher c("lea-128", key);
    const Bytes tag = c.seal(KCIPHER_MODE_GCM, iv, {}, data); // GMAC = GCM's tag over the AAD alone
    const std::vector<std::string> args = {"mac", "-c", "lea-128-gmac", "-k", hex(key), "--iv", hex(iv), "-i", dir / "data"};
    auto r = kc(args);
    ASSERT_TRUE(Succeeded(r));
    EXPECT_EQ(hex(tag) + "\n", r.out);
    EXPECT_TRUE(Succeeded(kc(args + std::vector<std::string>{"--verify", hex(tag)})));
    Bytes other_iv = iv;
    other_iv[0] ^= 1;
    r = kc({"mac", "-c", "lea-128-gmac", "-k", hex(key), "--iv", hex(other_iv), "-i", dir / "data", "--verify", hex(tag)});
    EXPECT_TRUE(FailedWith(r, 1, "tag mismatch"));
}

// ---- refused combinations ------------------------------------------------------------------------

TEST(CliAeadErrors, OptionCombinations)
{
    TempDir dir;
    write_file(dir / "plain", "some text");
    const std::string k16 = "000102030405060708090a0b0c0d0e0f", iv12 = "000102030405060708090a0b";
    auto enc = [&](std::vector<std::string> extra) {
        return kc(std::vector<std::string>{"enc", "-i", dir / "plain", "-o", dir / "out"} + extra);
    };
    auto mac = [&](std::vector<std::string> extra) {
        return kc(std::vector<std::string>{"mac", "-i", dir / "plain"} + extra);
    };
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-cmac", "-k", k16}), 2, "kcipher mac"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-gmac", "-k", k16, "--iv", iv12}), 2, "kcipher mac"));
    EXPECT_TRUE(FailedWith(enc({"-c", "hight-gcm", "-k", k16, "--iv", iv12}), 2, "128-bit block"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-ctr", "-k", k16, "--iv", k16, "--aad", "00"}), 2,
                           "--aad, --aad-file and --tag-len are for -gcm and -ccm"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-cbc", "-k", k16, "--iv", k16, "--tag-len", "8"}), 2, "for -gcm and -ccm"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-gcm", "-k", k16}), 2, "aria-128-gcm needs --iv"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-ccm", "-k", k16, "--iv", "000102030405"}), 2,
                           "--iv (the CCM nonce) must be 7 to 13 bytes, got 6 bytes"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-ccm", "-k", k16, "--iv", k16}), 2, "7 to 13 bytes, got 16"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-gcm", "-k", k16, "--iv", iv12, "--tag-len", "10"}), 2,
                           "GCM tags are 16, 15, 14, 13, 12, 8 or 4 bytes"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-ccm", "-k", k16, "--iv", iv12, "--tag-len", "5"}), 2, "CCM tags are"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-gcm", "-k", k16, "--iv", iv12, "--aad", "00", "--aad-file", dir / "plain"}),
                           2, "excludes"));
    EXPECT_TRUE(FailedWith(enc({"-c", "aria-128-gcm", "-k", k16, "--iv", iv12, "--aad", "0g"}), 2, "--aad is not valid hex"));
    EXPECT_TRUE(FailedWith(kc({"dec", "-c", "aria-128-gcm", "-k", k16, "--iv", iv12, "-i", dir / "plain", "-o", dir / "out"}),
                           1, "shorter than the 16-byte tag"));
    write_file(dir / "long", std::string(70000, 'x')); // a 13-byte nonce allows 65535 bytes
    EXPECT_TRUE(FailedWith(kc({"enc", "-c", "aria-128-ccm", "-k", k16, "--iv", "000102030405060708090a0b0c", "-i",
                               dir / "long", "-o", dir / "out"}),
                           1, "over CCM's limit for a 13-byte nonce"));
    EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"long", "plain"})) << "output left behind";

    EXPECT_TRUE(FailedWith(mac({"-c", "aria-128-gcm", "-k", k16, "--iv", iv12}), 2, "mac computes -cmac or -gmac"));
    EXPECT_TRUE(FailedWith(mac({"-c", "aria-128", "-k", k16}), 2, "names no MAC"));
    EXPECT_TRUE(FailedWith(mac({"-c", "aria-128-cmac", "-k", k16, "--iv", iv12}), 2, "CMAC takes no IV"));
    EXPECT_TRUE(FailedWith(mac({"-c", "aria-128-gmac", "-k", k16}), 2, "needs --iv"));
    EXPECT_TRUE(FailedWith(mac({"-c", "hight-gmac", "-k", k16, "--iv", iv12}), 2, "GMAC needs a 128-bit block"));
    EXPECT_TRUE(FailedWith(mac({"-c", "hight-cmac", "-k", k16, "--tag-len", "16"}), 2, "4 to 8 bytes"));
    EXPECT_TRUE(FailedWith(mac({"-c", "aria-128-cmac", "-k", k16, "--tag-len", "8", "--verify", k16}), 2,
                           "--tag-len 8 but --verify gives a 16-byte tag"));
    EXPECT_TRUE(FailedWith(mac({"-c", "aria-128-cmac", "-k", k16, "--verify", "xyz"}), 2, "--verify is not valid hex"));
    EXPECT_TRUE(FailedWith(mac({"-c", "aria-128-cmac", "-k", "00"}), 2, "--key must be 16 bytes"));
    EXPECT_TRUE(FailedWith(kc({"mac", "-c", "aria-128-cmac", "-k", k16, "-i", dir / "missing"}), 1, "cannot open input"));
}

} // namespace
