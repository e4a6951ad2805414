#include "bench_clock.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <vector>

namespace cli {

// 2^k dependent adds; the asm keeps the compiler from folding the chain.
static uint64_t add_chain(uint64_t n)
{
    uint64_t x = 0;
    for (uint64_t i = 0; i < n; i += 8) {
#if defined(__x86_64__)
        __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                         "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                         : "+r"(x));
#elif defined(__aarch64__)
        __asm__ volatile("add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\t"
                         "add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1"
                         : "+r"(x));
#else
        x += 8;
#endif
    }
    return x;
}

CoreClock measure_core_clock()
{
    using clk = std::chrono::steady_clock;
    const uint64_t n = 1ull << 27; // ~30 ms at 4 GHz
    add_chain(n);                  // wake the core up to its running frequency
    std::vector<double> ghz;
    for (int r = 0; r < 7; r++) {
        auto t0 = clk::now();
        add_chain(n);
        double s = std::chrono::duration<double>(clk::now() - t0).count();
        // The loop also increments i and branches, but those run in parallel with the
        // add chain, which is the critical path.
        ghz.push_back(n / s / 1e9);
    }
    std::sort(ghz.begin(), ghz.end());
    return {ghz[ghz.size() / 2], "median of 7 timings of a dependent integer-add chain (1 add/cycle)"};
}

std::string cpu_model_name()
{
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
            size_t c = line.find(':');
            if (c != std::string::npos)
                return line.substr(c + 2);
        }
    }
    return "unknown";
}

} // namespace cli
