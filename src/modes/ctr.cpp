// CTR (SP 800-38A 6.5) with the whole block as a big-endian counter, as OpenSSL counts.
// Each thread derives its own starting counter, so chunks are independent.
#include <cstring>

#include "core/counter.hpp"
#include "core/wipe.hpp"
#include "modes/modes.hpp"
#include "modes/parallel.hpp"

namespace kc {

void ctr_xor(const Keyed &k, const uint8_t *iv, uint64_t block_offset, const uint8_t *in,
             uint8_t *out, size_t len)
{
    const size_t bs = k.block_bytes;
    const size_t full = len / bs, tail = len % bs;
    uint8_t start[16];
    std::memcpy(start, iv, bs);
    counter_add(start, bs, block_offset);

    for_each_chunk(full, bs, k.threads, [&](size_t first, size_t count) {
        uint8_t ctr[16];
        std::memcpy(ctr, start, bs);
        counter_add(ctr, bs, first);
        k.kernel->ctr_xor_blocks(k.keys, ctr, in + first * bs, out + first * bs, count);
    });

    if (tail != 0) { // the partial last block uses the first bytes of one more keystream block
        uint8_t ctr[16], block[16] = {0};
        std::memcpy(ctr, start, bs);
        counter_add(ctr, bs, full);
        std::memcpy(block, in + full * bs, tail);
        k.kernel->ctr_xor_blocks(k.keys, ctr, block, block, 1);
        std::memcpy(out + full * bs, block, tail);
        secure_wipe(block, sizeof block);
    }
}

} // namespace kc
