// The GPU side of the key search (search_gpu*.cu, or search_gpu_none.cpp without CUDA).
// Round keys are computed on the fly from each candidate, as the ARIA CTR/ES paper does.
#pragma once

#include <cstdint>
#include <vector>

#include "kcipher/kcipher.h"
#include "kit/search/problem.hpp"

namespace kc::keysearch {

// Tests candidates [first, first + count) on GPU `device` against pairs[0] only (the
// early reject) and appends to `hits`, in no particular order, every index whose key
// encrypts pairs[0].pt to pairs[0].ct. The caller checks hits against the other pairs.
// KCIPHER_ERR_NO_GPU without a GPU (or a CUDA build); KCIPHER_ERR_CUDA with the message
// in kcipher_gpu_last_error() when CUDA fails. Thread-safe for distinct devices.
kcipher_status gpu_search_first_pair(const Problem &p, uint64_t first, uint64_t count,
                                     int device, std::vector<uint64_t> &hits);

// The same with a chosen launch shape (the bench reproduces the paper's: 1024 blocks of
// 512 threads, 65536 candidates each); 0 fields take the defaults.
struct GpuSearchShape {
    unsigned threads = 0, blocks = 0;
    uint32_t per_thread = 0;
};
kcipher_status gpu_search_first_pair(const Problem &p, uint64_t first, uint64_t count,
                                     int device, std::vector<uint64_t> &hits,
                                     const GpuSearchShape &shape);

} // namespace kc::keysearch
