// CtrStream (aead.hpp): the counter-mode keystream of GCM and CCM, in pieces of any length.
// Whole blocks go through the kernel's CTR (modes/ctr.cpp: threaded for long runs); a piece
// that ends inside a block keeps that block's remaining keystream for the next piece.
#include <cstring>

#include "core/bytes.hpp"
#include "core/counter.hpp"
#include "core/wipe.hpp"
#include "modes/aead.hpp"
#include "modes/modes.hpp"

namespace kc {

void CtrStream::start(const Keyed &k, const uint8_t counter[16], bool inc32, uint8_t *first, const Keyed *one_block)
{
    k_ = k;
    one_ = one_block != nullptr ? *one_block : k;
    std::memcpy(next_, counter, 16);
    left_ = 0;
    inc32_ = inc32;
    first_ = first;
}

void CtrStream::rebind(const Keyed &k, const Keyed *one_block, uint8_t *first)
{
    k_ = k;
    one_ = one_block != nullptr ? *one_block : k;
    if (first_ != nullptr)
        first_ = first;
}

// The owed first block rides in front of the first data blocks, as many as make the first
// call end where the kernel's batches (batch_blocks) of the whole run end: n data blocks and
// the first block cost ceil((n + 1) / batch) batches however they are split, and this split
// copies the fewest blocks through the stack buffer (the call must be contiguous from the
// first block's counter). When n is a multiple of the batch, the first block goes alone and
// the data runs straight through, with no copy.
void CtrStream::whole_blocks(const uint8_t *in, uint8_t *out, size_t nblocks)
{
    if (first_ != nullptr && nblocks > 0) {
        alignas(64) uint8_t buf[16 * 64];
        const size_t batch = k_.kernel->batch_blocks, step = batch < 2 ? 2 : batch > 64 ? 64 : batch;
        const size_t end = (nblocks + 1) % step, m = (end == 0 ? step : end) - 1;
        if (m == 0) {
            first_alone();
            run(in, out, nblocks);
            return;
        }
        std::memset(buf, 0, 16);
        std::memcpy(buf + 16, in, 16 * m);
        run(buf, buf, m + 1);
        std::memcpy(first_, buf, 16);
        std::memcpy(out, buf + 16, 16 * m);
        secure_wipe(buf, 16 * (m + 1));
        first_ = nullptr;
        in += 16 * m;
        out += 16 * m;
        nblocks -= m;
    }
    run(in, out, nblocks);
}

void CtrStream::flush_first()
{
    if (first_ != nullptr)
        first_alone();
}

void CtrStream::first_alone()
{
    uint8_t *f = first_;
    first_ = nullptr;
    keystream_alone(f);
}

// One keystream block E(counter) alone: ECB of the counter block on the one-block kernel (k_
// itself when none was given), then the counter moves on.
void CtrStream::keystream_alone(uint8_t out[16])
{
    one_.kernel->encrypt_blocks(one_.keys, next_, out, 1);
    advance(1);
}

void CtrStream::advance(size_t nblocks)
{
    if (inc32_)
        store_be32(next_ + 12, load_be32(next_ + 12) + (uint32_t)nblocks);
    else
        counter_add(next_, 16, nblocks);
}

// With inc32 the last word wraps on its own: run the kernel's full-block counter only up to
// the wrap, then go on from a zero last word (it never wraps for 12-byte IVs, whose counter
// starts at 2 and a message has at most 2^32 - 2 blocks).
void CtrStream::run(const uint8_t *in, uint8_t *out, size_t nblocks)
{
    while (nblocks > 0) {
        size_t n = nblocks;
        if (inc32_) {
            const uint64_t to_wrap = ((uint64_t)1 << 32) - load_be32(next_ + 12);
            n = (uint64_t)nblocks < to_wrap ? nblocks : (size_t)to_wrap;
        }
        ctr_xor(k_, next_, 0, in, out, 16 * n);
        advance(n);
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

void CtrStream::xor_bytes(const uint8_t *in, uint8_t *out, size_t n)
{
    for (; n > 0 && left_ > 0; n--, left_--)
        *out++ = *in++ ^ ks_[16 - left_];
    if (n >= 16) {
        whole_blocks(in, out, n / 16);
        in += n / 16 * 16;
        out += n / 16 * 16;
        n %= 16;
    }
    if (n > 0) { // one keystream block for a partial block: alone, unless the first block is still owed
        if (first_ != nullptr) {
            std::memset(ks_, 0, 16);
            whole_blocks(ks_, ks_, 1);
        } else {
            keystream_alone(ks_);
        }
        for (size_t i = 0; i < n; i++)
            out[i] = in[i] ^ ks_[i];
        left_ = 16 - n;
    }
}

CtrStream::~CtrStream()
{
    secure_wipe_inline(ks_);
    secure_wipe_inline(next_);
}

bool equal_constant_time(const uint8_t *a, const uint8_t *b, size_t n)
{
    volatile uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        d = d | (uint8_t)(a[i] ^ b[i]);
    return d == 0;
}

} // namespace kc
