// `kcipher info`: ciphers, kernels (which this machine runs and which dispatch picks),
// CPU features and GPUs.
#include <fmt/core.h>

#include "commands.hpp"
#include "cuda/devices.hpp"
#include "kcipher/kcipher.h"

namespace cli {

static int run_info()
{
    fmt::print("kcipher {}\n\nCPU features: {}\nGPUs: {}\n", kcipher_version(), kcipher_cpu_features(),
               kc::cuda_runtime_status());
    for (const kc::GpuInfo &g : kc::cuda_devices())
        fmt::print("  [{}] {} (sm_{}{}, {} SMs, {:.1f} GiB, {:.2f} GHz)\n", g.index, g.name, g.sm_major,
                   g.sm_minor, g.multiprocessors, g.global_memory_bytes / 1073741824.0, g.clock_khz / 1e6);

    fmt::print("\nCiphers (block, key bytes; default kernel):\n");
    for (size_t i = 0; i < kcipher_cipher_count(); i++) {
        kcipher_cipher_info c;
        kcipher_cipher_get(i, &c);
        const char *k = "?";
        kcipher_status st = kcipher_default_kernel(c.name, &k);
        fmt::print("  {:<14} {:>2} {:>2}  {}\n", c.name, c.block_bytes, c.key_bytes,
                   st == KCIPHER_OK ? k : kcipher_strerror(st));
    }
    fmt::print("  modes: -ecb -cbc -ctr (e.g. aria-256-ctr)\n\nKernels:\n");
    fmt::print("  {:<24} {:<6} {:>5} {:>5}  {:<13} {:<9} {}\n", "name", "family", "block", "batch",
               "constant-time", "available", "requires");
    for (size_t i = 0; i < kcipher_kernel_count(); i++) {
        kcipher_kernel_info k;
        kcipher_kernel_get(i, &k);
        fmt::print("  {:<24} {:<6} {:>5} {:>5}  {:<13} {:<9} {}\n", k.name, k.family, k.block_bytes,
                   k.batch_blocks, k.constant_time ? "yes" : "no", k.available ? "yes" : "no",
                   k.requires[0] ? k.requires : "-");
    }
    return 0;
}

Runner add_info_command(CLI::App &app)
{
    app.add_subcommand("info", "list ciphers, kernels, CPU features and GPUs");
    return run_info;
}

} // namespace cli
