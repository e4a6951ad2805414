// The CPU side of the key search: candidates tested against pairs[0]; a block equal to
// pairs[0].ct is a hit for the driver to check against the other pairs.
//
// Two paths per kernel. Where the kernel has a multi-key searcher (kit/search/cpu_searcher.hpp:
// lea/avx512, cham/avx512, ...), that runs: one candidate per SIMD lane, round keys derived
// on the fly from the cipher's own key-schedule steps. Otherwise (the other kernels, or a
// machine without AVX-512) every candidate is keyed with the kernel's own set_key (so the key
// schedule is still the cipher's one schedule) and pairs[0].pt is encrypted as one block:
// the SIMD kernels are sliced across the blocks of one key, so that pays their whole key
// layout for one block in one lane. fastest_cpu_kernel() measures every kernel that can run
// here through whichever path it has and keeps the best (docs/performance.md, "Key search").
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/kernel.hpp"
#include "kit/search/problem.hpp"

namespace kc::keysearch {

// Keys/s of one thread testing candidates with kernel k (a short timed run).
double measure_cpu_kernel(const Problem &p, const Kernel &k);

// The runnable CPU kernel of p.cipher with the highest measured keys/s; its rate in *rate.
const Kernel *fastest_cpu_kernel(const Problem &p, double *rate);

// Tests candidates [first, first + count) against pairs[0] with kernel k (or its searcher)
// and appends the hits. Looks at `stop` every 4096 keys (65536 with a searcher: well under a
// millisecond either way) and returns early when it is set; returns
// how many candidates were tested (a prefix of the range). Thread-safe.
uint64_t cpu_search_first_pair(const Problem &p, const Kernel &k, uint64_t first, uint64_t count,
                               const std::atomic<bool> &stop, std::vector<uint64_t> &hits);

} // namespace kc::keysearch
