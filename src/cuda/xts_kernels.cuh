// XTS's two passes on the GPU (cuda/xts_pass.hpp), written once against grid_kernels.cuh's
// "device cipher" C (16-byte blocks):
//
//   anchors: a thread per segment, E_K2(tweak + unit) under the tweak key, times
//            alpha^(first block of the segment) (gf128_xts.cuh); written to device scratch.
//   crypt:   a warp per segment, under the data key. Lane l takes the segment's blocks l,
//            l + 32, ..., so that a warp's loads and stores are 512 contiguous bytes, and
//            steps its tweak by alpha^32 (a word move and a fold) from block to block:
//            XOR, the cipher, XOR. A unit whose length is not whole blocks ends with
//            ciphertext stealing (IEEE 1619-2018 5.3.2, 5.4.2), done by the lane that holds
//            its last full block.
#pragma once

#include "cuda/gf128_xts.cuh"
#include "cuda/grid_kernels.cuh"
#include "cuda/xts_pass.hpp"

namespace kc::cuda {

template <class C>
__global__ void __launch_bounds__(256) xts_anchor_grid(const __grid_constant__ typename C::Params tk, XtsPass pass)
{
    extern __shared__ __align__(16) uint8_t kc_smem[];
    const typename C::Ctx ctx = C::prepare(tk, kc_smem); // may sync the CUDA block: before any leaves
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t g = blockIdx.x * blockDim.x + threadIdx.x; g < pass.nseg; g += stride) {
        const uint32_t u = g / pass.seg_per_unit, s = g % pass.seg_per_unit;
        uint32_t t[4];
        xts_tweak_add(pass.tweak, u, t);
        C::encrypt(ctx, tk, t);
        xts_mul_xpow(t, pass.first_block + (uint64_t)s * xts_seg_blocks);
        reinterpret_cast<uint4 *>(pass.anchors)[g] = make_uint4(t[0], t[1], t[2], t[3]);
    }
}

template <class C, bool Decrypt>
__device__ __forceinline__ void xts_block(const typename C::Ctx &ctx, const typename C::Params &p, uint32_t w[4],
                                          const uint32_t t[4])
{
    for (int j = 0; j < 4; j++)
        w[j] ^= t[j];
    if (Decrypt)
        C::decrypt(ctx, p, w);
    else
        C::encrypt(ctx, p, w);
    for (int j = 0; j < 4; j++)
        w[j] ^= t[j];
}

// One lane's blocks of a segment: i, i + 32, ... below `plain`, C's unroll at a time (the
// blocks interleave, and the round keys' loads serve all of them). t is the tweak of block i;
// it leaves as the tweak of the first block the lane did not take, which is returned.
template <class C, bool Decrypt>
__device__ __forceinline__ uint32_t xts_lane_blocks(const typename C::Ctx &ctx, const typename C::Params &p,
                                                    const uint8_t *in, uint8_t *out, uint32_t i, uint32_t plain,
                                                    bool aligned, uint32_t t[4])
{
    constexpr int U = unroll_of<C>::value;
    for (; i + 32 * (U - 1) < plain; i += 32 * U) {
        uint32_t w[U][4], tw[U][4];
#pragma unroll
        for (int u = 0; u < U; u++) {
            load_block<4>(in + (size_t)(i + 32 * u) * 16, aligned, w[u]);
            for (int j = 0; j < 4; j++)
                tw[u][j] = t[j];
            xts_mul_x32(t);
        }
#pragma unroll
        for (int u = 0; u < U; u++)
            xts_block<C, Decrypt>(ctx, p, w[u], tw[u]);
#pragma unroll
        for (int u = 0; u < U; u++)
            store_block<4>(out + (size_t)(i + 32 * u) * 16, aligned, w[u]);
    }
    for (; i < plain; i += 32) {
        uint32_t w[4];
        load_block<4>(in + (size_t)i * 16, aligned, w);
        xts_block<C, Decrypt>(ctx, p, w, t);
        store_block<4>(out + (size_t)i * 16, aligned, w);
        xts_mul_x32(t);
    }
    return i;
}

// Ciphertext stealing over a unit's last full block (at in, tweak t) and its `tail` more bytes
// (tweak t * alpha). Encryption: CC = E(block, t); the partial output is CC's first bytes, and
// the full block's output is E(partial input || CC's rest, t * alpha). Decryption runs the
// tweaks in the other order. Both inputs are read before any output is written (in place).
//
// ctx comes by value: taken by reference, the kernel's copy lived in local memory and its table
// pointer lost its shared address space, so every lookup of the main loop became a generic
// 64-bit load (LD.E and two address operations instead of LDS: ARIA's and SEED's XTS ran at 0.6
// of their ECB).
template <class C, bool Decrypt>
__device__ __noinline__ void xts_steal(const typename C::Ctx ctx, const typename C::Params &p, const uint8_t *in,
                                       uint8_t *out, uint32_t tail, const uint32_t t[4])
{
    uint32_t t2[4] = {t[0], t[1], t[2], t[3]};
    xts_mul_xk(t2, 1);
    uint32_t x[4];
    uint8_t part[16];
    for (int j = 0; j < 4; j++)
        x[j] = load_le32(in + 4 * j);
    for (uint32_t k = 0; k < 16; k++)
        part[k] = k < tail ? in[16 + k] : 0;
    xts_block<C, Decrypt>(ctx, p, x, Decrypt ? t2 : t);
    uint8_t y[16];
    for (uint32_t k = 0; k < 16; k++) {
        const uint8_t b = (uint8_t)(x[k / 4] >> (8 * (k % 4)));
        if (k < tail)
            out[16 + k] = b;
        y[k] = k < tail ? part[k] : b;
    }
    for (int j = 0; j < 4; j++)
        x[j] = load_le32(y + 4 * j);
    xts_block<C, Decrypt>(ctx, p, x, Decrypt ? t : t2);
    for (int j = 0; j < 4; j++)
        store_le32(out + 4 * j, x[j]);
}

// Warp per segment, grid-stride over segments.
template <class C, bool Decrypt>
__global__ void __launch_bounds__(default_threads_of<C>::value)
    xts_crypt_grid(const __grid_constant__ typename C::Params p, XtsPass pass)
{
    extern __shared__ __align__(16) uint8_t kc_smem[];
    const typename C::Ctx ctx = C::prepare(p, kc_smem);
    const uint32_t lane = threadIdx.x % 32, warps = gridDim.x * (blockDim.x / 32);
    for (uint32_t g = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; g < pass.nseg; g += warps) {
        const uint32_t u = g / pass.seg_per_unit, s = g % pass.seg_per_unit;
        const uint64_t at = (uint64_t)u * pass.unit_bytes;
        const uint64_t unit_len = pass.len - at < pass.unit_bytes ? pass.len - at : pass.unit_bytes;
        const uint64_t slots = unit_len / 16, first = (uint64_t)s * xts_seg_blocks;
        const uint32_t count = (uint32_t)(slots - first < xts_seg_blocks ? slots - first : xts_seg_blocks);
        const uint32_t tail = (uint32_t)(unit_len % 16);
        const bool steals = tail != 0 && first + count == slots; // the unit's last slot is here
        const uint32_t plain = count - (steals ? 1 : 0);
        const uint8_t *in = pass.in + at + first * 16;
        uint8_t *out = pass.out + at + first * 16;
        const bool aligned = ((reinterpret_cast<uintptr_t>(in) | reinterpret_cast<uintptr_t>(out)) & 15) == 0;
        const uint4 a = reinterpret_cast<const uint4 *>(pass.anchors)[g];
        uint32_t t[4] = {a.x, a.y, a.z, a.w};
        xts_mul_xk(t, lane);
        const uint32_t i = xts_lane_blocks<C, Decrypt>(ctx, p, in, out, lane, plain, aligned, t);
        if (steals && i == plain)
            xts_steal<C, Decrypt>(ctx, p, in + (size_t)plain * 16, out + (size_t)plain * 16, tail, t);
    }
}

// The anchors, then the blocks, queued on `stream`. pass.nseg and pass.seg_per_unit filled
// (xts_count_segments), pass.anchors of 4 words per segment.
template <class C>
int launch_xts(const typename C::Params &p, const typename C::Params &tk, const XtsPass &pass, void *stream)
{
    static_assert(C::NW == 4, "XTS needs 128-bit blocks");
    if (pass.nseg == 0)
        return 0;
    const cudaStream_t s = (cudaStream_t)stream;
    auto prep = xts_anchor_grid<C>;
    cudaError_t err = allow_smem(prep, C::smem_bytes);
    if (err != cudaSuccess)
        return err;
    const Shape ps = launch_shape(nullptr, pass.nseg, 256, (const void *)prep, C::smem_bytes);
    prep<<<ps.blocks, ps.threads, C::smem_bytes, s>>>(tk, pass);
    if ((err = cudaGetLastError()) != cudaSuccess)
        return err;
    auto kern = pass.decrypt ? xts_crypt_grid<C, true> : xts_crypt_grid<C, false>;
    if ((err = allow_smem(kern, C::smem_bytes)) != cudaSuccess)
        return err;
    const Shape cs = launch_shape(nullptr, (size_t)pass.nseg * 32, default_threads_of<C>::value, (const void *)kern,
                                  C::smem_bytes);
    kern<<<cs.blocks, cs.threads, C::smem_bytes, s>>>(p, pass);
    return cudaGetLastError();
}

} // namespace kc::cuda
