// The block interface of a kernel that computes one block at a time (the reference kernels):
// ECB as a loop over its one-block functions, CTR over that ECB (core/ctr_via_ecb.hpp). A
// family's ref file supplies the key state, the block size and the two block functions.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"
#include "core/ctr_via_ecb.hpp"

namespace kc {

template <class Keys, size_t BlockBytes, void (*Encrypt)(const Keys &, const uint8_t *, uint8_t *),
          void (*Decrypt)(const Keys &, const uint8_t *, uint8_t *),
          void (*Schedule)(Cipher, const uint8_t *, Keys *) = nullptr>
struct BlockLoop {
    // Kernel::set_key, where the family's key schedule takes the cipher (Schedule given).
    static void set_key(void *state, Cipher c, const uint8_t *key) { Schedule(c, key, static_cast<Keys *>(state)); }
    static void encrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
    {
        const Keys &k = *static_cast<const Keys *>(state);
        for (size_t b = 0; b < nblocks; b++)
            Encrypt(k, in + BlockBytes * b, out + BlockBytes * b);
    }
    static void decrypt_blocks(const void *state, const uint8_t *in, uint8_t *out, size_t nblocks)
    {
        const Keys &k = *static_cast<const Keys *>(state);
        for (size_t b = 0; b < nblocks; b++)
            Decrypt(k, in + BlockBytes * b, out + BlockBytes * b);
    }
    // The counter is the whole block as one big-endian integer, wrapping (OpenSSL's CTR; for
    // the 8-byte blocks, Crypto++'s and KISA's HIGHT-CTR).
    static void ctr_xor_blocks(const void *state, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                               size_t nblocks)
    {
        ctr_xor_via_ecb(encrypt_blocks, BlockBytes, state, ctr, in, out, nblocks);
    }
};

} // namespace kc
