// CMAC (SP 800-38B) for 64- and 128-bit blocks: CBC-MAC whose last block is XORed with the
// subkey K1 when it is whole, or padded with 10* and XORed with K2. The last block is held
// back until tag(), since only then is it known to be the last.
#include <cstring>

#include "core/wipe.hpp"
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

} // namespace

void Cmac::start(const Keyed &k)
{
    k_ = k;
    uint8_t l[16] = {};
    k.kernel->encrypt_blocks(k.keys, l, l, 1);
    dbl(l, k1_, k.block_bytes);
    dbl(k1_, k2_, k.block_bytes);
    secure_wipe(l, sizeof l);
    std::memset(x_, 0, sizeof x_);
    fill_ = 0;
}

void Cmac::update(const uint8_t *p, size_t n)
{
    const size_t bs = k_.block_bytes;
    while (n > 0) {
        if (fill_ == bs) { // more follows, so the held block is not the last
            for (size_t i = 0; i < bs; i++)
                x_[i] ^= buf_[i];
            k_.kernel->encrypt_blocks(k_.keys, x_, x_, 1);
            fill_ = 0;
        }
        const size_t t = n < bs - fill_ ? n : bs - fill_;
        std::memcpy(buf_ + fill_, p, t);
        fill_ += t;
        p += t;
        n -= t;
    }
}

void Cmac::tag(uint8_t out[16])
{
    const size_t bs = k_.block_bytes;
    const uint8_t *sub = fill_ == bs ? k1_ : k2_;
    if (fill_ < bs) {
        buf_[fill_] = 0x80;
        std::memset(buf_ + fill_ + 1, 0, bs - fill_ - 1);
    }
    for (size_t i = 0; i < bs; i++)
        x_[i] ^= buf_[i] ^ sub[i];
    k_.kernel->encrypt_blocks(k_.keys, x_, out, 1);
}

Cmac::~Cmac()
{
    secure_wipe(k1_, sizeof k1_);
    secure_wipe(k2_, sizeof k2_);
    secure_wipe(x_, sizeof x_);
    secure_wipe(buf_, sizeof buf_);
}

} // namespace kc
