// Sets of candidate indices as sorted, disjoint, inclusive intervals: the finished part of
// a search, kept exact whatever order chunks finish in, and what is left to do. Inclusive
// ends, so that the last index of a 64-bit space (2^64 - 1) needs no 65th bit.
#pragma once

#include <cstdint>
#include <vector>

namespace kc::keysearch {

struct Range {
    uint64_t first, last; // inclusive
    uint64_t size_minus_one() const { return last - first; }
};

class RangeSet {
  public:
    void add(Range r);                                     // merges with neighbours
    const std::vector<Range> &ranges() const { return v_; }
    std::vector<Range> missing_from(Range whole) const;    // whole minus this set
    uint64_t count_within(Range whole) const;              // saturates at 2^64 - 1
    bool contains(uint64_t i) const;

  private:
    std::vector<Range> v_;
};

} // namespace kc::keysearch
