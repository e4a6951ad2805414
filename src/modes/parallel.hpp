// Splitting a long run of blocks over threads. Chunks are contiguous and each is computed
// exactly as one thread would compute it, so the output never depends on the thread count.
#pragma once

#include <cstddef>
#include <functional>

namespace kc {

// Below this many bytes a call stays on the calling thread: starting a thread costs more
// than it saves (tens of microseconds against a few hundred for 256 KiB at 1 GB/s).
constexpr size_t parallel_min_bytes = 256 * 1024;

unsigned resolve_threads(unsigned requested); // 0 -> hardware threads

// Calls fn(first_block, block_count) over [0, nblocks) in contiguous chunks, on up to
// `threads` threads, and returns when all are done.
void for_each_chunk(size_t nblocks, size_t block_bytes, unsigned threads,
                    const std::function<void(size_t, size_t)> &fn);

} // namespace kc
