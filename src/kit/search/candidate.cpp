// Candidate keys: issue 5's definition (the template with the bits of i deposited into the
// mask's positions, lowest mask bit first, key and mask read as big-endian numbers).
#include <cstring>

#include "core/wipe.hpp"
#include "kit/search/candidates.hpp"

namespace kc::keysearch {

std::vector<MaskBit> mask_bits(const Problem &p)
{
    size_t n = cipher_desc(p.cipher).key_bytes;
    std::vector<MaskBit> out;
    // Big-endian: the number's lowest bit is bit 0 of the last byte.
    for (size_t b = n; b-- > 0;)
        for (int bit = 0; bit < 8; bit++)
            if (p.mask[b] >> bit & 1)
                out.push_back({uint16_t(b), uint8_t(1u << bit)});
    return out;
}

void candidate_key(const Problem &p, uint64_t i, uint8_t *key_out)
{
    size_t n = cipher_desc(p.cipher).key_bytes;
    int j = 0;
    for (size_t b = n; b-- > 0;) {
        uint8_t v = uint8_t(p.key[b] & ~p.mask[b]);
        for (int bit = 0; bit < 8; bit++)
            if (p.mask[b] >> bit & 1) {
                if (j < 64 && (i >> j & 1))
                    v = uint8_t(v | 1u << bit);
                j++;
            }
        key_out[b] = v;
    }
}

CandidateWalker::CandidateWalker(const Problem &p, uint64_t first) : bits_(mask_bits(p)), index_(first)
{
    candidate_key(p, first, key_);
}

CandidateWalker::~CandidateWalker() { secure_wipe(key_, sizeof key_); }

void CandidateWalker::next()
{
    uint64_t flips = index_ ^ (index_ + 1);
    index_++;
    // Bits of the index above the mask's width never flip inside a valid range.
    for (size_t j = 0; flips != 0 && j < bits_.size(); j++, flips >>= 1)
        if (flips & 1)
            key_[bits_[j].byte] ^= bits_[j].bit;
}

} // namespace kc::keysearch
