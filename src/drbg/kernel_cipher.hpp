// BlockCipher over one of our kernels (any CPU kernel the registry holds), with the
// accelerations the registry offers for it (accelerations.hpp): the encryption-only key
// schedule and the kernel's own keystream, where it has them.
#pragma once

#include <memory>

#include "core/cipher.hpp"
#include "core/key_state.hpp"
#include "drbg/accelerations.hpp"
#include "drbg/block_cipher.hpp"

namespace kc::drbg {

// The keystream of nblocks from counter ctr under a key state of a.kernel, written to out
// (the kernel's keystream_blocks, or CTR over a read-only block of zeros, 1 KiB per kernel
// call, the output prefetched ahead).
void kernel_keystream(const Accelerations &a, const void *state, size_t block_bytes, const uint8_t *ctr,
                      uint8_t *out, size_t nblocks);

class KernelCipher final : public BlockCipher {
  public:
    explicit KernelCipher(const Accelerations &a) : a_(a), desc_(cipher_desc(a.cipher)) {} // a.kernel set
    KernelCipher(const Kernel &k, Cipher c) : KernelCipher(accelerations_for(k, c)) {}

    size_t block_bytes() const override { return desc_.block_bytes; }
    size_t key_bytes() const override { return desc_.key_bytes; }
    bool set_key(const uint8_t *key) override { return keys_.init(*a_.kernel, a_.cipher, key, a_.encrypt_key()); } // never decrypts
    void encrypt_block(const uint8_t *in, uint8_t *out) const override;
    void keystream(const uint8_t *ctr, uint8_t *out, size_t nblocks) const override;
    std::unique_ptr<BlockCipher> clone_unkeyed() const override;

  private:
    Accelerations a_;
    const CipherDesc &desc_;
    KeyState keys_; // wiped by its destructor and on every rekey
};

} // namespace kc::drbg
