// CHAM's round and its inverse as the GPU kernels compute them (cham_cuda.cu,
// cham_cuda_keysearch.cu): 16- or 32-bit words in 32-bit registers, the state rotated by
// renaming; 32-bit rotations are funnel shifts, ROL8 of a 16-bit word a byte permute.
#pragma once

#include "cuda/device_util.cuh"

namespace kc::cham_cuda {

KC_HD uint32_t rotl16(uint32_t x, unsigned r) { return ((x << r) | (x >> (16 - r))) & 0xffff; }

template <unsigned R> KC_HD uint32_t rol(uint32_t x, bool w16)
{
    if (!w16)
        return cuda::rotl32(x, R);
    if (R == 8)
        return cuda::byte_perm(x, 0, 0x4401); // swap the two low bytes, clear the rest
    return rotl16(x, R);
}

// Round i on x[4] (16- or 32-bit words held in 32-bit registers), x rotated in place.
template <bool W16> KC_HD void cham_round(uint32_t *x, int i, uint32_t rk)
{
    const uint32_t mask = W16 ? 0xffffu : 0xffffffffu;
    uint32_t t;
    if (i & 1)
        t = rol<1>(((x[0] ^ (uint32_t)i) + (rol<8>(x[1], W16) ^ rk)) & mask, W16);
    else
        t = rol<8>(((x[0] ^ (uint32_t)i) + (rol<1>(x[1], W16) ^ rk)) & mask, W16);
    x[0] = x[1], x[1] = x[2], x[2] = x[3], x[3] = t;
}

template <unsigned R> KC_HD uint32_t ror(uint32_t x, bool w16)
{
    return w16 ? rotl16(x, 16 - R) : cuda::rotr32(x, R);
}

// The inverse of round i: X_0 = (ROR_{R2}(X_3') - (ROL_{R1}(X_0') ^ RK)) ^ i.
template <bool W16> KC_HD void cham_unround(uint32_t *x, int i, uint32_t rk)
{
    const uint32_t mask = W16 ? 0xffffu : 0xffffffffu;
    uint32_t s;
    if (i & 1)
        s = ((ror<1>(x[3], W16) - (rol<8>(x[0], W16) ^ rk)) & mask) ^ (uint32_t)i;
    else
        s = ((ror<8>(x[3], W16) - (rol<1>(x[0], W16) ^ rk)) & mask) ^ (uint32_t)i;
    x[3] = x[2], x[2] = x[1], x[1] = x[0], x[0] = s;
}

} // namespace kc::cham_cuda
