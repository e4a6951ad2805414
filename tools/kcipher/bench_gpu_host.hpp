// `kcipher bench --gpu`: what a GPU gives a user through the public API, as `kcipher enc --gpu`
// uses it: each cipher's default GPU kernel (kcipher_default_gpu_kernel) encrypting host memory
// into host memory, copies included, in CTR and ECB; the wall clock around each call, the median
// of `rounds` calls after one warm-up. The kernels' own rates on device memory, PCIe and the
// launch-shape sweep are bench/lab's `kcipher-lab --gpu`.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

struct GpuHostBenchOptions {
    std::vector<std::string> ciphers; // names, a mode suffix ignored; empty = every cipher with a GPU kernel
    size_t bytes = size_t(256) << 20; // per call
    int rounds = 5;
    int device = -1; // -1: every GPU (large jobs are split over them), else that one
    std::string json;
};

int run_gpu_host_bench(const GpuHostBenchOptions &o);

} // namespace cli
