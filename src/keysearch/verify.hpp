// The full check of a first-pair hit: the candidate must encrypt every known plaintext to
// its ciphertext. Hits are rare (about 2^-64 per key for a 64-bit block), so this runs on
// the reference kernel, the oracle every other kernel is tested against.
#pragma once

#include <cstdint>

#include "kit/search/problem.hpp"

namespace kc::keysearch {

bool matches_all_pairs(const Problem &p, uint64_t index);

} // namespace kc::keysearch
