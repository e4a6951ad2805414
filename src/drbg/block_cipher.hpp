// What CTR_DRBG needs of a block cipher (SP 800-90A 10.2: Block_Encrypt under one key at a
// time). The DRBG is written once against this interface: src/drbg/kernel_cipher.* serves it
// with our kernels, and the tests serve it with OpenSSL's AES to replay the NIST vectors.
// What goes faster than the interface allows (bursts, the chain's fused blocks) is handed to
// the throughput layer beside the DRBG (accelerations.hpp), never found behind this one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace kc::drbg {

class BlockCipher {
  public:
    virtual ~BlockCipher() = default;

    virtual size_t block_bytes() const = 0; // 16, or 8 for HIGHT and CHAM-64/128
    virtual size_t key_bytes() const = 0;

    // Rekeys; false when out of memory. The old round keys are wiped.
    virtual bool set_key(const uint8_t *key) = 0;

    virtual void encrypt_block(const uint8_t *in, uint8_t *out) const = 0;

    // out = E(ctr) || E(ctr+1) || ... for nblocks whole blocks; ctr is a big-endian block
    // that wraps at 2^(8*block_bytes), as V does in SP 800-90A 10.2.1 (ctr_len = blocklen).
    virtual void keystream(const uint8_t *ctr, uint8_t *out, size_t nblocks) const = 0;

    // An independent, unkeyed instance of the same cipher and implementation, for the
    // derivation function's key and for worker threads. nullptr when out of memory.
    virtual std::unique_ptr<BlockCipher> clone_unkeyed() const = 0;
};

// keystream() for any byte count: a partial last block takes the first bytes of one more
// keystream block (the standard's leftmost(temp, requested_number_of_bits)).
void keystream_bytes(const BlockCipher &c, const uint8_t *ctr, uint8_t *out, size_t len);

} // namespace kc::drbg
