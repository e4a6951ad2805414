// BlockCipher over one of our kernels (any CPU kernel the registry holds).
#pragma once

#include <memory>

#include "core/cipher.hpp"
#include "core/key_state.hpp"
#include "drbg/block_cipher.hpp"

namespace kc::drbg {

// The keystream of nblocks from counter ctr under a key state of kernel k, written to out
// (CTR over a read-only block of zeros, 1 KiB per kernel call, the output prefetched ahead).
void kernel_keystream(const Kernel &k, const void *state, size_t block_bytes, const uint8_t *ctr,
                      uint8_t *out, size_t nblocks);

class KernelCipher final : public BlockCipher {
  public:
    KernelCipher(const Kernel &k, Cipher c) : k_(k), c_(c), desc_(cipher_desc(c)) {}

    size_t block_bytes() const override { return desc_.block_bytes; }
    size_t key_bytes() const override { return desc_.key_bytes; }
    bool set_key(const uint8_t *key) override { return keys_.init(k_, c_, key, true); } // never decrypts
    void encrypt_block(const uint8_t *in, uint8_t *out) const override;
    void keystream(const uint8_t *ctr, uint8_t *out, size_t nblocks) const override;
    std::unique_ptr<BlockCipher> clone_unkeyed() const override;
    const KernelCipher *as_kernel_cipher() const override { return this; }

    const Kernel &kernel() const { return k_; }
    Cipher cipher() const { return c_; }

  private:
    const Kernel &k_;
    Cipher c_;
    const CipherDesc &desc_;
    KeyState keys_; // wiped by its destructor and on every rekey
};

} // namespace kc::drbg
