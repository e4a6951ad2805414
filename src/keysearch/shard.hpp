// --shard I/N and MPI ranks: the I-th of N parts of a candidate range, an exact cover (every
// candidate in exactly one part), sizes differing by at most one (the first size % N parts
// take one more).
#pragma once

#include <cstdint>
#include <optional>

#include "keysearch/ranges.hpp"

namespace kc::keysearch {

// whole.first..whole.last may span all 2^64 indices. nullopt when part i is empty (N larger
// than the range). Requires 0 <= i < n.
std::optional<Range> shard_range(Range whole, uint64_t i, uint64_t n);

} // namespace kc::keysearch
