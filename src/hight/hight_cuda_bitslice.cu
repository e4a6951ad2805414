// hight/cuda-bitslice: HIGHT on the GPU, bitsliced across 32 blocks per thread.
//
//   - The arithmetic lives in hight_cuda_bitslice.cuh, __host__ __device__, tested on the CPU
//     (tests/cuda/test_hight_cuda_host.cu); this file only launches it.
//   - A bit of 32 blocks is one word, so F0 and F1 cost one 3-input XOR (LOP3) per bit, and a
//     byte addition with a subkey about 30 LOP3 per 32 blocks: about 120 instructions per
//     block for the 32 rounds, where a byte-per-lane kernel pays shifts, masks and byte
//     permutes for every byte operation.
//   - The subkeys are launch parameters as 1024 mask words (all-zero or all-one): they sit in
//     the constant bank, the same address for every thread, and ptxas reads them as c[][]
//     operands of the LOP3s. Launches carry ~4.3 KiB (ECB) or ~5.6 KiB (CTR) of parameters,
//     more than the classic 4 KiB: sm_70+ with CUDA 12.1+ (toolkit and driver) allow 32 KiB.
//   - CTR: a warp takes 1024 consecutive counters from a multiple of 1024, so the counter bits
//     that differ between a thread's 32 lanes are five constant words (no input transpose),
//     and the bytes that depend only on the counter's high 32 bits are computed on the host
//     for the first five rounds (CtrPre). Lane L of thread t is block 32L + t of the warp's
//     run, so each of the 32 stores of a warp writes 256 contiguous bytes.
//
// Constant-time: bitwise logic and fixed shifts only; no table, and subkeys are read at
// addresses fixed by the round number (see the header).
#include "core/bytes.hpp"
#include "core/kernel.hpp"
#include "hight/hight_cuda_bitslice.cuh"

namespace kc {

int hight_bs_set_keys(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states,
                      size_t state_stride, void *stream); // hight_cuda_key.cu

namespace {

using namespace hight_bs;

// The kernel's key state (Kernel::key_state_bytes): the masks the kernels read, and the
// bytes the host needs for the CTR precomputation.
struct HightBsKey {
    KeyMasks masks;
    HightRoundKeys rk;
};

struct CtrParams {
    KeyMasks masks;
    CtrPre pre;
    CtrRun run;
};

static_assert(sizeof(CtrParams) + 64 <= 32764 && sizeof(KeyMasks) + 64 <= 32764, "kernel parameter space");

constexpr unsigned max_threads = 256;

// ECB: ptxas picks ~120 (encrypt) and ~150 (decrypt) registers without spills; held to 128 for
// two CUDA blocks per SM (__launch_bounds__(256, 2)) it spills loop-invariant key words.
template <bool Decrypt>
__global__ void __launch_bounds__(max_threads)
    hight_bs_ecb_kernel(const __grid_constant__ KeyMasks k, const uint8_t *in, uint8_t *out,
                        uint64_t nblocks, uint64_t ngroups, bool aligned)
{
    const uint32_t t = threadIdx.x % 32;
    const uint64_t nwarps = (uint64_t)gridDim.x * (blockDim.x / 32);
    for (uint64_t g = (uint64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; g < ngroups; g += nwarps)
        ecb_group<Decrypt>(k, g, t, in, out, nblocks, aligned);
}

// CTR fits in 128 registers without spills: two CUDA blocks of 256 threads per SM.
__global__ void __launch_bounds__(max_threads, 2)
    hight_bs_ctr_kernel(const __grid_constant__ CtrParams p, const uint8_t *in, uint8_t *out,
                        uint64_t ngroups, bool aligned)
{
    const uint32_t t = threadIdx.x % 32;
    const uint64_t nwarps = (uint64_t)gridDim.x * (blockDim.x / 32);
    for (uint64_t g = (uint64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; g < ngroups; g += nwarps)
        ctr_group(p.masks, p.pre, p.run, g, t, in, out, aligned);
}

// Whole warps (a thread computes lanes of its warp's group) and at most the launch bound.
cuda::Shape shape_for(const GpuLaunch *launch, uint64_t ngroups)
{
    GpuLaunch l = launch ? *launch : GpuLaunch{};
    if (l.threads != 0) {
        l.threads = (l.threads + 31) / 32 * 32;
        if (l.threads > max_threads)
            l.threads = max_threads;
    }
    return cuda::launch_shape(&l, ngroups * 32, max_threads);
}

int hight_bs_ecb(const void *params, bool decrypt, const uint8_t *in, uint8_t *out, size_t nblocks,
                 void *stream, const GpuLaunch *launch)
{
    if (nblocks == 0)
        return 0;
    const HightBsKey &key = *static_cast<const HightBsKey *>(params);
    const uint64_t ngroups = (nblocks + group_blocks - 1) / group_blocks;
    const bool aligned = cuda::is_aligned(in, 8) && cuda::is_aligned(out, 8);
    const cuda::Shape s = shape_for(launch, ngroups);
    if (decrypt)
        hight_bs_ecb_kernel<true><<<s.blocks, s.threads, 0, (cudaStream_t)stream>>>(
            key.masks, in, out, nblocks, ngroups, aligned);
    else
        hight_bs_ecb_kernel<false><<<s.blocks, s.threads, 0, (cudaStream_t)stream>>>(
            key.masks, in, out, nblocks, ngroups, aligned);
    return cudaGetLastError();
}

int hight_bs_ctr(const void *params, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t nbytes,
                 void *stream, const GpuLaunch *launch)
{
    if (nbytes == 0)
        return 0;
    const HightBsKey &key = *static_cast<const HightBsKey *>(params);
    CtrParams p;
    p.masks = key.masks;
    ctr_precompute(key.rk, ctr, &p.pre);
    const uint32_t lo = load_be32(ctr + 4);
    p.run.lo_base = lo & ~(group_blocks - 1);
    p.run.first = lo & (group_blocks - 1);
    p.run.nblocks = nbytes / 8;
    p.run.tail = (uint32_t)(nbytes % 8);
    const uint64_t ngroups = (p.run.first + p.run.nblocks + (p.run.tail != 0) + group_blocks - 1) / group_blocks;
    const bool aligned = (in == nullptr || cuda::is_aligned(in, 8)) && cuda::is_aligned(out, 8);
    const cuda::Shape s = shape_for(launch, ngroups);
    hight_bs_ctr_kernel<<<s.blocks, s.threads, 0, (cudaStream_t)stream>>>(p, in, out, ngroups, aligned);
    return cudaGetLastError();
}

// CTR under many keys (the DRBG's requests, GpuOps::ctr_segments): a thread takes 32
// consecutive blocks of one segment, transposes their counters into slices and reads its
// segment's masks from global memory (L1 serves the threads of a segment). A 64-bit-block
// DRBG request is 1 KiB, four threads' work, and the CPU's chain of requests bounds the rate
// long before this kernel does.
__global__ void __launch_bounds__(max_threads)
    hight_bs_segments_kernel(const uint8_t *keys, size_t key_stride, const uint8_t *ctrs, uint32_t nseg,
                             uint32_t seg_bytes, uint32_t last_bytes, uint8_t *out)
{
    const uint32_t groups = (seg_bytes / 8 + 31) / 32;
    const uint64_t n = (uint64_t)nseg * groups, stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += stride) {
        const uint32_t s = (uint32_t)(t / groups), first = (uint32_t)(t % groups) * 32;
        const uint32_t bytes = s + 1 == nseg ? last_bytes : seg_bytes;
        if (first * 8 >= bytes)
            continue;
        const HightBsKey &k = *reinterpret_cast<const HightBsKey *>(keys + (size_t)s * key_stride);
        const uint8_t *cb = ctrs + (size_t)s * 8;
        const uint64_t ctr = (uint64_t)cuda::bswap32(cuda::load_le32(cb)) << 32 | cuda::bswap32(cuda::load_le32(cb + 4));
        uint32_t w0[32], w1[32], x[8][8];
#pragma unroll
        for (int L = 0; L < 32; L++) {
            const uint64_t c = ctr + first + L;
            w0[L] = cuda::bswap32((uint32_t)(c >> 32));
            w1[L] = cuda::bswap32((uint32_t)c);
        }
        blocks_to_slices(w0, w1, x);
        encrypt32(k.masks, x);
        slices_to_blocks(x, w0, w1);
        uint8_t *dst = out + (size_t)s * seg_bytes + (size_t)first * 8;
#pragma unroll
        for (int L = 0; L < 32; L++) {
            const uint32_t off = (first + L) * 8;
            for (uint32_t b = 0; b < 8 && off + b < bytes; b++)
                dst[8 * L + b] = (uint8_t)((b < 4 ? w0[L] : w1[L]) >> (8 * (b % 4)));
        }
    }
}

int hight_bs_ctr_segments(const void *, const uint8_t *keys, size_t key_stride, const uint8_t *ctrs, size_t nseg,
                          size_t seg_bytes, size_t last_bytes, uint8_t *out, void *stream)
{
    if (nseg == 0)
        return 0;
    if (nseg > 0xffffffffu || seg_bytes > 0xffffffffu || last_bytes > seg_bytes || seg_bytes % 8 != 0 ||
        key_stride < sizeof(HightBsKey))
        return cudaErrorInvalidValue;
    const uint64_t threads = nseg * ((seg_bytes / 8 + 31) / 32);
    const cuda::Shape s = cuda::launch_shape(nullptr, threads, max_threads);
    hight_bs_segments_kernel<<<s.blocks, s.threads, 0, (cudaStream_t)stream>>>(
        keys, key_stride, ctrs, (uint32_t)nseg, (uint32_t)seg_bytes, (uint32_t)last_bytes, out);
    return cudaGetLastError();
}

const GpuOps hight_bs_ops = {hight_bs_ecb, hight_bs_ctr, hight_bs_ctr_segments, hight_bs_set_keys};

bool hight_bs_supports(Cipher c) { return c == Cipher::hight; }

void hight_bs_set_key(void *state, Cipher, const uint8_t *key)
{
    HightBsKey *k = static_cast<HightBsKey *>(state);
    hight_key_schedule(key, &k->rk);
    expand_key_masks(k->rk, &k->masks);
}

} // namespace

// Descriptor: batch_blocks: 32 blocks a thread, so this is 32768 threads; constant_time: bitwise
// logic on mask words, no tables (see the file header); rank: never the default for host memory
// (see docs/usage.md: --gpu).
extern const Kernel hight_cuda_bitslice_kernel = {
    "hight/cuda-bitslice", "hight", 8, 1u << 20, true, feat_cuda_gpu, -10, sizeof(HightBsKey),
    hight_bs_supports, hight_bs_set_key, nullptr, nullptr, nullptr, &hight_bs_ops};

} // namespace kc
