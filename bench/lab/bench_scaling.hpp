// `kcipher-lab --scaling`: how close the all-core rate comes to linear, measured so that a
// noisy or uneven machine (a cloud VM whose cores are not equally fast, or whose speed drifts)
// does not decide the answer. Linear is the sum of what each core does alone, each thread
// pinned to its core, and single-core and all-core runs alternate over several rounds.
// --pairs also runs every pair of cores together: two vCPUs that share a physical core
// (hyperthreads the VM does not admit to) give a port-bound kernel much less than 2x.
// Rows named machine/alu512 and machine/alu64 measure the machine itself the same way:
// register-only code that shares nothing, so no kernel can scale better than they do.
// machine/gfni512 is the same with GFNI affine maps, byte additions and XORs (HIGHT's mix),
// to see whether the clock holds under all-core GFNI work. machine/cham-round is CHAM-128's
// round operation mix, registers only, in CHAM-128/128's bytes: its single-core rate is that
// kernel's measured ceiling on the core.
#pragma once

#include <string>
#include <vector>

namespace lab {

struct ScalingBenchOptions {
    std::vector<std::string> ciphers; // cipher-mode names or machine/...; empty = the five of issue 3 and the yardsticks
    std::vector<std::string> kernels; // empty = dispatch's choice
    size_t bytes = 16384;             // message size per call
    double seconds = 0.1;             // one timing slice
    int rounds = 3;                   // alternations of single-core and all-core runs
    bool pairs = false;
    std::string json;
};

int run_scaling_bench(const ScalingBenchOptions &o);

} // namespace lab
