#include "kit/search/lane_groups.hpp"

#include <cstring>

#include "core/wipe.hpp"

namespace kc::keysearch {

LaneGroups::LaneGroups(const Problem &p, int lane_bits) : lane_bits_(lane_bits), high_(p)
{
    std::memset(lane_, 0, sizeof lane_);
    const std::vector<MaskBit> bits = mask_bits(p);
    const int low = lane_bits < (int)bits.size() ? lane_bits : (int)bits.size();
    // The lowest `low` mask bits go to the lanes: out of the groups' mask and template.
    for (int j = 0; j < low; j++) {
        high_.mask[bits[j].byte] &= uint8_t(~bits[j].bit);
        high_.key[bits[j].byte] &= uint8_t(~bits[j].bit);
    }
    high_.unknown_bits = p.unknown_bits - low;
    for (int l = 0; l < lanes(); l++)
        for (int j = 0; j < low; j++)
            if (l >> j & 1)
                lane_[l][bits[j].byte] |= bits[j].bit;
}

LaneGroups::~LaneGroups()
{
    secure_wipe(lane_, sizeof lane_);
    secure_wipe(high_.key, sizeof high_.key);
}

} // namespace kc::keysearch
