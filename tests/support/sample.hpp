// A seeded sample of a large test grid, for the runs where each case costs ten to a hundred
// times more than natively: under qemu (scripts/test-x86-models, scripts/test-aarch64) and with
// the sanitizers (scripts/test's ASan + UBSan stage). Those scripts set
//   KCIPHER_TEST_SAMPLE=PERCENT[:SEED]
// and a grid that asks keeps about PERCENT of its cases, the same ones for the same seed (the
// scripts print the seed they chose, so a failure can be run again). Unset, or 100, keeps every
// case: native release runs (ctest, scripts/test's first stage) run the full grids.
//
// A grid draws once per case, in a fixed order, from a generator seeded by the seed and the
// grid's name, so that adding a case to one grid changes no other grid's sample. The first
// case of a grid is always kept, so that no grid is ever empty, unless the grid is a single
// costly case that may itself be left out (keep_first = false: the test then skips).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace kct {

class Sample {
  public:
    explicit Sample(const std::string &grid, bool keep_first = true) : keep_first_(keep_first)
    {
        const char *env = std::getenv("KCIPHER_TEST_SAMPLE");
        uint64_t seed = 1;
        if (env != nullptr && *env != '\0') {
            char *end = nullptr;
            const unsigned long p = std::strtoul(env, &end, 10);
            if (end != env) // no number: every case
                percent_ = p < 100 ? (unsigned)p : 100;
            if (end != env && *end == ':')
                seed = std::strtoull(end + 1, nullptr, 10);
        }
        uint64_t h = 1469598103934665603ull; // FNV-1a of the grid's name, mixed with the seed
        for (char c : grid)
            h = (h ^ (uint8_t)c) * 1099511628211ull;
        rng_.seed(h ^ (seed * 0x9e3779b97f4a7c15ull));
    }

    bool sampling() const { return percent_ < 100; }

    // Whether the next case runs.
    bool keep()
    {
        const bool first = cases_++ == 0 && keep_first_;
        if (!sampling())
            return true;
        return first || rng_() % 100 < percent_;
    }

  private:
    bool keep_first_;
    unsigned percent_ = 100;
    uint64_t cases_ = 0;
    std::mt19937_64 rng_;
};

} // namespace kct
