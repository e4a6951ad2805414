// `kcipher info`: ciphers, kernels (which this machine runs and which dispatch picks),
// CPU features and GPUs.
#include <fmt/core.h>

#include <cstdlib>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "kcipher/kcipher.h"

namespace cli {

// The detected features that dispatch does not use, by name.
static std::string removed_features()
{
    std::istringstream used(kcipher_cpu_features()), detected(kcipher_cpu_features_detected());
    std::set<std::string> keep{std::istream_iterator<std::string>(used), std::istream_iterator<std::string>()};
    std::string out;
    for (auto it = std::istream_iterator<std::string>(detected); it != std::istream_iterator<std::string>(); ++it)
        if (keep.count(*it) == 0)
            out += (out.empty() ? "" : " ") + *it;
    return out.empty() ? "nothing this CPU has" : out;
}

// What KCIPHER_CPU_FEATURES took away from dispatch, or why it cannot be used.
static void print_feature_mask()
{
    const char *env = std::getenv("KCIPHER_CPU_FEATURES");
    if (env == nullptr)
        return;
    const char *detail = "";
    if (kcipher_cpu_features_status(&detail) != KCIPHER_OK) {
        fmt::print("  KCIPHER_CPU_FEATURES error: {}\n", detail);
        return;
    }
    fmt::print("  detected: {}\n  KCIPHER_CPU_FEATURES=\"{}\" removes: {}\n", kcipher_cpu_features_detected(), env,
               removed_features());
}

static int run_info()
{
    fmt::print("kcipher {}\n\nCPU features: {}\n", kcipher_version(), kcipher_cpu_features());
    print_feature_mask();
    fmt::print("GPUs: {}\n", kcipher_gpu_runtime_status());
    for (int i = 0; i < kcipher_gpu_count(); i++) {
        kcipher_gpu_info g;
        if (kcipher_gpu_get(i, &g) == KCIPHER_OK)
            fmt::print("  [{}] {} (sm_{}{}, {} SMs, {:.1f} GiB, {:.2f} GHz)\n", g.index, g.name, g.sm_major,
                       g.sm_minor, g.multiprocessors, g.global_memory_bytes / 1073741824.0, g.clock_khz / 1e6);
    }

    fmt::print("\nCiphers (block, key bytes; default kernel):\n");
    for (size_t i = 0; i < kcipher_cipher_count(); i++) {
        kcipher_cipher_info c;
        kcipher_cipher_get(i, &c);
        const char *k = "?";
        kcipher_status st = kcipher_default_kernel(c.name, &k);
        fmt::print("  {:<14} {:>2} {:>2}  {}\n", c.name, c.block_bytes, c.key_bytes,
                   st == KCIPHER_OK ? k : kcipher_strerror(st));
    }
    fmt::print("  modes: -ecb -cbc -ctr (e.g. aria-256-ctr); -gcm -ccm (authenticated, 128-bit blocks); -cmac -gmac "
               "(kcipher mac)\n");
    // The constant-time column below is the block kernels'; GCM's hash has its own answer.
    fmt::print("  GCM's GHASH: on the CPU carry-less multiplication (PCLMULQDQ, VPCLMULQDQ, PMULL) or the portable "
               "code, constant-time;\n    on a GPU (GPU contexts, kcipher_gpu_aead_*) binary MMAs on the tensor cores, "
               "then lookup tables indexed by the hash state to combine the parts: NOT constant-time\n\nKernels:\n");
    fmt::print("  {:<24} {:<6} {:>5} {:>5}  {:<13} {:<9} {}\n", "name", "family", "block", "batch",
               "constant-time", "available", "requires");
    for (size_t i = 0; i < kcipher_kernel_count(); i++) {
        kcipher_kernel_info k;
        kcipher_kernel_get(i, &k);
        fmt::print("  {:<24} {:<6} {:>5} {:>5}  {:<13} {:<9} {}\n", k.name, k.family, k.block_bytes,
                   k.batch_blocks, k.constant_time ? "yes" : "no", k.available ? "yes" : "no",
                   k.requires[0] ? k.requires : "-");
    }
    return kcipher_cpu_features_status(nullptr) == KCIPHER_OK ? 0 : 1;
}

Runner add_info_command(CLI::App &app)
{
    app.add_subcommand("info", "list ciphers, kernels, CPU features and GPUs");
    return run_info;
}

} // namespace cli
