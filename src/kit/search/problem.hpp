// One exhaustive key search: a cipher, known (plaintext, ciphertext) block pairs, a key
// template and the mask of its unknown bits. Shared by the CPU driver and the GPU search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/cipher.hpp"

namespace kc::keysearch {

struct Pair {
    uint8_t pt[16]; // block_bytes of the cipher used
    uint8_t ct[16];
};

struct Problem {
    Cipher cipher;
    std::vector<Pair> pairs; // at least one
    uint8_t key[32];         // template: key_bytes used; bits under the mask are ignored
    uint8_t mask[32];        // unknown bits: key_bytes used, at most 64 set
    int unknown_bits;        // popcount of mask
};

// Candidate i is the template with the bits of i deposited into the mask's positions,
// lowest mask bit first. Key and mask read as big-endian numbers, so the lowest bit is
// bit 0 of the last byte.
void candidate_key(const Problem &p, uint64_t i, uint8_t *key_out);

} // namespace kc::keysearch
