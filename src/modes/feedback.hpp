// CFB (SP 800-38A 6.3) with full-block and 8-bit segments, and OFB (6.4), written once against
// the kernel interface; the same bytes as OpenSSL's -cfb, -cfb8 and -ofb. Arguments are valid
// here (the C API checked them): len is any length, buffers are identical or disjoint, iv is
// one block.
//
// iv is the feedback register: read, and left holding the value that continues the stream
// (CFB: the last ciphertext block; CFB8: the last block_bytes ciphertext bytes; OFB: the last
// keystream block). A partial last block ends the stream: iv then holds the register as
// OpenSSL's leaves it (the segment's bytes over the unused keystream for CFB, the keystream
// block for OFB), which no longer lines up with a block boundary.
//
// The serial directions take the context's chain kernel (dispatch/registry.hpp: the family's
// lowest one-block latency); CFB decryption takes the throughput kernel and its threads.
#pragma once

#include <cstddef>
#include <cstdint>

#include "modes/keyed.hpp"

namespace kc {

void cfb_encrypt(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);
void cfb_decrypt(const Keyed &k, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);

void cfb8_encrypt(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);
void cfb8_decrypt(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);

// Encryption and decryption are the same operation.
void ofb_xor(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len);

} // namespace kc
