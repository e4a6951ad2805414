// XTS's tweak arithmetic (IEEE 1619-2018 section 5.2): the tweak's 16 bytes are a little-endian
// 128-bit integer, bit i the coefficient of x^i, modulo x^128 + x^7 + x^2 + x + 1; multiplying
// by alpha = x shifts left by one and folds the carry back as 0x87. Here the integer is held
// as four little-endian words, t[0] the least significant: the layout load_block gives a
// block, so a tweak XORs into data with no conversion.
//
// Every function runs in time independent of its operands (shifts, masks, no lookups), so
// the constant-time kernels (LEA, CHAM) stay constant-time in XTS. Host and device (KC_HD).
#pragma once

#include "cuda/device_util.cuh"

namespace kc::cuda {

// The high 32 bits of (hi:lo) << k, k < 32: SHF on the GPU.
KC_HD uint32_t shl_hi(uint32_t lo, uint32_t hi, uint32_t k)
{
#ifdef __CUDA_ARCH__
    return __funnelshift_l(lo, hi, k);
#else
    return k ? (hi << k) | (lo >> (32 - k)) : hi;
#endif
}

// t ^= h * (x^7 + x^2 + x + 1), the x^128 of a product folded back; h is any 32-bit overflow
// word (h * 0x87 spans at most 39 bits: words 0 and 1).
KC_HD void xts_fold32(uint32_t t[4], uint32_t h)
{
    t[0] ^= h ^ (h << 1) ^ (h << 2) ^ (h << 7);
    t[1] ^= (h >> 31) ^ (h >> 30) ^ (h >> 25);
}

// t * x^k for k < 32: one shift and one fold.
KC_HD void xts_mul_xk(uint32_t t[4], uint32_t k)
{
    const uint32_t h = shl_hi(t[3], 0, k);
    t[3] = shl_hi(t[2], t[3], k);
    t[2] = shl_hi(t[1], t[2], k);
    t[1] = shl_hi(t[0], t[1], k);
    t[0] = t[0] << k;
    xts_fold32(t, h);
}

// t * x^32: a word move and a fold, the step between a lane's consecutive blocks.
KC_HD void xts_mul_x32(uint32_t t[4])
{
    const uint32_t h = t[3];
    t[3] = t[2], t[2] = t[1], t[1] = t[0], t[0] = 0;
    xts_fold32(t, h);
}

// a * b, bit-serial: for the prep pass's few multiplications by x^e.
KC_HD void xts_mul(uint32_t a[4], const uint32_t b[4])
{
    uint32_t r[4] = {0, 0, 0, 0}, v[4] = {a[0], a[1], a[2], a[3]};
    for (int i = 0; i < 128; i++) {
        const uint32_t m = 0u - ((b[i / 32] >> (i % 32)) & 1);
        for (int j = 0; j < 4; j++)
            r[j] ^= v[j] & m;
        xts_mul_xk(v, 1);
    }
    for (int j = 0; j < 4; j++)
        a[j] = r[j];
}

// The 16 bits of x spread to the even bits of the result (squaring in GF(2)[x]).
KC_HD uint32_t spread16(uint32_t x)
{
    x &= 0xffff;
    x = (x | (x << 8)) & 0x00ff00ffu;
    x = (x | (x << 4)) & 0x0f0f0f0fu;
    x = (x | (x << 2)) & 0x33333333u;
    return (x | (x << 1)) & 0x55555555u;
}

// t * t: the bits spread into 256, then the high 128 folded down twice (x^128 = 0x87).
KC_HD void xts_square(uint32_t t[4])
{
    uint32_t w[8];
    for (int j = 0; j < 4; j++) {
        w[2 * j] = spread16(t[j]);
        w[2 * j + 1] = spread16(t[j] >> 16);
    }
    // High word k (bits 128 + 32k ..) times 0x87 lands in words k and k + 1; the last one's
    // overflow (word 4) is folded again.
    for (int k = 3; k >= 0; k--) {
        uint32_t low[4] = {0, 0, 0, 0};
        xts_fold32(low, w[4 + k]);
        w[k] ^= low[0];
        w[k + 1] ^= low[1];
    }
    t[0] = w[0], t[1] = w[1], t[2] = w[2], t[3] = w[3];
}

// t * x^e: x^e by square-and-multiply (left to right, from e's top bit; e is a block index,
// not a secret), then one multiplication.
KC_HD void xts_mul_xpow(uint32_t t[4], uint64_t e)
{
    if (e < 32) {
        xts_mul_xk(t, (uint32_t)e);
        return;
    }
    uint32_t p[4] = {1, 0, 0, 0};
    int top = 63;
    while (((e >> top) & 1) == 0)
        top--;
    for (int i = top; i >= 0; i--) {
        xts_square(p);
        xts_mul_xk(p, (uint32_t)((e >> i) & 1));
    }
    xts_mul(t, p);
}

// t + u as 128-bit integers (the tweak of unit u).
KC_HD void xts_tweak_add(const uint32_t tweak[4], uint64_t u, uint32_t t[4])
{
    uint64_t carry = u;
    for (int j = 0; j < 4; j++) {
        const uint64_t s = (uint64_t)tweak[j] + (carry & 0xffffffffu);
        t[j] = (uint32_t)s;
        carry = (carry >> 32) + (s >> 32);
    }
}

} // namespace kc::cuda
