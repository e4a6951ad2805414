// `kcipher-lab --keysearch-gpu`: the GPU key search alone (gpu_search_first_pair), keys/s
// per cipher in the ARIA CTR/ES paper's launch shape (1024 CUDA blocks x 512 threads x
// 65536 keys = 2^35 candidates) and in the searcher's default shape over the same range.
#pragma once

#include <string>
#include <vector>

namespace lab {

struct KeysearchGpuBenchOptions {
    std::vector<std::string> ciphers; // bare names; empty = all ten
    int device = 0;
    int runs = 5;          // timed runs per row, median reported
    int log2_keys = 35;    // candidates per run (the paper: 2^35)
    std::string json;
};

int run_keysearch_gpu_bench(const KeysearchGpuBenchOptions &o);

} // namespace lab
