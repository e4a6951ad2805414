// CCM (SP 800-38C, Appendix A's formatting): CBC-MAC over B0, the encoded AAD and the payload,
// and CTR from counter block 1; the tag is the MAC XORed with the keystream of counter block 0.
// The CBC-MAC is a chain of single-block encryptions, so CCM runs at the kernel's one-block
// latency, not its throughput.
#include <cstring>

#include "core/bytes.hpp"
#include "core/wipe.hpp"
#include "modes/aead.hpp"

namespace kc {

void Ccm::start(const Keyed &k, const uint8_t *nonce, size_t nonce_len, uint64_t aad_len,
                uint64_t text_len, size_t tag_len)
{
    k_ = k;
    fill_ = 0;
    in_text_ = false;
    const size_t q = 15 - nonce_len; // bytes of the payload length, and of the counter
    uint8_t b0[16];
    b0[0] = (uint8_t)((aad_len > 0 ? 0x40 : 0) | ((tag_len - 2) / 2) << 3 | (q - 1));
    std::memcpy(b0 + 1, nonce, nonce_len);
    for (size_t i = 0; i < q; i++)
        b0[15 - i] = i < 8 ? (uint8_t)(text_len >> (8 * i)) : 0;
    k.kernel->encrypt_blocks(k.keys, b0, x_, 1);
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
    k.kernel->encrypt_blocks(k.keys, ctr, s0_, 1);
    ctr[15] = 1;
    ctr_.start(k, ctr, false);
    secure_wipe(b0, sizeof b0);
}

void Ccm::mac(const uint8_t *p, size_t n)
{
    while (n > 0) {
        const size_t t = n < 16 - fill_ ? n : 16 - fill_;
        for (size_t i = 0; i < t; i++)
            x_[fill_ + i] ^= p[i];
        fill_ += t;
        p += t;
        n -= t;
        if (fill_ == 16) {
            k_.kernel->encrypt_blocks(k_.keys, x_, x_, 1);
            fill_ = 0;
        }
    }
}

// Zero padding to a block boundary: x_ already holds the XOR of the partial block, so only
// the encryption remains.
void Ccm::pad()
{
    if (fill_ > 0) {
        k_.kernel->encrypt_blocks(k_.keys, x_, x_, 1);
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
    for (int i = 0; i < 16; i++)
        out[i] = x_[i] ^ s0_[i];
}

Ccm::~Ccm()
{
    secure_wipe(x_, sizeof x_);
    secure_wipe(s0_, sizeof s0_);
}

} // namespace kc
