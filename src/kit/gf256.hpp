// Arithmetic in GF(2^8) = GF(2)[x]/(poly), at compile time: the S-box definitions of ARIA,
// SEED and the AES field the x86 instructions compute in are all powers and affine maps here.
#pragma once

#include <cstdint>

namespace kc::gf256 {

// a * b modulo poly (poly with its x^8 bit, e.g. 0x11b for AES, 0x163 for SEED).
constexpr uint8_t mul(uint8_t a, uint8_t b, unsigned poly)
{
    unsigned x = a, r = 0;
    for (int i = 0; i < 8; i++) {
        if ((b >> i) & 1)
            r ^= x;
        x <<= 1;
        if (x & 0x100)
            x ^= poly;
    }
    return (uint8_t)r;
}

constexpr uint8_t pow(uint8_t a, unsigned e, unsigned poly)
{
    uint8_t r = 1;
    for (; e != 0; e >>= 1) {
        if (e & 1)
            r = mul(r, a, poly);
        a = mul(a, a, poly);
    }
    return r;
}

} // namespace kc::gf256
