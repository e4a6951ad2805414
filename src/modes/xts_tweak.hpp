// XTS tweak arithmetic (IEEE 1619-2018 5.2, SP 800-38E): a tweak is an element of GF(2^128)
// stored as a 128-bit little-endian integer; multiplying by the primitive element alpha shifts
// it left one bit and, on carry out of bit 127, XORs 0x87 into byte 0 (x^128 = x^7 + x^2 + x + 1).
// Everything here is branch-free in the tweak's bits: the encrypted tweak is secret.
#pragma once

#include <cstdint>

namespace kc {

struct XtsTweak {
    uint64_t lo, hi; // bytes 0..7 and 8..15, each little-endian
};

inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

inline void store_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

inline XtsTweak xts_load(const uint8_t *p) { return {load_le64(p), load_le64(p + 8)}; }

inline void xts_store(uint8_t *p, XtsTweak t)
{
    store_le64(p, t.lo);
    store_le64(p + 8, t.hi);
}

// t * alpha
inline XtsTweak xts_double(XtsTweak t)
{
    const uint64_t carry = 0 - (t.hi >> 63);
    return {t.lo << 1 ^ (carry & 0x87), t.hi << 1 | t.lo >> 63};
}

// a * b in the same field: shift-and-add from b's top bit down, with masks rather than
// branches on b's bits.
inline XtsTweak xts_mul(XtsTweak a, XtsTweak b)
{
    XtsTweak r{0, 0};
    for (int i = 127; i >= 0; i--) {
        r = xts_double(r);
        const uint64_t bit = (i >= 64 ? b.hi >> (i - 64) : b.lo >> i) & 1;
        r.lo ^= a.lo & (0 - bit);
        r.hi ^= a.hi & (0 - bit);
    }
    return r;
}

// t * alpha^j by square-and-multiply (j is a public block index): where a thread starts in the
// middle of a data unit, in O(log j) multiplications rather than j doublings.
inline XtsTweak xts_mul_alpha_pow(XtsTweak t, uint64_t j)
{
    XtsTweak power{2, 0}; // alpha
    for (; j != 0; j >>= 1) {
        if (j & 1)
            t = xts_mul(t, power);
        power = xts_mul(power, power);
    }
    return t;
}

// The tweak of data unit u: tweak16 + u as 128-bit little-endian integers (dm-crypt's plain64
// sector numbers when the high bytes are zero).
inline void xts_unit_tweak(uint8_t out[16], const uint8_t tweak16[16], uint64_t u)
{
    uint64_t lo = load_le64(tweak16), hi = load_le64(tweak16 + 8);
    lo += u;
    hi += lo < u;
    store_le64(out, lo);
    store_le64(out + 8, hi);
}

} // namespace kc
