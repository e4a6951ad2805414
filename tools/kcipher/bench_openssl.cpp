#include "bench_openssl.hpp"

#include <cstring>
#include <stdexcept>

#ifdef KC_HAVE_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#if OPENSSL_VERSION_MAJOR >= 3
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#endif

namespace cli {

bool openssl_available() { return true; }

// SEED is in OpenSSL 3's legacy provider. Loading a provider by hand stops the default one
// from loading on its own, so both are loaded, once, when a SEED cipher is first asked for.
static void load_legacy_provider()
{
#if OPENSSL_VERSION_MAJOR >= 3
    static const bool loaded = [] {
        OSSL_PROVIDER_load(nullptr, "legacy");
        return OSSL_PROVIDER_load(nullptr, "default") != nullptr;
    }();
    (void)loaded;
#endif
}

static bool ends_with(const std::string &s, const std::string &tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// "aria-128-gcm" -> 16: the key bytes, from the name's second field.
static size_t key_bytes_of(const std::string &evp_name)
{
    size_t a = evp_name.find('-'), b = evp_name.find('-', a + 1);
    return a == std::string::npos || b == std::string::npos ? 0 : std::stoul(evp_name.substr(a + 1, b - a - 1)) / 8;
}

std::unique_ptr<OpensslCipher> OpensslCipher::make(const std::string &evp_name, const uint8_t *key,
                                                   const uint8_t *iv)
{
    if (evp_name.rfind("seed-", 0) == 0)
        load_legacy_provider();
    std::unique_ptr<OpensslCipher> o(new OpensslCipher);
    std::memcpy(o->iv_, iv, 12);
    if (ends_with(evp_name, "-cmac") || ends_with(evp_name, "-gmac")) {
#if OPENSSL_VERSION_MAJOR >= 3
        o->kind_ = Kind::mac;
        o->gmac_ = ends_with(evp_name, "-gmac");
        std::string cipher = evp_name.substr(0, evp_name.size() - 5) + (o->gmac_ ? "-gcm" : "-cbc");
        EVP_MAC *mac = EVP_MAC_fetch(nullptr, o->gmac_ ? "GMAC" : "CMAC", nullptr);
        o->mac_ = mac;
        if (mac == nullptr || EVP_get_cipherbyname(cipher.c_str()) == nullptr)
            return nullptr;
        EVP_MAC_CTX *m = EVP_MAC_CTX_new(mac);
        o->ctx_ = m;
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher.data(), 0),
            o->gmac_ ? OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, o->iv_, 12) : OSSL_PARAM_construct_end(),
            OSSL_PARAM_construct_end()};
        if (m == nullptr || EVP_MAC_init(m, key, key_bytes_of(evp_name), params) != 1)
            return nullptr;
        o->tag_len_ = EVP_MAC_CTX_get_mac_size(m);
        return o;
#else
        return nullptr;
#endif
    }
    const EVP_CIPHER *c = EVP_get_cipherbyname(evp_name.c_str());
    if (c == nullptr)
        return nullptr;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    o->ctx_ = ctx;
    if (ctx == nullptr)
        return nullptr;
    o->kind_ = ends_with(evp_name, "-gcm") ? Kind::gcm : ends_with(evp_name, "-ccm") ? Kind::ccm : Kind::stream;
    if (o->kind_ != Kind::stream) {
        // The AEAD modes: a 12-byte IV (CCM's nonce) and, for CCM, the tag length first.
        if (EVP_EncryptInit_ex(ctx, c, nullptr, nullptr, nullptr) != 1 ||
            EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, nullptr) != 1 ||
            (o->kind_ == Kind::ccm && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, nullptr) != 1) ||
            EVP_EncryptInit_ex(ctx, nullptr, nullptr, key, o->iv_) != 1)
            return nullptr;
        return o;
    }
    if (EVP_EncryptInit_ex(ctx, c, nullptr, key, iv) != 1)
        return nullptr;
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    return o;
}

OpensslCipher::~OpensslCipher()
{
#if OPENSSL_VERSION_MAJOR >= 3
    if (kind_ == Kind::mac) {
        EVP_MAC_CTX_free(static_cast<EVP_MAC_CTX *>(ctx_));
        EVP_MAC_free(static_cast<EVP_MAC *>(mac_));
        return;
    }
#endif
    EVP_CIPHER_CTX_free(static_cast<EVP_CIPHER_CTX *>(ctx_));
}

void OpensslCipher::encrypt(const uint8_t *in, uint8_t *out, size_t len)
{
#if OPENSSL_VERSION_MAJOR >= 3
    if (kind_ == Kind::mac) {
        // One message: restart with the same key (and GMAC's IV, which a finished GCM needs).
        auto *m = static_cast<EVP_MAC_CTX *>(ctx_);
        OSSL_PARAM params[] = {gmac_ ? OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, iv_, 12)
                                     : OSSL_PARAM_construct_end(),
                               OSSL_PARAM_construct_end()};
        size_t n = 0;
        if (EVP_MAC_init(m, nullptr, 0, params) != 1 || EVP_MAC_update(m, in, len) != 1 ||
            EVP_MAC_final(m, out + len, &n, tag_len_) != 1)
            throw std::runtime_error("OpenSSL EVP_MAC failed");
        return;
    }
#endif
    auto *ctx = static_cast<EVP_CIPHER_CTX *>(ctx_);
    int outl = 0, fin = 0;
    if (kind_ == Kind::stream) {
        if (EVP_EncryptUpdate(ctx, out, &outl, in, (int)len) != 1)
            throw std::runtime_error("OpenSSL EVP_EncryptUpdate failed");
        return;
    }
    // One sealed message under the fixed IV: data, final block, tag after the data.
    if (EVP_EncryptInit_ex(ctx, nullptr, nullptr, nullptr, iv_) != 1 ||
        (kind_ == Kind::ccm && EVP_EncryptUpdate(ctx, nullptr, &outl, nullptr, (int)len) != 1) ||
        EVP_EncryptUpdate(ctx, out, &outl, in, (int)len) != 1 || EVP_EncryptFinal_ex(ctx, out + outl, &fin) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out + len) != 1)
        throw std::runtime_error("OpenSSL AEAD seal failed");
}

std::string OpensslCipher::library_version() const { return OpenSSL_version(OPENSSL_VERSION); }

} // namespace cli

#else

namespace cli {

bool openssl_available() { return false; }
std::unique_ptr<OpensslCipher> OpensslCipher::make(const std::string &, const uint8_t *, const uint8_t *)
{
    return nullptr;
}
OpensslCipher::~OpensslCipher() = default;
void OpensslCipher::encrypt(const uint8_t *, uint8_t *, size_t) { throw std::logic_error("built without OpenSSL"); }
std::string OpensslCipher::library_version() const { return ""; }

} // namespace cli

#endif
