// Splitting a long run of blocks over threads. Chunks are contiguous and each is computed
// exactly as one thread would compute it, so the output never depends on the thread count.
#pragma once

#include <cstddef>
#include <functional>

namespace kc {

// Below this many bytes a call stays on the calling thread: starting a thread costs more
// than it saves (tens of microseconds against a few hundred for 256 KiB at 1 GB/s).
constexpr size_t parallel_min_bytes = 256 * 1024;

unsigned resolve_threads(unsigned requested); // 0 -> hardware threads (read once)

// The threaded path of for_each_chunk.
void for_each_chunk_threaded(size_t nblocks, size_t block_bytes, unsigned threads,
                             const std::function<void(size_t, size_t)> &fn);

// Calls fn(first_block, block_count) over [0, nblocks) in contiguous chunks, on up to
// `threads` threads, and returns when all are done. A template so that small calls, the
// common case, cost one direct call (no std::function, no allocation).
template <class Fn>
inline void for_each_chunk(size_t nblocks, size_t block_bytes, unsigned threads, Fn &&fn)
{
    if (threads == 1 || nblocks * block_bytes < parallel_min_bytes) {
        fn(size_t(0), nblocks);
        return;
    }
    for_each_chunk_threaded(nblocks, block_bytes, threads, std::function<void(size_t, size_t)>(fn));
}

} // namespace kc
