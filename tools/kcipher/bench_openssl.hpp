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
    // evp_name: "aria-128-ctr", "camellia-128-ctr", "aes-256-ecb"; the authenticated ones
    // "aria-128-gcm", "aes-128-gcm", "aria-128-ccm" (seal: a fixed 12-byte IV, the data, the
    // final block and a 16-byte tag after it), and the MACs "aria-128-cmac" (EVP_MAC CMAC over
    // ARIA-128-CBC) and "aria-128-gmac" (EVP_MAC GMAC over ARIA-128-GCM), which write the tag
    // after the data. Empty result if OpenSSL lacks it.
    static std::unique_ptr<OpensslCipher> make(const std::string &evp_name, const uint8_t *key, const uint8_t *iv);
    ~OpensslCipher();
    void encrypt(const uint8_t *in, uint8_t *out, size_t len);
    std::string library_version() const;

  private:
    OpensslCipher() = default;
    enum class Kind { stream, gcm, ccm, mac };
    Kind kind_ = Kind::stream;
    void *ctx_ = nullptr; // EVP_CIPHER_CTX, or EVP_MAC_CTX for a MAC
    void *mac_ = nullptr; // EVP_MAC
    uint8_t iv_[16] = {};
    size_t tag_len_ = 16;
    bool gmac_ = false;
};

} // namespace cli
