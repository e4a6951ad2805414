#include "crypt_stream.hpp"

#include "chunk_pipeline.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <fmt/core.h>

namespace cli {
namespace {

bool padded(const StreamJob &j) { return j.pad && (j.mode == KCIPHER_MODE_ECB || j.mode == KCIPHER_MODE_CBC); }

// A piece of whole blocks (the last piece of CTR, CFB, CFB8 and OFB: any length), in place;
// pos is its offset in the stream. CBC, CFB, CFB8 and OFB carry the chain in j.iv.
void transform(StreamJob &j, const kcipher::Cipher &c, uint8_t *buf, size_t n, uint64_t pos)
{
    switch (j.mode) {
    case KCIPHER_MODE_ECB:
        j.encrypt ? c.ecb_encrypt(buf, buf, n) : c.ecb_decrypt(buf, buf, n);
        break;
    case KCIPHER_MODE_CBC:
        j.encrypt ? c.cbc_encrypt(j.iv.data(), buf, buf, n) : c.cbc_decrypt(j.iv.data(), buf, buf, n);
        break;
    case KCIPHER_MODE_CTR:
        c.ctr_xor(j.iv.data(), pos / c.block_size(), buf, buf, n);
        break;
    case KCIPHER_MODE_CFB:
        j.encrypt ? c.cfb_encrypt(j.iv.data(), buf, buf, n) : c.cfb_decrypt(j.iv.data(), buf, buf, n);
        break;
    case KCIPHER_MODE_CFB8:
        j.encrypt ? c.cfb8_encrypt(j.iv.data(), buf, buf, n) : c.cfb8_decrypt(j.iv.data(), buf, buf, n);
        break;
    case KCIPHER_MODE_OFB:
        c.ofb_xor(j.iv.data(), buf, buf, n);
        break;
    default:
        throw std::logic_error("run_stream: not a streaming mode");
    }
}

// The last piece of a padded stream, in place in buf (cap bytes): the output length.
size_t transform_padded_last(StreamJob &j, const kcipher::Cipher &c, uint8_t *buf, size_t n, size_t cap,
                             const Input &in, uint64_t pos)
{
    const bool cbc = j.mode == KCIPHER_MODE_CBC;
    if (j.encrypt)
        return cbc ? c.cbc_encrypt_padded(j.iv.data(), buf, n, buf, cap) : c.ecb_encrypt_padded(buf, n, buf, cap);
    const size_t bs = c.block_size();
    if (n == 0 || n % bs != 0)
        throw std::runtime_error(fmt::format("bad decrypt: input {} is {} bytes, not a whole non-zero number of "
                                             "{}-byte blocks, so not a padded ciphertext",
                                             in.name(), pos + n, bs));
    try {
        return cbc ? c.cbc_decrypt_padded(j.iv.data(), buf, n, buf, cap) : c.ecb_decrypt_padded(buf, n, buf, cap);
    } catch (const kcipher::Error &e) {
        if (e.status() != KCIPHER_ERR_PADDING)
            throw;
        throw std::runtime_error(fmt::format("bad decrypt: the last block of {} does not end in PKCS#7 padding "
                                             "(a wrong key or IV, or a ciphertext made with --nopad)",
                                             in.name()));
    }
}

void check_whole_blocks(const StreamJob &j, const Input &in, size_t n, uint64_t pos)
{
    if ((j.mode == KCIPHER_MODE_ECB || j.mode == KCIPHER_MODE_CBC) && n % j.cipher.block_size() != 0)
        throw std::runtime_error(fmt::format("input {} ends with a partial block ({} bytes in all): --nopad "
                                             "takes whole blocks only",
                                             in.name(), pos + n));
}

// The cipher for the next chunk: the GPU's once it has started (or after waiting for it, when
// the CPU does not stand in), else the CPU's.
const kcipher::Cipher &cipher_for_chunk(StreamJob &j, bool stand_in)
{
    if (j.gpu == nullptr)
        return j.cipher;
    const kcipher::Cipher *g = j.gpu->get(!stand_in);
    return g != nullptr ? *g : j.cipher;
}

} // namespace

size_t stream_chunk_bytes(unsigned cipher_threads, bool gpu)
{
    constexpr size_t mib = 1 << 20; // a multiple of every block size
    return gpu ? 4 * mib : std::clamp<size_t>(cipher_threads, 1, 4) * mib;
}

void run_stream(StreamJob &j, Input &in, AtomicOutput &out, Progress &bar)
{
    const size_t bs = j.cipher.block_size();
    // Padded decryption keeps the last block of a full chunk for the next one (only at the
    // end of the input is it known to be the block whose pad is checked): it goes into the
    // next chunk's front room. The back room takes the pad of encryption.
    const bool hold_last = padded(j) && !j.encrypt;
    ChunkPipeline pipe(in, out, j.chunk, bs, bs);
    uint8_t carry[16];
    size_t carried = 0;
    uint64_t pos = 0; // input bytes transformed before this chunk's first
    const bool stand_in = in.sized() && in.size() >= gpu_stand_in_min_bytes && out.all_or_nothing();
    for (;;) {
        Chunk &c = pipe.next();
        uint8_t *b = c.data - carried;
        std::memcpy(b, carry, carried);
        const size_t m = carried + c.n;
        if (!c.last) {
            const size_t now = hold_last ? m - bs : m;
            transform(j, cipher_for_chunk(j, stand_in), b, now, pos);
            carried = m - now;
            std::memcpy(carry, b + now, carried);
            pos += now;
            pipe.emit(c, b, now);
            bar.update(pos);
            continue;
        }
        size_t n = m;
        const kcipher::Cipher &cipher = cipher_for_chunk(j, stand_in);
        if (padded(j)) {
            n = transform_padded_last(j, cipher, b, m, m + bs, in, pos);
        } else {
            check_whole_blocks(j, in, m, pos);
            transform(j, cipher, b, m, pos);
        }
        if (j.gpu != nullptr)
            j.gpu->get(true); // a GPU that never started is an error, even if the CPU did all the work
        pipe.emit(c, b, n);
        pipe.finish();
        bar.update(pos + m);
        return;
    }
}

} // namespace cli
