// Small device helpers every CUDA kernel shares. Each one also compiles for the host
// (__host__ __device__ with a portable fallback), so a kernel's round functions can be
// tested on a machine without a GPU (tests/test_cuda_host.cpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda/gpu_ops.hpp"

namespace kc::cuda {

#define KC_HD __host__ __device__ __forceinline__

// Rotations: SHF.L/SHF.R (funnel shift) on the GPU, one instruction each.
KC_HD uint32_t rotl32(uint32_t x, unsigned r)
{
#ifdef __CUDA_ARCH__
    return __funnelshift_l(x, x, r);
#else
    r &= 31;
    return r ? (x << r) | (x >> (32 - r)) : x;
#endif
}

KC_HD uint32_t rotr32(uint32_t x, unsigned r)
{
#ifdef __CUDA_ARCH__
    return __funnelshift_r(x, x, r);
#else
    r &= 31;
    return r ? (x >> r) | (x << (32 - r)) : x;
#endif
}

// PRMT: byte i of the result is byte (s >> 4i) & 7 of the 8-byte value (y:x).
KC_HD uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s)
{
#ifdef __CUDA_ARCH__
    return __byte_perm(x, y, s);
#else
    uint64_t v = (uint64_t)y << 32 | x;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++)
        r |= (uint32_t)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
#endif
}

KC_HD uint32_t bswap32(uint32_t x) { return byte_perm(x, 0, 0x0123); }

// Word i (little-endian) of a block in memory, from any alignment.
KC_HD uint32_t load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

KC_HD void store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

// A block as NW little-endian 32-bit words (NW = 4 for 16-byte blocks, 2 for 8-byte ones).
// Aligned: one 16- or 8-byte access; otherwise byte by byte. The choice is uniform per launch.
template <int NW> __device__ __forceinline__ void load_block(const uint8_t *p, bool aligned, uint32_t *w)
{
    if (aligned) {
        if constexpr (NW == 4) {
            uint4 v = *reinterpret_cast<const uint4 *>(p);
            w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
        } else {
            uint2 v = *reinterpret_cast<const uint2 *>(p);
            w[0] = v.x, w[1] = v.y;
        }
    } else {
        for (int j = 0; j < NW; j++)
            w[j] = load_le32(p + 4 * j);
    }
}

template <int NW> __device__ __forceinline__ void store_block(uint8_t *p, bool aligned, const uint32_t *w)
{
    if (aligned) {
        if constexpr (NW == 4)
            *reinterpret_cast<uint4 *>(p) = make_uint4(w[0], w[1], w[2], w[3]);
        else
            *reinterpret_cast<uint2 *>(p) = make_uint2(w[0], w[1]);
    } else {
        for (int j = 0; j < NW; j++)
            store_le32(p + 4 * j, w[j]);
    }
}

// The last, partial block of a CTR request: nbytes < 4*NW bytes, XORed with keystream ks
// (or written as keystream when in is null).
template <int NW>
__device__ __forceinline__ void xor_tail(const uint8_t *in, uint8_t *out, size_t nbytes, const uint32_t *ks)
{
#pragma unroll
    for (int b = 0; b < 4 * NW; b++) { // unrolled: ks[] indexed by constants stays in registers
        if ((size_t)b < nbytes) {
            uint8_t k = (uint8_t)(ks[b / 4] >> (8 * (b % 4)));
            out[b] = in ? (uint8_t)(in[b] ^ k) : k;
        }
    }
}

inline bool is_aligned(const void *p, size_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

// Default shape: default_threads per block and as many blocks as the GPU holds at once
// (the occupancy of `kernel` with smem bytes of dynamic shared memory, times the SMs), so
// that tables in shared memory are filled once per resident block; grid-stride loops cover
// the rest.
struct Shape {
    unsigned threads, blocks;
};
Shape launch_shape(const GpuLaunch *launch, size_t work_items, unsigned default_threads = 256,
                   const void *kernel = nullptr, size_t smem = 0);

// Lets `kernel` take `bytes` of dynamic shared memory on the current device (above the 48 KiB
// that needs no attribute); asked of the runtime once per device and kernel.
cudaError_t allow_dynamic_smem(const void *kernel, size_t bytes);

} // namespace kc::cuda
