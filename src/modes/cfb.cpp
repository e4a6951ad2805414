// CFB with full-block segments (SP 800-38A 6.3, s = the block size; OpenSSL's -cfb):
// C_i = P_i ^ E(C_{i-1}), C_{-1} = IV. Encryption is a chain: each block waits for the one
// before, so it runs on the chain kernel at one block's latency. Decryption is parallel: the
// keystream is ECB over IV, C_0, C_1, ..., so it runs on the throughput kernel in batches
// across threads, as CBC decryption does.
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/wipe.hpp"
#include "dispatch/xts_whiten_choice.hpp"
#include "kit/chain_accel.hpp"
#include "modes/block_xor.hpp"
#include "modes/feedback.hpp"
#include "modes/parallel.hpp"

namespace kc {
namespace {

// A last segment of n < bs bytes, as OpenSSL's CRYPTO_cfb128_encrypt leaves its register:
// x = E(x), then each byte of the segment XORed in, the ciphertext byte kept in x.
void cfb_partial(const Keyed &k, uint8_t *x, const uint8_t *in, uint8_t *out, size_t n, bool decrypt)
{
    k.kernel->encrypt_blocks(k.keys, x, x, 1);
    for (size_t j = 0; j < n; j++) {
        const uint8_t c = decrypt ? in[j] : (uint8_t)(in[j] ^ x[j]);
        out[j] = (uint8_t)(in[j] ^ x[j]);
        x[j] = c;
    }
}

// P_i = C_i ^ ks_i over n blocks, except the last, whose plaintext goes to held instead.
// 16-byte blocks take the SIMD XOR of two buffers that XTS's whitening has (kit/xts, 32 or 64
// bytes an instruction) rather than one 16-byte XOR a block.
void xor_all_but_last(const uint8_t *ks, const uint8_t *c, uint8_t *p, size_t n, uint8_t *held, size_t bs)
{
    if (bs == 16) {
        xts_whiten_kernel().post(ks, c, p, n - 1);
    } else {
        for (size_t i = 0; i + 1 < n; i++)
            xor_block(ks + i * bs, c + i * bs, p + i * bs, bs);
    }
    xor_block(ks + (n - 1) * bs, c + (n - 1) * bs, held, bs);
}

// Decrypts the whole blocks [0, count) of one chunk given the ciphertext block before it.
// Block i's keystream is E(C_{i-1}), so the kernel reads the ciphertext itself, one block
// behind, without a copy. In place, a batch's last plaintext block would overwrite the
// ciphertext that the next batch reads first: it is held back until that kernel call is done.
// Only the first batch, whose first input is the predecessor kept apart, goes through a copy,
// and it is one kernel step long.
void cfb_decrypt_run(const Keyed &k, const uint8_t *prev_in, const uint8_t *in, uint8_t *out, size_t count)
{
    const size_t bs = k.block_bytes;
    constexpr size_t batch_bytes = 4096;
    alignas(64) uint8_t ks[batch_bytes];
    uint8_t held[16];
    const size_t batch = batch_bytes / bs;
    size_t n = std::min({count, batch, std::max<size_t>(k.kernel->batch_blocks, 1)});
    std::memcpy(ks, prev_in, bs);
    std::memcpy(ks + bs, in, (n - 1) * bs);
    k.kernel->encrypt_blocks(k.keys, ks, ks, n);
    xor_all_but_last(ks, in, out, n, held, bs);
    for (size_t done = n; done < count; done += n) {
        n = std::min(count - done, batch);
        k.kernel->encrypt_blocks(k.keys, in + (done - 1) * bs, ks, n);
        std::memcpy(out + (done - 1) * bs, held, bs);
        xor_all_but_last(ks, in + done * bs, out + done * bs, n, held, bs);
    }
    std::memcpy(out + (count - 1) * bs, held, bs);
    secure_wipe_each(ks, held);
}

// The whole blocks, iv updated to the last ciphertext block. In place, a chunk's predecessor
// block is overwritten by the neighbouring thread: keep a copy of each chunk's predecessor
// before the threads start (chunks start on 64-block boundaries, parallel.cpp), and of the
// last ciphertext block.
void cfb_decrypt_blocks(const Keyed &k, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t nblocks)
{
    const size_t bs = k.block_bytes;
    // On the stack up to 64 chunks (64 KiB of 16-byte blocks): no allocation per message.
    const size_t chunks = (nblocks + 63) / 64;
    uint8_t small[64 * 16];
    std::vector<uint8_t> large(chunks > 64 ? chunks * bs : 0);
    uint8_t *before = chunks > 64 ? large.data() : small;
    std::memcpy(before, iv, bs);
    for (size_t b = 64, i = 1; b < nblocks; b += 64, i++)
        std::memcpy(before + i * bs, in + (b - 1) * bs, bs);
    uint8_t last[16];
    std::memcpy(last, in + (nblocks - 1) * bs, bs);
    for_each_chunk(nblocks, bs, k.threads, [&](size_t first, size_t count) {
        cfb_decrypt_run(k, before + first / 64 * bs, in + first * bs, out + first * bs, count);
    });
    std::memcpy(iv, last, bs);
}

} // namespace

void cfb_encrypt(const Keyed &chain, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
    const size_t bs = chain.block_bytes;
    const size_t nblocks = len / bs;
    alignas(16) uint8_t x[16];
    std::memcpy(x, iv, bs);
    if (chain.chain != nullptr) { // the chain kernel's own loop
        chain.chain->cfb(chain.keys, x, in, out, nblocks);
    } else {
        for (size_t i = 0; i < nblocks; i++) {
            chain.kernel->encrypt_blocks(chain.keys, x, x, 1);
            xor_block(x, in + i * bs, out + i * bs, bs, x);
        }
    }
    if (len % bs != 0)
        cfb_partial(chain, x, in + nblocks * bs, out + nblocks * bs, len % bs, false);
    std::memcpy(iv, x, bs);
    secure_wipe(x, sizeof x);
}

void cfb_decrypt(const Keyed &k, uint8_t *iv, const uint8_t *in, uint8_t *out, size_t len)
{
    const size_t bs = k.block_bytes;
    const size_t nblocks = len / bs;
    if (nblocks > 0)
        cfb_decrypt_blocks(k, iv, in, out, nblocks);
    if (len % bs != 0) {
        alignas(16) uint8_t x[16];
        std::memcpy(x, iv, bs);
        cfb_partial(k, x, in + nblocks * bs, out + nblocks * bs, len % bs, true);
        std::memcpy(iv, x, bs);
        secure_wipe(x, sizeof x);
    }
}

} // namespace kc
