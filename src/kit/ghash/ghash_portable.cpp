// ghash/portable: GHASH in plain C++ for machines without a carry-less multiply instruction.
//
// Technique. The 64x64 carry-less products come from ordinary integer multiplication with
// "holes": each operand is split into four masks of every fourth bit, so in each of the 16
// partial products a sum of at most eight one-bit terms lands in a 4-bit slot and cannot carry
// into the next slot of its class (32-bit pieces keep the count at 8). A 128x128 product is
// three such 64x64 products (Karatsuba). About 200 multiplications per block: slow (tens of
// cycles per byte), but with no table and no branch, so constant-time on CPUs whose multiplier
// is (every x86-64 and ARMv8 core in use).
#include <cstring>

#include "core/bytes.hpp"
#include "core/wipe.hpp"
#include "kit/ghash/ghash.hpp"

namespace kc {
namespace {

// Carry-less product of two 32-bit values.
uint64_t clmul32(uint32_t x, uint32_t y)
{
    const uint64_t m0 = 0x1111111111111111ull, m1 = m0 << 1, m2 = m0 << 2, m3 = m0 << 3;
    const uint64_t x0 = x & m0, x1 = x & m1, x2 = x & m2, x3 = x & m3;
    const uint64_t y0 = y & m0, y1 = y & m1, y2 = y & m2, y3 = y & m3;
    uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

struct U128 {
    uint64_t hi, lo;
};

// Carry-less product of two 64-bit values (Karatsuba over 32-bit halves).
U128 clmul64(uint64_t x, uint64_t y)
{
    const uint32_t xh = (uint32_t)(x >> 32), xl = (uint32_t)x, yh = (uint32_t)(y >> 32), yl = (uint32_t)y;
    const uint64_t h = clmul32(xh, yh), l = clmul32(xl, yl);
    const uint64_t m = clmul32(xh ^ xl, yh ^ yl) ^ h ^ l;
    return {h ^ (m >> 32), l ^ (m << 32)};
}

// x * y in GHASH's field, both reflected (see ghash.hpp).
U128 gf_mul(U128 x, U128 y)
{
    // 256-bit product [p3 p2 p1 p0] (p3 most significant), Karatsuba.
    U128 hh = clmul64(x.hi, y.hi), ll = clmul64(x.lo, y.lo);
    U128 mm = clmul64(x.hi ^ x.lo, y.hi ^ y.lo);
    mm.hi ^= hh.hi ^ ll.hi;
    mm.lo ^= hh.lo ^ ll.lo;
    uint64_t p3 = hh.hi, p2 = hh.lo ^ mm.hi, p1 = ll.hi ^ mm.lo, p0 = ll.lo;
    // The reflected product is one bit short: shift the 256 bits left by one.
    p3 = p3 << 1 | p2 >> 63;
    p2 = p2 << 1 | p1 >> 63;
    p1 = p1 << 1 | p0 >> 63;
    p0 <<= 1;
    // Reduce: the low 128 bits hold the high-degree terms. Fold them with
    // x^128 = x^7 + x^2 + x + 1, first by the left shifts 63, 62, 57 of the lowest word (the
    // part that would fall below bit 0), then by right shifts 1, 2, 7 of the result.
    p1 ^= (p0 << 63) ^ (p0 << 62) ^ (p0 << 57);
    const uint64_t d1 = p1, d0 = p0;
    const uint64_t r1 = d1 ^ (d1 >> 1) ^ (d1 >> 2) ^ (d1 >> 7);
    const uint64_t r0 = d0 ^ (d0 >> 1 | d1 << 63) ^ (d0 >> 2 | d1 << 62) ^ (d0 >> 7 | d1 << 57);
    return {p3 ^ r1, p2 ^ r0};
}

U128 load(const uint8_t *p) { return {load_be64(p), load_be64(p + 8)}; }

void store(uint8_t *p, U128 v)
{
    store_be64(p, v.hi);
    store_be64(p + 8, v.lo);
}

void init(GhashKey &key, const uint8_t h[16])
{
    std::memset(&key, 0, sizeof key);
    U128 hv = load(h);
    key.words[0] = hv.hi;
    key.words[1] = hv.lo;
}

void update(const GhashKey &key, uint8_t y[16], const uint8_t *in, size_t nblocks)
{
    const U128 h = {key.words[0], key.words[1]};
    U128 acc = load(y);
    for (size_t i = 0; i < nblocks; i++) {
        U128 x = load(in + 16 * i);
        acc = gf_mul({acc.hi ^ x.hi, acc.lo ^ x.lo}, h);
    }
    store(y, acc);
    secure_wipe(&acc, sizeof acc);
}

} // namespace

// Descriptor: no requirement; constant-time (see the file header); rank 0, the fallback.
extern const GhashKernel ghash_portable_kernel = {"ghash/portable", 0, 0, true, init, update};

} // namespace kc
