// Write prefetch for output that is written without being read first: the DRBG's keystream.
//
// Why: a store that misses the cache holds up the stores behind it until its line arrives,
// and the hardware prefetchers, which follow loads, do not run ahead of a store-only stream.
// CTR in place loads each block before storing it, so its destination arrives early; the
// DRBG's keystream does not, and on the Zen 4 VM of docs/performance.md it ran at 0.80-0.85
// of the in-place CTR rate into the same cold 32 MiB buffer. Asking for the lines 2 KiB ahead,
// 1 KiB (16 lines) per kernel step, recovers it for ARIA (DRBG/CTR 0.83 -> 0.92). Larger
// bursts (32 lines and up), or only part of each slice, were slower than no prefetch: the
// requests queue behind the core's few miss buffers and stall the kernel; so did one
// prefetch of a whole 64 KiB request at once (CHAM-128/128: 412 against 368 ns per KiB). A
// prefetch never faults and changes no byte.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kc {

constexpr size_t write_prefetch_slice = 1024; // lines asked for at once, at most
constexpr size_t write_prefetch_ahead = 2048; // how far ahead of the stores

inline void prefetch_for_write(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i += 64)
        __builtin_prefetch(p + i, 1, 3);
}

} // namespace kc
