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
std::string cpu_model_name();

} // namespace cli
