// What a GPU kernel adds to the Kernel descriptor: launches over device memory on a stream.
// The runtime above (src/cuda/device_modes.cpp, host_pipeline.cu) validates, splits and
// schedules; these functions only launch. Plain C++ so that the registry and the API can
// name them in builds without CUDA.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"

namespace kc {

struct GcmPass; // cuda/gcm_pass.hpp
struct XtsPass; // cuda/xts_pass.hpp

// Threads per block and blocks per grid for one launch; 0 picks the kernel's default.
// The bench sweeps these; the library leaves them at 0.
struct GpuLaunch {
    unsigned threads = 0;
    unsigned blocks = 0;
};

struct GpuOps {
    // ECB over nblocks (< 2^31) whole blocks of device memory, in == out allowed, any
    // alignment. `params` is the kernel's key state (host memory, passed by value into the
    // launch). Returns a cudaError_t as int: 0 once the launch is queued.
    int (*ecb)(const void *params, bool decrypt, const uint8_t *in, uint8_t *out, size_t nblocks,
               void *stream, const GpuLaunch *launch);

    // CTR: out = in XOR keystream for nbytes (the last block may be partial), keystream block
    // i = E(ctr + i), ctr a big-endian block. in == nullptr writes the keystream itself.
    // The caller guarantees that the counter's low 32 bits do not wrap inside the launch
    // (low32(ctr) + blocks - 1 < 2^32), so kernels may precompute what depends only on
    // the higher bits (the nonce-only part of the first rounds) once per launch.
    int (*ctr)(const void *params, const uint8_t *ctr, const uint8_t *in, uint8_t *out,
               size_t nbytes, void *stream, const GpuLaunch *launch);

    // CTR keystream under many keys at once (the DRBG's consecutive requests, each with its
    // own Key and V): segment s (s < nseg) uses the key state at keys + s * key_stride and
    // the big-endian counter at ctrs + s * block size (both device memory, the key state in
    // this kernel's set_key layout), and writes seg_bytes of keystream (the last segment:
    // last_bytes) to out + s * seg_bytes. Counters carry across every word. `params` is one
    // of the key states in host memory: it says which variant (rounds, block size) to run.
    // Null where the kernel has no such launch.
    int (*ctr_segments)(const void *params, const uint8_t *keys, size_t key_stride, const uint8_t *ctrs,
                        size_t nseg, size_t seg_bytes, size_t last_bytes, uint8_t *out, void *stream) = nullptr;

    // Key states for n raw keys of cipher c, computed on the device: raw key i (the cipher's
    // key_bytes) at raw + i * raw_stride, its state at states + i * state_stride, both device
    // memory. The states hold what ctr_segments reads, in set_key's layout (the rest, such as
    // decryption keys, is left as it was). The DRBG's chain then hands the GPU its requests'
    // Keys as the Update gives them, and no CPU thread derives round keys beside the chain.
    // Null where the kernel has no such launch.
    int (*set_keys)(Cipher c, const uint8_t *raw, size_t raw_stride, size_t n, uint8_t *states,
                    size_t state_stride, void *stream) = nullptr;

    // GCM's passes that need the cipher (cuda/gcm_pass.hpp, cuda/gcm_kernels.cuh), for
    // 128-bit-block kernels; null where the kernel has none (GCM is then unsupported on it).
    int (*gcm)(const void *params, const GcmPass &pass, void *stream) = nullptr;

    // XTS's launches (cuda/xts_pass.hpp, cuda/xts_kernels.cuh) under the data key's state
    // `params` and the tweak key's `tweak_params` (both this kernel's set_key layout), for
    // 128-bit-block kernels; null where the kernel has none (XTS is then unsupported on it).
    int (*xts)(const void *params, const void *tweak_params, const XtsPass &pass, void *stream) = nullptr;
};

} // namespace kc
