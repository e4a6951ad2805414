// CFB with 8-bit segments (SP 800-38A 6.3, s = 8; OpenSSL's -cfb8): each byte is XORed with
// the first byte of E(register), then the register shifts left by one byte and takes the
// ciphertext byte. One block encryption per byte, each waiting for the byte before, in both
// directions: a chain on the chain kernel, at one block's latency per byte.
#include <cstring>

#include "core/wipe.hpp"
#include "modes/feedback.hpp"

namespace kc {
namespace {

void cfb8(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len, bool decrypt)
{
    const size_t bs = chain.block_bytes;
    alignas(16) uint8_t reg[16], ks[16];
    std::memcpy(reg, iv, bs);
    for (size_t i = 0; i < len; i++) {
        chain.kernel->encrypt_blocks(chain.keys, reg, ks, 1);
        const uint8_t p = in[i]; // read before out[i] is written: in place
        const uint8_t c = (uint8_t)(p ^ ks[0]);
        out[i] = c;
        std::memmove(reg, reg + 1, bs - 1);
        reg[bs - 1] = decrypt ? p : c;
    }
    std::memcpy(iv, reg, bs);
    secure_wipe_each(reg, ks);
}

} // namespace

void cfb8_encrypt(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
    cfb8(chain, iv, in, out, len, false);
}

void cfb8_decrypt(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
    cfb8(chain, iv, in, out, len, true);
}

} // namespace kc
