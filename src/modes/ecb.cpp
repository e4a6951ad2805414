#include "modes/modes.hpp"
#include "modes/parallel.hpp"

namespace kc {

void ecb_encrypt(const Keyed &k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const size_t bs = k.block_bytes;
    for_each_chunk(nblocks, bs, k.threads, [&](size_t first, size_t count) {
        k.kernel->encrypt_blocks(k.keys, in + first * bs, out + first * bs, count);
    });
}

void ecb_decrypt(const Keyed &k, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const size_t bs = k.block_bytes;
    for_each_chunk(nblocks, bs, k.threads, [&](size_t first, size_t count) {
        k.kernel->decrypt_blocks(k.keys, in + first * bs, out + first * bs, count);
    });
}

} // namespace kc
