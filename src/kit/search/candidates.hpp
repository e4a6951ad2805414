// Walking the candidate keys of a Problem in index order. Candidate i+1 differs from
// candidate i only in the mask positions of the bits that i -> i+1 flips (two on average),
// so the walk flips those instead of depositing all of i again: the inner loop of the CPU
// search then costs a few byte operations per key besides the cipher.
#pragma once

#include <cstdint>
#include <vector>

#include "kit/search/problem.hpp"

namespace kc::keysearch {

// Where mask bit j (j = 0 the lowest) sits in the key: a byte index and a bit in it.
struct MaskBit {
    uint16_t byte;
    uint8_t bit;
};

std::vector<MaskBit> mask_bits(const Problem &p); // lowest first, unknown_bits entries

class CandidateWalker {
  public:
    CandidateWalker(const Problem &p, uint64_t first); // key() is candidate `first`
    ~CandidateWalker();                                // wipes the key
    CandidateWalker(const CandidateWalker &) = delete;
    CandidateWalker &operator=(const CandidateWalker &) = delete;

    const uint8_t *key() const { return key_; }
    uint64_t index() const { return index_; }
    void next(); // candidate index()+1 (wraps at 2^64 like the index)

  private:
    std::vector<MaskBit> bits_;
    uint64_t index_;
    uint8_t key_[32];
};

} // namespace kc::keysearch
