// GCM's J0 and GHASH over a byte run (modes/gcm_parts.hpp).
#include "modes/gcm_parts.hpp"

#include <cstring>

#include "core/bytes.hpp"

namespace kc {

void ghash_bytes(const GhashKernel &g, const GhashKey &hk, uint8_t y[16], const uint8_t *p, size_t n)
{
    g.update(hk, y, p, n / 16);
    if (n % 16 != 0) {
        uint8_t last[16] = {};
        std::memcpy(last, p + n / 16 * 16, n % 16);
        g.update(hk, y, last, 1);
    }
}

void gcm_pre_counter(const GcmKey &key, const uint8_t *iv, size_t iv_len, uint8_t j0[16])
{
    if (iv_len == 12) {
        std::memcpy(j0, iv, 12);
        store_be32(j0 + 12, 1);
        return;
    }
    std::memset(j0, 0, 16);
    ghash_bytes(*key.g, key.h, j0, iv, iv_len);
    uint8_t lengths[16] = {};
    store_be64(lengths + 8, (uint64_t)iv_len * 8);
    key.g->update(key.h, j0, lengths, 1);
}

} // namespace kc
