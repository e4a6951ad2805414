// CBC (SP 800-38A 6.2). Encryption is a chain and runs on one thread, on the context's chain
// kernel (its lowest one-block latency); decryption is parallel: each plaintext block needs only
// two ciphertext blocks.
#include <cstring>
#include <vector>

#include "core/wipe.hpp"
#include "dispatch/xts_whiten_choice.hpp"
#include "kit/chain_accel.hpp"
#include "modes/block_xor.hpp"
#include "modes/modes.hpp"
#include "modes/parallel.hpp"

namespace kc {

void cbc_encrypt(const Keyed &k, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (k.chain != nullptr) { // the chain kernel's own loop: the register stays in registers
        k.chain->cbc(k.keys, iv, in, out, nblocks);
        return;
    }
    const size_t bs = k.block_bytes;
    uint8_t x[16];
    for (size_t i = 0; i < nblocks; i++) {
        for (size_t j = 0; j < bs; j++)
            x[j] = in[i * bs + j] ^ iv[j];
        k.kernel->encrypt_blocks(k.keys, x, out + i * bs, 1);
        std::memcpy(iv, out + i * bs, bs);
    }
    secure_wipe(x, sizeof x);
}

// p[i] ^= before[i] over n blocks: for 16-byte blocks the SIMD XOR of two buffers that XTS's
// whitening has (kit/xts, 32 or 64 bytes an instruction), as CFB decryption does.
static void xor_into(const uint8_t *before, uint8_t *p, size_t n, size_t bs)
{
    if (bs == 16) {
        xts_whiten_kernel().post(before, p, p, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        xor_block(p + i * bs, before + i * bs, p + i * bs, bs);
}

// Decrypts [first, first+count) given the ciphertext block before it, a batch at a time:
// the kernel decrypts straight into out, then P_i ^= C_(i-1). In place, P_i has overwritten
// C_i by then, so the batch's ciphertext (all but its last block, which is kept as the next
// batch's predecessor) is copied aside first.
static void cbc_decrypt_run(const Keyed &k, const uint8_t *prev_in, const uint8_t *in,
                            uint8_t *out, size_t count)
{
    const size_t bs = k.block_bytes;
    constexpr size_t batch_bytes = 4096;
    alignas(64) uint8_t copy[batch_bytes];
    uint8_t prev[16], next_prev[16];
    std::memcpy(prev, prev_in, bs);
    const size_t batch = batch_bytes / bs;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < batch ? count - done : batch;
        const uint8_t *c = in + done * bs;
        uint8_t *p = out + done * bs;
        std::memcpy(next_prev, c + (n - 1) * bs, bs);
        const uint8_t *before = c; // C_0 .. C_(n-2) of the batch
        if (p == c) {
            std::memcpy(copy, c, (n - 1) * bs);
            before = copy;
        }
        k.kernel->decrypt_blocks(k.keys, c, p, n);
        xor_into(before, p + bs, n - 1, bs);
        xor_block(p, prev, p, bs);
        std::memcpy(prev, next_prev, bs);
        done += n;
    }
}

void cbc_decrypt(const Keyed &k, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (nblocks == 0)
        return;
    const size_t bs = k.block_bytes;
    // In place, a chunk's predecessor block is overwritten by the neighbouring thread:
    // keep a copy of every ciphertext block before the threads start. Chunks start on
    // 64-block boundaries (parallel.cpp), so keeping each 64th block's predecessor suffices.
    std::vector<uint8_t> before((nblocks + 63) / 64 * bs);
    std::memcpy(before.data(), iv, bs);
    for (size_t b = 64, i = 1; b < nblocks; b += 64, i++)
        std::memcpy(before.data() + i * bs, in + (b - 1) * bs, bs);
    uint8_t last[16];
    std::memcpy(last, in + (nblocks - 1) * bs, bs);
    for_each_chunk(nblocks, bs, k.threads, [&](size_t first, size_t count) {
        cbc_decrypt_run(k, before.data() + first / 64 * bs, in + first * bs, out + first * bs, count);
    });
    std::memcpy(iv, last, bs);
}

} // namespace kc
