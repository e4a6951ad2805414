// ECB and CTR for contexts with a GPU kernel: over the caller's device memory (gpu_device.cu)
// and over host memory (gpu_host.cu: pinned staging, several streams, every GPU). Arguments
// were checked by the C API; these split, schedule and turn CUDA errors into statuses.
// Builds without CUDA link gpu_none.cpp instead, where no context can have a GPU kernel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/kernel.hpp"
#include "cuda/gpu_ops.hpp"
#include "kcipher/kcipher.h"

namespace kc {

struct GpuJob {
    const Kernel *kernel; // kernel->gpu != nullptr
    const void *keys;     // the kernel's key state (launch parameters)
    size_t block_bytes;   // the cipher's
};

// Device memory, queued on `stream`. ctr is the counter of the first block processed
// (block_offset already added); it may carry across any word and wrap at 2^(8*block).
kcipher_status gpu_device_ecb(const GpuJob &j, bool decrypt, const uint8_t *in, uint8_t *out,
                              size_t len, void *stream, const GpuLaunch *launch = nullptr);
kcipher_status gpu_device_ctr(const GpuJob &j, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                              size_t len, void *stream, const GpuLaunch *launch = nullptr);

// Host memory, synchronous. device: -1 spreads over every GPU, else that one.
// threads: CPU threads for staging copies and the CTR XOR (0 = one per core).
kcipher_status gpu_host_ecb(const GpuJob &j, bool decrypt, const uint8_t *in, uint8_t *out,
                            size_t len, int device, unsigned threads);
kcipher_status gpu_host_ctr(const GpuJob &j, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                            size_t len, int device, unsigned threads);

// Records a CUDA error code (from a GpuOps call or the runtime) as this thread's last GPU
// error and returns the status for it: KCIPHER_OK for 0.
kcipher_status gpu_status(int cuda_error);
void gpu_set_error(const char *message);
const char *gpu_last_error();

} // namespace kc

namespace kc {

// The GPU that owns both pointers (len bytes each; in may be null for a keystream):
// KCIPHER_ERR_NOT_DEVICE_MEMORY when either is host memory or they are on different GPUs.
kcipher_status gpu_pointers_device(const void *in, const void *out, int *device);

// Makes `device` current for this thread for the scope, then restores the previous one.
class GpuDeviceScope {
  public:
    explicit GpuDeviceScope(int device);
    ~GpuDeviceScope();
    GpuDeviceScope(const GpuDeviceScope &) = delete;
    GpuDeviceScope &operator=(const GpuDeviceScope &) = delete;
    kcipher_status status() const { return status_; }

  private:
    int previous_ = -1;
    kcipher_status status_ = KCIPHER_OK;
};

} // namespace kc
