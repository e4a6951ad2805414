// The thread split of the modes: every block exactly once, chunks on 64-block boundaries
// (CBC decryption relies on it), whatever the length and thread count.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "modes/parallel.hpp"

namespace {

TEST(Parallel, EveryBlockExactlyOnceOnBoundaries)
{
    const size_t bs = 16, min_blocks = kc::parallel_min_bytes / bs;
    for (unsigned threads : {1u, 2u, 3u, 5u, 7u, 8u, 16u, 33u, 64u}) {
        const std::vector<size_t> lengths = {0,     1,     min_blocks - 1, min_blocks, min_blocks + 3,
                                             65536, 65539, 100003,         1u << 20,   (1u << 20) + 63};
        for (size_t nblocks : lengths) {
            std::vector<std::atomic<int>> seen(nblocks);
            std::mutex m;
            std::vector<size_t> starts;
            kc::for_each_chunk(nblocks, bs, threads, [&](size_t first, size_t count) {
                for (size_t i = first; i < first + count; i++)
                    seen[i]++;
                std::lock_guard<std::mutex> g(m);
                starts.push_back(first);
            });
            for (size_t i = 0; i < nblocks; i++)
                ASSERT_EQ(1, seen[i].load()) << "block " << i << " of " << nblocks << ", " << threads << " threads";
            EXPECT_LE(starts.size(), std::max<size_t>(threads, 1));
            for (size_t s : starts)
                EXPECT_EQ(0u, s % 64) << "chunk start " << s;
        }
    }
}

} // namespace
