// Test doubles for the DRBG: an entropy source that hands out queued inputs (so that the
// vectors' EntropyInputPR / EntropyInputReseed arrive exactly when the DRBG asks), and AES
// from OpenSSL as a BlockCipher (test code only: the library has no AES).
#pragma once

#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "drbg/block_cipher.hpp"

#ifdef KC_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

namespace kct {

struct EntropyQueue {
    std::deque<std::vector<uint8_t>> q;
    int calls = 0;

    // kcipher_entropy_fn: pops one input; an empty queue or a length out of range fails.
    static size_t take(void *user, uint8_t *buf, size_t min_len, size_t max_len)
    {
        auto *self = static_cast<EntropyQueue *>(user);
        self->calls++;
        if (self->q.empty())
            return 0;
        std::vector<uint8_t> e = std::move(self->q.front());
        self->q.pop_front();
        if (e.size() < min_len || e.size() > max_len)
            return 0;
        std::memcpy(buf, e.data(), e.size());
        return e.size();
    }
};

#ifdef KC_HAVE_OPENSSL
class AesCipher final : public kc::drbg::BlockCipher {
  public:
    explicit AesCipher(size_t key_bytes) : kb_(key_bytes) {}
    ~AesCipher() override { EVP_CIPHER_CTX_free(ctx_); }

    size_t block_bytes() const override { return 16; }
    size_t key_bytes() const override { return kb_; }
    bool set_key(const uint8_t *key) override
    {
        if (ctx_ == nullptr && (ctx_ = EVP_CIPHER_CTX_new()) == nullptr)
            return false;
        const EVP_CIPHER *c = kb_ == 16 ? EVP_aes_128_ecb() : kb_ == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();
        if (EVP_EncryptInit_ex(ctx_, c, nullptr, key, nullptr) != 1)
            return false;
        EVP_CIPHER_CTX_set_padding(ctx_, 0);
        return true;
    }
    void encrypt_block(const uint8_t *in, uint8_t *out) const override
    {
        int n = 0;
        EVP_EncryptUpdate(ctx_, out, &n, in, 16);
    }
    void keystream(const uint8_t *ctr, uint8_t *out, size_t nblocks) const override
    {
        uint8_t c[16];
        std::memcpy(c, ctr, 16);
        for (size_t i = 0; i < nblocks; i++) {
            encrypt_block(c, out + 16 * i);
            for (int j = 15; j >= 0 && ++c[j] == 0; j--)
                ;
        }
    }
    std::unique_ptr<kc::drbg::BlockCipher> clone_unkeyed() const override
    {
        return std::make_unique<AesCipher>(kb_);
    }

  private:
    size_t kb_;
    EVP_CIPHER_CTX *ctx_ = nullptr;
};
#endif

} // namespace kct
