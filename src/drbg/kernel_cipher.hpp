// BlockCipher over one of our kernels (any CPU kernel the registry holds).
#pragma once

#include <memory>

#include "core/cipher.hpp"
#include "core/key_state.hpp"
#include "drbg/block_cipher.hpp"

namespace kc::drbg {

class KernelCipher final : public BlockCipher {
  public:
    KernelCipher(const Kernel &k, Cipher c) : k_(k), c_(c), desc_(cipher_desc(c)) {}

    size_t block_bytes() const override { return desc_.block_bytes; }
    size_t key_bytes() const override { return desc_.key_bytes; }
    bool set_key(const uint8_t *key) override { return keys_.init(k_, c_, key, true); } // never decrypts
    void encrypt_block(const uint8_t *in, uint8_t *out) const override;
    void keystream(const uint8_t *ctr, uint8_t *out, size_t nblocks) const override;
    std::unique_ptr<BlockCipher> clone_unkeyed() const override;

  private:
    const Kernel &k_;
    Cipher c_;
    const CipherDesc &desc_;
    KeyState keys_; // wiped by its destructor and on every rekey
};

} // namespace kc::drbg
