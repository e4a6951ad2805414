// CMAC (SP 800-38B) for 64- and 128-bit blocks: CBC-MAC whose last block is XORed with the
// subkey K1 when it is whole, or padded with 10* and XORed with K2. The last block is held
// back until tag(), since only then is it known to be the last.
#include <cstring>

#include "core/wipe.hpp"
#include "kit/chain_accel.hpp"
#include "modes/aead.hpp"

namespace kc {
namespace {

// v << 1 in GF(2^b): the doubling of SP 800-38B 6.1 (R_128 = 0x87, R_64 = 0x1b).
void dbl(const uint8_t *v, uint8_t *out, size_t bs)
{
    const uint8_t carry = v[0] >> 7;
    for (size_t i = 0; i + 1 < bs; i++)
        out[i] = (uint8_t)(v[i] << 1 | v[i + 1] >> 7);
    out[bs - 1] = (uint8_t)(v[bs - 1] << 1);
    out[bs - 1] ^= (uint8_t)(-(int)carry) & (bs == 16 ? 0x87 : 0x1b);
}

// x ^= in over one block of bs bytes (16 or 8).
inline void xor_into(uint8_t *x, const uint8_t *in, size_t bs)
{
    const size_t end = bs == 16 ? 16 : 8;
    for (size_t h = 0; h < end; h += 8) {
        uint64_t a, b;
        std::memcpy(&a, x + h, 8);
        std::memcpy(&b, in + h, 8);
        a ^= b;
        std::memcpy(x + h, &a, 8);
    }
}

} // namespace

void cbc_mac_blocks(const Keyed &chain, uint8_t *x, const uint8_t *in, size_t nblocks)
{
    if (chain.chain != nullptr) { // the chain kernel's own loop
        chain.chain->cbc(chain.keys, x, in, nullptr, nblocks);
        return;
    }
    const size_t bs = chain.block_bytes;
    for (size_t b = 0; b < nblocks; b++, in += bs) {
        xor_into(x, in, bs);
        chain.kernel->encrypt_blocks(chain.keys, x, x, 1);
    }
}

void Cmac::start(const Keyed &chain)
{
    k_ = chain;
    uint8_t l[16] = {};
    chain.kernel->encrypt_blocks(chain.keys, l, l, 1);
    dbl(l, k1_, chain.block_bytes);
    dbl(k1_, k2_, chain.block_bytes);
    secure_wipe(l, sizeof l);
    std::memset(x_, 0, sizeof x_);
    fill_ = 0;
}

void Cmac::update(const uint8_t *p, size_t n)
{
    if (n == 0) // p may be null: no memcpy from it
        return;
    const size_t bs = k_.block_bytes;
    const size_t t = n < bs - fill_ ? n : bs - fill_;
    std::memcpy(buf_ + fill_, p, t);
    fill_ += t;
    p += t;
    n -= t;
    if (n == 0)
        return;
    // More follows, so the held block is not the last; nor is any whole block of p but the
    // one that ends it, which is held back in its turn (1 to bs bytes).
    cbc_mac_blocks(k_, x_, buf_, 1);
    const size_t whole = (n - 1) / bs;
    cbc_mac_blocks(k_, x_, p, whole);
    fill_ = n - whole * bs;
    std::memcpy(buf_, p + whole * bs, fill_);
}

void Cmac::tag(uint8_t out[16])
{
    const size_t bs = k_.block_bytes;
    const uint8_t *sub = fill_ == bs ? k1_ : k2_;
    if (fill_ < bs) {
        buf_[fill_] = 0x80;
        std::memset(buf_ + fill_ + 1, 0, bs - fill_ - 1);
    }
    xor_into(buf_, sub, bs);
    cbc_mac_blocks(k_, x_, buf_, 1);
    std::memcpy(out, x_, bs);
}

Cmac::~Cmac() { secure_wipe_each(k1_, k2_, x_, buf_); }

} // namespace kc
