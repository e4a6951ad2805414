// SEED-128 in the three modes through the C++ wrapper of the C API, for every SEED kernel,
// against OpenSSL's SEED on random keys, IVs and lengths: ECB and CBC against SEED-ECB and
// SEED-CBC, CTR (which OpenSSL does not offer for SEED) against OpenSSL's ECB of the counter
// blocks, with counters that carry across 32- and 64-bit words and wrap at 2^128, and at
// block offsets.
//
// OpenSSL 3 keeps SEED in its legacy provider. Where the tests are built with OpenSSL, a
// missing legacy provider is a failure, not a skip: it would otherwise leave SEED without any
// independent check (Debian's libssl3 ships it as ossl-modules/legacy.so).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/counter.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.hpp"
#include "support/kernels.hpp"
#include "support/vectors.hpp"

#ifdef KC_HAVE_OPENSSL
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#endif

namespace {

using Bytes = std::vector<uint8_t>;

#ifdef KC_HAVE_OPENSSL

// The legacy provider for SEED, and the default one beside it: once any provider is loaded
// explicitly, OpenSSL no longer loads the default one by itself, and the other tests in this
// binary use its AES and ARIA. Loaded once and unloaded at exit (before OpenSSL's own cleanup,
// which was registered earlier), so that LeakSanitizer sees nothing left behind.
struct SeedProviders {
    OSSL_PROVIDER *deflt = nullptr, *legacy = nullptr;
    std::string error;
    SeedProviders()
    {
        deflt = OSSL_PROVIDER_load(nullptr, "default");
        if (deflt == nullptr) {
            error = "OSSL_PROVIDER_load(default) failed";
            return;
        }
        legacy = OSSL_PROVIDER_load(nullptr, "legacy");
        if (legacy == nullptr) {
            char buf[256] = "";
            ERR_error_string_n(ERR_get_error(), buf, sizeof buf);
            error = std::string("OSSL_PROVIDER_load(legacy) failed (") + buf +
                    "); OpenSSL's SEED lives in the legacy provider (ossl-modules/legacy.so)";
        }
    }
    ~SeedProviders()
    {
        if (legacy != nullptr)
            OSSL_PROVIDER_unload(legacy);
        if (deflt != nullptr)
            OSSL_PROVIDER_unload(deflt);
    }
};

bool load_openssl_seed(std::string *why)
{
    static const SeedProviders p;
    *why = p.error;
    return p.error.empty();
}

// name: "SEED-ECB" or "SEED-CBC"; no padding, whole blocks.
Bytes openssl_seed(const char *name, const Bytes &key, const Bytes &iv, const Bytes &in, bool enc)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(nullptr, name, nullptr);
    EXPECT_NE(nullptr, c) << name;
    if (c == nullptr)
        return {};
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    Bytes out(in.size() + 32);
    int l1 = 0, l2 = 0;
    bool ok = EVP_CipherInit_ex2(ctx, c, key.data(), iv.empty() ? nullptr : iv.data(), enc ? 1 : 0, nullptr) == 1 &&
              EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
              EVP_CipherUpdate(ctx, out.data(), &l1, in.data(), (int)in.size()) == 1 &&
              EVP_CipherFinal_ex(ctx, out.data() + l1, &l2) == 1;
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    EXPECT_TRUE(ok) << name;
    out.resize(ok ? size_t(l1 + l2) : 0);
    return out;
}

// CTR from OpenSSL's SEED-ECB: the keystream blocks E(ctr0 + offset + i), the counter a
// 128-bit big-endian integer.
Bytes openssl_seed_ctr(const Bytes &key, const Bytes &iv, uint64_t block_offset, const Bytes &in)
{
    const size_t nblocks = (in.size() + 15) / 16;
    Bytes counters(16 * nblocks), c = iv;
    kc::counter_add(c.data(), 16, block_offset);
    for (size_t i = 0; i < nblocks; i++, kc::counter_increment(c.data(), 16))
        std::memcpy(counters.data() + 16 * i, c.data(), 16);
    Bytes out = openssl_seed("SEED-ECB", key, {}, counters, true);
    out.resize(in.size());
    for (size_t i = 0; i < in.size(); i++)
        out[i] ^= in[i];
    return out;
}

class SeedVsOpenssl : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override
    {
        std::string why;
        ASSERT_TRUE(load_openssl_seed(&why)) << why;
        if (!kc::kernel_runnable(*kc::find_kernel(GetParam())))
            GTEST_SKIP() << GetParam() << " cannot run on this machine";
    }
};

TEST_P(SeedVsOpenssl, OpensslKnowsSeed)
{
    // The RFC 4269 B.1 example through OpenSSL itself, so that a broken OpenSSL cannot pass
    // for a broken kcipher.
    Bytes key(16, 0), pt = kct::unhex("000102030405060708090a0b0c0d0e0f");
    EXPECT_EQ(kct::tohex(openssl_seed("SEED-ECB", key, {}, pt, true)), "5ebac6e0054e166819aff1cc6d346cdb");
}

TEST_P(SeedVsOpenssl, EcbCbcCtrOnRandomInputs)
{
    uint64_t seed = 1;
    for (int round = 0; round < 12; round++, seed++) {
        Bytes key = kct::random_bytes(16, seed), iv = kct::edge_iv(round, seed + 100);
        const size_t len = (size_t)(kct::random_bytes(2, seed)[0]) * 37 + round; // 0 .. ~9.4 KiB
        Bytes pt = kct::random_bytes(len, seed + 200);
        Bytes blocks(pt.begin(), pt.begin() + len / 16 * 16);
        kcipher::Cipher c("seed-128", key, GetParam().c_str());
        EXPECT_EQ(openssl_seed("SEED-ECB", key, {}, blocks, true), c.ecb_encrypt(blocks)) << len;
        EXPECT_EQ(openssl_seed("SEED-ECB", key, {}, blocks, false), c.ecb_decrypt(blocks)) << len;
        EXPECT_EQ(openssl_seed("SEED-CBC", key, iv, blocks, true), c.cbc_encrypt(iv, blocks)) << len;
        EXPECT_EQ(openssl_seed("SEED-CBC", key, iv, blocks, false), c.cbc_decrypt(iv, blocks)) << len;
        EXPECT_EQ(openssl_seed_ctr(key, iv, 0, pt), c.ctr_xor(iv, pt)) << len;
        const uint64_t offset = kct::random_bytes(1, seed + 300)[0] * 1000003ull; // a slice further on
        EXPECT_EQ(openssl_seed_ctr(key, iv, offset, pt), c.ctr_xor(iv, pt, offset)) << len << " at " << offset;
    }
}

INSTANTIATE_TEST_SUITE_P(Seed, SeedVsOpenssl, ::testing::ValuesIn(kct::family_kernel_names("seed")), kct::param_name);

#endif // KC_HAVE_OPENSSL

} // namespace
