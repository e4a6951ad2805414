// `kcipher enc/dec -c NAME-xts -k KEY1KEY2 --iv TWEAK [--data-unit N]` against the C API's
// kcipher_xts_* on the same buffer: the whole input as one unit, and data units streamed in
// chunks of whole units across the CLI's 4 MiB chunk (the tweak of each chunk's first unit
// computed by the CLI), a short last unit; round trips; and the refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kcipher/kcipher.hpp"
#include "support/cli_kit.hpp"
#include "support/vectors.hpp"

namespace {

using namespace kct;

constexpr size_t kChunk = 4u << 20; // the CLI's streaming chunk (tools/kcipher/crypt_xts.cpp)

std::string library_xts(const std::string &cipher, const std::vector<uint8_t> &key, const std::vector<uint8_t> &tweak,
                        size_t unit, const std::string &plain, bool encrypt)
{
    kcipher_ctx *ctx = nullptr;
    EXPECT_EQ(kcipher_new(&ctx, (cipher + "-xts").c_str(), key.data(), key.size(), nullptr), KCIPHER_OK);
    std::vector<uint8_t> buf = str_bytes(plain);
    kcipher_status st = encrypt ? kcipher_xts_encrypt(ctx, tweak.data(), 16, unit, buf.data(), buf.data(), buf.size())
                                : kcipher_xts_decrypt(ctx, tweak.data(), 16, unit, buf.data(), buf.data(), buf.size());
    EXPECT_EQ(st, KCIPHER_OK);
    kcipher_free(ctx);
    return bytes_str(buf);
}

struct Case {
    std::string cipher;
    size_t key_bytes, len, unit;
};

TEST(CliXts, SameBytesAsTheLibrary)
{
    TempDir dir;
    // The tweak's low bytes near a carry, so that TWEAK + i carries across bytes.
    const std::vector<uint8_t> tweak = kct::unhex("f0ffffffffffffff0000000000000001");
    const Case cases[] = {
        {"lea-128", 16, 16, 0},           {"lea-128", 16, 4099, 0},     {"aria-256", 32, 1000, 0},
        {"lea-128", 16, 4096 * 3, 512},   {"seed-128", 16, 512 * 7 + 100, 512},
        {"lea-256", 32, kChunk + 512 * 3 + 100, 512},  // chunks of whole units, a short last unit
        {"aria-128", 16, kChunk + 50000, 12288},        // a unit that does not divide the chunk
        {"cham-128-128", 16, 2 * kChunk + 17, 0},       // one unit larger than a chunk
    };
    uint64_t seed = 0x7700;
    for (const Case &c : cases) {
        seed += 8;
        SCOPED_TRACE(c.cipher + ", " + std::to_string(c.len) + " bytes, unit " + std::to_string(c.unit));
        std::vector<uint8_t> key = kct::random_bytes(2 * c.key_bytes, seed);
        const std::string plain = random_str(c.len, seed + 1);
        write_file(dir / "plain", plain);
        std::vector<std::string> a = {"-c", c.cipher + "-xts", "-k", hex(key), "--iv", hex(tweak)};
        if (c.unit != 0)
            a = a + std::vector<std::string>{"--data-unit", std::to_string(c.unit)};
        auto r = kc(std::vector<std::string>{"enc"} + a + std::vector<std::string>{"-i", dir / "plain", "-o", dir / "ct"});
        ASSERT_TRUE(Succeeded(r));
        const std::string ct = read_file(dir / "ct");
        ASSERT_TRUE(SameBytes(ct, library_xts(c.cipher, key, tweak, c.unit, plain, true)));
        // Decryption from a pipe.
        kct::ProcessOptions o;
        o.stdin_bytes = ct;
        r = kc(std::vector<std::string>{"dec"} + a, o);
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(r.out, plain));
    }
}

TEST(CliXts, Refusals)
{
    const std::string k = "000102030405060708090a0b0c0d0e0f", k2 = "101112131415161718191a1b1c1d1e1f";
    kct::ProcessOptions o;
    o.stdin_bytes = random_str(64, 1);
    EXPECT_TRUE(FailedWith(kc({"enc", "-c", "lea-128-xts", "-k", k + k, "--iv", k}, o), 2, "halves"));
    EXPECT_TRUE(FailedWith(kc({"enc", "-c", "lea-128-xts", "-k", k, "--iv", k}, o), 2, "--key must be 32 bytes"));
    EXPECT_TRUE(FailedWith(kc({"enc", "-c", "lea-128-xts", "-k", k + k2}, o), 2, "needs --iv"));
    EXPECT_TRUE(FailedWith(kc({"enc", "-c", "hight-xts", "-k", k + k2, "--iv", k}, o), 2, "128-bit blocks"));
    EXPECT_TRUE(FailedWith(kc({"enc", "-c", "lea-128-xts", "--pass", "pass:x", "--pbkdf2"}, o), 2,
                           "--pass is for the modes `openssl enc` has"));
    EXPECT_TRUE(FailedWith(kc({"enc", "-c", "lea-128-cbc", "-k", k, "--iv", k, "--data-unit", "512"}, o), 2,
                           "--data-unit is for -xts"));
    o.stdin_bytes = random_str(15, 2);
    auto r = kc({"enc", "-c", "lea-128-xts", "-k", k + k2, "--iv", k}, o);
    EXPECT_TRUE(FailedWith(r, 1, "shorter than one block"));
    EXPECT_EQ(r.out, "");
    o.stdin_bytes = random_str(512 + 8, 3); // a last unit of 8 bytes
    r = kc({"enc", "-c", "lea-128-xts", "-k", k + k2, "--iv", k, "--data-unit", "512"}, o);
    EXPECT_TRUE(FailedWith(r, 1, "shorter than one block"));
}

} // namespace
