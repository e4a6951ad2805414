// `kcipher bench --keysearch`: keys per second of the key search, per cipher, through the
// same driver and C API as `kcipher keysearch` (CPU kernels, GPUs or both).
#pragma once

#include <string>
#include <vector>

namespace cli {

struct KeysearchBenchOptions {
    std::vector<std::string> ciphers; // bare or with a mode suffix (ignored); empty = all ten
    std::vector<std::string> kernels; // CPU kernels ("all" = each runnable one); empty = the search's pick
    std::vector<unsigned> threads;    // empty = 1
    std::string device = "cpu";
    double seconds = 2;               // per row
    std::string json;
};

int run_keysearch_bench(const KeysearchBenchOptions &o);

} // namespace cli
