// aria/cuda-bitslice: ARIA on the GPU, bitsliced, constant-time. The arithmetic is in
// aria_cuda_bitslice.cuh (tested on the host); this file holds the kernels and the descriptor.
//
//   - A thread computes 32 blocks at once as 128 words (one bit of one byte position of the
//     32 blocks per word); a warp takes 1024 consecutive blocks, thread `lane` the blocks
//     lane + 32 L, so each of the 32 loads and stores of a warp covers 512 contiguous bytes.
//   - The state lives in registers for the whole computation (168 per thread with nvcc 13 for
//     sm_90; two words spill, outside the round loop): an SM holds 12 warps, whose instruction
//     streams are long runs of independent LOP3 (one round is 1488 LOP3 for 32 blocks).
//   - Round-key masks for one direction (8.7 KB) are launch parameters, read at addresses
//     that depend on the round number only. The code is kept small for the instruction
//     cache: one round loop, whose S-box layer is itself a loop over the four columns
//     (aria_bs::substitute), and the warps of a CUDA block go through it in lockstep.
//   - CTR: bytes 0..11 of the counter are the launch's; the host computes their part of layer
//     1 (ctr_precompute), so a thread computes 4 S-boxes of the first layer instead of 16,
//     and builds its sliced counters from lane patterns without a transpose.
//
// Constant-time: no table and no branch or address that depends on key or data (see the
// header); the host side (masks, CTR precomputation) is bitwise work on masks as well.
#include <algorithm>

#include "aria/aria_cuda_bitslice.cuh"
#include "core/kernel.hpp"
#include "core/wipe.hpp"

namespace kc {

namespace {

using aria_bs::AriaBsCtr;
using aria_bs::AriaBsKeys;
using aria_bs::AriaBsKeyState;

constexpr uint32_t warp_blocks = 32 * aria_bs::lanes; // blocks per warp and pass
constexpr unsigned default_threads = 128;

// Both kernels run in lockstep: every warp of a CUDA block makes the same number of passes
// (a warp past the end computes and stores nothing), and the block meets at a barrier at
// every round (aria_bs::layers), so that its warps run the same stretch of the round loop
// and share the instruction cache's lines. Measured on the H100 (keystream, ARIA-128, rolled
// S-box layer): 2604 Gbps in lockstep against 2449 without, the same code otherwise.
// Both ask for three CUDA blocks per SM (at most 168 registers): left free, ptxas gives ECB
// 194 registers and CTR 177, and the SM holds two blocks (CTR: 2604 against 2773 Gbps).
__global__ void __launch_bounds__(default_threads, 3)
aria_bs_ecb(const __grid_constant__ AriaBsKeys k, const uint8_t *in, uint8_t *out, uint32_t nblocks,
            bool aligned)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t wpb = blockDim.x / 32;
    const uint32_t chunks = (nblocks + warp_blocks - 1) / warp_blocks;
    for (uint32_t cb = blockIdx.x; cb * wpb < chunks; cb += gridDim.x) {
        const uint32_t first = (cb * wpb + threadIdx.x / 32) * warp_blocks + lane;
        uint32_t s[aria_bs::words];
#pragma unroll
        for (int L = 0; L < aria_bs::lanes; L++) {
            const uint32_t i = first + 32 * L;
            uint32_t w[4] = {0, 0, 0, 0};
            if (i < nblocks)
                cuda::load_block<4>(in + (size_t)i * 16, aligned, w);
            s[L] = w[0], s[32 + L] = w[1], s[64 + L] = w[2], s[96 + L] = w[3];
        }
        aria_bs::slice(s);
        aria_bs::crypt_sliced(s, k, true);
        aria_bs::slice(s);
#pragma unroll
        for (int L = 0; L < aria_bs::lanes; L++) {
            const uint32_t i = first + 32 * L;
            const uint32_t w[4] = {s[L], s[32 + L], s[64 + L], s[96 + L]};
            if (i < nblocks)
                cuda::store_block<4>(out + (size_t)i * 16, aligned, w);
        }
    }
}

// nblocks whole blocks, then `tail` bytes of one more; in == nullptr writes keystream.
__global__ void __launch_bounds__(default_threads, 3)
aria_bs_ctr(const __grid_constant__ AriaBsKeys k, const __grid_constant__ AriaBsCtr ctr,
            const uint8_t *in, uint8_t *out, uint32_t nblocks, uint32_t tail, bool aligned)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t wpb = blockDim.x / 32;
    const uint32_t total = nblocks + (tail != 0);
    const uint32_t chunks = (total + warp_blocks - 1) / warp_blocks;
    for (uint32_t cb = blockIdx.x; cb * wpb < chunks; cb += gridDim.x) {
        const uint32_t first = (cb * wpb + threadIdx.x / 32) * warp_blocks + lane;
        uint32_t s[aria_bs::words];
        aria_bs::ctr_keystream_sliced(s, k, ctr, ctr.ctr_lo + first, true);
        aria_bs::slice(s);
#pragma unroll
        for (int L = 0; L < aria_bs::lanes; L++) {
            const uint32_t i = first + 32 * L;
            uint32_t w[4] = {s[L], s[32 + L], s[64 + L], s[96 + L]};
            const size_t off = (size_t)i * 16;
            if (i < nblocks) {
                if (in != nullptr) {
                    uint32_t d[4];
                    cuda::load_block<4>(in + off, aligned, d);
                    for (int m = 0; m < 4; m++)
                        w[m] ^= d[m];
                }
                cuda::store_block<4>(out + off, aligned, w);
            } else if (i == nblocks && tail != 0) {
                cuda::xor_tail<4>(in ? in + off : nullptr, out + off, tail, w);
            }
        }
    }
}

// Threads: the requested count rounded up to whole warps (a warp shares its 1024 blocks).
// Blocks, unless the caller says: one pass per warp, so that the hardware hands out the
// CUDA blocks as SMs free up and no SM is left with a last partial round of passes (the
// sweep, H100, 256 MiB: 2650 Gbps with one pass per warp against 2444 with 16 blocks per SM).
cuda::Shape shape_for(const GpuLaunch *launch, size_t nblocks)
{
    const size_t warps = (nblocks + warp_blocks - 1) / warp_blocks;
    cuda::Shape s = cuda::launch_shape(launch, warps * 32, default_threads);
    s.threads = (s.threads + 31) / 32 * 32;
    if (s.threads > default_threads)
        s.threads = default_threads; // __launch_bounds__: the registers of 128 threads
    if (launch == nullptr || launch->blocks == 0) {
        const size_t per_block = s.threads / 32, need = (warps + per_block - 1) / per_block;
        s.blocks = (unsigned)std::min<size_t>(std::max<size_t>(need, 1), size_t{1} << 24);
    }
    return s;
}

int aria_bs_ecb_launch(const void *params, bool decrypt, const uint8_t *in, uint8_t *out, size_t nblocks,
                       void *stream, const GpuLaunch *launch)
{
    if (nblocks == 0)
        return 0;
    const AriaBsKeyState &ks = *static_cast<const AriaBsKeyState *>(params);
    const bool aligned = cuda::is_aligned(in, 16) && cuda::is_aligned(out, 16);
    const cuda::Shape s = shape_for(launch, nblocks);
    aria_bs_ecb<<<s.blocks, s.threads, 0, (cudaStream_t)stream>>>(decrypt ? ks.dec : ks.enc, in, out,
                                                                  (uint32_t)nblocks, aligned);
    return cudaGetLastError();
}

int aria_bs_ctr_launch(const void *params, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nbytes,
                       void *stream, const GpuLaunch *launch)
{
    if (nbytes == 0)
        return 0;
    const AriaBsKeyState &ks = *static_cast<const AriaBsKeyState *>(params);
    AriaBsCtr pre;
    aria_bs::ctr_precompute(ks.enc, ctr, &pre);
    const bool aligned = (in == nullptr || cuda::is_aligned(in, 16)) && cuda::is_aligned(out, 16);
    const size_t nblocks = nbytes / 16;
    const uint32_t tail = (uint32_t)(nbytes % 16);
    const cuda::Shape s = shape_for(launch, nblocks + (tail != 0));
    aria_bs_ctr<<<s.blocks, s.threads, 0, (cudaStream_t)stream>>>(ks.enc, pre, in, out, (uint32_t)nblocks,
                                                                  tail, aligned);
    secure_wipe(&pre, sizeof pre); // the launch has copied its parameters
    return cudaGetLastError();
}

const GpuOps aria_bs_ops = {aria_bs_ecb_launch, aria_bs_ctr_launch};

bool aria_bs_supports(Cipher c)
{
    return c == Cipher::aria128 || c == Cipher::aria192 || c == Cipher::aria256;
}

void aria_bs_set_key(void *state, Cipher c, const uint8_t *key)
{
    AriaRoundKeys rk;
    aria_key_schedule(c, key, &rk);
    aria_bs::make_key_state(rk, static_cast<AriaBsKeyState *>(state));
    secure_wipe(&rk, sizeof rk);
}

} // namespace

// Descriptor: batch_blocks: 1024 warps of 1024 blocks (an H100 holds 132 x 12 warps);
// constant_time: bitsliced, no table (aria_cuda_bitslice.cuh); rank: by speed, after the 4k-x32,
// 1k-x32 and 256xn tables; the constant-time choice is by name.
extern const Kernel aria_cuda_bitslice_kernel = {
    "aria/cuda-bitslice", "aria", 16, 1u << 20, true, feat_cuda_gpu, -14, sizeof(AriaBsKeyState),
    aria_bs_supports, aria_bs_set_key, nullptr, nullptr, nullptr, &aria_bs_ops};

} // namespace kc
