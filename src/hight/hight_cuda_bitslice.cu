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

const GpuOps hight_bs_ops = {hight_bs_ecb, hight_bs_ctr};

bool hight_bs_supports(Cipher c) { return c == Cipher::hight; }

void hight_bs_set_key(void *state, Cipher, const uint8_t *key)
{
    HightBsKey *k = static_cast<HightBsKey *>(state);
    hight_key_schedule(key, &k->rk);
    expand_key_masks(k->rk, &k->masks);
}

} // namespace

extern const Kernel hight_cuda_bitslice_kernel = {
    "hight/cuda-bitslice",
    "hight",
    8,
    1u << 20, // batch_blocks: 32 blocks a thread, so this is 32768 threads
    true,     // constant_time: bitwise logic on mask words, no tables (see the file header)
    feat_cuda_gpu,
    -10, // rank: never the default for host memory (see docs/usage.md: --gpu)
    sizeof(HightBsKey),
    hight_bs_supports,
    hight_bs_set_key,
    nullptr,
    nullptr,
    nullptr,
    &hight_bs_ops,
};

} // namespace kc
