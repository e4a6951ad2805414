// Where the GPU path of large outputs plugs in (issue 6, item 3): the chain stays on the CPU
// (chain.hpp); this runs a batch of segments with a GPU kernel's CTR into host memory,
// segment i at i * stride. The CPU-only build answers KCIPHER_ERR_NO_GPU (drbg_gpu_none.cpp);
// the CUDA implementation replaces that definition.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/cipher.hpp"
#include "core/kernel.hpp"
#include "drbg/chain.hpp"

namespace kc::drbg {

kcipher_status run_segments_gpu(const Kernel &gpu_kernel, Cipher c, const Segment *segments, size_t count,
                                size_t stride, uint8_t *out, int device);

} // namespace kc::drbg
