// CCM (SP 800-38C, Appendix A's formatting): CBC-MAC over B0, the encoded AAD and the payload,
// and CTR from counter block 1; the tag is the MAC XORed with the keystream of counter block 0.
// The CBC-MAC is a chain of single-block encryptions, so it runs on the context's chain kernel
// (the family's lowest one-block latency, dispatch/registry.hpp) and costs that latency per
// block; the CTR part runs on the context's kernel at its throughput, S0 (counter block 0's
// keystream, for the tag) in the same kernel call as the first data blocks.
#include <cstring>

#include "core/bytes.hpp"
#include "core/wipe.hpp"
#include "modes/aead.hpp"

namespace kc {

void Ccm::start(const Keyed &k, const Keyed &chain, const uint8_t *nonce, size_t nonce_len, uint64_t aad_len,
                uint64_t text_len, size_t tag_len)
{
    chain_ = chain;
    fill_ = 0;
    in_text_ = false;
    const size_t q = 15 - nonce_len; // bytes of the payload length, and of the counter
    uint8_t b0[16];
    b0[0] = (uint8_t)((aad_len > 0 ? 0x40 : 0) | ((tag_len - 2) / 2) << 3 | (q - 1));
    std::memcpy(b0 + 1, nonce, nonce_len);
    for (size_t i = 0; i < q; i++)
        b0[15 - i] = i < 8 ? (uint8_t)(text_len >> (8 * i)) : 0;
    std::memset(x_, 0, sizeof x_);
    cbc_mac_blocks(chain, x_, b0, 1);
    if (aad_len > 0) { // the AAD's length, in 2, 6 or 10 bytes (A.2.2)
        uint8_t prefix[10];
        size_t n;
        if (aad_len < 0xff00) {
            prefix[0] = (uint8_t)(aad_len >> 8);
            prefix[1] = (uint8_t)aad_len;
            n = 2;
        } else if (aad_len <= 0xffffffffu) {
            prefix[0] = 0xff;
            prefix[1] = 0xfe;
            store_be32(prefix + 2, (uint32_t)aad_len);
            n = 6;
        } else {
            prefix[0] = 0xff;
            prefix[1] = 0xff;
            store_be64(prefix + 2, aad_len);
            n = 10;
        }
        mac(prefix, n);
    }
    uint8_t ctr[16] = {};
    ctr[0] = (uint8_t)(q - 1);
    std::memcpy(ctr + 1, nonce, nonce_len);
    ctr_.start(k, ctr, false, s0_, &chain); // S0 and a last partial block alone on the chain kernel
    secure_wipe(b0, sizeof b0);
}

// x_ holds the chain's value XORed with the fill_ bytes of a partial block so far.
void Ccm::mac(const uint8_t *p, size_t n)
{
    if (fill_ > 0) { // finish the partial block first
        const size_t t = n < 16 - fill_ ? n : 16 - fill_;
        for (size_t i = 0; i < t; i++)
            x_[fill_ + i] ^= p[i];
        fill_ += t;
        p += t;
        n -= t;
        if (fill_ < 16)
            return;
        chain_.kernel->encrypt_blocks(chain_.keys, x_, x_, 1);
        fill_ = 0;
    }
    cbc_mac_blocks(chain_, x_, p, n / 16);
    p += n / 16 * 16;
    fill_ = n % 16;
    for (size_t i = 0; i < fill_; i++)
        x_[i] ^= p[i];
}

// Zero padding to a block boundary: x_ already holds the XOR of the partial block, so only
// the encryption remains.
void Ccm::pad()
{
    if (fill_ > 0) {
        chain_.kernel->encrypt_blocks(chain_.keys, x_, x_, 1);
        fill_ = 0;
    }
}

void Ccm::aad(const uint8_t *p, size_t n) { mac(p, n); }

void Ccm::encrypt(const uint8_t *in, uint8_t *out, size_t n)
{
    if (!in_text_) {
        pad();
        in_text_ = true;
    }
    mac(in, n);
    ctr_.xor_bytes(in, out, n);
}

void Ccm::decrypt(const uint8_t *in, uint8_t *out, size_t n)
{
    if (!in_text_) {
        pad();
        in_text_ = true;
    }
    ctr_.xor_bytes(in, out, n);
    mac(out, n);
}

void Ccm::tag(uint8_t out[16])
{
    pad();
    ctr_.flush_first(); // S0, where no payload took it along
    for (int i = 0; i < 16; i++)
        out[i] = x_[i] ^ s0_[i];
}

void Ccm::rebind(const Keyed &k, const Keyed &chain)
{
    chain_ = chain;
    ctr_.rebind(k, &chain, s0_);
}

Ccm::~Ccm() { secure_wipe_each(x_, s0_); }

} // namespace kc
