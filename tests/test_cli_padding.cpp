// `kcipher enc` and `dec` pad ECB and CBC with PKCS#7 by default, as `openssl enc -K .. -iv ..`
// does: the same bytes as the openssl command on random lengths, a bad pad refused with
// "bad decrypt", exit 1 and no output left (a file never appears; standard output never gets
// the last block), decryption across the 4 MiB chunk boundary from a pipe, and --nopad only
// where there is padding to turn off.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kcipher/kcipher.hpp"
#include "support/cli_kit.hpp"
#include "support/vectors.hpp"

namespace {

using namespace kct;

constexpr size_t kChunk = 4u << 20; // the CLI's streaming chunk (tools/kcipher/crypt_stream.cpp)

std::vector<std::string> args(const std::string &verb, const std::string &cm, const std::vector<uint8_t> &key,
                              const std::vector<uint8_t> &iv)
{
    std::vector<std::string> a = {verb, "-c", cm, "-k", hex(key)};
    if (!iv.empty())
        a = a + std::vector<std::string>{"--iv", hex(iv)};
    return a;
}

TEST(CliPadding, SameBytesAsOpensslOnRandomLengths)
{
    auto openssl = kct::find_on_path("openssl");
    if (!openssl)
        GTEST_SKIP() << "the openssl command is not on PATH";
    TempDir dir;
    uint64_t seed = 0x9add0000;
    for (int bits : {128, 192, 256}) {
        for (const char *mode : {"ecb", "cbc"}) {
            for (int round = 0; round < 4; round++, seed += 8) {
                const std::string cm = "aria-" + std::to_string(bits) + "-" + mode;
                const size_t len = kct::random_bytes(2, seed)[0] * 23u + kct::random_bytes(2, seed)[1] % 16u;
                SCOPED_TRACE(cm + ", " + std::to_string(len) + " bytes");
                std::vector<uint8_t> key = kct::random_bytes((size_t)bits / 8, seed + 1);
                std::vector<uint8_t> iv = std::string(mode) == "ecb" ? std::vector<uint8_t>{} : kct::random_bytes(16, seed + 2);
                write_file(dir / "plain", random_str(len, seed + 3));
                auto r = kc(args("enc", cm, key, iv) + std::vector<std::string>{"-i", dir / "plain", "-o", dir / "ours"});
                ASSERT_TRUE(Succeeded(r));
                std::vector<std::string> o = {*openssl, "enc", "-" + cm, "-K", hex(key), "-in", dir / "plain", "-out",
                                              dir / "theirs"};
                if (!iv.empty())
                    o = o + std::vector<std::string>{"-iv", hex(iv)};
                auto p = kct::run_process(o);
                ASSERT_TRUE(p.exited && p.exit_code == 0) << p.err;
                ASSERT_TRUE(SameBytes(read_file(dir / "ours"), read_file(dir / "theirs")));
                r = kc(args("dec", cm, key, iv) + std::vector<std::string>{"-i", dir / "theirs"});
                ASSERT_TRUE(Succeeded(r));
                EXPECT_TRUE(SameBytes(r.out, read_file(dir / "plain")));
            }
        }
    }
}

// 8-byte blocks pad to 8; the pad is what the library's padded call writes.
TEST(CliPadding, EightByteBlocks)
{
    for (const char *cipher : {"hight", "cham-64-128"}) {
        for (size_t len : {size_t(0), size_t(7), size_t(8), size_t(1001)}) {
            SCOPED_TRACE(std::string(cipher) + ", " + std::to_string(len) + " bytes");
            std::vector<uint8_t> key = kct::random_bytes(16, len), iv = kct::random_bytes(8, len + 1);
            const std::string plain = random_str(len, len + 2);
            kct::ProcessOptions o;
            o.stdin_bytes = plain;
            auto r = kc(args("enc", std::string(cipher) + "-cbc", key, iv), o);
            ASSERT_TRUE(Succeeded(r));
            EXPECT_TRUE(SameBytes(r.out, bytes_str(kcipher::Cipher(cipher, key).cbc_encrypt_padded(iv, str_bytes(plain)))));
            o.stdin_bytes = r.out;
            r = kc(args("dec", std::string(cipher) + "-cbc", key, iv), o);
            ASSERT_TRUE(Succeeded(r));
            EXPECT_TRUE(SameBytes(r.out, plain));
        }
    }
}

// Through pipes (lengths unknown in advance), across the chunk: the held-back last block.
TEST(CliPadding, PipesAcrossTheChunk)
{
    std::vector<uint8_t> key = kct::random_bytes(16, 31), iv = kct::random_bytes(16, 32);
    kcipher::Cipher lib("lea-128", key);
    for (size_t len : {kChunk - 17, kChunk - 16, kChunk - 1, kChunk, kChunk + 5}) {
        SCOPED_TRACE(std::to_string(len) + " bytes");
        const std::string plain = random_str(len, len);
        kct::ProcessOptions o;
        o.stdin_bytes = plain;
        auto r = kc(args("enc", "lea-128-cbc", key, iv), o);
        ASSERT_TRUE(Succeeded(r));
        ASSERT_TRUE(SameBytes(r.out, bytes_str(lib.cbc_encrypt_padded(iv, str_bytes(plain)))));
        o.stdin_bytes = r.out;
        r = kc(args("dec", "lea-128-cbc", key, iv), o);
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(r.out, plain));
    }
}

class CliBadPad : public ::testing::Test {
  protected:
    // dec must fail with `message`: into a file (none may appear) and to standard output
    // (nothing but whole chunks before the last block may appear: returned for checks).
    std::string expect_refused(const std::vector<std::string> &a, const std::string &ct, const std::string &message)
    {
        const std::string out_dir = dir_.path() + "/out-" + std::to_string(n_++);
        ::mkdir(out_dir.c_str(), 0700);
        kct::ProcessOptions o;
        o.stdin_bytes = ct;
        auto r = kc(a + std::vector<std::string>{"-o", out_dir + "/G"}, o);
        EXPECT_TRUE(FailedWith(r, 1, message));
        EXPECT_EQ(list_dir(out_dir), std::vector<std::string>{}) << "output left behind";
        r = kc(a, o);
        EXPECT_TRUE(FailedWith(r, 1, message));
        return r.out;
    }
    TempDir dir_;
    int n_ = 0;
};

TEST_F(CliBadPad, RandomCiphertextWrongKeyAndWrongLength)
{
    std::vector<uint8_t> key = kct::random_bytes(16, 41), iv = kct::random_bytes(16, 42);
    kcipher::Cipher lib("aria-128", key);
    // Plaintext blocks whose last byte is 0 or 17: never a pad.
    for (uint8_t last : {uint8_t(0), uint8_t(17)}) {
        std::vector<uint8_t> p = kct::random_bytes(48, last);
        p[47] = last;
        EXPECT_EQ(expect_refused(args("dec", "aria-128-ecb", key, {}), bytes_str(lib.ecb_encrypt(p)), "bad decrypt"), "");
        EXPECT_EQ(expect_refused(args("dec", "aria-128-cbc", key, iv), bytes_str(lib.cbc_encrypt(iv, p)), "bad decrypt"),
                  "");
    }
    // Inconsistent pad bytes: ...03 04 04 04 with a pad of 4.
    std::vector<uint8_t> p = kct::random_bytes(32, 43);
    p[28] = 3, p[29] = p[30] = p[31] = 4;
    EXPECT_EQ(expect_refused(args("dec", "aria-128-ecb", key, {}), bytes_str(lib.ecb_encrypt(p)), "does not end in PKCS#7 padding"), "");
    // A wrong key on a good padded ciphertext: caught by the pad (with odds 1 - about 1/256).
    std::string ct = bytes_str(lib.ecb_encrypt_padded(kct::random_bytes(100, 44)));
    std::vector<uint8_t> other = kct::random_bytes(16, 45);
    EXPECT_EQ(expect_refused(args("dec", "aria-128-ecb", other, {}), ct, "bad decrypt"), "");
    // Not whole blocks, and nothing at all.
    EXPECT_EQ(expect_refused(args("dec", "aria-128-ecb", key, {}), ct.substr(0, 47), "not a whole non-zero number of 16-byte blocks"), "");
    EXPECT_EQ(expect_refused(args("dec", "aria-128-cbc", key, iv), "", "bad decrypt"), "");
}

// More than a chunk, then a bad pad: the file never appears, and standard output, which is
// written as the stream goes, got no byte of the last block.
TEST_F(CliBadPad, AfterMoreThanOneChunk)
{
    std::vector<uint8_t> key = kct::random_bytes(16, 51), iv = kct::random_bytes(16, 52);
    kcipher::Cipher lib("aria-128", key);
    std::vector<uint8_t> p = kct::random_bytes(kChunk + 4096, 53);
    p.back() = 0;
    const std::string ct = bytes_str(lib.cbc_encrypt(iv, p));
    const std::string out = expect_refused(args("dec", "aria-128-cbc", key, iv), ct, "bad decrypt");
    EXPECT_LE(out.size(), p.size() - 16) << "the last block reached standard output";
    EXPECT_EQ(out, bytes_str(p).substr(0, out.size()));
}

TEST(CliPaddingOptions, NopadOnlyWherePadding)
{
    const std::string k = "000102030405060708090a0b0c0d0e0f";
    auto r = kc({"enc", "-c", "aria-128-ctr", "-k", k, "--iv", k, "--nopad"});
    EXPECT_TRUE(FailedWith(r, 2, "--nopad is for ECB and CBC"));
    r = kc({"enc", "-c", "aria-128-cfb8", "-k", k, "--iv", k, "--nopad"});
    EXPECT_TRUE(FailedWith(r, 2, "--nopad is for ECB and CBC"));
    r = kc({"enc", "-c", "aria-128-gcm", "-k", k, "--iv", k.substr(0, 24), "--nopad"});
    EXPECT_TRUE(FailedWith(r, 2, "--nopad is for ECB and CBC"));
}

} // namespace
