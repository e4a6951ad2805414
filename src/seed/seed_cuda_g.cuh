// SEED's G function on the GPU, shared by seed/cuda (seed_cuda.cu) and the GPU key search
// (seed_cuda_keysearch.cu): G(X) = SS0[X0] ^ SS1[X1] ^ SS2[X2] ^ SS3[X3] (seed.hpp), with the
// four SS tables in shared memory as 32 copies, copy = lane, so that a warp's 32 lookups
// always hit 32 different banks.
//
// Layout: two 64 KiB halves (tables 0-1 and 2-3), each [256 rows][2 tables][32 copies] of
// words: the entry of byte x in table 2h + t, copy c, is at h * 64 KiB + (x << 8) + (t << 7)
// + (c << 2). A row is 256 bytes, so the offset is one PRMT (byte x into bits 8..15 beside
// the lane's (t << 7) | (c << 2)) and the half an immediate of the load: two instructions per
// lookup. 128 KiB per CUDA block: one block of 1024 threads per SM.
//
// Not constant-time: the lookups' addresses are secret bytes.
#pragma once

#include <cstdint>

#include "cuda/device_util.cuh"
#include "seed/seed.hpp"

namespace kc::seed_cuda {

struct SsTables {
    uint32_t t[4][256];
};

constexpr SsTables make_ss_tables()
{
    SsTables s{};
    for (int q = 0; q < 4; q++)
        for (int x = 0; x < 256; x++)
            s.t[q][x] = seed_spec::ss[q][x];
    return s;
}

// In global memory for the key schedule on the device (one key per thread, few lookups) and
// as the source each CUDA block copies into shared memory.
static __device__ const SsTables dev_ss = make_ss_tables();

struct SharedSs {
    static constexpr uint32_t bytes = 128 * 1024;
    const uint8_t *mem;
    uint32_t base; // lane << 2

    __device__ static SharedSs fill_and_get(uint8_t *smem)
    {
        uint32_t *w = reinterpret_cast<uint32_t *>(smem);
        // Word e: copy e % 32, table (e >> 5) & 1 of half e >> 14, row (e >> 6) & 255.
        for (unsigned e = threadIdx.x; e < bytes / 4; e += blockDim.x) {
            const unsigned q = 2 * (e >> 14) + ((e >> 5) & 1), x = (e >> 6) & 255;
            w[e] = dev_ss.t[q][x];
        }
        __syncthreads();
        return {smem, (threadIdx.x % 32) << 2};
    }

    // Table q at byte i of v.
    template <int q> __device__ uint32_t at(uint32_t v, int i) const
    {
        // Result bytes: base's byte 0, v's byte i, then zeros (base's bytes 2 and 3).
        const uint32_t off = cuda::byte_perm(v, base | ((q & 1) << 7), 0x7604 | (i << 4));
        return *reinterpret_cast<const uint32_t *>(mem + (q >> 1) * 65536 + off);
    }

    __device__ uint32_t operator()(uint32_t x) const { return at<0>(x, 0) ^ at<1>(x, 1) ^ at<2>(x, 2) ^ at<3>(x, 3); }
};

// The F function's body on (c, d) under round-key words k0, k1, given G: returns (t0, t1) for
// L0 ^= t0, L1 ^= t1.
template <class Gf>
__device__ __forceinline__ void f_function(const Gf &g, uint32_t c, uint32_t d, uint32_t k0, uint32_t k1,
                                           uint32_t &t0, uint32_t &t1)
{
    t0 = c ^ k0;
    t1 = g(d ^ k1 ^ t0);
    t0 = g(t0 + t1);
    t1 = g(t1 + t0);
    t0 += t1;
}

// 16 rounds on big-endian words x[0..3] (L0 L1 R0 R1); rk = 32 round-key words in the order
// of use (reversed pairs decrypt). Leaves the output block's words in x.
template <class Gf, class Keys> __device__ __forceinline__ void rounds(const Gf &g, const Keys &rk, uint32_t x[4])
{
    uint32_t l0 = x[0], l1 = x[1], r0 = x[2], r1 = x[3], t0, t1;
#pragma unroll
    for (int i = 0; i < seed_rounds; i += 2) {
        f_function(g, r0, r1, rk[2 * i], rk[2 * i + 1], t0, t1);
        l0 ^= t0, l1 ^= t1;
        f_function(g, l0, l1, rk[2 * i + 2], rk[2 * i + 3], t0, t1);
        r0 ^= t0, r1 ^= t1;
    }
    x[0] = r0, x[1] = r1, x[2] = l0, x[3] = l1;
}

} // namespace kc::seed_cuda
