// `kcipher-lab --gpu`: GPU kernels timed with CUDA events (kernel only) and the host-memory
// path timed end to end, as DESIGN.md's "How it is measured" asks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cuda/devices.hpp"

namespace lab {

struct GpuBenchOptions {
    std::vector<std::string> ciphers; // bare cipher names; empty = all ten
    std::vector<std::string> kernels; // GPU kernel names; empty = every GPU kernel
    size_t bytes = size_t(1) << 30;   // data per timed run
    int runs = 20;                    // timed runs per row (median reported)
    bool sweep = false;               // threads-per-block x blocks sweep of the keystream rate
    bool host = true;                 // host-to-host rows (default kernel per cipher)
    int device = 0;
    std::string json;
};

int run_gpu_bench(const GpuBenchOptions &o);

// For other GPU benchmarks (bench_drbg_gpu.cpp), CUDA builds only: the median seconds of
// `runs` runs, each under a fresh random key after one warm-up, timed with CUDA events, of a
// GPU kernel's CTR keystream over `bytes` of device memory (the "keystream" row above) on
// the current GPU; and of a cudaMemcpy of `bytes` from device to pinned host memory.
double gpu_keystream_seconds(const std::string &kernel, const std::string &cipher, size_t bytes, int runs);
double pcie_d2h_seconds(size_t bytes, int runs);
// Throws std::runtime_error("what: CUDA's message") unless cuda_error is cudaSuccess.
void check_cuda(int cuda_error, const char *what);
// The GPU of --gpu-device, made current: the chosen one of the machine's GPUs, or nothing
// after saying why on stderr where there is none; a device index out of range throws.
std::optional<kc::GpuInfo> select_gpu(int device);

} // namespace lab
