// Big-endian counter arithmetic on a whole block, the way OpenSSL's CTR mode counts:
// the full block is one integer, incremented by one per block, wrapping at 2^(8*n).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kc {

// ctr += v (mod 2^(8*n)), ctr a big-endian n-byte integer.
inline void counter_add(uint8_t *ctr, size_t n, uint64_t v)
{
    unsigned carry = 0;
    for (size_t i = n; i-- > 0 && (v != 0 || carry != 0);) {
        unsigned sum = ctr[i] + static_cast<unsigned>(v & 0xff) + carry;
        ctr[i] = static_cast<uint8_t>(sum);
        carry = sum >> 8;
        v >>= 8;
    }
}

inline void counter_increment(uint8_t *ctr, size_t n) { counter_add(ctr, n, 1); }

// dst = src + v (mod 2^(8*n)) for n = 8 or 16, in 64-bit words: for the DRBG's per-request
// counters, where counter_add's byte loop showed in profiles.
inline void counter_plus(uint8_t *dst, const uint8_t *src, size_t n, uint64_t v)
{
    uint64_t lo, hi = 0;
    __builtin_memcpy(&lo, src + n - 8, 8);
    lo = __builtin_bswap64(lo) + v;
    if (n == 16) {
        __builtin_memcpy(&hi, src, 8);
        hi = __builtin_bswap64(__builtin_bswap64(hi) + (lo < v));
        __builtin_memcpy(dst, &hi, 8);
    }
    lo = __builtin_bswap64(lo);
    __builtin_memcpy(dst + n - 8, &lo, 8);
}

} // namespace kc
