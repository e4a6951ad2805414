// Which message of a GCM pass (cuda/gcm_pass.hpp) a segment belongs to: the fused pass and the
// lift both take segments by their index in the whole pass and need their message and the
// message's first segment. seg_end holds the messages' inclusive segment sums (seal/open), so
// the owner is the first message whose sum exceeds the index: a binary search over n entries,
// public lengths only.
#pragma once

#include <cstdint>

#include "cuda/gcm_pass.hpp"

namespace kc {

struct GcmSegmentOwner {
    uint32_t m;     // the message
    uint64_t first; // its first segment's index in the pass
};

__device__ inline GcmSegmentOwner gcm_segment_owner(const GcmPass &pass, uint64_t seg)
{
    uint32_t lo = 0, hi = pass.n - 1;
    while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (pass.seg_end[mid] > seg)
            hi = mid;
        else
            lo = mid + 1;
    }
    return {lo, lo ? pass.seg_end[lo - 1] : 0};
}

} // namespace kc
