// ECB and CTR for contexts with a GPU kernel: over the caller's device memory (gpu_device.cu)
// and over host memory (gpu_host.cu: pinned staging, several streams, every GPU). Arguments
// were checked by the C API; these split, schedule and turn CUDA errors into statuses.
// Builds without CUDA link gpu_none.cpp instead, where no context can have a GPU kernel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/kernel.hpp"
#include "cuda/gpu_ops.hpp"
#include "modes/aead.hpp"
#include "modes/keyed.hpp"
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

// XTS over device memory (modes/gpu_xts.cu), queued on `stream`: units of data_unit bytes (0:
// one unit; the last unit len's rest, >= 16 bytes), unit i with tweak + i (a little-endian
// 128-bit integer), ciphertext stealing for a unit that is not whole blocks. tweak_keys: the
// kernel's key state for the tweak key. first_block: in's first unit begins at this block of
// its data unit (a piece of a larger unit: the host pipeline's chunks); 0 otherwise.
// KCIPHER_ERR_UNSUPPORTED where the kernel has no XTS launch.
kcipher_status gpu_device_xts(const GpuJob &j, const void *tweak_keys, bool decrypt, const uint8_t tweak[16],
                              size_t data_unit, const uint8_t *in, uint8_t *out, size_t len, void *stream,
                              uint64_t first_block = 0);

// GCM over device memory (modes/gpu_gcm.cu), synchronous: a batch described in device
// memory; h = E_K(0). host_j0: for a batch of one whose J0 the host knows, its words (the
// cipher may then precompute), with total_blocks its AAD and text blocks; else null.
// Returns KCIPHER_ERR_AUTH (and *any_failed) when a tag did not verify.
kcipher_status gpu_device_gcm(const GpuJob &j, const uint8_t h[16], bool open, kcipher_gpu_aead_msg *msgs,
                              size_t n, size_t tag_len, void *stream, const uint32_t *host_j0,
                              uint64_t total_blocks, bool *any_failed);
// One message with iv and aad in host memory (uploaded for the call), j0 computed by the host.
kcipher_status gpu_device_gcm_one(const GpuJob &j, const uint8_t h[16], const uint8_t j0[16], bool open,
                                  const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                                  const uint8_t *in, size_t len, uint8_t *out, size_t tag_len, void *stream);

// Host memory, synchronous. device: -1 spreads over every GPU, else that one.
// threads: CPU threads for staging copies and the CTR XOR (0 = one per core).
kcipher_status gpu_host_ecb(const GpuJob &j, bool decrypt, const uint8_t *in, uint8_t *out,
                            size_t len, int device, unsigned threads);
kcipher_status gpu_host_ctr(const GpuJob &j, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
                            size_t len, int device, unsigned threads);

// XTS over host memory: chunks of whole units (or of one unit's blocks, modes/xts_cut.hpp)
// through the pinned pipeline as ECB's, each chunk's tweaks from its place in the job.
kcipher_status gpu_host_xts(const GpuJob &j, const void *tweak_keys, bool decrypt, const uint8_t tweak[16],
                            size_t data_unit, const uint8_t *in, uint8_t *out, size_t len, int device,
                            unsigned threads);

// CTR through the pipeline that also hashes for GCM: chunk c (gpu_host_chunk_bytes() each,
// the last one shorter) of the ciphertext (the input when hash_in, else the output) gets its
// own GHASH from zero, zero-padded, in partials[16 c]. The counter must not wrap its low
// 32 bits (GCM's inc32: the caller splits there).
size_t gpu_host_chunk_bytes();
kcipher_status gpu_host_ctr_hash(const GpuJob &j, const uint8_t *ctr, const uint8_t *in, uint8_t *out, size_t len,
                                 int device, unsigned threads, const GhashKernel &g, const GhashKey &hk,
                                 bool hash_in, uint8_t *partials);

// GCM over host memory (modes/gpu_host_gcm.cu): the full 16-byte tag into tag (computed over
// the ciphertext either way; the caller writes or compares it). cpu: the companion CPU
// kernel, for H and E_K(J0); key: the CPU's GHASH under H.
kcipher_status gpu_host_gcm(const GpuJob &j, const Keyed &cpu, const GcmKey &key, bool open, const uint8_t *iv,
                            size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                            size_t len, int device, unsigned threads, uint8_t tag[16]);

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
