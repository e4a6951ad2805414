#include "drbg/block_cipher.hpp"

#include <cstring>

#include "core/counter.hpp"
#include "core/wipe.hpp"

namespace kc::drbg {

void keystream_bytes(const BlockCipher &c, const uint8_t *ctr, uint8_t *out, size_t len)
{
    const size_t bs = c.block_bytes(), full = len / bs, tail = len % bs;
    c.keystream(ctr, out, full);
    if (tail != 0) {
        uint8_t last[16], block[16];
        std::memcpy(last, ctr, bs);
        counter_add(last, bs, full);
        c.keystream(last, block, 1);
        std::memcpy(out + full * bs, block, tail);
        secure_wipe(block, sizeof block);
    }
}

} // namespace kc::drbg
