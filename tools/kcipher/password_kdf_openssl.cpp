// PBKDF2 and the salt from libcrypto, the same calls `openssl enc -pbkdf2` makes
// (apps/enc.c: RAND_bytes for the salt, PKCS5_PBKDF2_HMAC for key || IV).
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "password.hpp"
#include "usage_error.hpp"

namespace cli {

DerivedKey derive_key(const std::string &password, const uint8_t *salt, unsigned iter, const std::string &md,
                      size_t key_bytes, size_t iv_bytes)
{
    const EVP_MD *digest = EVP_get_digestbyname(md.c_str());
    if (digest == nullptr)
        throw UsageError("--md '" + md + "': not a digest OpenSSL knows (sha256, sha1, sha512, ...)");
    if (iter == 0 || iter > 0x7fffffffu)
        throw UsageError("--iter must be from 1 to 2147483647");
    std::vector<uint8_t> both(key_bytes + iv_bytes);
    if (PKCS5_PBKDF2_HMAC(password.data(), (int)password.size(), salt, (int)salt_bytes, (int)iter, digest,
                          (int)both.size(), both.data()) != 1)
        throw std::runtime_error("PBKDF2 failed in libcrypto");
    DerivedKey d;
    d.key.assign(both.begin(), both.begin() + (long)key_bytes);
    d.iv.assign(both.begin() + (long)key_bytes, both.end());
    OPENSSL_cleanse(both.data(), both.size());
    return d;
}

std::vector<uint8_t> random_salt()
{
    std::vector<uint8_t> salt(salt_bytes);
    if (RAND_bytes(salt.data(), (int)salt.size()) != 1)
        throw std::runtime_error("cannot draw a random salt (libcrypto's RAND_bytes failed)");
    return salt;
}

} // namespace cli
