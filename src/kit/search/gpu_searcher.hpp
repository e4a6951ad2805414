// The slot a family fills to offer a GPU key search: a function that builds its launch
// parameters from the problem (pairs[0], the family's constants) and queues one search
// kernel (gpu_search.cuh) over the range r (tmpl, mask, lo, end set) on l's stream. Returns a
// cudaError_t. The key search service (src/keysearch/search_gpu.cu) asks the registry for the
// family's function; a family without one is refused, never given another's.
#pragma once

#include "kit/search/problem.hpp"

namespace kc::keysearch::cuda {

struct Range;
struct Hits;
struct Launch;

using GpuSearchFn = int (*)(const Problem &p, const Range &r, const Hits &h, const Launch &l);

} // namespace kc::keysearch::cuda
