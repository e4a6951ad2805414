// GCM's cipher passes on the GPU, written once against grid_kernels.cuh's "device cipher" C
// (16-byte blocks): prep (per message: J0, E_K(J0), the segment count) and the fused pass
// (per segment: CTR and GHASH in one read of the data). cuda/gcm_pass.hpp says how a message
// is cut into segments; modes/gpu_gcm.cu runs the passes and finishes the tags.
#pragma once

#include "cuda/gcm_pass.hpp"
#include "cuda/gcm_segment_owner.cuh"
#include "cuda/gf128_bmma.cuh"
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

// The block of one lane at one step, for the hash: AAD, CTR's ciphertext (computed and
// stored here), or a leading zero block. `lean`: the whole warp's step is whole ciphertext
// blocks and the data 16-byte aligned (the common case), so no per-block tests.
template <class C, bool Open, bool UsePre>
__device__ __forceinline__ uint4 gcm_block(const typename C::Ctx &ctx, const typename C::Params &p,
                                           const typename C::Pre &pre, const uint32_t (&j0)[4], uint32_t ctr0,
                                           const uint8_t *aad, uint64_t aad_len, const uint8_t *in, uint8_t *out,
                                           uint64_t len, uint64_t a, uint64_t pad, uint64_t v, bool lean)
{
    uint32_t ks[4];
    if (lean) {
        const uint64_t i = v - pad - a;
        gcm_keystream<C, UsePre>(ctx, p, pre, j0, ctr0 + (uint32_t)i, ks);
        const uint4 x_in = reinterpret_cast<const uint4 *>(in)[i];
        const uint4 x_out = make_uint4(x_in.x ^ ks[0], x_in.y ^ ks[1], x_in.z ^ ks[2], x_in.w ^ ks[3]);
        reinterpret_cast<uint4 *>(out)[i] = x_out;
        return Open ? x_in : x_out;
    }
    if (v < pad)
        return make_uint4(0, 0, 0, 0);
    const uint64_t q = v - pad;
    if (q < a)
        return gcm_load(aad + q * 16, aad_len - q * 16);
    const uint64_t i = q - a, have = len - i * 16;
    gcm_keystream<C, UsePre>(ctx, p, pre, j0, ctr0 + (uint32_t)i, ks);
    const uint4 x_in = gcm_load(in + i * 16, have);
    const uint4 x_out = make_uint4(x_in.x ^ ks[0], x_in.y ^ ks[1], x_in.z ^ ks[2], x_in.w ^ ks[3]);
    gcm_store(out + i * 16, have, x_out);
    return Open ? x_in : have < 16 ? gcm_keep(x_out, have) : x_out; // hashed zero-padded
}

// The rounds of a segment (steps k .. k + U - 1, k a multiple of U) whose every block is a
// whole ciphertext block and the data 16-byte aligned: [lo, hi). Block v of the segment is
// ciphertext block v + vbase - first_ct; a step is 32 blocks.
struct GcmLeanRounds {
    uint64_t lo, hi;
};

__device__ __forceinline__ GcmLeanRounds gcm_lean_rounds(uint64_t vbase, uint64_t first_ct, uint64_t len, uint64_t g,
                                                         int U, bool aligned)
{
    const uint64_t end_ct = first_ct + len / 16; // after the last whole ciphertext block
    if (!aligned || end_ct <= vbase || end_ct - vbase < 32)
        return {0, 0};
    const uint64_t lo_step = first_ct > vbase ? (first_ct - vbase + 31) / 32 : 0;
    const uint64_t hi_step = min((end_ct - vbase) / 32, g / 32);
    const uint64_t lo = (lo_step + U - 1) / U * U, hi = hi_step / U * U;
    return lo < hi ? GcmLeanRounds{lo, hi} : GcmLeanRounds{0, 0};
}

// Warp per segment, persistent. Step k: lane l makes block l of the step and stages it in
// shared memory; the 32 Horner chains (chain l takes the segment's blocks l, l + 32, ...) are
// held in the tensor cores' layout (lane (G, T) keeps word T of chains G, G+8, G+16, G+24)
// and advanced a round of gcm_round steps at a time with binary MMAs. At the end of the
// segment the chains go back to a lane each and are folded into the segment's value.
// Shared memory: the cipher's; the B operands of H^(32 gcm_round) .. H^32; the staging,
// gcm_round x 512 bytes per warp.
// Fused, one CUDA block an SM: two CUDA blocks an SM (64 registers) ran slower, and CTR and
// GHASH as two passes (a GHASH kernel of its own) slower for LEA and in batches, 5% faster only
// for ARIA's one message (docs/performance.md, GCM).
template <class C, bool Open, bool UsePre>
__global__ void __launch_bounds__(gcm_threads) gcm_crypt_grid(const __grid_constant__ typename C::Params p,
                                                       const __grid_constant__ typename C::Pre pre, GcmPass pass)
{
    constexpr int U = gcm_round;
    extern __shared__ __align__(16) uint8_t kc_smem[];
    uint32_t *bm = reinterpret_cast<uint32_t *>(kc_smem + (C::smem_bytes + 15) / 16 * 16);
    for (int k = threadIdx.x; k < U * bmma_words; k += blockDim.x) // [power][j][lane]
        bm[k] = pass.bmma[k];
    __syncthreads(); // every warp reads every operand; not every C::prepare syncs (LEA's, CHAM's)
    const typename C::Ctx ctx = C::prepare(p, kc_smem);
    const uint32_t lane = threadIdx.x % 32;
    uint4 *stage = reinterpret_cast<uint4 *>(bm + U * bmma_words) + threadIdx.x / 32 * 32 * U;
    const uint32_t *stage32 = reinterpret_cast<const uint32_t *>(stage);

    const uint64_t warps = (uint64_t)gridDim.x * (blockDim.x / 32);
    const uint64_t total = pass.seg_end[pass.n - 1];
    const uint64_t g = (uint64_t)1 << pass.log2_seg;
    for (uint64_t seg = (uint64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; seg < total; seg += warps) {
        const GcmSegmentOwner own = gcm_segment_owner(pass, seg);
        // The message's fields in registers: the stores to its output could alias the
        // descriptor as far as the compiler knows, which would reload them every step.
        const kcipher_gpu_aead_msg &m = pass.msgs[own.m];
        const uint8_t *aad = m.aad, *in = m.in;
        uint8_t *out = m.out;
        const uint64_t aad_len = m.aad_len, len = m.len;
        const GcmWork &wk = pass.work[own.m];
        const uint64_t pad = wk.pad;
        const uint64_t vbase = (seg - own.first) * g;
        const uint64_t a = (aad_len + 15) / 16;
        const uint32_t j0[4] = {wk.j0[0], wk.j0[1], wk.j0[2], wk.j0[3]};
        const uint32_t ctr0 = bswap32(j0[3]) + 1;
        const bool aligned = is_aligned16(in) && is_aligned16(out);
        // Skip the rounds of leading zero blocks alone.
        uint64_t k = pad > vbase ? (pad - vbase) / (32 * U) * U : 0;
        const GcmLeanRounds lean = gcm_lean_rounds(vbase, pad + a, len, g, U, aligned);
        uint32_t acc[4] = {0, 0, 0, 0}; // word lane%4 of chains lane/4 + 8r
        for (; k < g / 32; k += U) {
            if (k >= lean.lo && k < lean.hi) {
                // Whole aligned ciphertext blocks only: the U blocks of this lane are
                // independent and branch-free, so their rounds interleave.
                const uint64_t i0 = vbase + k * 32 - pad - a + lane; // ciphertext block index
                uint4 x_in[U];
#pragma unroll
                for (int u = 0; u < U; u++)
                    x_in[u] = reinterpret_cast<const uint4 *>(in)[i0 + 32 * u];
                uint32_t ks[U][4];
#pragma unroll
                for (int u = 0; u < U; u++)
                    gcm_keystream<C, UsePre>(ctx, p, pre, j0, ctr0 + (uint32_t)i0 + 32 * u, ks[u]);
#pragma unroll
                for (int u = 0; u < U; u++) {
                    const uint4 x_out =
                        make_uint4(x_in[u].x ^ ks[u][0], x_in[u].y ^ ks[u][1], x_in[u].z ^ ks[u][2], x_in[u].w ^ ks[u][3]);
                    reinterpret_cast<uint4 *>(out)[i0 + 32 * u] = x_out;
                    stage[32 * u + lane] = Open ? x_in[u] : x_out;
                }
            } else {
#pragma unroll
                for (int u = 0; u < U; u++) {
                    const uint64_t first = vbase + (k + u) * 32; // the step's first block
                    const bool lean_step = aligned && first >= pad + a && (first + 32 - pad - a) * 16 <= len;
                    stage[32 * u + lane] = gcm_block<C, Open, UsePre>(ctx, p, pre, j0, ctr0, aad, aad_len, in, out, len,
                                                                      a, pad, first + lane, lean_step);
                }
            }
            __syncwarp();
            uint32_t x[4][U];
#pragma unroll
            for (int u = 0; u < U; u++)
#pragma unroll
                for (int r = 0; r < 4; r++) // word lane%4 of block lane/4 + 8r: one wavefront each
                    x[r][u] = stage32[128 * u + 32 * r + lane];
            gf_bmma_horner<U>(acc, x, bm, lane);
            __syncwarp(); // the staging is read before the next round writes it
        }
        // Back to a chain per lane, then fold the lanes: after level t, lane 32s/2^(t+1)...
        // holds its group's sum of acc_l * H^(group end - l); at the end lane 0 holds the
        // sum of acc_l * H^(31 - l).
        uint32_t *st = reinterpret_cast<uint32_t *>(stage);
#pragma unroll
        for (int r = 0; r < 4; r++)
            st[32 * r + lane] = acc[r];
        __syncwarp();
        uint4 chain = stage[lane];
        __syncwarp();
#pragma unroll
        for (int t = 0; t < 5; t++) {
            const uint4 up = make_uint4(__shfl_down_sync(~0u, chain.x, 1 << t), __shfl_down_sync(~0u, chain.y, 1 << t),
                                        __shfl_down_sync(~0u, chain.z, 1 << t), __shfl_down_sync(~0u, chain.w, 1 << t));
            chain = xor4(gf_mul_global(chain, gcm_table(pass.tables, t)), up);
        }
        if (lane == 0)
            reinterpret_cast<uint4 *>(pass.seg_values)[seg] = chain;
    }
    // The staging and the B operands are hash state and key material: leave none of it.
    __syncthreads();
    for (int k = threadIdx.x; k < U * bmma_words; k += blockDim.x)
        bm[k] = 0;
    for (int u = 0; u < U; u++)
        stage[32 * u + lane] = make_uint4(0, 0, 0, 0);
}

template <class C, bool Open, bool UsePre> int launch_gcm_crypt(const typename C::Params &p, const GcmPass &pass, void *stream)
{
    typename C::Pre pre{};
    if (UsePre)
        pre = C::precompute(p, pass.host_j0);
    auto kern = gcm_crypt_grid<C, Open, UsePre>;
    const unsigned threads = gcm_threads;
    const size_t smem = (C::smem_bytes + 15) / 16 * 16 + gcm_round * bmma_words * 4 + threads / 32 * 512 * gcm_round;
    cudaError_t err = allow_smem(kern, smem);
    if (err != cudaSuccess)
        return err;
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
