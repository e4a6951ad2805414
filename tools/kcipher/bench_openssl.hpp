// OpenSSL's libcrypto (EVP) measured in the same run as kcipher, so ratios compare like
// with like: same core, same clock, same buffers. Optional: without OpenSSL at build time
// (KC_HAVE_OPENSSL unset) openssl_available() is false and make() returns nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace cli {

bool openssl_available();

class OpensslCipher {
  public:
    // evp_name: "aria-128-ctr", "camellia-128-ctr", "aes-256-ecb"; empty result if absent.
    static std::unique_ptr<OpensslCipher> make(const std::string &evp_name, const uint8_t *key, const uint8_t *iv);
    ~OpensslCipher();
    void encrypt(const uint8_t *in, uint8_t *out, size_t len);
    std::string library_version() const;

  private:
    OpensslCipher() = default;
    void *ctx_ = nullptr;
};

} // namespace cli
