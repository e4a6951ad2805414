// Large outputs as the standard allows them (issue 6, item 3): N bytes are served as
// consecutive generate requests of max_request_bytes (the last shorter), with no additional
// input. Request i's output is the CTR keystream E_Key_i(V_i + 1), E_Key_i(V_i + 2), ..., and
// its Update step gives (Key_{i+1}, V_{i+1}): a chain that is sequential by definition but
// cheap (one key schedule and ceil(seedlen/blocklen) blocks per request), while the output
// blocks of all requests are independent.
//
// So every backend runs the same two steps: plan_segments on the CPU walks the chain and
// yields one Segment per request; then any CTR kernel (CPU threads here, GPUs in
// src/cuda) fills each segment's bytes. The bytes are exactly those of calling generate()
// request by request (tests/test_drbg.cpp checks it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "drbg/accelerations.hpp"
#include "drbg/ctr_drbg.hpp"

namespace kc::drbg {

struct Segment {
    uint8_t key[32];     // the request's Key (limits().key_bytes used): secret, wipe after use
    uint8_t counter[16]; // its first output block's counter V + 1 (limits().block_bytes used)
    size_t bytes;        // its output bytes; segment i starts at i * max_request_bytes
};

// Takes each request's Segment as the chain plans it, in order. The Segment passed is wiped
// after the call: a sink that keeps key material keeps its own copy (and wipes it).
class SegmentSink {
  public:
    virtual void put(const Segment &s) = 0; // must not throw

  protected:
    ~SegmentSink() = default;
};

// Walks the chain for the next `len` bytes: for each request, what generate() does except
// its output blocks (a reseed when prediction resistance asks or the interval is reached,
// the Update, the reseed counter), giving its Segment to `out`. On an error, the state
// stands after the last request planned, which was the last one given.
// `a` is that of d's cipher (accelerations.hpp): its fused block function, where it has one,
// computes the Updates from the raw Key, with no key state.
kcipher_status plan_segments(Drbg &d, const Accelerations &a, size_t len, bool prediction_resistance,
                             SegmentSink &out);

// The same, appending to a vector (room for every request is made first: a bad_alloc leaves
// the state as it was).
kcipher_status plan_segments(Drbg &d, const Accelerations &a, size_t len, bool prediction_resistance,
                             std::vector<Segment> &out);

// Wipes the keys (and counters) of the segments and empties the vector.
void wipe_segments(std::vector<Segment> &segments);

} // namespace kc::drbg
