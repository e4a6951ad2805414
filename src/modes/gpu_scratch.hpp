// Device scratch for one call (GCM's tables and partial hashes, XTS's tweak anchors):
// stream-ordered allocations that are wiped and freed in order on the stream when the
// object goes out of scope, so that the call may return before the GPU is done with them.
// CUDA sources only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace kc {

class Scratch {
  public:
    explicit Scratch(cudaStream_t s) : s_(s) {}
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;

    // count items, or null with err set; does nothing once err is set.
    template <class T> T *get(size_t count, int &err)
    {
        void *p = nullptr;
        if (err == cudaSuccess)
            err = cudaMallocAsync(&p, count * sizeof(T) + 16, s_);
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
