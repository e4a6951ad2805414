// The checkpoint of a key search: a small text file that says which search it belongs to
// (the arguments themselves, so a mismatch can be refused), which candidate ranges are
// finished and every key found so far, and ends with a checksum of everything above it.
// Written whole to a temporary file beside the target, fsynced and renamed over it, so a
// crash leaves the old or the new file, never a torn one.
//
// Trust: the checksum (FNV-1a, 64 bits) detects accidental damage, not tampering; anyone who
// can write the file can write a valid checksum. So every field is also checked against the
// search it claims to continue (ranges inside the range, ordered, disjoint; found keys inside
// it), and the driver tests every found key against every pair before it reports one: a
// forged file can make a search skip candidates, never report a wrong key.
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
// it belongs to another search; KCIPHER_ERR_CHECKPOINT_DAMAGED when its checksum fails or a
// field does not fit `range` (a finished range outside it or out of order, a key's index
// outside it); KCIPHER_ERR_CHECKPOINT when it cannot be read, with errno set to why.
kcipher_status load_checkpoint(const std::string &path, const std::string &fingerprint, Range range, bool *exists,
                               CheckpointState *out);

// KCIPHER_ERR_CHECKPOINT when the file cannot be written (the old one is then left as it
// was), with errno set to why.
kcipher_status save_checkpoint(const std::string &path, const std::string &fingerprint,
                               const CheckpointState &st);

// The text saved for `st`, checksum line included (what the tests damage).
std::string checkpoint_text(const std::string &fingerprint, const CheckpointState &st);

} // namespace kc::keysearch
