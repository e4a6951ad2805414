// PKCS#7-padded ECB and CBC (kcipher_*_padded) for every ARIA kernel this CPU runs: the same
// bytes as OpenSSL's EVP with padding on for every length 0..100, round trips in place, every
// kind of bad pad refused with out wiped, and the argument checks of the front.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "dispatch/registry.hpp"
#include "kcipher/kcipher.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

#ifdef KC_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

namespace {

using Bytes = std::vector<uint8_t>;

class Padded : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override
    {
        if (!kc::kernel_runnable(*kc::find_kernel(GetParam())))
            GTEST_SKIP() << GetParam() << " cannot run on this machine";
    }
    kcipher::Cipher cipher(int bits, uint64_t seed) const
    {
        return kcipher::Cipher("aria-" + std::to_string(bits), kct::random_bytes((size_t)bits / 8, seed),
                               GetParam().c_str());
    }
};

#ifdef KC_HAVE_OPENSSL
// OpenSSL with its default padding; nullopt when it refuses (a bad pad on decryption).
std::optional<Bytes> openssl_padded(const std::string &name, const Bytes &key, const Bytes &iv, const Bytes &in,
                                    bool enc)
{
    const EVP_CIPHER *c = EVP_get_cipherbyname(name.c_str());
    EXPECT_NE(nullptr, c) << name;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    Bytes out(in.size() + 32);
    int l1 = 0, l2 = 0;
    EVP_CipherInit_ex(ctx, c, nullptr, key.data(), iv.empty() ? nullptr : iv.data(), enc ? 1 : 0);
    bool ok = EVP_CipherUpdate(ctx, out.data(), &l1, in.data(), (int)in.size()) == 1 &&
              EVP_CipherFinal_ex(ctx, out.data() + l1, &l2) == 1;
    EVP_CIPHER_CTX_free(ctx);
    if (!ok)
        return std::nullopt;
    out.resize((size_t)(l1 + l2));
    return out;
}

TEST_P(Padded, SameBytesAsOpensslEveryLength)
{
    uint64_t seed = 0x9ad0000;
    for (int bits : {128, 192, 256}) {
        const std::string name = "aria-" + std::to_string(bits);
        for (size_t len = 0; len <= 100; len++, seed += 4) {
            SCOPED_TRACE(name + ", " + std::to_string(len) + " bytes");
            Bytes key = kct::random_bytes((size_t)bits / 8, seed), iv = kct::random_bytes(16, seed + 1);
            Bytes pt = kct::random_bytes(len, seed + 2);
            kcipher::Cipher c(name, key, GetParam().c_str());

            Bytes ecb = c.ecb_encrypt_padded(pt);
            ASSERT_EQ(ecb.size(), len / 16 * 16 + 16);
            EXPECT_EQ(openssl_padded(name + "-ecb", key, {}, pt, true), ecb);
            EXPECT_EQ(c.ecb_decrypt_padded(ecb), pt);

            Bytes chain = iv;
            Bytes cbc(len / 16 * 16 + 16);
            size_t n = 0;
            ASSERT_EQ(kcipher_cbc_encrypt_padded(c.get(), chain.data(), 16, pt.data(), len, cbc.data(), cbc.size(), &n),
                      KCIPHER_OK);
            ASSERT_EQ(n, cbc.size());
            EXPECT_EQ(openssl_padded(name + "-cbc", key, iv, pt, true), cbc);
            EXPECT_EQ(chain, Bytes(cbc.end() - 16, cbc.end())) << "the iv continues the chain";
            chain = iv;
            Bytes back(cbc.size());
            ASSERT_EQ(kcipher_cbc_decrypt_padded(c.get(), chain.data(), 16, cbc.data(), cbc.size(), back.data(),
                                                 back.size(), &n),
                      KCIPHER_OK);
            EXPECT_EQ(Bytes(back.begin(), back.begin() + (long)n), pt);
            EXPECT_EQ(chain, Bytes(cbc.end() - 16, cbc.end()));
        }
    }
}

// Every pad byte value and shape: kcipher accepts exactly what OpenSSL accepts.
TEST_P(Padded, AcceptsWhatOpensslAccepts)
{
    const Bytes key = kct::random_bytes(16, 41), iv = kct::random_bytes(16, 42);
    kcipher::Cipher c("aria-128", key, GetParam().c_str());
    for (int last = 0; last < 256; last++) {
        for (size_t wrong = 0; wrong <= 16; wrong++) { // 16: every pad byte right
            Bytes pt = kct::random_bytes(32, (uint64_t)last * 17 + wrong);
            const size_t n = (size_t)last;
            for (size_t i = 0; i < 16 && i < n; i++)
                pt[31 - i] = (uint8_t)last;
            if (wrong < 16 && wrong < n)
                pt[31 - wrong] ^= 0x01; // one inconsistent byte inside the pad
            else if (wrong < 16)
                continue;
            SCOPED_TRACE("last byte " + std::to_string(last) + ", wrong byte " + std::to_string(wrong));
            for (bool cbc : {false, true}) {
                Bytes ct = cbc ? c.cbc_encrypt(iv, pt) : c.ecb_encrypt(pt);
                auto theirs = openssl_padded(cbc ? "aria-128-cbc" : "aria-128-ecb", key, cbc ? iv : Bytes{}, ct, false);
                Bytes out(32, 0xa5), chain = iv;
                size_t got = 99;
                kcipher_status st = cbc ? kcipher_cbc_decrypt_padded(c.get(), chain.data(), 16, ct.data(), 32,
                                                                     out.data(), out.size(), &got)
                                        : kcipher_ecb_decrypt_padded(c.get(), ct.data(), 32, out.data(), out.size(), &got);
                if (theirs) {
                    ASSERT_EQ(st, KCIPHER_OK);
                    EXPECT_EQ(Bytes(out.begin(), out.begin() + (long)got), *theirs);
                    continue;
                }
                ASSERT_EQ(st, KCIPHER_ERR_PADDING);
                EXPECT_EQ(got, 0u);
                EXPECT_EQ(Bytes(out.begin(), out.begin() + 16), Bytes(16, 0)) << "the first block was not wiped";
                EXPECT_EQ(Bytes(out.begin() + 16, out.end()), Bytes(16, 0xa5)) << "unverified bytes reached out";
                EXPECT_EQ(chain, iv) << "a failed call moved the CBC chain";
            }
        }
    }
}
#endif

TEST_P(Padded, InPlaceRoundTrips)
{
    for (size_t len = 0; len <= 100; len += 7) {
        SCOPED_TRACE(std::to_string(len) + " bytes");
        kcipher::Cipher c = cipher(256, len);
        const Bytes pt = kct::random_bytes(len, len + 1000), iv = kct::random_bytes(16, len + 2000);
        const Bytes expected = c.cbc_encrypt_padded(iv, pt);
        Bytes buf(expected.size(), 0);
        std::copy(pt.begin(), pt.end(), buf.begin()); // not memcpy: pt.data() is null when empty
        Bytes chain = iv;
        size_t n = c.cbc_encrypt_padded(chain.data(), buf.data(), len, buf.data(), buf.size());
        ASSERT_EQ(n, expected.size());
        EXPECT_EQ(buf, expected);
        chain = iv;
        n = c.cbc_decrypt_padded(chain.data(), buf.data(), buf.size(), buf.data(), buf.size());
        EXPECT_EQ(Bytes(buf.begin(), buf.begin() + (long)n), pt);

        std::copy(pt.begin(), pt.end(), buf.begin());
        n = c.ecb_encrypt_padded(buf.data(), len, buf.data(), buf.size());
        EXPECT_EQ(buf, c.ecb_encrypt_padded(pt));
        n = c.ecb_decrypt_padded(buf.data(), n, buf.data(), buf.size());
        EXPECT_EQ(Bytes(buf.begin(), buf.begin() + (long)n), pt);
    }
}

TEST_P(Padded, RefusesBadPads)
{
    kcipher::Cipher c = cipher(128, 7);
    auto refused = [&](const Bytes &last_block) {
        Bytes pt = kct::random_bytes(16, 8);
        pt.insert(pt.end(), last_block.begin(), last_block.end());
        Bytes ct = c.ecb_encrypt(pt);
        try {
            c.ecb_decrypt_padded(ct);
            return false;
        } catch (const kcipher::Error &e) {
            return e.status() == KCIPHER_ERR_PADDING;
        }
    };
    Bytes b(16, 3);
    EXPECT_FALSE(refused(b)) << "a good pad of 3";
    b[15] = 0;
    EXPECT_TRUE(refused(b)) << "pad byte 0";
    b[15] = 17;
    EXPECT_TRUE(refused(b)) << "pad byte 17, more than the block";
    b[15] = 0xff;
    EXPECT_TRUE(refused(b)) << "pad byte 255";
    b = Bytes(16, 16);
    EXPECT_FALSE(refused(b)) << "a whole block of padding";
    for (size_t i = 0; i < 16; i++) {
        Bytes bad = b;
        bad[i] = 15;
        EXPECT_TRUE(refused(bad)) << "a block of 16s with byte " << i << " inconsistent";
    }
}

TEST_P(Padded, ChecksArguments)
{
    kcipher::Cipher c = cipher(128, 9);
    Bytes in(40, 1), out(64, 0xee), iv(16, 2);
    size_t n = 5;
    // Encryption: 40 bytes need 48 of room.
    EXPECT_EQ(kcipher_ecb_encrypt_padded(c.get(), in.data(), 40, out.data(), 47, &n), KCIPHER_ERR_DATA_LENGTH);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(out, Bytes(64, 0xee)) << "written although out_cap was too small";
    EXPECT_EQ(kcipher_cbc_encrypt_padded(c.get(), iv.data(), 16, in.data(), 32, out.data(), 47, &n),
              KCIPHER_ERR_DATA_LENGTH);
    EXPECT_EQ(kcipher_cbc_encrypt_padded(c.get(), iv.data(), 8, in.data(), 40, out.data(), 64, &n),
              KCIPHER_ERR_IV_LENGTH);
    EXPECT_EQ(kcipher_cbc_encrypt_padded(c.get(), nullptr, 16, in.data(), 40, out.data(), 64, &n),
              KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_ecb_encrypt_padded(c.get(), in.data(), 40, out.data(), 64, nullptr), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_ecb_encrypt_padded(nullptr, in.data(), 40, out.data(), 64, &n), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_ecb_encrypt_padded(c.get(), nullptr, 0, nullptr, 64, &n), KCIPHER_ERR_NULL_POINTER);
    EXPECT_EQ(kcipher_ecb_encrypt_padded(c.get(), nullptr, 0, out.data(), 16, &n), KCIPHER_OK) << "empty input";
    EXPECT_EQ(n, 16u);
    // out one byte past in: overlap.
    Bytes big(128);
    EXPECT_EQ(kcipher_ecb_encrypt_padded(c.get(), big.data(), 40, big.data() + 1, 64, &n), KCIPHER_ERR_OVERLAP);
    EXPECT_EQ(kcipher_ecb_decrypt_padded(c.get(), big.data() + 1, 48, big.data(), 64, &n), KCIPHER_ERR_OVERLAP);

    // Decryption: whole blocks, at least one, and out_cap >= len - 1.
    Bytes ct = c.ecb_encrypt_padded(Bytes(40, 3));
    ASSERT_EQ(ct.size(), 48u);
    EXPECT_EQ(kcipher_ecb_decrypt_padded(c.get(), ct.data(), 47, out.data(), 64, &n), KCIPHER_ERR_DATA_LENGTH);
    EXPECT_EQ(kcipher_ecb_decrypt_padded(c.get(), ct.data(), 0, out.data(), 64, &n), KCIPHER_ERR_DATA_LENGTH);
    EXPECT_EQ(kcipher_ecb_decrypt_padded(c.get(), ct.data(), 15, out.data(), 64, &n), KCIPHER_ERR_DATA_LENGTH);
    EXPECT_EQ(kcipher_ecb_decrypt_padded(c.get(), ct.data(), 48, out.data(), 46, &n), KCIPHER_ERR_DATA_LENGTH);
    EXPECT_EQ(kcipher_ecb_decrypt_padded(c.get(), ct.data(), 48, out.data(), 47, &n), KCIPHER_OK);
    EXPECT_EQ(n, 40u);
    EXPECT_THROW(c.ecb_decrypt_padded(Bytes{}), kcipher::Error);
}

INSTANTIATE_TEST_SUITE_P(Aria, Padded, ::testing::ValuesIn(kct::family_kernel_names("aria")), kct::param_name);

// An XTS context serves XTS alone.
TEST(PaddedContext, RefusesXtsContexts)
{
    Bytes key = kct::random_bytes(32, 11), in(32, 0), out(64), iv(16, 0);
    kcipher_ctx *ctx = nullptr;
    ASSERT_EQ(kcipher_new(&ctx, "aria-128-xts", key.data(), key.size(), nullptr), KCIPHER_OK);
    size_t n = 0;
    EXPECT_EQ(kcipher_ecb_encrypt_padded(ctx, in.data(), 32, out.data(), 64, &n), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_ecb_decrypt_padded(ctx, in.data(), 32, out.data(), 64, &n), KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_cbc_encrypt_padded(ctx, iv.data(), 16, in.data(), 32, out.data(), 64, &n),
              KCIPHER_ERR_CONTEXT_MODE);
    EXPECT_EQ(kcipher_cbc_decrypt_padded(ctx, iv.data(), 16, in.data(), 32, out.data(), 64, &n),
              KCIPHER_ERR_CONTEXT_MODE);
    kcipher_free(ctx);
}

// The 64-bit-block ciphers pad to 8 bytes: the pad is visible through the unpadded decryption.
TEST(PaddedContext, EightByteBlocks)
{
    for (const char *name : {"hight", "cham-64-128"}) {
        kcipher::Cipher c(name, kct::random_bytes(16, 12));
        for (size_t len = 0; len <= 20; len++) {
            SCOPED_TRACE(std::string(name) + ", " + std::to_string(len) + " bytes");
            Bytes pt = kct::random_bytes(len, len + 13);
            Bytes ct = c.ecb_encrypt_padded(pt);
            ASSERT_EQ(ct.size(), len / 8 * 8 + 8);
            Bytes raw = c.ecb_decrypt(ct);
            Bytes expected = pt;
            expected.resize(ct.size(), (uint8_t)(ct.size() - len));
            EXPECT_EQ(raw, expected);
            EXPECT_EQ(c.ecb_decrypt_padded(ct), pt);
        }
    }
}

} // namespace
