#include "keysearch/shard.hpp"

namespace kc::keysearch {

std::optional<Range> shard_range(Range whole, uint64_t i, uint64_t n)
{
    // 2^64 candidates do not fit 64 bits: the arithmetic is done in 128.
    __extension__ typedef unsigned __int128 u128;
    u128 size = u128(whole.size_minus_one()) + 1;
    u128 base = size / n, extra = size % n;
    u128 len = base + (i < extra ? 1 : 0);
    if (len == 0)
        return std::nullopt;
    u128 offset = base * i + (i < extra ? i : extra);
    uint64_t first = whole.first + uint64_t(offset);
    return Range{first, first + uint64_t(len - 1)};
}

} // namespace kc::keysearch
