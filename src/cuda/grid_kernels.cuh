// The two grid kernels every one-block-per-thread cipher shares: ECB and CTR over device
// memory with a grid-stride loop, written once against a "device cipher" C:
//
//   struct C {
//       static constexpr int NW;            // block size in 32-bit words: 4, or 2 (HIGHT, CHAM-64)
//       static constexpr size_t smem_bytes; // dynamic shared memory per CUDA block (tables)
//       using Params;                       // round keys etc., passed by value into the launch
//       using Pre;                          // CTR: what depends only on the counter's high words
//       struct Ctx;                         // per-thread view made once per CUDA block
//       __device__ static Ctx prepare(const Params &, uint8_t *smem); // fills smem, syncs
//       static Pre precompute(const Params &, const uint32_t ctr_words[NW]); // on the host
//       __device__ static void ctr_block(const Ctx &, const Params &, const Pre &,
//                                        uint32_t ctr_lo, uint32_t ks[NW]);
//       __device__ static void encrypt(const Ctx &, const Params &, uint32_t w[NW]);
//       __device__ static void decrypt(const Ctx &, const Params &, uint32_t w[NW]);
//   };
//
// Words are the block's bytes read little-endian, 4 at a time (w[j] = bytes 4j..4j+3), the
// way LEA and CHAM read them; ARIA and HIGHT kernels permute bytes themselves. In CTR the
// counter is big-endian, so its low 32 bits are the last word, byte-swapped: ctr_block gets
// them as an integer (ctr_lo) and the other words are fixed for the launch (Pre).
#pragma once

#include <type_traits>

#include "cuda/device_util.cuh"

namespace kc::cuda {

// __launch_bounds__(1024): at most 64 registers, so that any block size up to 1024 (the
// sweep's, or a kernel's default_threads) can launch.
template <class C, bool Decrypt>
__global__ void __launch_bounds__(1024) ecb_grid(const __grid_constant__ typename C::Params p, const uint8_t *in, uint8_t *out,
                         uint32_t nblocks, bool aligned)
{
    extern __shared__ __align__(16) uint8_t kc_smem[];
    const typename C::Ctx ctx = C::prepare(p, kc_smem);
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < nblocks; i += stride) {
        uint32_t w[C::NW];
        load_block<C::NW>(in + (size_t)i * 4 * C::NW, aligned, w);
        if (Decrypt)
            C::decrypt(ctx, p, w);
        else
            C::encrypt(ctx, p, w);
        store_block<C::NW>(out + (size_t)i * 4 * C::NW, aligned, w);
    }
}

// How many blocks a thread computes per loop turn: C::unroll where C defines it, else 1.
// Independent blocks interleave in the unrolled code, and the round keys the compiler loads
// into uniform registers (ULDC) once per turn serve all of them.
template <class C, class = void> struct unroll_of {
    static constexpr int value = 1;
};
template <class C> struct unroll_of<C, std::void_t<decltype(C::unroll)>> {
    static constexpr int value = C::unroll;
};

// The turns of ctr_grid whose U blocks are all whole (first < whole), with no test per
// block: a bound test and its branch per block is ALU issue that the lightest ciphers feel
// (LEA: about 200 ALU operations per block). Aligned is a template argument so that the
// choice between one 16-byte access and byte accesses is made once, outside the loop; so is
// the test of the input pointer where Keystream says in == nullptr (else it is tested per
// block). Returns the first turn left over.
template <class C, int U, bool Aligned, bool Keystream>
__device__ __forceinline__ uint32_t ctr_whole_turns(const typename C::Ctx &ctx, const typename C::Params &p,
                                                    const typename C::Pre &pre, uint32_t ctr_lo,
                                                    const uint8_t *in, uint8_t *out, uint32_t first,
                                                    uint32_t whole, uint32_t stride)
{
    constexpr uint32_t bs = 4 * C::NW;
    for (; first < whole; first += U * stride) {
        uint32_t ks[U][C::NW];
#pragma unroll
        for (int u = 0; u < U; u++)
            C::ctr_block(ctx, p, pre, ctr_lo + first + u * stride, ks[u]);
#pragma unroll
        for (int u = 0; u < U; u++) {
            const size_t off = (size_t)(first + u * stride) * bs;
            if (!Keystream && in != nullptr) {
                uint32_t w[C::NW];
                load_block<C::NW>(in + off, Aligned, w);
                for (int j = 0; j < C::NW; j++)
                    ks[u][j] ^= w[j];
            }
            store_block<C::NW>(out + off, Aligned, ks[u]);
        }
    }
    return first;
}

// nblocks whole blocks, then `tail` bytes of one more; in == nullptr writes keystream.
// A thread takes blocks i, i + stride, ..., U per turn.
template <class C>
__global__ void __launch_bounds__(1024) ctr_grid(const __grid_constant__ typename C::Params p,
                         const __grid_constant__ typename C::Pre pre, uint32_t ctr_lo,
                         const uint8_t *in, uint8_t *out, uint32_t nblocks, uint32_t tail, bool aligned)
{
    extern __shared__ __align__(16) uint8_t kc_smem[];
    const typename C::Ctx ctx = C::prepare(p, kc_smem);
    constexpr uint32_t bs = 4 * C::NW;
    constexpr int U = unroll_of<C>::value;
    const uint32_t stride = gridDim.x * blockDim.x;
    const uint32_t total = nblocks + (tail != 0);
    uint32_t first = blockIdx.x * blockDim.x + threadIdx.x;
    // A turn is whole when its last block, first + span, is below nblocks. span < 2^32:
    // launch_shape keeps the grid far below 2^32 / U threads.
    const uint32_t span = (U - 1) * stride;
    if (U > 1 && nblocks > span) { // U == 1: the test per block below is the loop's own
        const uint32_t whole = nblocks - span;
        if (in == nullptr && aligned)
            first = ctr_whole_turns<C, U, true, true>(ctx, p, pre, ctr_lo, in, out, first, whole, stride);
        else if (aligned)
            first = ctr_whole_turns<C, U, true, false>(ctx, p, pre, ctr_lo, in, out, first, whole, stride);
        else
            first = ctr_whole_turns<C, U, false, false>(ctx, p, pre, ctr_lo, in, out, first, whole, stride);
    }
    for (; first < total; first += U * stride) {
        uint32_t ks[U][C::NW];
#pragma unroll
        for (int u = 0; u < U; u++) // past `total` the counter is never used: no store below
            C::ctr_block(ctx, p, pre, ctr_lo + first + u * stride, ks[u]);
#pragma unroll
        for (int u = 0; u < U; u++) {
            const uint32_t i = first + u * stride;
            if (i >= total)
                break;
            const size_t off = (size_t)i * bs;
            if (i < nblocks) {
                if (in != nullptr) {
                    uint32_t w[C::NW];
                    load_block<C::NW>(in + off, aligned, w);
                    for (int j = 0; j < C::NW; j++)
                        ks[u][j] ^= w[j];
                }
                store_block<C::NW>(out + off, aligned, ks[u]);
            } else {
                xor_tail<C::NW>(in ? in + off : nullptr, out + off, tail, ks[u]);
            }
        }
    }
}

// Threads per CUDA block when the caller does not say: C::default_threads where C defines it
// (kernels with large shared tables want big blocks to share them), else launch_shape's 256.
template <class C, class = void> struct default_threads_of {
    static constexpr unsigned value = 256;
};
template <class C> struct default_threads_of<C, std::void_t<decltype(C::default_threads)>> {
    static constexpr unsigned value = C::default_threads;
};

template <class Kern> inline cudaError_t allow_smem(Kern kern, size_t bytes)
{
    return allow_dynamic_smem(reinterpret_cast<const void *>(kern), bytes);
}

template <class C>
int launch_ecb(const typename C::Params &p, bool decrypt, const uint8_t *in, uint8_t *out,
               size_t nblocks, void *stream, const GpuLaunch *launch)
{
    if (nblocks == 0)
        return 0;
    const bool aligned = is_aligned(in, 4 * C::NW) && is_aligned(out, 4 * C::NW);
    auto kern = decrypt ? ecb_grid<C, true> : ecb_grid<C, false>;
    cudaError_t err = allow_smem(kern, C::smem_bytes);
    if (err != cudaSuccess)
        return err;
    Shape s = launch_shape(launch, nblocks, default_threads_of<C>::value, (const void *)kern, C::smem_bytes);
    kern<<<s.blocks, s.threads, C::smem_bytes, (cudaStream_t)stream>>>(p, in, out, (uint32_t)nblocks, aligned);
    return cudaGetLastError();
}

template <class C>
int launch_ctr(const typename C::Params &p, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
               size_t nbytes, void *stream, const GpuLaunch *launch)
{
    constexpr size_t bs = 4 * C::NW;
    if (nbytes == 0)
        return 0;
    uint32_t words[C::NW];
    for (int j = 0; j < C::NW; j++)
        words[j] = load_le32(ctr + 4 * j);
    const uint32_t ctr_lo = bswap32(words[C::NW - 1]);
    const typename C::Pre pre = C::precompute(p, words);
    const bool aligned = (in == nullptr || is_aligned(in, bs)) && is_aligned(out, bs);
    const size_t nblocks = nbytes / bs;
    const uint32_t tail = (uint32_t)(nbytes % bs);
    cudaError_t err = allow_smem(ctr_grid<C>, C::smem_bytes);
    if (err != cudaSuccess)
        return err;
    Shape s = launch_shape(launch, nblocks + (tail != 0), default_threads_of<C>::value, (const void *)ctr_grid<C>,
                           C::smem_bytes);
    ctr_grid<C><<<s.blocks, s.threads, C::smem_bytes, (cudaStream_t)stream>>>(
        p, pre, ctr_lo, in, out, (uint32_t)nblocks, tail, aligned);
    return cudaGetLastError();
}

// ---- CTR under many keys (GpuOps::ctr_segments) -------------------------------------------
//
// One CUDA block per segment at a time (grid-stride over segments): it copies the segment's
// Params into shared memory, where every thread reads the round keys at the same address (a
// broadcast), then its threads take the segment's blocks. Counters are added to as big-endian
// integers across all words, since a segment may start anywhere.

// The counter block ctr (little-endian words of big-endian bytes) plus i.
template <int NW> KC_HD void counter_add(const uint32_t *ctr, uint32_t i, uint32_t *w)
{
    uint64_t carry = i;
#pragma unroll
    for (int j = NW - 1; j >= 0; j--) {
        const uint64_t v = (uint64_t)bswap32(ctr[j]) + carry;
        w[j] = bswap32((uint32_t)v);
        carry = v >> 32;
    }
}

template <class C>
__global__ void __launch_bounds__(1024) ctr_segments_grid(const uint8_t *keys, size_t key_stride, const uint8_t *ctrs,
                                                          uint32_t nseg, uint32_t seg_bytes, uint32_t last_bytes,
                                                          uint8_t *out)
{
    extern __shared__ __align__(16) uint8_t kc_smem[];
    __shared__ __align__(16) uint32_t p_words[(sizeof(typename C::Params) + 3) / 4];
    const typename C::Params &p = *reinterpret_cast<const typename C::Params *>(p_words);
    const typename C::Ctx ctx = C::prepare(*reinterpret_cast<const typename C::Params *>(keys), kc_smem);
    constexpr uint32_t bs = 4 * C::NW;
    for (uint32_t s = blockIdx.x; s < nseg; s += gridDim.x) {
        __syncthreads(); // the previous segment's threads are done with p
        const uint8_t *src = keys + (size_t)s * key_stride;
        for (uint32_t k = threadIdx.x; k < sizeof(p_words) / 4; k += blockDim.x)
            p_words[k] = load_le32(src + 4 * k);
        __syncthreads();
        uint32_t ctr[C::NW];
#pragma unroll
        for (int j = 0; j < C::NW; j++)
            ctr[j] = load_le32(ctrs + (size_t)s * bs + 4 * j);
        const uint32_t bytes = s + 1 == nseg ? last_bytes : seg_bytes;
        uint8_t *dst = out + (size_t)s * seg_bytes;
        const bool aligned = reinterpret_cast<uintptr_t>(dst) % bs == 0;
        for (uint32_t i = threadIdx.x; i * bs < bytes; i += blockDim.x) {
            uint32_t w[C::NW];
            counter_add<C::NW>(ctr, i, w);
            C::encrypt(ctx, p, w);
            if ((i + 1) * bs <= bytes)
                store_block<C::NW>(dst + (size_t)i * bs, aligned, w);
            else
                xor_tail<C::NW>(nullptr, dst + (size_t)i * bs, bytes - i * bs, w);
        }
    }
}

template <class C>
int launch_ctr_segments(const uint8_t *keys, size_t key_stride, const uint8_t *ctrs, size_t nseg, size_t seg_bytes,
                        size_t last_bytes, uint8_t *out, void *stream)
{
    constexpr size_t bs = 4 * C::NW;
    if (nseg == 0)
        return 0;
    if (nseg > 0xffffffffu || seg_bytes > 0xffffffffu || last_bytes > seg_bytes || seg_bytes % bs != 0 ||
        key_stride < sizeof(typename C::Params))
        return cudaErrorInvalidValue;
    cudaError_t err = allow_smem(ctr_segments_grid<C>, C::smem_bytes);
    if (err != cudaSuccess)
        return err;
    // A block per segment, no wider than the segment; enough blocks to fill the GPU.
    unsigned threads = default_threads_of<C>::value;
    while (threads > 32 && (size_t)threads * bs / 2 >= seg_bytes)
        threads /= 2;
    Shape s = launch_shape(nullptr, nseg * (size_t)threads, threads, (const void *)ctr_segments_grid<C>,
                           C::smem_bytes);
    ctr_segments_grid<C><<<s.blocks, s.threads, C::smem_bytes, (cudaStream_t)stream>>>(
        keys, key_stride, ctrs, (uint32_t)nseg, (uint32_t)seg_bytes, (uint32_t)last_bytes, out);
    return cudaGetLastError();
}

} // namespace kc::cuda
