#include "crypt_stream.hpp"

#include "chunk_pipeline.hpp"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/core.h>

namespace cli {
namespace {

// A multiple of every block size. Four of them go round (chunk_pipeline.hpp): 16 MiB in all.
constexpr size_t chunk_bytes = 4 << 20;

bool padded(const StreamJob &j) { return j.pad && (j.mode == KCIPHER_MODE_ECB || j.mode == KCIPHER_MODE_CBC); }

// A piece of whole blocks (the last piece of CTR, CFB, CFB8 and OFB: any length), from in
// to buf (the same or apart); pos is its offset in the stream. CBC, CFB, CFB8 and OFB carry
// the chain in j.iv.
void transform(const StreamJob &j, uint8_t *iv, const uint8_t *in, uint8_t *buf, size_t n, uint64_t pos)
{
    const kcipher::Cipher &c = j.cipher;
    switch (j.mode) {
    case KCIPHER_MODE_ECB:
        j.encrypt ? c.ecb_encrypt(in, buf, n) : c.ecb_decrypt(in, buf, n);
        break;
    case KCIPHER_MODE_CBC:
        j.encrypt ? c.cbc_encrypt(iv, in, buf, n) : c.cbc_decrypt(iv, in, buf, n);
        break;
    case KCIPHER_MODE_CTR:
        c.ctr_xor(iv, pos / c.block_size(), in, buf, n);
        break;
    case KCIPHER_MODE_CFB:
        j.encrypt ? c.cfb_encrypt(iv, in, buf, n) : c.cfb_decrypt(iv, in, buf, n);
        break;
    case KCIPHER_MODE_CFB8:
        j.encrypt ? c.cfb8_encrypt(iv, in, buf, n) : c.cfb8_decrypt(iv, in, buf, n);
        break;
    case KCIPHER_MODE_OFB:
        c.ofb_xor(iv, in, buf, n);
        break;
    default:
        throw std::logic_error("run_stream: not a streaming mode");
    }
}

// The last piece of a padded stream, in place in buf (cap bytes): the output length.
size_t transform_padded_last(const StreamJob &j, uint8_t *iv, uint8_t *buf, size_t n, size_t cap, const Input &in,
                             uint64_t pos)
{
    const kcipher::Cipher &c = j.cipher;
    const bool cbc = j.mode == KCIPHER_MODE_CBC;
    if (j.encrypt)
        return cbc ? c.cbc_encrypt_padded(iv, buf, n, buf, cap) : c.ecb_encrypt_padded(buf, n, buf, cap);
    const size_t bs = c.block_size();
    if (n == 0 || n % bs != 0)
        throw std::runtime_error(fmt::format("bad decrypt: input {} is {} bytes, not a whole non-zero number of "
                                             "{}-byte blocks, so not a padded ciphertext",
                                             in.name(), pos + n, bs));
    try {
        return cbc ? c.cbc_decrypt_padded(iv, buf, n, buf, cap) : c.ecb_decrypt_padded(buf, n, buf, cap);
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

// A chunk's output depends on the input alone (the chain value of CBC and CFB decryption is
// the ciphertext before it, which a mapped input still holds), not on the chunks before it.
bool chunks_independent(const StreamJob &j)
{
    if (j.mode == KCIPHER_MODE_CTR || j.mode == KCIPHER_MODE_ECB)
        return true;
    return !j.encrypt && (j.mode == KCIPHER_MODE_CBC || j.mode == KCIPHER_MODE_CFB || j.mode == KCIPHER_MODE_CFB8);
}

// One chunk: its input with the block held back from the chunk before (padded decryption)
// goes out, less the block this one holds back. iv is the chain value at the chunk's first
// byte; carry holds the held block when the input is read into buffers (not mapped).
void run_chunk(const StreamJob &j, ChunkPipeline &pipe, Chunk &c, uint8_t *iv, uint8_t *carry, size_t carried,
               const Input &in, Progress *bar)
{
    const size_t bs = j.cipher.block_size();
    const bool hold_last = padded(j) && !j.encrypt;
    // The held block goes before the chunk's input: into the front room of a buffer read
    // into, or, when the input is mapped, it is already there (the bytes before src).
    uint8_t *b = c.data - carried;
    const uint8_t *in_b = c.src - carried;
    if (!pipe.mapped())
        std::memcpy(b, carry, carried);
    const size_t m = carried + c.n;
    const uint64_t pos = c.index * chunk_bytes - carried; // the stream offset of in_b
    if (!c.last) {
        const size_t now = hold_last ? m - bs : m;
        transform(j, iv, in_b, b, now, pos);
        if (!pipe.mapped())
            std::memcpy(carry, in_b + now, m - now);
        pipe.emit(c, b, now);
        if (bar != nullptr)
            bar->update(pos + now);
        return;
    }
    if (pipe.mapped()) // the last piece is done in place, in the buffer, which has room for a pad
        std::memmove(b, in_b, m);
    size_t n = m;
    if (padded(j)) {
        n = transform_padded_last(j, iv, b, m, m + bs, in, pos);
    } else {
        check_whole_blocks(j, in, m, pos);
        transform(j, iv, b, b, m, pos);
    }
    pipe.emit(c, b, n);
    if (bar != nullptr)
        bar->update(pos + m);
}

// Chunks in order on this thread; the chain value and the held block pass from one to the next.
void run_serial(StreamJob &j, ChunkPipeline &pipe, const Input &in, Progress &bar)
{
    const size_t bs = j.cipher.block_size();
    const bool hold_last = padded(j) && !j.encrypt;
    uint8_t carry[16];
    for (Chunk *c = pipe.next();; c = pipe.next()) {
        const size_t carried = hold_last && c->index > 0 ? bs : 0;
        run_chunk(j, pipe, *c, j.iv.data(), carry, carried, in, &bar);
        if (c->last)
            return;
    }
}

// Chunks on `workers` threads at once (chunks_independent, mapped input): each finds its
// chain value in the input before its first byte.
void run_parallel(const StreamJob &j, ChunkPipeline &pipe, unsigned workers, const Input &in, Progress &bar)
{
    const size_t bs = j.cipher.block_size();
    const bool hold_last = padded(j) && !j.encrypt;
    auto work = [&](Progress *progress) {
        try {
            while (Chunk *c = pipe.next()) {
                const size_t carried = hold_last && c->index > 0 ? bs : 0;
                uint8_t iv[16] = {};
                const bool chained = j.mode != KCIPHER_MODE_CTR && j.mode != KCIPHER_MODE_ECB;
                if (!j.iv.empty())
                    std::memcpy(iv, chained && c->index > 0 ? c->src - carried - bs : j.iv.data(), j.iv.size());
                run_chunk(j, pipe, *c, iv, nullptr, carried, in, progress);
            }
        } catch (...) {
            pipe.fail(std::current_exception());
        }
    };
    std::vector<std::thread> others;
    for (unsigned w = 1; w < workers; w++)
        others.emplace_back(work, nullptr);
    work(&bar); // the bar is drawn from this thread only
    for (std::thread &t : others)
        t.join();
}

} // namespace

void run_stream(StreamJob &j, Input &in, AtomicOutput &out, Progress &bar)
{
    const size_t bs = j.cipher.block_size();
    // Padded decryption keeps the last block of a full chunk for the next one (only at the
    // end of the input is it known to be the block whose pad is checked): it goes into the
    // next chunk's front room. The back room takes the pad of encryption.
    ChunkPipeline pipe(in, out, chunk_bytes, bs, bs);
    if (j.workers > 1 && pipe.mapped() && chunks_independent(j))
        run_parallel(j, pipe, j.workers, in, bar);
    else
        run_serial(j, pipe, in, bar);
    pipe.finish();
}

} // namespace cli
