// `kcipher-lab --drbg`: the CTR_DRBG's rate for large outputs on the CPU beside the same
// cipher's best CTR kernel, and the cost per request of the sequential (Key, V) chain.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace lab {

struct DrbgBenchOptions {
    std::vector<std::string> ciphers; // bare names; empty = all ten
    std::vector<unsigned> threads;    // empty = 1 and every core
    size_t bytes = size_t(64) << 20;  // per timed call
    double seconds = 0.5;             // per slice; the median of 5 slices is reported
    std::string json;
};

int run_drbg_bench(const DrbgBenchOptions &o);

// The sequential chain's cost: microseconds per max-size request (reseed checks, Update, key
// schedule of the DRBG's CPU kernel), the best of 5 slices of `seconds`, one thread.
double drbg_chain_us_per_request(const std::string &cipher, double seconds);

// A timer of the chain alone: each call walks the chain of `requests` more max-size requests
// (plan_segments, the code the GPU pipeline's chain thread runs, on the best CPU kernel) on
// one DRBG kept between calls, and returns the seconds it took.
std::function<double(size_t requests)> drbg_chain_timer(const std::string &cipher);
// kcipher_drbg_generate_large on the CPU: bytes per second, median of 5 slices, `bytes` per call.
double drbg_cpu_bytes_per_second(const std::string &cipher, unsigned threads, size_t bytes, double seconds);

// `kcipher-lab --drbg --gpu` (bench_drbg_gpu.cpp): the GPU DRBG of every cipher's default
// GPU kernel into device and host memory, beside what bounds it (the kernel's CTR keystream
// rate, the chain, the device-to-host PCIe bandwidth) and our CPU DRBG; and the
// many-instance mode.
struct DrbgGpuBenchOptions {
    std::vector<std::string> ciphers; // bare names; empty = all ten
    size_t bytes = size_t(1) << 30;   // per timed call (single DRBG)
    int runs = 5;                     // timed calls per row, median reported
    int device = 0;
    size_t instances = 65536;         // many-instance rows
    size_t instance_bytes = 0;        // per instance and call; 0 = 64 KiB (1 KiB for 64-bit blocks)
    unsigned threads = 0;             // the single DRBG's host threads (one --threads value); 0 = all
    bool trace = false;               // each single-DRBG call's trace to stderr (bench/tools/drbg_gpu_trace.hpp)
    std::string json;
};

int run_drbg_gpu_bench(const DrbgGpuBenchOptions &o);

} // namespace lab
