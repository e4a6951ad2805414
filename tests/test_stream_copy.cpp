// kc::stream_copy (src/core/stream_copy.cpp): the same bytes as memcpy for every size around
// its non-temporal threshold and every destination and source misalignment, and nothing
// written outside the destination.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "core/stream_copy.hpp"

TEST(StreamCopy, SameBytesAsMemcpyAnyAlignmentAndSize)
{
    std::mt19937 g(7);
    const size_t sizes[] = {0, 1, 63, 64, 65, (64 << 10) - 1, 64 << 10, (64 << 10) + 1, (1 << 20) + 37};
    for (size_t n : sizes)
        for (size_t da : {0, 1, 31, 63})
            for (size_t sa : {0, 5, 64}) {
                std::vector<uint8_t> src(n + sa), dst(n + da + 128, 0xa5);
                for (auto &b : src)
                    b = (uint8_t)g();
                kc::stream_copy(dst.data() + da, src.data() + sa, n);
                for (size_t i = 0; i < da; i++)
                    ASSERT_EQ(dst[i], 0xa5) << "byte before, n=" << n;
                ASSERT_TRUE(std::equal(src.begin() + sa, src.end(), dst.begin() + da)) << "n=" << n << " da=" << da;
                for (size_t i = da + n; i < dst.size(); i++)
                    ASSERT_EQ(dst[i], 0xa5) << "byte after, n=" << n;
            }
}
