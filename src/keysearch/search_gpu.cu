// The GPU key search's host side: splits a range into launches, collects the kernel's
// early-reject hits (one ciphertext word of pairs[0], so about 2^-32 false hits per key)
// and keeps those whose key gives pairs[0]'s whole ciphertext on the reference kernel.
#include <algorithm>
#include <cstring>
#include <new>

#include "core/key_state.hpp"
#include "cuda/devices.hpp"
#include "modes/gpu_modes.hpp"
#include "dispatch/registry.hpp"
#include "keysearch/search_gpu.hpp"
#include "kit/search/gpu_search.cuh"
#include "kit/search/gpu_searcher.hpp"

namespace kc::keysearch {

namespace {

using cuda::Hits;
using cuda::Launch;
using cuda::Range;

// Template and mask as big-endian words, the mask's bits cleared from the template.
Range base_range(const Problem &p)
{
    Range r{};
    const size_t words = cipher_desc(p.cipher).key_bytes / 4;
    for (size_t w = 0; w < words; w++) {
        uint32_t k = 0, m = 0;
        for (int b = 0; b < 4; b++) {
            k = k << 8 | p.key[4 * w + b];
            m = m << 8 | p.mask[4 * w + b];
        }
        r.mask[w] = m;
        r.tmpl[w] = k & ~m;
    }
    return r;
}

bool encrypts_first_pair(const Problem &p, uint64_t index)
{
    const Kernel *ref = reference_kernel(p.cipher);
    uint8_t key[32], out[16];
    candidate_key(p, index, key);
    KeyState ks;
    const bool ok = ks.init(*ref, p.cipher, key);
    secure_wipe(key, sizeof key);
    if (!ok) // out of memory: a hit must never be dropped silently
        throw std::bad_alloc();
    ref->encrypt_blocks(ks.get(), p.pairs[0].pt, out, 1);
    return std::memcmp(out, p.pairs[0].ct, cipher_desc(p.cipher).block_bytes) == 0;
}

// Device memory for the hit list, freed with the search.
class HitBuffer {
  public:
    static constexpr unsigned capacity = 1u << 12;
    ~HitBuffer()
    {
        if (mem_ != nullptr)
            cudaFree(mem_);
    }
    int init()
    {
        return cudaMalloc(&mem_, capacity * sizeof(unsigned long long) + sizeof(unsigned));
    }
    Hits hits() const
    {
        auto *index = static_cast<unsigned long long *>(mem_);
        return {index, reinterpret_cast<unsigned *>(index + capacity), capacity};
    }

  private:
    void *mem_ = nullptr;
};

struct Search {
    const Problem &p;
    cuda::GpuSearchFn fn;
    Range base;
    Launch shape;
    HitBuffer buf;
    std::vector<unsigned long long> found;

    // [lo, end) in one launch; a hit list that overflowed is searched again in halves.
    int run(uint64_t lo, uint64_t end)
    {
        const Hits h = buf.hits();
        int e = cudaMemsetAsync(h.count, 0, sizeof(unsigned), shape.stream);
        Range r = base;
        r.lo = lo;
        r.end = end;
        if (e == cudaSuccess)
            e = fn(p, r, h, shape);
        unsigned n = 0;
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(&n, h.count, sizeof n, cudaMemcpyDeviceToHost, shape.stream);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(shape.stream);
        if (e != cudaSuccess)
            return e;
        if (n > h.capacity) {
            if (end - lo < 2) // one candidate cannot hit more than once
                return cudaErrorUnknown;
            const uint64_t mid = lo + (end - lo) / 2;
            e = run(lo, mid);
            return e != cudaSuccess ? e : run(mid, end);
        }
        const size_t old = found.size();
        found.resize(old + n);
        return n == 0 ? cudaSuccess
                      : cudaMemcpy(found.data() + old, h.index, n * sizeof(unsigned long long),
                                   cudaMemcpyDeviceToHost);
    }
};

// Launches of at most this many candidates keep every count in range (a thread's share
// fits 32 bits) and bound the time between two checks of the hit list.
constexpr uint64_t max_launch = 1ull << 38;

} // namespace

kcipher_status gpu_search_first_pair(const Problem &p, uint64_t first, uint64_t count, int device,
                                     std::vector<uint64_t> &hits, const GpuSearchShape &shape)
{
    if (device < 0 || device >= cuda_device_count())
        return KCIPHER_ERR_NO_GPU;
    if (p.pairs.empty() || p.unknown_bits < 0 || p.unknown_bits > 64)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    if (count == 0)
        return KCIPHER_OK;
    const cuda::GpuSearchFn search = gpu_search_for(p.cipher);
    if (search == nullptr)
        return KCIPHER_ERR_UNSUPPORTED; // never another family's kernel
    GpuDeviceScope scope(device);
    if (scope.status() != KCIPHER_OK)
        return scope.status();

    Search s{p, search, base_range(p), Launch{}, HitBuffer{}, {}};
    s.shape.threads = shape.threads;
    s.shape.blocks = shape.blocks;
    s.shape.per_thread = shape.per_thread;
    int e = cudaStreamCreateWithFlags(&s.shape.stream, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = s.buf.init();
    // Ranges lie inside [0, 2^unknown_bits), so they never wrap; the one index that a
    // launch's end cannot express, 2^64 - 1, is checked on the CPU.
    const bool has_last = first + (count - 1) == ~0ull;
    const uint64_t gpu_count = has_last ? count - 1 : count;
    for (uint64_t done = 0; e == cudaSuccess && done < gpu_count;) {
        const uint64_t n = std::min(gpu_count - done, max_launch);
        e = s.run(first + done, first + done + n);
        done += n;
    }
    if (s.shape.stream != nullptr)
        cudaStreamDestroy(s.shape.stream);
    if (e != cudaSuccess)
        return gpu_status(e);
    if (has_last)
        s.found.push_back(~0ull);
    std::sort(s.found.begin(), s.found.end());
    for (unsigned long long i : s.found)
        if (encrypts_first_pair(p, i))
            hits.push_back(i);
    return KCIPHER_OK;
}

kcipher_status gpu_search_first_pair(const Problem &p, uint64_t first, uint64_t count, int device,
                                     std::vector<uint64_t> &hits)
{
    return gpu_search_first_pair(p, first, count, device, hits, GpuSearchShape{});
}

} // namespace kc::keysearch
