// The CPU throughput table of `kcipher bench` (and of bench/lab's `kcipher-lab --preset`):
// MB/s and cycles per byte of our kernels beside OpenSSL's and Crypto++'s implementations of
// the same cipher, where they were found at build time (bench_openssl.hpp, bench_cryptopp.hpp).
//
// Method, chosen so that a loaded or drifting machine cannot flatter either side:
//   - a cipher's rows (our kernels and the peers' implementations of that cipher) are
//     measured together, interleaved: in each of `rounds` rounds every row runs one slice of
//     `seconds`, in an order that rotates from round to round; a row reports the median of
//     its rounds, and vs-X is the median over the rounds of our rate / X's rate in that round;
//   - every row carries its own clock: its cycles per byte are its own core cycles over its
//     own bytes (the CPU's cycle counters where the kernel and VM expose them; else the clock
//     read by an add chain right after each slice times the thread's CPU time), never one
//     clock read once at the start.
// One buffer per worker thread, reused (it stays in cache for small sizes, as a server's
// packet buffers do). With N threads, N workers each encrypt their own messages on one
// shared keyed context (aggregate throughput); cycles per byte counts the cycles of all N.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cli {

struct CpuBenchOptions {
    std::vector<std::string> ciphers; // cipher-mode names; empty = every cipher in CTR
    std::vector<std::string> kernels; // kernel names or "all"; empty = dispatch's choice
    std::vector<size_t> sizes;        // empty = 16 KiB (with `all`: 64 B to 1 MiB)
    std::vector<unsigned> threads;    // 0 = every hardware thread; empty = 1 (with `all`: 1 and every one)
    bool all = false;                 // the full table: the sizes and threads above, and OpenSSL's
                                      // Camellia and AES beside ARIA (the yardsticks of the ARIA papers)
    double seconds = 0.1;             // one slice
    int rounds = 5;                   // interleaved rounds; the median is reported
    bool decrypt = false;             // the inverse call: decrypt, or open (tag verified); no peers
    bool stream = false;              // CMAC/GMAC: one stream of updates, the hash alone; no peers
    bool openssl = true;
    bool cryptopp = true;
    std::string baseline; // a kernel whose rate the vs-base column divides by ("" = no column)
    std::string json;     // write the records as a JSON list to this file
};

int run_cpu_bench(CpuBenchOptions o);

} // namespace cli
