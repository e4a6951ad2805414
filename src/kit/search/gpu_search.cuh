// The GPU key search, written once over a "searcher" (one per cipher family, in the
// family's folder: aria_cuda_keysearch.cu, ...). Each thread walks its own run of
// consecutive candidates, stepping the key in place (no per-candidate bit deposit), and
// the searcher derives the round keys from each candidate on the fly, as the ARIA CTR/ES
// paper does: storing them per thread would cost memory traffic, recomputing costs ALU.
//
// A searcher S provides
//   static constexpr int KW;            // key words (32-bit, big-endian: word 0 = bytes 0..3)
//   static constexpr int group;         // candidates per test: 1, or 32 for bitsliced ones
//   static constexpr unsigned threads;  // threads per CUDA block by default
//   static constexpr size_t smem_bytes; // dynamic shared memory per CUDA block
//   struct Params;                      // launch parameters: the pair, constants
//   struct Ctx;  __device__ static Ctx prepare(const Params &, uint8_t *smem); // fills, syncs
//   __device__ static uint32_t test(const Ctx &, const Params &, const uint32_t key[KW]);
//     // bit L set: candidate (this one + L) passes the early reject (one word of pairs[0])
//
// Everything but the kernel itself is __host__ __device__, so tests/cuda checks the
// candidate walk on the CPU.
#pragma once

#include <cstdint>

#include "cuda/device_util.cuh"

namespace kc::keysearch::cuda {

constexpr int max_key_words = 8;

// What one launch covers. Keys are big-endian words; word kw-1 holds the lowest bits.
struct Range {
    uint32_t tmpl[max_key_words];      // the template with the mask's bits cleared
    uint32_t mask[max_key_words];      // the unknown bits
    uint32_t step_mask[max_key_words]; // mask without its lowest log2(group) bits
    uint64_t lo;                       // first candidate index to test
    uint64_t first;                    // lo rounded down to a multiple of group
    uint64_t end;                      // one past the last index to test
    uint32_t per_thread;               // candidates per thread (a multiple of group)
};

// Indices that passed the early reject. Past `capacity`, count still counts: the host
// then knows the list is incomplete and splits the range.
struct Hits {
    unsigned long long *index;
    unsigned *count;
    unsigned capacity;
};

// The template with the bits of i deposited into the mask's positions, lowest mask bit
// (bit 0 of word kw-1 upward) first.
template <int KW> KC_HD void deposit(const Range &r, uint64_t i, uint32_t *key)
{
    for (int w = KW - 1; w >= 0; w--) {
        uint32_t m = r.mask[w], v = 0;
        while (m != 0) {
            const uint32_t low = m & (0u - m);
            if (i & 1)
                v |= low;
            i >>= 1;
            m ^= low;
        }
        key[w] = v | r.tmpl[w];
    }
}

// The next candidate of a group-aligned walk: add one at the lowest bit of step_mask,
// carrying through every other bit (set in key | ~m), then restore the template.
template <int KW> KC_HD void step(const Range &r, uint32_t *key)
{
    uint32_t carry = 1;
#pragma unroll
    for (int w = KW - 1; w >= 0; w--) {
        const uint32_t m = r.step_mask[w];
        const uint32_t s = (key[w] | ~m) + carry;
        carry = carry & (s == 0);
        key[w] = (s & m) | r.tmpl[w];
    }
}

#ifdef __CUDACC__

__device__ __forceinline__ void record(const Hits &h, uint64_t index)
{
    const unsigned slot = atomicAdd(h.count, 1u);
    if (slot < h.capacity)
        h.index[slot] = index;
}

template <class S>
__global__ void __launch_bounds__(S::threads) search_kernel(const typename S::Params p, const Range r, const Hits h)
{
    extern __shared__ __align__(16) uint8_t smem[];
    const typename S::Ctx ctx = S::prepare(p, smem); // every thread, before any returns
    const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint64_t begin = r.first + t * r.per_thread;
    if (begin >= r.end)
        return;
    const uint64_t stop = r.end - begin < r.per_thread ? r.end : begin + r.per_thread;
    uint32_t key[S::KW];
    deposit<S::KW>(r, begin, key);
    const uint32_t turns = (uint32_t)((stop - begin + S::group - 1) / S::group);
    for (uint32_t n = 0; n < turns; n++) {
        uint32_t hit = S::test(ctx, p, key);
        if (hit != 0) { // rare: 2^-32 per candidate, or a key
            const uint64_t base = begin + (uint64_t)n * S::group;
            while (hit != 0) {
                const int lane = __ffs(hit) - 1;
                hit &= hit - 1;
                if (base + lane < stop && base + lane >= r.lo)
                    record(h, base + lane);
            }
        }
        step<S::KW>(r, key);
    }
}

// Launch shape: 0 fields take the searcher's defaults (its threads per block; enough CUDA
// blocks to fill the GPU a few times over; candidates per thread to cover the range).
struct Launch {
    unsigned threads = 0, blocks = 0;
    uint32_t per_thread = 0;
    cudaStream_t stream = nullptr;
};

// Completes r (first, step_mask, per_thread; tmpl, mask, lo and end set by the caller) and
// queues one launch. Returns a cudaError_t.
template <class S> int launch_search(const typename S::Params &p, Range r, const Hits &h, const Launch &l)
{
    int lowest = 0; // log2(group): the lowest mask bits the lanes of a group take
    for (int g = S::group; g > 1; g >>= 1)
        lowest++;
    for (int w = max_key_words - 1; w >= 0; w--) {
        uint32_t m = r.mask[w];
        for (; lowest > 0 && m != 0; lowest--)
            m &= m - 1;
        r.step_mask[w] = m;
    }
    r.first = r.lo - r.lo % S::group;
    const uint64_t count = r.end - r.first;
    // A shape wider than the searcher's CUDA blocks (the paper's 512 threads for a 256-thread
    // searcher) keeps its thread count in more, narrower blocks.
    unsigned threads = l.threads ? l.threads : S::threads;
    uint64_t blocks = l.blocks;
    if (threads > S::threads) {
        blocks *= (threads + S::threads - 1) / S::threads;
        threads = S::threads;
    }
    const void *kernel = reinterpret_cast<const void *>(search_kernel<S>);
    if (S::smem_bytes > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)S::smem_bytes);
        if (e != cudaSuccess)
            return e;
    }
    uint64_t per_thread = l.per_thread;
    if (blocks == 0) {
        const kc::cuda::Shape full = kc::cuda::launch_shape(nullptr, ~(size_t)0 >> 1, threads, kernel, S::smem_bytes);
        blocks = 4ull * full.blocks; // waves of equal work, so the tail wave is short
        if (per_thread == 0) {
            per_thread = (count + blocks * threads - 1) / (blocks * threads);
            per_thread = (per_thread + S::group - 1) / S::group * S::group;
        }
        blocks = (count + per_thread * threads - 1) / (per_thread * threads);
    } else if (per_thread == 0) {
        per_thread = (count + blocks * threads - 1) / (blocks * threads);
        per_thread = (per_thread + S::group - 1) / S::group * S::group;
    }
    if (per_thread == 0 || per_thread % S::group != 0 || per_thread > 0xffffffffu || blocks > 0x7fffffffu)
        return cudaErrorInvalidValue;
    r.per_thread = (uint32_t)per_thread;
    // A shape given in full may cover less than the range: then several launches.
    const uint64_t cover = blocks * threads * per_thread;
    for (uint64_t f = r.first; f < r.end; f += cover) {
        Range q = r;
        q.first = f;
        q.lo = f > r.lo ? f : r.lo;
        q.end = r.end - f > cover ? f + cover : r.end;
        search_kernel<S><<<(unsigned)blocks, threads, S::smem_bytes, l.stream>>>(p, q, h);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}

#endif

} // namespace kc::keysearch::cuda
