// ARIA in the modes through the C API, for every ARIA kernel: the mode vectors of
// OpenSSL's evpciph_aria.txt and Crypto++'s aria.txt (from the 2004 ARIA test-vector
// document), then against OpenSSL's libcrypto on random keys, IVs and lengths.
#include <gtest/gtest.h>

#include <cstring>

#include "kcipher/kcipher.hpp"
#include "dispatch/registry.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

#ifdef KC_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

namespace {

using Bytes = std::vector<uint8_t>;
using kct::unhex;

class AriaModes : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override
    {
        if (!kc::kernel_runnable(*kc::find_kernel(GetParam())))
            GTEST_SKIP() << GetParam() << " cannot run on this machine";
    }
    // mode: "ECB", "CBC", "CTR", "CFB", "CFB8" or "OFB"; returns false for the others.
    bool check(const std::string &cipher, const std::string &mode, const Bytes &key, const Bytes &iv, const Bytes &pt,
               const Bytes &ct, int line)
    {
        kcipher::Cipher c(cipher, key, GetParam().c_str());
        if (mode == "ECB") {
            EXPECT_EQ(ct, c.ecb_encrypt(pt)) << "line " << line;
            EXPECT_EQ(pt, c.ecb_decrypt(ct)) << "line " << line;
        } else if (mode == "CBC") {
            EXPECT_EQ(ct, c.cbc_encrypt(iv, pt)) << "line " << line;
            EXPECT_EQ(pt, c.cbc_decrypt(iv, ct)) << "line " << line;
        } else if (mode == "CTR") {
            EXPECT_EQ(ct, c.ctr_xor(iv, pt)) << "line " << line;
            EXPECT_EQ(pt, c.ctr_xor(iv, ct)) << "line " << line;
        } else if (mode == "CFB") {
            EXPECT_EQ(ct, c.cfb_encrypt(iv, pt)) << "line " << line;
            EXPECT_EQ(pt, c.cfb_decrypt(iv, ct)) << "line " << line;
        } else if (mode == "CFB8") {
            EXPECT_EQ(ct, c.cfb8_encrypt(iv, pt)) << "line " << line;
            EXPECT_EQ(pt, c.cfb8_decrypt(iv, ct)) << "line " << line;
        } else if (mode == "OFB") {
            EXPECT_EQ(ct, c.ofb_xor(iv, pt)) << "line " << line;
            EXPECT_EQ(pt, c.ofb_xor(iv, ct)) << "line " << line;
        } else {
            return false;
        }
        return true;
    }
};

TEST_P(AriaModes, OpensslVectorFile)
{
    int n = 0;
    for (const kct::Record &r : kct::load_openssl_evp("openssl_evpciph_aria.txt")) {
        if (!r.has("cipher") || r.has("aad") || r.has("tag"))
            continue;
        std::string name = r.at("cipher"); // "ARIA-128-CBC"
        std::string cipher = "aria-" + name.substr(5, 3), mode = name.substr(9);
        Bytes iv = r.has("iv") ? unhex(r.at("iv")) : Bytes();
        n += check(cipher, mode, unhex(r.at("key")), iv, unhex(r.at("plaintext")), unhex(r.at("ciphertext")), r.line);
    }
    EXPECT_EQ(21, n); // 6 ECB, 3 each of CBC, CTR, CFB, CFB8, OFB
}

TEST_P(AriaModes, CryptoppVectorFile)
{
    int n = 0;
    for (const kct::Record &r : kct::load_cryptopp("cryptopp_aria.txt")) {
        std::string mode = r.at("name").substr(5); // "ARIA/CBC"
        Bytes key = unhex(r.at("key"));
        std::string cipher = "aria-" + std::to_string(key.size() * 8);
        Bytes iv = r.has("iv") ? unhex(r.at("iv")) : Bytes();
        n += check(cipher, mode, key, iv, unhex(r.at("plaintext")), unhex(r.at("ciphertext")), r.line);
    }
    EXPECT_EQ(12, n);
}

#ifdef KC_HAVE_OPENSSL
Bytes openssl_crypt(const std::string &evp_name, const Bytes &key, const Bytes &iv, const Bytes &in, bool enc)
{
    const EVP_CIPHER *c = EVP_get_cipherbyname(evp_name.c_str());
    EXPECT_NE(nullptr, c) << evp_name;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    Bytes out(in.size() + 32);
    int l1 = 0, l2 = 0;
    EVP_CipherInit_ex(ctx, c, nullptr, key.data(), iv.empty() ? nullptr : iv.data(), enc ? 1 : 0);
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    EVP_CipherUpdate(ctx, out.data(), &l1, in.data(), (int)in.size());
    EVP_CipherFinal_ex(ctx, out.data() + l1, &l2);
    EVP_CIPHER_CTX_free(ctx);
    out.resize(l1 + l2);
    return out;
}

TEST_P(AriaModes, AgainstOpensslOnRandomInputs)
{
    uint64_t seed = 1;
    for (int bits : {128, 192, 256}) {
        std::string cipher = "aria-" + std::to_string(bits);
        for (int round = 0; round < 6; round++, seed++) {
            Bytes key = kct::random_bytes(bits / 8, seed), iv = kct::edge_iv(round, seed + 100);
            size_t len = (size_t)(kct::random_bytes(2, seed)[0]) * 37 + round;
            Bytes pt = kct::random_bytes(len, seed + 200);
            Bytes blocks(pt.begin(), pt.begin() + len / 16 * 16);
            kcipher::Cipher c(cipher, key, GetParam().c_str());
            EXPECT_EQ(openssl_crypt(cipher + "-ctr", key, iv, pt, true), c.ctr_xor(iv, pt)) << len;
            EXPECT_EQ(openssl_crypt(cipher + "-ecb", key, {}, blocks, true), c.ecb_encrypt(blocks));
            EXPECT_EQ(openssl_crypt(cipher + "-ecb", key, {}, blocks, false), c.ecb_decrypt(blocks));
            EXPECT_EQ(openssl_crypt(cipher + "-cbc", key, iv, blocks, true), c.cbc_encrypt(iv, blocks));
            EXPECT_EQ(openssl_crypt(cipher + "-cbc", key, iv, blocks, false), c.cbc_decrypt(iv, blocks));
        }
    }
}
#endif

INSTANTIATE_TEST_SUITE_P(Aria, AriaModes, ::testing::ValuesIn(kct::family_kernel_names("aria")),
                         kct::param_name);

} // namespace
