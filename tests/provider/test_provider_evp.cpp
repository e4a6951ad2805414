// The provider through OpenSSL's EVP interface, in a library context of its own: GCM, CCM and
// XTS (which `openssl enc` refuses) against kcipher's C API and, for ARIA, against OpenSSL's
// default provider; every mode streamed in random pieces against kcipher's one-shot calls;
// EVP_CIPHER_CTX_copy and re-initialisation; OpenSSL's own ARIA test file; and bad use, which
// must end in an error on OpenSSL's stack, never a crash.
#include <kcipher/kcipher.h>

#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using Bytes = std::vector<uint8_t>;

std::mt19937_64 &rng()
{
    static std::mt19937_64 r(20261127);
    return r;
}
size_t below(size_t n) { return (size_t)(rng()() % n); }
Bytes random_bytes(size_t n)
{
    Bytes b(n);
    for (auto &x : b)
        x = (uint8_t)rng()();
    return b;
}

class Provider : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        lib = OSSL_LIB_CTX_new();
        ASSERT_NE(lib, nullptr);
        ASSERT_EQ(OSSL_PROVIDER_set_default_search_path(lib, KC_PROVIDER_DIR), 1);
        kc = OSSL_PROVIDER_load(lib, "kcipher");
        ASSERT_NE(kc, nullptr) << "cannot load kcipher.so from " << KC_PROVIDER_DIR;
        dflt = OSSL_PROVIDER_load(lib, "default");
        ASSERT_NE(dflt, nullptr);
    }
    static void TearDownTestSuite()
    {
        OSSL_PROVIDER_unload(kc);
        OSSL_PROVIDER_unload(dflt);
        OSSL_LIB_CTX_free(lib);
    }
    void SetUp() override { ERR_clear_error(); }

    static EVP_CIPHER *fetch(const std::string &name, const char *props = "provider=kcipher")
    {
        EVP_CIPHER *c = EVP_CIPHER_fetch(lib, name.c_str(), props);
        EXPECT_NE(c, nullptr) << name << " " << props;
        return c;
    }

    static OSSL_LIB_CTX *lib;
    static OSSL_PROVIDER *kc, *dflt;
};
OSSL_LIB_CTX *Provider::lib = nullptr;
OSSL_PROVIDER *Provider::kc = nullptr;
OSSL_PROVIDER *Provider::dflt = nullptr;

// The error on top of OpenSSL's stack comes from the kcipher provider.
bool error_is_ours()
{
    const char *lib_name = ERR_lib_error_string(ERR_peek_last_error());
    const bool ours = ERR_peek_last_error() != 0 && lib_name != nullptr && std::string(lib_name) == "kcipher";
    ERR_clear_error();
    return ours;
}

struct Aead {
    std::string cipher; // kcipher's name, "aria-128"
    kcipher_mode mode;
    Bytes key, iv, aad, text;
    size_t tag_len;
};

// kcipher's one-shot seal: ciphertext || tag.
Bytes kc_seal(const Aead &a)
{
    kcipher_ctx *c = nullptr;
    EXPECT_EQ(kcipher_new(&c, a.cipher.c_str(), a.key.data(), a.key.size(), nullptr), KCIPHER_OK);
    Bytes out(a.text.size() + a.tag_len);
    EXPECT_EQ(kcipher_aead_seal(c, a.mode, a.iv.data(), a.iv.size(), a.aad.data(), a.aad.size(), a.text.data(),
                                a.text.size(), out.data(), a.tag_len),
              KCIPHER_OK);
    kcipher_free(c);
    return out;
}

// Feeds data to EVP in random pieces: AAD (out == NULL) or text.
bool feed(EVP_CIPHER_CTX *x, const Bytes &in, uint8_t *out, size_t *written)
{
    size_t at = 0;
    *written = 0;
    while (at < in.size()) {
        const size_t n = std::min(in.size() - at, 1 + below(700));
        int l = 0;
        if (EVP_CipherUpdate(x, out == nullptr ? nullptr : out + *written, &l, in.data() + at, (int)n) != 1)
            return false;
        *written += (size_t)l;
        at += n;
    }
    return true;
}

// EVP seal in OpenSSL's order for the mode; returns ciphertext || tag.
Bytes evp_seal(EVP_CIPHER *ciph, const Aead &a)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    Bytes out(a.text.size() + a.tag_len);
    EXPECT_EQ(EVP_EncryptInit_ex2(x, ciph, nullptr, nullptr, nullptr), 1);
    EXPECT_EQ(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)a.iv.size(), nullptr), 1);
    if (a.mode == KCIPHER_MODE_CCM)
        EXPECT_EQ(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)a.tag_len, nullptr), 1);
    EXPECT_EQ(EVP_EncryptInit_ex2(x, nullptr, a.key.data(), a.iv.data(), nullptr), 1);
    int l = 0;
    size_t n = 0;
    if (a.mode == KCIPHER_MODE_CCM) {
        EXPECT_EQ(EVP_EncryptUpdate(x, nullptr, &l, nullptr, (int)a.text.size()), 1);
        if (!a.aad.empty())
            EXPECT_EQ(EVP_EncryptUpdate(x, nullptr, &l, a.aad.data(), (int)a.aad.size()), 1);
        EXPECT_EQ(EVP_EncryptUpdate(x, out.data(), &l, a.text.data(), (int)a.text.size()), 1);
        n = (size_t)l;
    } else {
        EXPECT_TRUE(feed(x, a.aad, nullptr, &n));
        EXPECT_TRUE(feed(x, a.text, out.data(), &n));
    }
    EXPECT_EQ(EVP_EncryptFinal_ex(x, out.data() + n, &l), 1);
    EXPECT_EQ(n + (size_t)l, a.text.size());
    EXPECT_EQ(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)a.tag_len, out.data() + a.text.size()), 1);
    EVP_CIPHER_CTX_free(x);
    return out;
}

// EVP open of ciphertext || tag: the plaintext, or false when the tag fails. GCM sets the tag
// after the data when late_tag (OpenSSL allows either).
bool evp_open(EVP_CIPHER *ciph, const Aead &a, const Bytes &sealed, Bytes *plain, bool late_tag)
{
    const size_t len = sealed.size() - a.tag_len;
    Bytes tag(sealed.end() - (long)a.tag_len, sealed.end());
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    plain->assign(len, 0);
    bool ok = EVP_DecryptInit_ex2(x, ciph, nullptr, nullptr, nullptr) == 1 &&
              EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)a.iv.size(), nullptr) == 1;
    if (ok && (a.mode == KCIPHER_MODE_CCM || !late_tag))
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)a.tag_len, tag.data()) == 1;
    ok = ok && EVP_DecryptInit_ex2(x, nullptr, a.key.data(), a.iv.data(), nullptr) == 1;
    int l = 0;
    size_t n = 0;
    Bytes ct(sealed.begin(), sealed.begin() + (long)len);
    if (ok && a.mode == KCIPHER_MODE_CCM) {
        ok = EVP_DecryptUpdate(x, nullptr, &l, nullptr, (int)len) == 1 &&
             (a.aad.empty() || EVP_DecryptUpdate(x, nullptr, &l, a.aad.data(), (int)a.aad.size()) == 1) &&
             EVP_DecryptUpdate(x, plain->data(), &l, ct.data(), (int)len) == 1;
    } else if (ok) {
        ok = feed(x, a.aad, nullptr, &n) && feed(x, ct, plain->data(), &n);
        if (ok && late_tag)
            ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)a.tag_len, tag.data()) == 1;
        ok = ok && EVP_DecryptFinal_ex(x, plain->data() + n, &l) == 1;
    }
    EVP_CIPHER_CTX_free(x);
    return ok;
}

const char *const kWideCiphers[] = {"aria-128", "aria-192", "aria-256", "lea-128", "lea-192",
                                    "lea-256",  "cham-128-128", "cham-128-256", "seed-128"};

std::string upper(std::string s)
{
    for (char &c : s)
        c = (char)toupper((unsigned char)c);
    return s;
}

Aead random_aead(const std::string &cipher, kcipher_mode mode)
{
    kcipher_cipher_info info{};
    kcipher_cipher_find(cipher.c_str(), &info);
    static const size_t gcm_tags[] = {16, 15, 14, 13, 12, 8, 4};
    static const size_t gcm_ivs[] = {12, 12, 1, 8, 16, 64};
    Aead a{cipher, mode, random_bytes(info.key_bytes), {}, random_bytes(below(3) == 0 ? 0 : below(300)),
           random_bytes(below(4) == 0 ? below(20) : below(3000)), 0};
    if (mode == KCIPHER_MODE_GCM) {
        a.iv = random_bytes(gcm_ivs[below(6)]);
        a.tag_len = gcm_tags[below(7)];
    } else {
        a.iv = random_bytes(7 + below(7));
        a.tag_len = 4 + 2 * below(7);
    }
    return a;
}

TEST_F(Provider, GcmAndCcmMatchKcipherAndOpenTheirOwnOutput)
{
    for (const char *cipher : kWideCiphers) {
        for (kcipher_mode mode : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM}) {
            const std::string name = upper(std::string(cipher) + (mode == KCIPHER_MODE_GCM ? "-gcm" : "-ccm"));
            EVP_CIPHER *ciph = fetch(name);
            ASSERT_NE(ciph, nullptr);
            for (int trial = 0; trial < 12; ++trial) {
                const Aead a = random_aead(cipher, mode);
                SCOPED_TRACE(name + " text " + std::to_string(a.text.size()) + " aad " + std::to_string(a.aad.size()) +
                             " iv " + std::to_string(a.iv.size()) + " tag " + std::to_string(a.tag_len));
                const Bytes sealed = evp_seal(ciph, a);
                ASSERT_EQ(sealed, kc_seal(a));
                Bytes plain;
                ASSERT_TRUE(evp_open(ciph, a, sealed, &plain, trial % 2 == 1));
                ASSERT_EQ(plain, a.text);
                Bytes bad = sealed;
                bad[below(bad.size())] ^= (uint8_t)(1u << below(8));
                ERR_clear_error();
                EXPECT_FALSE(evp_open(ciph, a, bad, &plain, trial % 2 == 1));
                if (mode == KCIPHER_MODE_CCM) // CCM releases nothing when the tag fails
                    EXPECT_EQ(plain, Bytes(plain.size(), 0));
                ERR_clear_error();
            }
            EVP_CIPHER_free(ciph);
        }
    }
}

TEST_F(Provider, AriaGcmAndCcmMatchTheDefaultProvider)
{
    for (const char *cipher : {"aria-128", "aria-192", "aria-256"}) {
        for (kcipher_mode mode : {KCIPHER_MODE_GCM, KCIPHER_MODE_CCM}) {
            const std::string name = upper(std::string(cipher) + (mode == KCIPHER_MODE_GCM ? "-gcm" : "-ccm"));
            EVP_CIPHER *ours = fetch(name), *theirs = fetch(name, "provider=default");
            for (int trial = 0; trial < 10; ++trial) {
                Aead a = random_aead(cipher, mode);
                if (mode == KCIPHER_MODE_GCM && a.tag_len < 12)
                    a.tag_len = 16;
                const Bytes sealed = evp_seal(ours, a);
                ASSERT_EQ(sealed, evp_seal(theirs, a)) << name;
                Bytes plain;
                ASSERT_TRUE(evp_open(theirs, a, sealed, &plain, false)) << name;
            }
            EVP_CIPHER_free(ours);
            EVP_CIPHER_free(theirs);
        }
    }
}

TEST_F(Provider, XtsMatchesKcipher)
{
    for (const char *cipher : {"aria-128", "aria-256", "lea-128", "lea-256", "cham-128-128", "seed-128"}) {
        kcipher_cipher_info info{};
        kcipher_cipher_find(cipher, &info);
        EVP_CIPHER *ciph = fetch(upper(std::string(cipher) + "-xts"));
        for (int trial = 0; trial < 10; ++trial) {
            const Bytes key = random_bytes(2 * info.key_bytes), tweak = random_bytes(16);
            const Bytes text = random_bytes(16 + below(3000));
            kcipher_ctx *c = nullptr;
            ASSERT_EQ(kcipher_new(&c, (std::string(cipher) + "-xts").c_str(), key.data(), key.size(), nullptr), KCIPHER_OK);
            Bytes want(text.size()), got(text.size()), back(text.size());
            ASSERT_EQ(kcipher_xts_encrypt(c, tweak.data(), 16, 0, text.data(), want.data(), text.size()), KCIPHER_OK);
            kcipher_free(c);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            int l = 0;
            ASSERT_EQ(EVP_EncryptInit_ex2(x, ciph, key.data(), tweak.data(), nullptr), 1);
            ASSERT_EQ(EVP_EncryptUpdate(x, got.data(), &l, text.data(), (int)text.size()), 1);
            ASSERT_EQ(got, want) << cipher << " " << text.size();
            ASSERT_EQ(EVP_DecryptInit_ex2(x, ciph, key.data(), tweak.data(), nullptr), 1);
            ASSERT_EQ(EVP_DecryptUpdate(x, back.data(), &l, got.data(), (int)got.size()), 1);
            ASSERT_EQ(back, text);
            EVP_CIPHER_CTX_free(x);
        }
        EVP_CIPHER_free(ciph);
    }
}

// kcipher's one-shot answer for a non-AEAD mode (ECB/CBC padded).
Bytes kc_once(const std::string &cipher, kcipher_mode mode, const Bytes &key, Bytes iv, const Bytes &in)
{
    kcipher_ctx *c = nullptr;
    EXPECT_EQ(kcipher_new(&c, cipher.c_str(), key.data(), key.size(), nullptr), KCIPHER_OK);
    Bytes out(in.size() + 16);
    size_t n = in.size();
    switch (mode) {
    case KCIPHER_MODE_ECB: kcipher_ecb_encrypt_padded(c, in.data(), in.size(), out.data(), out.size(), &n); break;
    case KCIPHER_MODE_CBC:
        kcipher_cbc_encrypt_padded(c, iv.data(), iv.size(), in.data(), in.size(), out.data(), out.size(), &n);
        break;
    case KCIPHER_MODE_CTR: kcipher_ctr_xor(c, iv.data(), iv.size(), 0, in.data(), out.data(), in.size()); break;
    case KCIPHER_MODE_CFB: kcipher_cfb_encrypt(c, iv.data(), iv.size(), in.data(), out.data(), in.size()); break;
    case KCIPHER_MODE_CFB8: kcipher_cfb8_encrypt(c, iv.data(), iv.size(), in.data(), out.data(), in.size()); break;
    default: kcipher_ofb_xor(c, iv.data(), iv.size(), in.data(), out.data(), in.size()); break;
    }
    kcipher_free(c);
    out.resize(n);
    return out;
}

// Random pieces through EVP, with an EVP_CIPHER_CTX_copy taken midway that must finish the
// same way.
void evp_pieces(EVP_CIPHER *ciph, bool enc, const Bytes &key, const Bytes &iv, const Bytes &in, Bytes *out,
                Bytes *from_copy)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = nullptr;
    ASSERT_EQ(EVP_CipherInit_ex2(x, ciph, key.data(), iv.empty() ? nullptr : iv.data(), enc, nullptr), 1);
    out->assign(in.size() + 32, 0);
    from_copy->clear();
    size_t at = 0, n = 0, copy_at = in.size() / 2, copy_n = 0;
    while (at < in.size()) {
        if (y == nullptr && at >= copy_at) {
            y = EVP_CIPHER_CTX_new();
            ASSERT_EQ(EVP_CIPHER_CTX_copy(y, x), 1);
            copy_n = n;
            *from_copy = Bytes(out->begin(), out->begin() + (long)n);
            from_copy->resize(in.size() + 32);
            copy_at = at;
        }
        const size_t k = std::min(in.size() - at, (size_t)1 + below(100));
        int l = 0;
        ASSERT_EQ(EVP_CipherUpdate(x, out->data() + n, &l, in.data() + at, (int)k), 1);
        n += (size_t)l;
        at += k;
    }
    int l = 0;
    ASSERT_EQ(EVP_CipherFinal_ex(x, out->data() + n, &l), 1);
    out->resize(n + (size_t)l);
    if (y != nullptr) { // the copy takes the rest in one piece
        ASSERT_EQ(EVP_CipherUpdate(y, from_copy->data() + copy_n, &l, in.data() + copy_at, (int)(in.size() - copy_at)), 1);
        copy_n += (size_t)l;
        ASSERT_EQ(EVP_CipherFinal_ex(y, from_copy->data() + copy_n, &l), 1);
        from_copy->resize(copy_n + (size_t)l);
    } else {
        *from_copy = *out;
    }
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_CTX_free(y);
}

TEST_F(Provider, EveryModeStreamsInPiecesAndCopies)
{
    const std::pair<kcipher_mode, const char *> modes[] = {{KCIPHER_MODE_ECB, "ecb"}, {KCIPHER_MODE_CBC, "cbc"},
                                                           {KCIPHER_MODE_CTR, "ctr"}, {KCIPHER_MODE_CFB, "cfb"},
                                                           {KCIPHER_MODE_CFB8, "cfb8"}, {KCIPHER_MODE_OFB, "ofb"}};
    for (size_t i = 0; i < kcipher_cipher_count(); ++i) {
        kcipher_cipher_info info{};
        ASSERT_EQ(kcipher_cipher_get(i, &info), KCIPHER_OK);
        for (const auto &m : modes) {
            const std::string name = upper(std::string(info.name) + "-" + m.second);
            EVP_CIPHER *ciph = fetch(name);
            ASSERT_NE(ciph, nullptr);
            for (int trial = 0; trial < 4; ++trial) {
                const Bytes key = random_bytes(info.key_bytes);
                const Bytes iv = m.first == KCIPHER_MODE_ECB ? Bytes() : random_bytes(info.block_bytes);
                const Bytes text = random_bytes(below(1500));
                SCOPED_TRACE(name + " len " + std::to_string(text.size()));
                Bytes ct, ct_copy, back, back_copy;
                evp_pieces(ciph, true, key, iv, text, &ct, &ct_copy);
                ASSERT_EQ(ct, kc_once(info.name, m.first, key, iv, text));
                ASSERT_EQ(ct_copy, ct);
                evp_pieces(ciph, false, key, iv, ct, &back, &back_copy);
                ASSERT_EQ(back, text);
                ASSERT_EQ(back_copy, text);
            }
            EVP_CIPHER_free(ciph);
        }
    }
}

// EVP_CIPHER_CTX_copy in the middle of a GCM message: both finish with the same bytes and tag.
TEST_F(Provider, GcmCopiesMidMessage)
{
    EVP_CIPHER *ciph = fetch("ARIA-256-GCM");
    const Bytes key = random_bytes(32), iv = random_bytes(12), aad = random_bytes(50), text = random_bytes(777);
    for (size_t cut : {0, 7, 16, 400}) {
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = EVP_CIPHER_CTX_new();
        Bytes a(777), b(777), tag_a(16), tag_b(16);
        int l = 0;
        ASSERT_EQ(EVP_EncryptInit_ex2(x, ciph, key.data(), iv.data(), nullptr), 1);
        ASSERT_EQ(EVP_EncryptUpdate(x, nullptr, &l, aad.data(), (int)aad.size()), 1);
        if (cut != 0)
            ASSERT_EQ(EVP_EncryptUpdate(x, a.data(), &l, text.data(), (int)cut), 1);
        ASSERT_EQ(EVP_CIPHER_CTX_copy(y, x), 1);
        b = a;
        for (auto [ctx, out, tag] : {std::make_tuple(x, &a, &tag_a), std::make_tuple(y, &b, &tag_b)}) {
            ASSERT_EQ(EVP_EncryptUpdate(ctx, out->data() + cut, &l, text.data() + cut, (int)(text.size() - cut)), 1);
            ASSERT_EQ(EVP_EncryptFinal_ex(ctx, out->data(), &l), 1);
            ASSERT_EQ(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag->data()), 1);
        }
        EXPECT_EQ(a, b);
        EXPECT_EQ(tag_a, tag_b);
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_CTX_free(y);
    }
    EVP_CIPHER_free(ciph);
}

TEST_F(Provider, ReinitWithANewIvStartsAFreshMessage)
{
    EVP_CIPHER *ciph = fetch("LEA-128-CTR");
    const Bytes key = random_bytes(16), iv1 = random_bytes(16), iv2 = random_bytes(16), text = random_bytes(100);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    Bytes a(100), b(100);
    int l = 0;
    ASSERT_EQ(EVP_EncryptInit_ex2(x, ciph, key.data(), iv1.data(), nullptr), 1);
    ASSERT_EQ(EVP_EncryptUpdate(x, a.data(), &l, text.data(), 37), 1);
    ASSERT_EQ(EVP_EncryptInit_ex2(x, nullptr, nullptr, iv2.data(), nullptr), 1);
    ASSERT_EQ(EVP_EncryptUpdate(x, a.data(), &l, text.data(), 100), 1);
    EXPECT_EQ(a, kc_once("lea-128", KCIPHER_MODE_CTR, key, iv2, text));
    ASSERT_EQ(EVP_EncryptInit_ex2(x, nullptr, nullptr, nullptr, nullptr), 1); // no IV: the last one again
    ASSERT_EQ(EVP_EncryptUpdate(x, b.data(), &l, text.data(), 100), 1);
    EXPECT_EQ(b, a);
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(ciph);
}

// OpenSSL's own ARIA cases (test/recipes/30-test_evp_data/evpciph_aria.txt).
TEST_F(Provider, OpenSslsAriaTestFilePasses)
{
    std::ifstream f(KC_VECTORS_DIR "/openssl_evpciph_aria.txt");
    ASSERT_TRUE(f.good());
    std::vector<std::map<std::string, std::string>> cases(1);
    for (std::string line; std::getline(f, line);) {
        if (line.empty() || line[0] == '#') {
            if (line.empty() && !cases.back().empty())
                cases.emplace_back();
            continue;
        }
        const size_t eq = line.find(" = ");
        if (eq != std::string::npos)
            cases.back()[line.substr(0, eq)] = line.substr(eq + 3);
    }
    auto unhex = [](const std::string &h) {
        Bytes b;
        for (size_t i = 0; i + 1 < h.size(); i += 2)
            b.push_back((uint8_t)std::stoul(h.substr(i, 2), nullptr, 16));
        return b;
    };
    int ran = 0;
    for (auto &c : cases) {
        if (c.count("Cipher") == 0)
            continue;
        SCOPED_TRACE(c["Cipher"] + " " + c["Ciphertext"].substr(0, 16));
        EVP_CIPHER *ciph = fetch(c["Cipher"]);
        ASSERT_NE(ciph, nullptr);
        const Bytes key = unhex(c["Key"]), iv = unhex(c["IV"]), pt = unhex(c["Plaintext"]), ct = unhex(c["Ciphertext"]);
        if (EVP_CIPHER_get_mode(ciph) == EVP_CIPH_GCM_MODE || EVP_CIPHER_get_mode(ciph) == EVP_CIPH_CCM_MODE) {
            Aead a{"", EVP_CIPHER_get_mode(ciph) == EVP_CIPH_GCM_MODE ? KCIPHER_MODE_GCM : KCIPHER_MODE_CCM, key, iv,
                   unhex(c["AAD"]), pt, c["Tag"].size() / 2};
            Bytes want = ct;
            const Bytes tag = unhex(c["Tag"]);
            want.insert(want.end(), tag.begin(), tag.end());
            EXPECT_EQ(evp_seal(ciph, a), want);
            Bytes plain;
            EXPECT_TRUE(evp_open(ciph, a, want, &plain, c.count("SetTagLate") != 0));
            EXPECT_EQ(plain, pt);
        } else {
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            Bytes out(pt.size() + 32);
            int l = 0, l2 = 0;
            ASSERT_EQ(EVP_EncryptInit_ex2(x, ciph, key.data(), iv.empty() ? nullptr : iv.data(), nullptr), 1);
            EVP_CIPHER_CTX_set_padding(x, 0);
            ASSERT_EQ(EVP_EncryptUpdate(x, out.data(), &l, pt.data(), (int)pt.size()), 1);
            ASSERT_EQ(EVP_EncryptFinal_ex(x, out.data() + l, &l2), 1);
            out.resize((size_t)(l + l2));
            EXPECT_EQ(out, ct);
            EVP_CIPHER_CTX_free(x);
        }
        EVP_CIPHER_free(ciph);
        ++ran;
    }
    EXPECT_EQ(ran, 33);
}

TEST_F(Provider, BadUseIsAnOpenSslErrorNotACrash)
{
    int l = 0;
    uint8_t buf[64] = {}, key[64] = {1}, iv[16] = {};
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();

    EVP_CIPHER *cbc = fetch("ARIA-128-CBC");
    ASSERT_EQ(EVP_EncryptInit_ex2(x, cbc, nullptr, nullptr, nullptr), 1);
    EXPECT_NE(EVP_CIPHER_CTX_set_key_length(x, 5), 1); // wrong key length
    EXPECT_TRUE(error_is_ours());
    EXPECT_NE(EVP_EncryptUpdate(x, buf, &l, buf, 16), 1); // no key yet
    EXPECT_TRUE(error_is_ours());
    size_t eight = 8;
    OSSL_PARAM ivlen[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &eight), OSSL_PARAM_construct_end()};
    EXPECT_NE(EVP_CIPHER_CTX_set_params(x, ivlen), 1); // CBC's IV is one block
    EXPECT_TRUE(error_is_ours());
    EXPECT_EQ(EVP_CIPHER_CTX_get_iv_length(x), 16);
    ASSERT_EQ(EVP_EncryptInit_ex2(x, nullptr, key, iv, nullptr), 1);
    ASSERT_EQ(EVP_EncryptUpdate(x, buf, &l, buf, 10), 1);
    ASSERT_EQ(EVP_EncryptFinal_ex(x, buf, &l), 1);
    EXPECT_NE(EVP_EncryptUpdate(x, buf, &l, buf, 16), 1); // update after final
    EXPECT_TRUE(error_is_ours());
    ASSERT_EQ(EVP_DecryptInit_ex2(x, nullptr, key, iv, nullptr), 1);
    ASSERT_EQ(EVP_DecryptUpdate(x, buf, &l, buf, 32), 1);
    EXPECT_NE(EVP_DecryptFinal_ex(x, buf + l, &l), 1); // almost surely bad padding
    EXPECT_TRUE(error_is_ours());
    ASSERT_EQ(EVP_DecryptInit_ex2(x, nullptr, key, iv, nullptr), 1);
    ASSERT_EQ(EVP_DecryptUpdate(x, buf, &l, buf, 20), 1);
    EXPECT_NE(EVP_DecryptFinal_ex(x, buf, &l), 1); // not whole blocks
    EXPECT_TRUE(error_is_ours());
    EVP_CIPHER_free(cbc);

    EVP_CIPHER *gcm = fetch("LEA-128-GCM");
    ASSERT_EQ(EVP_EncryptInit_ex2(x, gcm, key, iv, nullptr), 1);
    EXPECT_NE(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, buf), 1); // tag set on encrypt
    EXPECT_TRUE(error_is_ours());
    EXPECT_NE(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 0, nullptr), 1); // no IV length
    EXPECT_TRUE(error_is_ours());
    ASSERT_EQ(EVP_DecryptInit_ex2(x, gcm, key, iv, nullptr), 1);
    EXPECT_NE(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 7, buf), 1); // not a GCM tag length
    EXPECT_TRUE(error_is_ours());
    ASSERT_EQ(EVP_DecryptUpdate(x, buf, &l, buf, 32), 1);
    EXPECT_NE(EVP_DecryptFinal_ex(x, buf, &l), 1); // no tag set
    EXPECT_TRUE(error_is_ours());
    ASSERT_EQ(EVP_DecryptInit_ex2(x, gcm, key, iv, nullptr), 1);
    ASSERT_EQ(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, buf + 48), 1);
    ASSERT_EQ(EVP_DecryptUpdate(x, buf, &l, buf, 32), 1);
    EXPECT_NE(EVP_DecryptFinal_ex(x, buf, &l), 1); // bad tag
    EXPECT_TRUE(error_is_ours());
    EXPECT_NE(EVP_DecryptUpdate(x, buf, &l, buf, 16), 1); // update after final
    EXPECT_TRUE(error_is_ours());
    EVP_CIPHER_free(gcm);

    EVP_CIPHER *ccm = fetch("ARIA-256-CCM");
    ASSERT_EQ(EVP_EncryptInit_ex2(x, ccm, nullptr, nullptr, nullptr), 1);
    EXPECT_NE(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 14, nullptr), 1); // nonce 7..13
    EXPECT_TRUE(error_is_ours());
    EXPECT_NE(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 5, nullptr), 1); // odd tag length
    EXPECT_TRUE(error_is_ours());
    EVP_CIPHER_free(ccm);

    EVP_CIPHER *xts = fetch("LEA-128-XTS");
    std::memset(key, 7, sizeof key);
    EXPECT_NE(EVP_EncryptInit_ex2(x, xts, key, iv, nullptr), 1); // equal halves
    EXPECT_TRUE(error_is_ours());
    key[20] = 1;
    ASSERT_EQ(EVP_EncryptInit_ex2(x, xts, key, iv, nullptr), 1);
    EXPECT_NE(EVP_EncryptUpdate(x, buf, &l, buf, 15), 1); // shorter than a block
    EXPECT_TRUE(error_is_ours());
    EVP_CIPHER_free(xts);
    EVP_CIPHER_CTX_free(x);
}

std::string to_hex(const Bytes &b)
{
    static const char *d = "0123456789abcdef";
    std::string s;
    for (uint8_t x : b)
        s += {d[x >> 4], d[x & 15]};
    return s;
}

// `kcipher rand` with the given arguments: its output line.
std::string kcipher_rand(const std::string &args)
{
    const std::string cmd = std::string(KC_CLI_PATH) + " rand --hex " + args;
    FILE *p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[512];
    while (p != nullptr && std::fgets(buf, sizeof buf, p) != nullptr)
        out += buf;
    EXPECT_EQ(p != nullptr ? pclose(p) : -1, 0) << cmd;
    while (!out.empty() && out.back() == '\n')
        out.pop_back();
    return out;
}

// KCIPHER-CTR-DRBG under TEST-RAND (fixed entropy and nonce): the bytes `kcipher rand` gives
// for that entropy, nonce and personalization, with and without the derivation function.
TEST_F(Provider, DrbgMatchesKcipherRand)
{
    EVP_RAND *test_rand = EVP_RAND_fetch(lib, "TEST-RAND", "provider=default");
    EVP_RAND *ours = EVP_RAND_fetch(lib, "KCIPHER-CTR-DRBG", "provider=kcipher");
    ASSERT_NE(test_rand, nullptr);
    ASSERT_NE(ours, nullptr);
    for (const char *cipher : {"aria-128", "aria-256", "lea-192", "hight", "cham-128-256", "seed-128"}) {
        for (bool df : {true, false}) {
            kcipher_cipher_info info{};
            kcipher_cipher_find(cipher, &info);
            const size_t seed_len = df ? info.key_bytes : info.key_bytes + info.block_bytes;
            const Bytes entropy = random_bytes(seed_len), nonce = df ? random_bytes(info.key_bytes / 2) : Bytes();
            const Bytes pers = random_bytes(below(2) == 0 ? 0 : 1 + below(32));
            EVP_RAND_CTX *parent = EVP_RAND_CTX_new(test_rand, nullptr);
            unsigned strength = 256;
            OSSL_PARAM tp[] = {OSSL_PARAM_construct_uint(OSSL_RAND_PARAM_STRENGTH, &strength),
                               OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_ENTROPY,
                                                                 const_cast<uint8_t *>(entropy.data()), entropy.size()),
                               OSSL_PARAM_construct_end(), OSSL_PARAM_construct_end()};
            if (df) // no-df takes no nonce
                tp[2] = OSSL_PARAM_construct_octet_string(OSSL_RAND_PARAM_TEST_NONCE, const_cast<uint8_t *>(nonce.data()),
                                                          nonce.size());
            ASSERT_EQ(EVP_RAND_instantiate(parent, 0, 0, nullptr, 0, tp), 1);
            EVP_RAND_CTX *drbg = EVP_RAND_CTX_new(ours, parent);
            int use_df = df;
            OSSL_PARAM dp[] = {OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER, const_cast<char *>(cipher), 0),
                               OSSL_PARAM_construct_int(OSSL_DRBG_PARAM_USE_DF, &use_df), OSSL_PARAM_construct_end()};
            ASSERT_EQ(EVP_RAND_instantiate(drbg, 0, 0, pers.data(), pers.size(), dp), 1) << cipher;
            EXPECT_EQ(EVP_RAND_get_state(drbg), EVP_RAND_STATE_READY);
            EXPECT_EQ(EVP_RAND_get_strength(drbg), info.key_bytes * 8);
            Bytes got(100);
            ASSERT_EQ(EVP_RAND_generate(drbg, got.data(), got.size(), 0, 0, nullptr, 0), 1);
            std::string args = std::string("-c ") + cipher + " -n 100 --entropy " + to_hex(entropy);
            args += df ? " --nonce " + to_hex(nonce) : std::string(" --no-df");
            if (!pers.empty())
                args += " --personalization " + to_hex(pers);
            EXPECT_EQ(to_hex(got), kcipher_rand(args)) << cipher << (df ? " df" : " no df");
            EVP_RAND_CTX_free(drbg);
            EVP_RAND_CTX_free(parent);
        }
    }
    EVP_RAND_free(test_rand);
    EVP_RAND_free(ours);
}

// As openssl.cnf's [random] section would set it: the library's own DRBGs are ours.
TEST_F(Provider, DrbgServesAsTheLibrarysRandom)
{
    OSSL_LIB_CTX *l = OSSL_LIB_CTX_new();
    ASSERT_EQ(OSSL_PROVIDER_set_default_search_path(l, KC_PROVIDER_DIR), 1);
    OSSL_PROVIDER *k = OSSL_PROVIDER_load(l, "kcipher"), *d = OSSL_PROVIDER_load(l, "default");
    ASSERT_EQ(RAND_set_DRBG_type(l, "KCIPHER-CTR-DRBG", "provider=kcipher", "LEA-256-CTR", nullptr), 1);
    Bytes a(5000), b(5000);
    ASSERT_EQ(RAND_bytes_ex(l, a.data(), a.size(), 0), 1);
    ASSERT_EQ(RAND_priv_bytes_ex(l, b.data(), b.size(), 0), 1);
    EXPECT_NE(a, b);
    EXPECT_STREQ(EVP_RAND_get0_name(EVP_RAND_CTX_get0_rand(RAND_get0_primary(l))), "KCIPHER-CTR-DRBG");
    EXPECT_STREQ(EVP_RAND_get0_name(EVP_RAND_CTX_get0_rand(RAND_get0_public(l))), "KCIPHER-CTR-DRBG");
    OSSL_PROVIDER_unload(k);
    OSSL_PROVIDER_unload(d);
    OSSL_LIB_CTX_free(l);
}

TEST_F(Provider, DrbgRefusesBadUse)
{
    EVP_RAND *ours = EVP_RAND_fetch(lib, "KCIPHER-CTR-DRBG", "provider=kcipher");
    EVP_RAND_CTX *drbg = EVP_RAND_CTX_new(ours, nullptr);
    uint8_t buf[16];
    EXPECT_NE(EVP_RAND_generate(drbg, buf, sizeof buf, 0, 0, nullptr, 0), 1); // not instantiated: EVP says so
    EXPECT_NE(ERR_peek_last_error(), 0u);
    ERR_clear_error();
    OSSL_PARAM bad[] = {OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER, const_cast<char *>("AES-256-CTR"), 0),
                        OSSL_PARAM_construct_end()};
    EXPECT_NE(EVP_RAND_instantiate(drbg, 0, 0, nullptr, 0, bad), 1);
    EXPECT_TRUE(error_is_ours());
    OSSL_PARAM aria128[] = {OSSL_PARAM_construct_utf8_string(OSSL_DRBG_PARAM_CIPHER, const_cast<char *>("ARIA-128-CTR"), 0),
                            OSSL_PARAM_construct_end()};
    EXPECT_NE(EVP_RAND_instantiate(drbg, 256, 0, nullptr, 0, aria128), 1); // 128-bit cipher, 256 asked
    EXPECT_TRUE(error_is_ours());
    ASSERT_EQ(EVP_RAND_instantiate(drbg, 128, 0, nullptr, 0, aria128), 1); // from getrandom
    EXPECT_EQ(EVP_RAND_generate(drbg, buf, sizeof buf, 0, 0, nullptr, 0), 1);
    EVP_RAND_CTX_free(drbg);
    EVP_RAND_free(ours);
}

TEST_F(Provider, OffersEveryCipherInEveryMode)
{
    size_t want = 0;
    for (size_t i = 0; i < kcipher_cipher_count(); ++i) {
        kcipher_cipher_info info{};
        kcipher_cipher_get(i, &info);
        want += info.block_bytes == 16 ? 9 : 6;
    }
    struct Count {
        size_t n = 0;
    } count;
    EVP_CIPHER_do_all_provided(
        lib,
        [](EVP_CIPHER *c, void *arg) {
            if (std::string(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c))) == "kcipher")
                static_cast<Count *>(arg)->n++;
        },
        &count);
    EXPECT_EQ(count.n, want);
    const char *name = nullptr;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_ptr(OSSL_PROV_PARAM_NAME, const_cast<char **>(&name), 0),
                      OSSL_PARAM_construct_end()};
    ASSERT_EQ(OSSL_PROVIDER_get_params(kc, p), 1);
    EXPECT_NE(std::string(name).find("kcipher"), std::string::npos);
}

} // namespace
