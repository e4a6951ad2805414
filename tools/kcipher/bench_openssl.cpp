#include "bench_openssl.hpp"

#include <stdexcept>

#ifdef KC_HAVE_OPENSSL
#include <openssl/crypto.h>
#include <openssl/evp.h>
#if OPENSSL_VERSION_MAJOR >= 3
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

std::unique_ptr<OpensslCipher> OpensslCipher::make(const std::string &evp_name, const uint8_t *key,
                                                   const uint8_t *iv)
{
    if (evp_name.rfind("seed-", 0) == 0)
        load_legacy_provider();
    const EVP_CIPHER *c = EVP_get_cipherbyname(evp_name.c_str());
    if (c == nullptr)
        return nullptr;
    std::unique_ptr<OpensslCipher> o(new OpensslCipher);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    o->ctx_ = ctx;
    if (ctx == nullptr || EVP_EncryptInit_ex(ctx, c, nullptr, key, iv) != 1)
        return nullptr;
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    return o;
}

OpensslCipher::~OpensslCipher() { EVP_CIPHER_CTX_free(static_cast<EVP_CIPHER_CTX *>(ctx_)); }

void OpensslCipher::encrypt(const uint8_t *in, uint8_t *out, size_t len)
{
    int outl = 0;
    if (EVP_EncryptUpdate(static_cast<EVP_CIPHER_CTX *>(ctx_), out, &outl, in, (int)len) != 1)
        throw std::runtime_error("OpenSSL EVP_EncryptUpdate failed");
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
