// The per-family GPU searchers' launch functions (src/<family>/<family>_cuda_keysearch.cu),
// called by search_gpu.cu. Each builds its launch parameters from the problem (pairs[0],
// the family's constants) and queues one search_kernel over r (tmpl, mask, lo, end set).
// Returns a cudaError_t.
#pragma once

#include "keysearch/problem.hpp"
#include "keysearch/search_gpu.cuh"

namespace kc::keysearch::cuda {

int aria_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);
int lea_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);
int cham_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);
int hight_cuda_search(const Problem &p, const Range &r, const Hits &h, const Launch &l);

} // namespace kc::keysearch::cuda
