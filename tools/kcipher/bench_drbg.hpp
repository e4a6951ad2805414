// `kcipher bench --drbg`: the CTR_DRBG's rate for large outputs on the CPU beside the same
// cipher's best CTR kernel, and the cost per request of the sequential (Key, V) chain.
#pragma once

#include <string>
#include <vector>

namespace cli {

struct DrbgBenchOptions {
    std::vector<std::string> ciphers; // bare names; empty = all ten
    std::vector<unsigned> threads;    // empty = 1 and every core
    size_t bytes = size_t(64) << 20;  // per timed call
    double seconds = 0.5;             // per slice; the median of 5 slices is reported
    std::string json;
};

int run_drbg_bench(const DrbgBenchOptions &o);

} // namespace cli
