#include "modes/parallel.hpp"

#include <thread>
#include <vector>

namespace kc {

unsigned resolve_threads(unsigned requested)
{
    if (requested != 0)
        return requested;
    unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : hw;
}

void for_each_chunk(size_t nblocks, size_t block_bytes, unsigned threads,
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
    // Chunk boundaries on 64-block multiples keep SIMD kernels on full batches.
    size_t per = (nblocks / n + 63) / 64 * 64;
    std::vector<std::thread> pool;
    pool.reserve(n - 1);
    size_t first = per;
    for (size_t i = 1; i < n && first < nblocks; i++, first += per) {
        size_t count = nblocks - first < per ? nblocks - first : per;
        pool.emplace_back(fn, first, count);
    }
    fn(0, per < nblocks ? per : nblocks);
    for (std::thread &t : pool)
        t.join();
}

} // namespace kc
