// Block_Cipher_df and BCC, SP 800-90A rev. 1 section 10.3.2 and 10.3.3: compress any number
// of input strings into seedlen bits under the fixed key 00 01 02 .. (leftmost keylen bits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "drbg/block_cipher.hpp"

namespace kc::drbg {

struct Span {
    const uint8_t *p = nullptr;
    size_t n = 0;
};

// The df with its constants folded once (the ARX paper's precomputation of the instantiate
// step): K is fixed, so K's round keys and the first CBC-MAC step of every BCC,
// E_K(i || 0^(outlen-32)), never depend on the input. Each instantiate, reseed and request
// with additional input then saves a key schedule and 2-3 block encryptions.
class DerivationFunction {
  public:
    // Keys a copy of `proto`'s cipher with K and folds the constants; false when out of memory.
    bool init(const BlockCipher &proto);
    bool ready() const { return fixed_ != nullptr; }

    // out (out_bytes, at most 64) = Block_Cipher_df(a || b || c, 8*out_bytes); false when
    // out of memory. The derived key stays in an internal instance, wiped on its next rekey
    // or destruction.
    bool derive(Span a, Span b, Span c, uint8_t *out, size_t out_bytes);

  private:
    std::unique_ptr<BlockCipher> fixed_, derived_;
    uint8_t first_[4][16] = {};  // E_K(i || 0..0) for the BCC of output block i
    size_t blocks_ = 0;          // BCC calls per derivation: ceil((keylen + outlen) / outlen)
};

} // namespace kc::drbg
