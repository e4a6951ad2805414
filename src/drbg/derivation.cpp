#include "drbg/derivation.hpp"

#include <cstring>
#include <vector>

#include "core/wipe.hpp"

namespace kc::drbg {
namespace {

void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = uint8_t(v >> 24), p[1] = uint8_t(v >> 16), p[2] = uint8_t(v >> 8), p[3] = uint8_t(v);
}

// BCC(K, IV || S), 10.3.3, CBC-MAC with a zero IV over the block IV followed by S, entered
// after its first step: `chain` already holds E_K(IV).
void bcc_rest(const BlockCipher &k, const std::vector<uint8_t> &s, uint8_t *chain)
{
    const size_t bs = k.block_bytes();
    for (size_t off = 0; off < s.size(); off += bs) {
        for (size_t j = 0; j < bs; j++)
            chain[j] ^= s[off + j];
        k.encrypt_block(chain, chain);
    }
}

} // namespace

bool DerivationFunction::init(const BlockCipher &proto)
{
    fixed_ = proto.clone_unkeyed();
    derived_ = proto.clone_unkeyed();
    if (!fixed_ || !derived_) {
        fixed_.reset();
        return false;
    }
    const size_t bs = proto.block_bytes(), kb = proto.key_bytes();
    uint8_t key[32];
    for (size_t i = 0; i < kb; i++)
        key[i] = uint8_t(i);
    if (!fixed_->set_key(key)) {
        fixed_.reset();
        return false;
    }
    blocks_ = (kb + bs + bs - 1) / bs;
    for (size_t i = 0; i < blocks_; i++) {
        uint8_t iv[16] = {0};
        put_be32(iv, uint32_t(i));
        fixed_->encrypt_block(iv, first_[i]);
    }
    return true;
}

bool DerivationFunction::derive(Span a, Span b, Span c, uint8_t *out, size_t out_bytes)
{
    const size_t bs = fixed_->block_bytes(), kb = fixed_->key_bytes();
    const size_t in_len = a.n + b.n + c.n; // the caller keeps this below 2^32 (L is 32 bits)

    // S = L || N || input_string || 0x80, zero-padded to a whole number of blocks.
    std::vector<uint8_t> s;
    s.reserve(in_len + 9 + bs);
    s.resize(8);
    put_be32(s.data(), uint32_t(in_len));
    put_be32(s.data() + 4, uint32_t(out_bytes));
    for (Span x : {a, b, c})
        s.insert(s.end(), x.p, x.p + x.n);
    s.push_back(0x80);
    s.resize((s.size() + bs - 1) / bs * bs, 0);

    // temp = BCC(K, i || 0^(outlen-32) || S) for i = 0, 1, ... until keylen + outlen bits.
    uint8_t temp[4 * 16];
    for (size_t i = 0; i < blocks_; i++) {
        std::memcpy(temp + i * bs, first_[i], bs);
        bcc_rest(*fixed_, s, temp + i * bs);
    }
    bool ok = derived_->set_key(temp);
    uint8_t x[16];
    std::memcpy(x, temp + kb, bs);
    for (size_t done = 0; ok && done < out_bytes; done += bs) {
        derived_->encrypt_block(x, x);
        std::memcpy(out + done, x, out_bytes - done < bs ? out_bytes - done : bs);
    }
    secure_wipe(s.data(), s.size());
    secure_wipe(temp, sizeof temp);
    secure_wipe(x, sizeof x);
    return ok;
}

} // namespace kc::drbg
