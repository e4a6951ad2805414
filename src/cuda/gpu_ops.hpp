// What a GPU kernel adds to the Kernel descriptor: launches over device memory on a stream.
// The runtime above (src/cuda/device_modes.cpp, host_pipeline.cu) validates, splits and
// schedules; these functions only launch. Plain C++ so that the registry and the API can
// name them in builds without CUDA.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kc {

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
};

} // namespace kc
