#include "bench_openssl.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <stdexcept>

namespace cli {

std::unique_ptr<OpensslCipher> OpensslCipher::make(const std::string &evp_name, const uint8_t *key,
                                                   const uint8_t *iv)
{
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
