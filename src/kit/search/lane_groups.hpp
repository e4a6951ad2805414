// Candidates in lane groups, for the CPU searchers that test one key per SIMD lane
// (cpu_searcher.hpp), as the GPU's bitsliced HIGHT searcher does (gpu_search.cuh).
//
// A group is the 2^lane_bits consecutive indices g·2^lane_bits + l (l = 0 .. 2^lane_bits - 1).
// They differ only in the lowest lane_bits mask bits, so lane l's key is
//   base(g) | lane_key(l):
// base(g) is the template with g deposited into the higher mask bits (candidate g of
// groups(), stepped from group to group by a CandidateWalker: a few byte flips per group), and
// lane_key(l) is l deposited into the lowest lane_bits mask bits, zero elsewhere. A searcher
// builds its per-lane key vectors from lane_key once per call, then per group ORs in the
// broadcast base.
//
// Ranges that do not start or end on a group boundary: the lanes outside [first, first+count)
// (and, when the mask has fewer than lane_bits bits, the lanes past 2^bits, which repeat
// keys) are computed like the others, and their hits are dropped: search_lane_groups keeps a
// hit only when its index is inside the range.
#pragma once

#include <cstdint>
#include <vector>

#include "kit/search/candidates.hpp"
#include "kit/search/problem.hpp"

namespace kc::keysearch {

constexpr int max_lane_bits = 6; // 64 lanes: byte-sliced in a zmm register

class LaneGroups {
  public:
    LaneGroups(const Problem &p, int lane_bits);
    ~LaneGroups(); // wipes the key material
    LaneGroups(const LaneGroups &) = delete;
    LaneGroups &operator=(const LaneGroups &) = delete;

    int lane_bits() const { return lane_bits_; }
    int lanes() const { return 1 << lane_bits_; }
    const uint8_t *lane_key(int l) const { return lane_[l]; }
    const Problem &groups() const { return high_; } // candidate g: group g's base key

  private:
    int lane_bits_;
    Problem high_;
    uint8_t lane_[1 << max_lane_bits][32];
};

// Calls test(base_key) for every group that meets [first, first + count); test returns the
// bit mask of the lanes whose key encrypts pairs[0].pt to pairs[0].ct, and those inside the
// range are appended to hits in index order.
template <class Test>
void search_lane_groups(const LaneGroups &lg, uint64_t first, uint64_t count, std::vector<uint64_t> &hits,
                        Test &&test)
{
    if (count == 0)
        return;
    const int shift = lg.lane_bits();
    const uint64_t last = first + (count - 1); // no overflow: the range is inside 2^64
    const uint64_t g_last = last >> shift;
    CandidateWalker walk(lg.groups(), first >> shift);
    for (uint64_t g = first >> shift;; g++) {
        uint64_t m = test(walk.key());
        while (m != 0) { // rare: a key, or a 2^-64 (2^-128) coincidence
            const uint64_t i = (g << shift) + uint64_t(__builtin_ctzll(m));
            m &= m - 1;
            if (i - first < count)
                hits.push_back(i);
        }
        if (g == g_last)
            break;
        walk.next();
    }
}

} // namespace kc::keysearch
