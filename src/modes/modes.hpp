// ECB, CBC and CTR, written once against the kernel interface. Arguments are valid here
// (the C API checked them): lengths are whole blocks for ECB and CBC, buffers are either
// identical or disjoint.
#pragma once

#include <cstddef>
#include <cstdint>

#include "modes/keyed.hpp"

namespace kc {

void ecb_encrypt(const Keyed &k, const uint8_t *in, uint8_t *out, size_t nblocks);
void ecb_decrypt(const Keyed &k, const uint8_t *in, uint8_t *out, size_t nblocks);

// iv is updated to the last ciphertext block: the chaining value for the next call.
void cbc_encrypt(const Keyed &k, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t nblocks);
void cbc_decrypt(const Keyed &k, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t nblocks);

// XORs len bytes with the keystream blocks block_offset, block_offset+1, ... of the stream
// whose block 0 uses counter iv.
void ctr_xor(const Keyed &k, const uint8_t *iv, uint64_t block_offset, const uint8_t *in,
             uint8_t *out, size_t len);

} // namespace kc
