// Device scratch for one call (GCM's tables and partial hashes, XTS's tweak anchors):
// stream-ordered allocations that are wiped and freed in order on the stream when the
// object goes out of scope, so that the call may return before the GPU is done with them.
// They come from the library's own memory pool per device, which keeps what was freed (up
// to scratch_keep bytes, wiped) for the next call: the default pool hands memory back at
// every synchronisation, and mapping it again costs tens of microseconds a call, a few
// percent of a 1 GiB XTS pass. The application's default pool is left as it is.
// CUDA sources only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

namespace kc {

constexpr uint64_t scratch_keep = uint64_t(256) << 20;

// The pool of the current device, made on first use and kept for the process.
inline cudaError_t scratch_pool(cudaMemPool_t *pool)
{
    static std::mutex lock;
    static std::vector<cudaMemPool_t> pools;
    int dev = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess)
        return err;
    std::lock_guard<std::mutex> hold(lock);
    if (pools.size() <= (size_t)dev)
        pools.resize((size_t)dev + 1, nullptr);
    if (pools[(size_t)dev] == nullptr) {
        cudaMemPoolProps props{};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = dev;
        cudaMemPool_t p = nullptr;
        err = cudaMemPoolCreate(&p, &props);
        uint64_t keep = scratch_keep;
        if (err == cudaSuccess)
            err = cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep);
        if (err != cudaSuccess)
            return err;
        pools[(size_t)dev] = p;
    }
    *pool = pools[(size_t)dev];
    return cudaSuccess;
}

class Scratch {
  public:
    explicit Scratch(cudaStream_t s) : s_(s) {}
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;

    // count items, or null with err set; does nothing once err is set.
    template <class T> T *get(size_t count, int &err)
    {
        void *p = nullptr;
        cudaMemPool_t pool = nullptr;
        if (err == cudaSuccess)
            err = scratch_pool(&pool);
        if (err == cudaSuccess)
            err = cudaMallocFromPoolAsync(&p, count * sizeof(T) + 16, pool, s_);
        if (err == cudaSuccess)
            parts_.push_back({p, count * sizeof(T)});
        return static_cast<T *>(p);
    }

    ~Scratch()
    {
        for (auto &p : parts_) {
            cudaMemsetAsync(p.first, 0, p.second, s_);
            cudaFreeAsync(p.first, s_);
        }
    }

  private:
    cudaStream_t s_;
    std::vector<std::pair<void *, size_t>> parts_;
};

} // namespace kc
