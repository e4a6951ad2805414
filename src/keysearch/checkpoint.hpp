// The checkpoint of a key search: a small text file that says which search it belongs to
// (the arguments themselves, so a mismatch can be refused), which candidate ranges are
// finished and every key found so far. Written whole to a temporary file beside the target,
// fsynced and renamed over it, so a crash leaves the old or the new file, never a torn one.
#pragma once

#include <string>
#include <vector>

#include "kcipher/kcipher.h"
#include "kit/search/problem.hpp"
#include "keysearch/ranges.hpp"

namespace kc::keysearch {

struct Found {
    uint64_t index;
    std::vector<uint8_t> key;
};

struct CheckpointState {
    RangeSet finished;
    std::vector<Found> found;
};

// The lines that identify a search: cipher, pairs, key template (unknown bits cleared), mask
// and range. Two searches with the same fingerprint test the same candidates.
std::string checkpoint_fingerprint(const Problem &p, Range range);

// KCIPHER_OK with *exists false when there is no file; KCIPHER_ERR_CHECKPOINT_MISMATCH when
// it belongs to another search; KCIPHER_ERR_CHECKPOINT when it cannot be read or is damaged.
kcipher_status load_checkpoint(const std::string &path, const std::string &fingerprint, bool *exists,
                               CheckpointState *out);

// KCIPHER_ERR_CHECKPOINT when the file cannot be written (the old one is then left as it was).
kcipher_status save_checkpoint(const std::string &path, const std::string &fingerprint,
                               const CheckpointState &st);

} // namespace kc::keysearch
