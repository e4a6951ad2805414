// PKCS#7 padding (RFC 5652 section 6.3), as `openssl enc` and EVP pad ECB and CBC: the last
// block is completed with n bytes of value n, 1 <= n <= block size, so a message of whole
// blocks gains a whole block of padding and the pad is always there to strip.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kc {

// The last plaintext block: the tail (tail_len < bs bytes) followed by its padding.
void pkcs7_pad_block(const uint8_t *tail, size_t tail_len, size_t bs, uint8_t *block);

// The pad length (1..bs) of a decrypted last block, or 0 when the pad is bad. Every byte of
// the block is read and no branch or index depends on its contents: a decryptor's timing
// does not tell which byte was wrong, only (through the one status) that one was.
size_t pkcs7_pad_length(const uint8_t *block, size_t bs);

} // namespace kc
