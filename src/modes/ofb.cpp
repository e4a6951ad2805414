// OFB (SP 800-38A 6.4; OpenSSL's -ofb): O_i = E(O_{i-1}), O_{-1} = IV, and the text is XORed
// with O_0, O_1, ...; a last partial block takes the first bytes of its O_i. The keystream
// depends on nothing but the IV, yet each block is the encryption of the one before: a chain
// on the chain kernel, at one block's latency, in both directions (they are one operation).
#include <cstring>

#include "core/wipe.hpp"
#include "kit/chain_accel.hpp"
#include "modes/block_xor.hpp"
#include "modes/feedback.hpp"

namespace kc {

void ofb_xor(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
    const size_t bs = chain.block_bytes;
    const size_t nblocks = len / bs;
    alignas(16) uint8_t o[16];
    std::memcpy(o, iv, bs);
    if (chain.chain != nullptr) { // the chain kernel's own loop
        chain.chain->ofb(chain.keys, o, in, out, nblocks);
    } else {
        for (size_t i = 0; i < nblocks; i++) {
            chain.kernel->encrypt_blocks(chain.keys, o, o, 1);
            xor_block(o, in + i * bs, out + i * bs, bs);
        }
    }
    if (len % bs != 0) {
        chain.kernel->encrypt_blocks(chain.keys, o, o, 1);
        for (size_t j = 0; j < len % bs; j++)
            out[nblocks * bs + j] = (uint8_t)(in[nblocks * bs + j] ^ o[j]);
    }
    std::memcpy(iv, o, bs);
    secure_wipe(o, sizeof o);
}

} // namespace kc
