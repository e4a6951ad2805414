// `kcipher selftest`: the built-in known-answer tests on every kernel this machine runs.
#include <memory>
#include <string>

#include <fmt/core.h>

#include "commands.hpp"
#include "kcipher/kcipher.h"

namespace cli {

namespace {
struct Tally {
    int passed = 0, failed = 0;
    bool verbose = false;
};

void report(void *user, const char *kernel, const char *check, int ok)
{
    auto *t = static_cast<Tally *>(user);
    (ok ? t->passed : t->failed)++;
    if (!ok || t->verbose)
        fmt::print("{} {:<14} {}\n", ok ? "pass" : "FAIL", kernel, check);
}
// The kernels the self-test could not run here, and why: a machine that lacks a feature
// must not look as if it had tested that kernel.
void print_skipped()
{
    std::string cpu_only;
    int gpu = 0;
    for (size_t i = 0; i < kcipher_kernel_count(); i++) {
        kcipher_kernel_info k;
        if (kcipher_kernel_get(i, &k) != KCIPHER_OK || k.available)
            continue;
        if (std::string(k.requires).find("cuda-gpu") != std::string::npos)
            gpu++;
        else
            fmt::print("selftest: skipped {} (needs {}; usable here: {})\n", k.name, k.requires,
                       *kcipher_cpu_features() ? kcipher_cpu_features() : "none");
    }
    if (gpu > 0)
        fmt::print("selftest: skipped {} GPU kernels (no usable GPU)\n", gpu);
}
} // namespace

Runner add_selftest_command(CLI::App &app)
{
    auto verbose = std::make_shared<bool>(false);
    CLI::App *sub = app.add_subcommand("selftest", "run the known-answer tests on every kernel this machine runs");
    sub->add_flag("-v,--verbose", *verbose, "list every check, not only failures");
    return [verbose] {
        Tally t;
        t.verbose = *verbose;
        kcipher_status st = kcipher_selftest(report, &t);
        fmt::print("selftest: {} passed, {} failed\n", t.passed, t.failed);
        print_skipped();
        return st == KCIPHER_OK && t.failed == 0 && t.passed > 0 ? 0 : 1;
    };
}

} // namespace cli
