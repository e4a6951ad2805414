#include "bench_clock.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <fmt/core.h>

namespace cli {

// n dependent register-register adds. Register operands on purpose: cores since Golden
// Cove fold chains of add-immediate at rename, which would read as a 3x higher clock.
static uint64_t add_chain(uint64_t n)
{
    uint64_t x = 0, one = 1;
    for (uint64_t i = 0; i < n; i += 8) {
#if defined(__x86_64__)
        __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
                         "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0"
                         : "+r"(x)
                         : "r"(one));
#elif defined(__aarch64__)
        __asm__ volatile("add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
                         "add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1"
                         : "+r"(x)
                         : "r"(one));
#else
        x += 8 * one;
#endif
    }
    return x;
}

// The same count of dependent 64-bit multiplies, 3 cycles each on x86-64 cores (Intel since
// Sandy Bridge, AMD since Zen): a second reading that does not rest on the adds.
static uint64_t mul_chain(uint64_t n)
{
    uint64_t x = 3;
    for (uint64_t i = 0; i < n; i += 8) {
#if defined(__x86_64__)
        __asm__ volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0\n\t"
                         "imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0"
                         : "+r"(x));
#else
        x *= x;
#endif
    }
    return x;
}

template <class F> static double median_rate(F &&chain, uint64_t n)
{
    using clk = std::chrono::steady_clock;
    chain(n); // wake the core up to its running frequency
    std::vector<double> r;
    for (int k = 0; k < 7; k++) {
        auto t0 = clk::now();
        chain(n);
        r.push_back(n / std::chrono::duration<double>(clk::now() - t0).count());
    }
    std::sort(r.begin(), r.end());
    return r[r.size() / 2];
}

CoreClock measure_core_clock(unsigned threads)
{
    if (threads > 1) {
        // Every thread runs the add chain at once: the clock each core keeps when all of them
        // are busy (turbo budgets shrink as more cores run); the median thread's reading.
        std::vector<double> ghz(threads);
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < threads; i++)
            pool.emplace_back([&, i] { ghz[i] = median_rate(add_chain, 1ull << 27) / 1e9; });
        for (auto &t : pool)
            t.join();
        std::sort(ghz.begin(), ghz.end());
        return {ghz[threads / 2], fmt::format("median over {} threads, each timing a chain of dependent register "
                                              "adds at the same time",
                                              threads)};
    }
    const uint64_t n = 1ull << 27; // ~30 ms of adds at 4 GHz
    // The loop counter and branch run beside the chain, which is the critical path.
    double add_ghz = median_rate(add_chain, n) / 1e9;
    CoreClock c{add_ghz, "median of 7 timings of a chain of dependent register adds (1 cycle each)"};
#if defined(__x86_64__)
    double mul_ghz = 3 * median_rate(mul_chain, n / 4) / 1e9;
    c.method += fmt::format("; cross-check with dependent imul (3 cycles each): {:.2f} GHz", mul_ghz);
#endif
    return c;
}

double probe_clock_ghz()
{
    // The fastest of three short chains: an interrupt or a preemption can only slow a chain
    // down, never speed it up, so the fastest is the one that ran undisturbed.
    using clk = std::chrono::steady_clock;
    const uint64_t n = 1u << 16;
    double best = 0;
    for (int k = 0; k < 3; k++) {
        auto t0 = clk::now();
        add_chain(n);
        best = std::max(best, n / std::chrono::duration<double>(clk::now() - t0).count() / 1e9);
    }
    return best;
}

CycleCounter::CycleCounter()
{
#if defined(__linux__)
    perf_event_attr a{};
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_HW_CPU_CYCLES;
    a.disabled = 1;
    a.exclude_kernel = 1; // allowed at perf_event_paranoid 2; the kernels run in user space
    a.exclude_hv = 1;
    fd_ = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
#endif
}

CycleCounter::~CycleCounter()
{
#if defined(__linux__)
    if (fd_ >= 0)
        close(fd_);
#endif
}

void CycleCounter::start()
{
#if defined(__linux__)
    if (fd_ >= 0) {
        ioctl(fd_, PERF_EVENT_IOC_RESET, 0);
        ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0);
    }
#endif
}

double CycleCounter::stop()
{
#if defined(__linux__)
    uint64_t v = 0;
    if (fd_ >= 0 && ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0) == 0 && read(fd_, &v, sizeof v) == (ssize_t)sizeof v)
        return (double)v;
#endif
    return 0;
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
