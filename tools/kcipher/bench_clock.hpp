// The core clock, for cycles per byte. Read, not assumed: a chain of dependent integer
// adds runs at exactly one add per cycle on every x86-64 core since the P6 (and on ARMv8
// cores), so adds per second over such a chain is the clock the core actually ran at,
// turbo included. The TSC would give the nominal frequency instead.
#pragma once

#include <string>

namespace cli {

struct CoreClock {
    double ghz;
    std::string method;
};

// threads > 1: the clock with that many threads busy at once.
CoreClock measure_core_clock(unsigned threads = 1);

// The clock a core runs at right after it ran something else: short add chains (3 x about
// 0.03 ms, the fastest counts) timed at once, before the core leaves the frequency that work set (heavy 512-bit
// code lowers it on many x86 cores, and the core takes about a millisecond to climb back).
double probe_clock_ghz();

// The calling thread's own core cycles from the CPU's counters (perf_event_open), where the
// kernel and the VM expose them; ok() is false otherwise.
class CycleCounter {
  public:
    CycleCounter();
    ~CycleCounter();
    CycleCounter(const CycleCounter &) = delete;
    CycleCounter &operator=(const CycleCounter &) = delete;
    bool ok() const { return fd_ >= 0; }
    void start();
    double stop(); // cycles since start(), 0 when !ok()

  private:
    int fd_ = -1;
};
std::string cpu_model_name();

} // namespace cli
