// Block_Cipher_df and BCC, SP 800-90A rev. 1 section 10.3.2 and 10.3.3: compress any number
// of input strings into seedlen bits under the fixed key 00 01 02 .. (leftmost keylen bits).
#pragma once

#include <cstddef>
#include <cstdint>

#include "drbg/block_cipher.hpp"

namespace kc::drbg {

struct Span {
    const uint8_t *p = nullptr;
    size_t n = 0;
};

// out (out_bytes, at most 64) = Block_Cipher_df(a || b || c, 8*out_bytes). `scratch` is an
// unkeyed instance of the DRBG's cipher; it is left keyed with a derived key (wiped on its
// next rekey or destruction).
// False when out of memory.
bool block_cipher_df(BlockCipher &scratch, Span a, Span b, Span c, uint8_t *out, size_t out_bytes);

} // namespace kc::drbg
