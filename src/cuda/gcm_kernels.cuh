// GCM's cipher passes on the GPU, written once against grid_kernels.cuh's "device cipher" C
// (16-byte blocks): prep (per message: J0, E_K(J0), the segment count) and the fused pass
// (per segment: CTR and GHASH in one read of the data). cuda/gcm_pass.hpp says how a message
// is cut into segments; modes/gpu_gcm.cu runs the passes and finishes the tags.
#pragma once

#include "cuda/gcm_pass.hpp"
#include "cuda/gf128_tables.cuh"
#include "cuda/grid_kernels.cuh"

namespace kc::cuda {

__device__ __forceinline__ bool is_aligned16(const void *p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

__device__ __forceinline__ const uint4 *gcm_table(const uint32_t *tables, int j)
{
    return reinterpret_cast<const uint4 *>(tables) + (size_t)j * gf_table_entries;
}

// Block i (16 bytes, the last one maybe partial: `have` bytes) of p, zero-padded.
__device__ __forceinline__ uint4 gcm_load(const uint8_t *p, uint64_t have)
{
    if (have >= 16 && is_aligned16(p))
        return *reinterpret_cast<const uint4 *>(p);
    uint8_t b[16];
#pragma unroll
    for (int k = 0; k < 16; k++)
        b[k] = (uint64_t)k < have ? p[k] : 0;
    return make_uint4(load_le32(b), load_le32(b + 4), load_le32(b + 8), load_le32(b + 12));
}

// v with only its first `have` bytes kept (have < 16: the last, partial block).
__device__ __forceinline__ uint4 gcm_keep(uint4 v, uint64_t have)
{
    uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const uint64_t n = have > 4 * (uint64_t)j ? have - 4 * (uint64_t)j : 0;
        w[j] &= n >= 4 ? ~0u : (1u << (8 * n)) - 1;
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

__device__ __forceinline__ void gcm_store(uint8_t *p, uint64_t have, uint4 v)
{
    if (have >= 16 && is_aligned16(p)) {
        *reinterpret_cast<uint4 *>(p) = v;
        return;
    }
    const uint32_t w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 16; k++)
        if ((uint64_t)k < have)
            p[k] = (uint8_t)(w[k / 4] >> (8 * (k % 4)));
}

// Thread per message. Every thread runs C::prepare (it may sync the CUDA block) before any
// leaves.
template <class C>
__global__ void __launch_bounds__(256) gcm_prep_grid(const __grid_constant__ typename C::Params p, GcmPass pass)
{
    extern __shared__ __align__(16) uint8_t kc_smem[];
    const typename C::Ctx ctx = C::prepare(p, kc_smem);
    const uint4 *h1 = gcm_table(pass.tables, 0);
    for (uint32_t m = blockIdx.x * blockDim.x + threadIdx.x; m < pass.n; m += gridDim.x * blockDim.x) {
        const kcipher_gpu_aead_msg &msg = pass.msgs[m];
        uint4 j0;
        if (msg.iv_len == 12) {
            j0 = gcm_load(msg.iv, 12);
            j0.w = 0x01000000u; // 0^31 || 1, big-endian
        } else { // J0 = GHASH(IV || 0-pad || [0]64 || [len(IV) in bits]64)
            uint4 y = make_uint4(0, 0, 0, 0);
            for (uint64_t off = 0; off < msg.iv_len; off += 16)
                y = gf_mul_global(xor4(y, gcm_load(msg.iv + off, msg.iv_len - off)), h1);
            const uint64_t bits = msg.iv_len * 8;
            y.z ^= bswap32((uint32_t)(bits >> 32));
            y.w ^= bswap32((uint32_t)bits);
            j0 = gf_mul_global(y, h1);
        }
        uint32_t w[4] = {j0.x, j0.y, j0.z, j0.w};
        C::encrypt(ctx, p, w);
        GcmWork &out = pass.work[m];
        out.j0[0] = j0.x, out.j0[1] = j0.y, out.j0[2] = j0.z, out.j0[3] = j0.w;
        out.ek_j0[0] = w[0], out.ek_j0[1] = w[1], out.ek_j0[2] = w[2], out.ek_j0[3] = w[3];
        const uint64_t blocks = (msg.aad_len + 15) / 16 + (msg.len + 15) / 16;
        const uint64_t g = (uint64_t)1 << pass.log2_seg;
        const uint64_t nseg = (blocks + g - 1) / g;
        out.nseg = nseg;
        out.pad = nseg * g - blocks;
        pass.seg_end[m] = nseg;
    }
}

// The keystream block of counter low word ctr_lo (J0's low word + 1 + block index: inc32).
template <class C, bool UsePre>
__device__ __forceinline__ void gcm_keystream(const typename C::Ctx &ctx, const typename C::Params &p,
                                              const typename C::Pre &pre, const uint32_t j0[4], uint32_t ctr_lo,
                                              uint32_t ks[4])
{
    if constexpr (UsePre) {
        C::ctr_block(ctx, p, pre, ctr_lo, ks);
    } else {
        ks[0] = j0[0], ks[1] = j0[1], ks[2] = j0[2], ks[3] = bswap32(ctr_lo);
        C::encrypt(ctx, p, ks);
    }
}

// Warp per segment, persistent. Shared memory: the cipher's, then H^32's table.
template <class C, bool Open, bool UsePre>
__global__ void __launch_bounds__(1024) gcm_crypt_grid(const __grid_constant__ typename C::Params p,
                                                       const __grid_constant__ typename C::Pre pre, GcmPass pass)
{
    extern __shared__ __align__(16) uint8_t kc_smem[];
    uint4 *lane_table = reinterpret_cast<uint4 *>(kc_smem + (C::smem_bytes + 15) / 16 * 16);
    {
        const uint4 *src = gcm_table(pass.tables, gcm_lane_table);
        for (int k = threadIdx.x; k < gf_table_entries; k += blockDim.x)
            lane_table[k] = src[k];
    }
    const typename C::Ctx ctx = C::prepare(p, kc_smem); // syncs the CUDA block
    __syncthreads();

    const uint32_t lane = threadIdx.x % 32;
    const uint64_t warps = (uint64_t)gridDim.x * (blockDim.x / 32);
    const uint64_t total = pass.seg_end[pass.n - 1];
    const uint64_t g = (uint64_t)1 << pass.log2_seg;
    for (uint64_t seg = (uint64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; seg < total; seg += warps) {
        uint32_t lo = 0, hi = pass.n - 1; // the message: the first m with seg_end[m] > seg
        while (lo < hi) {
            const uint32_t mid = (lo + hi) / 2;
            if (pass.seg_end[mid] > seg)
                hi = mid;
            else
                lo = mid + 1;
        }
        const kcipher_gpu_aead_msg &msg = pass.msgs[lo];
        const GcmWork &wk = pass.work[lo];
        const uint64_t first_seg = lo ? pass.seg_end[lo - 1] : 0;
        const uint64_t vbase = (seg - first_seg) * g;
        const uint64_t a = (msg.aad_len + 15) / 16;
        const uint32_t j0[4] = {wk.j0[0], wk.j0[1], wk.j0[2], wk.j0[3]};
        const uint32_t ctr0 = bswap32(j0[3]) + 1;
        uint64_t k = wk.pad > vbase ? (wk.pad - vbase) / 32 : 0; // skip steps of zero blocks alone
        uint4 acc = make_uint4(0, 0, 0, 0);
        for (; k < g / 32; k++) {
            acc = gf_mul_smem(acc, lane_table);
            const uint64_t v = vbase + k * 32 + lane;
            if (v < wk.pad)
                continue;
            const uint64_t q = v - wk.pad;
            uint4 x;
            if (q < a) {
                x = gcm_load(msg.aad + q * 16, msg.aad_len - q * 16);
            } else {
                const uint64_t i = q - a, have = msg.len - i * 16;
                uint32_t ks[4];
                gcm_keystream<C, UsePre>(ctx, p, pre, j0, ctr0 + (uint32_t)i, ks);
                const uint4 in = gcm_load(msg.in + i * 16, have);
                const uint4 out = make_uint4(in.x ^ ks[0], in.y ^ ks[1], in.z ^ ks[2], in.w ^ ks[3]);
                gcm_store(msg.out + i * 16, have, out);
                x = Open ? in : have < 16 ? gcm_keep(out, have) : out; // hashed zero-padded
            }
            acc = xor4(acc, x);
        }
        // Fold the lanes: after level t, lane 32s/2^(t+1)... holds its group's sum of
        // acc_l * H^(group end - l); at the end lane 0 holds sum of acc_l * H^(31 - l).
#pragma unroll
        for (int t = 0; t < 5; t++) {
            const uint4 up = make_uint4(__shfl_down_sync(~0u, acc.x, 1 << t), __shfl_down_sync(~0u, acc.y, 1 << t),
                                        __shfl_down_sync(~0u, acc.z, 1 << t), __shfl_down_sync(~0u, acc.w, 1 << t));
            acc = xor4(gf_mul_global(acc, gcm_table(pass.tables, t)), up);
        }
        if (lane == 0)
            reinterpret_cast<uint4 *>(pass.seg_values)[seg] = acc;
    }
    // H^32's table is key material: leave none of it in shared memory.
    __syncthreads();
    for (int k = threadIdx.x; k < gf_table_entries; k += blockDim.x)
        lane_table[k] = make_uint4(0, 0, 0, 0);
}

template <class C, bool Open, bool UsePre> int launch_gcm_crypt(const typename C::Params &p, const GcmPass &pass, void *stream)
{
    typename C::Pre pre{};
    if (UsePre)
        pre = C::precompute(p, pass.host_j0);
    auto kern = gcm_crypt_grid<C, Open, UsePre>;
    const size_t smem = (C::smem_bytes + 15) / 16 * 16 + gf_table_bytes;
    cudaError_t err = allow_smem(kern, smem);
    if (err != cudaSuccess)
        return err;
    const unsigned threads = default_threads_of<C>::value > 512 ? default_threads_of<C>::value : 512;
    Shape s = launch_shape(nullptr, (size_t)1 << 40, threads, (const void *)kern, smem);
    kern<<<s.blocks, s.threads, smem, (cudaStream_t)stream>>>(p, pre, pass);
    return cudaGetLastError();
}

template <class C> int launch_gcm(const typename C::Params &p, const GcmPass &pass, void *stream)
{
    static_assert(C::NW == 4, "GCM needs 128-bit blocks");
    if (pass.n == 0)
        return 0;
    if (pass.kind == GcmPass::prep) {
        auto kern = gcm_prep_grid<C>;
        cudaError_t err = allow_smem(kern, C::smem_bytes);
        if (err != cudaSuccess)
            return err;
        const unsigned threads = 256;
        const unsigned blocks = (pass.n + threads - 1) / threads;
        kern<<<blocks, threads, C::smem_bytes, (cudaStream_t)stream>>>(p, pass);
        return cudaGetLastError();
    }
    const bool open = pass.kind == GcmPass::open;
    if (pass.host_j0 != nullptr)
        return open ? launch_gcm_crypt<C, true, true>(p, pass, stream) : launch_gcm_crypt<C, false, true>(p, pass, stream);
    return open ? launch_gcm_crypt<C, true, false>(p, pass, stream) : launch_gcm_crypt<C, false, false>(p, pass, stream);
}

} // namespace kc::cuda
