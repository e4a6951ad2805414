// PKCS#7 in constant time. The check follows BoringSSL's EVP_tls_cbc_remove_padding: masks
// built with arithmetic on the pad byte instead of comparisons that compile to branches.
#include "modes/padding.hpp"

#include <cstring>

namespace kc {

namespace {

// All ones when a < b, else zero, for a, b < 2^31 (the sign bit of a - b).
size_t mask_lt(size_t a, size_t b) { return 0 - ((a - b) >> (sizeof(size_t) * 8 - 1)); }

size_t mask_zero(size_t a) { return mask_lt(a, 1); }

} // namespace

void pkcs7_pad_block(const uint8_t *tail, size_t tail_len, size_t bs, uint8_t *block)
{
    const uint8_t n = (uint8_t)(bs - tail_len);
    if (tail_len != 0)
        std::memcpy(block, tail, tail_len);
    std::memset(block + tail_len, n, n);
}

size_t pkcs7_pad_length(const uint8_t *block, size_t bs)
{
    const size_t n = block[bs - 1];
    // good: n in 1..bs.
    size_t good = ~mask_zero(n) & ~mask_lt(bs, n);
    for (size_t i = 0; i < bs; i++) {
        // Byte i is padding when i >= bs - n, i.e. when bs - 1 - i < n (for n <= bs).
        const size_t in_pad = mask_lt(bs - 1 - i, n);
        good &= ~(in_pad & ~mask_zero(block[i] ^ n));
    }
    return n & good;
}

} // namespace kc
