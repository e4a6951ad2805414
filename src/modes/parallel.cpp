#include "modes/parallel.hpp"

#include <thread>
#include <vector>

namespace kc {

unsigned resolve_threads(unsigned requested)
{
    if (requested != 0)
        return requested;
    // hardware_concurrency() reads /sys on every call (microseconds): once is enough.
    static const unsigned hw = [] {
        unsigned n = std::thread::hardware_concurrency();
        return n == 0 ? 1u : n;
    }();
    return hw;
}

void for_each_chunk_threaded(size_t nblocks, size_t block_bytes, unsigned threads,
                             const std::function<void(size_t, size_t)> &fn)
{
    size_t bytes = nblocks * block_bytes;
    size_t max_chunks = bytes / (parallel_min_bytes / 2);
    size_t n = resolve_threads(threads);
    if (n > max_chunks)
        n = max_chunks;
    if (n <= 1) {
        fn(0, nblocks);
        return;
    }
    // Chunk boundaries on 64-block multiples keep SIMD kernels on full batches. Rounding
    // the chunk size up (never down) makes n chunks always reach the last block.
    size_t per = ((nblocks + n - 1) / n + 63) / 64 * 64;
    std::vector<std::thread> pool;
    pool.reserve(n - 1);
    for (size_t first = per; first < nblocks; first += per)
        pool.emplace_back(fn, first, nblocks - first < per ? nblocks - first : per);
    fn(0, per < nblocks ? per : nblocks);
    for (std::thread &t : pool)
        t.join();
}

} // namespace kc
