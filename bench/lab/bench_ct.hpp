// `kcipher-lab --ct-check`: a dudect-style timing test (Reparaz, Balasch, Verbauwhede,
// "Dude, is my code constant time?", DATE 2017) for kernels that valgrind cannot run
// (AVX-512, GFNI, VAES). Two classes of inputs, one fixed and one random, are timed in random
// order; Welch's t-test on the two timing distributions (also after cropping the slowest
// samples at several percentiles) says whether their means differ. |t| above 4.5 is evidence
// of a timing leak; below it, no leak was seen in this many samples, which is not a proof.
#pragma once

#include <string>
#include <vector>

namespace lab {

struct CtResult {
    std::string kernel, cipher, secret; // secret: "data" or "key"
    size_t samples;
    double max_abs_t;
    bool claims_constant_time;
};

// kernels: names, or {"all"} for every kernel this machine runs; "drbg/fused" (or "all") adds
// the CTR_DRBG chain's fused block functions (src/kit/fused_ecb.hpp).
std::vector<CtResult> run_ct_checks(const std::vector<std::string> &kernels, size_t samples);

} // namespace lab
