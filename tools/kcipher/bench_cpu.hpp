// The CPU benchmark's workers (bench_table.cpp; bench/lab's scaling benchmark): an encryption
// call on a thread's own buffer, timed in slices, with the core's clock read beside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kcipher/kcipher.h"

namespace cli {

// A worker's encryption call on its own buffer. GCM/CCM seal and CMAC/GMAC write their tag
// (at most 16 bytes) after the n bytes: the buffer has room for it.
using Work = std::function<void(const uint8_t *, uint8_t *, size_t)>;

struct Target {
    std::string impl, cipher, mode, kernel, version;
    bool decrypt = false; // the row times the inverse call (decrypt, open)
    bool stream = false;  // CMAC/GMAC: the row times updates of one stream (the hash alone)
    std::function<Work()> make_worker; // one per thread (own IV / EVP context)
};

// One thread's slice: its rate and the clock it ran at, and what gives its cycles.
struct Slice {
    double rate;        // bytes per second of wall time
    double probe_ghz;   // the clock right after the work (probe_clock_ghz)
    double pmu_ghz;     // core cycles per second of wall time from the CPU's counters, 0 if none
    double bytes;       // bytes processed
    double cpu_seconds; // this thread's CPU time (time it was descheduled not counted)
    double cycles;      // this thread's core cycles from the CPU's counters, 0 if none

    // The slice's core cycles: counted where the counters are exposed, else the clock read
    // right after the work times the thread's CPU time (not wall time, so that time spent
    // descheduled on a loaded machine adds no cycles).
    double core_cycles() const { return cycles > 0 ? cycles : probe_ghz * 1e9 * cpu_seconds; }
};

std::vector<uint8_t> random_bytes(size_t n);

// A --cipher argument: the cipher's name and the mode it names (KCIPHER_MODE_NONE where it
// names none); throws, quoting the argument, where it names no cipher or an unknown mode.
struct CipherArg {
    std::string cipher;
    kcipher_mode mode;
};
CipherArg parse_cipher_arg(const std::string &arg);

// Runs work until `seconds` have passed: this thread's bytes per second, and its core's
// clock read two ways (see bench_clock.hpp), so that an all-core run shows whether the
// cores slowed down while the kernel ran (the idle-core add chain cannot see that).
Slice run_slice(const Work &w, uint8_t *buf, size_t size, double seconds);

double median(std::vector<double> v);

// Our cipher in `mode` on `kernel` ("" = dispatch's choice), one thread per call. stream: CMAC
// and GMAC as one stream whose every call is an update (Target::stream).
Target kcipher_target(const std::string &cipher, kcipher_mode mode, const std::string &kernel, bool decrypt = false,
                      bool stream = false);

} // namespace cli
