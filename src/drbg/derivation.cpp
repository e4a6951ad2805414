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

// BCC(K, IV || S), 10.3.3: CBC-MAC with a zero IV over the block IV followed by S.
void bcc(const BlockCipher &k, const uint8_t *iv, const std::vector<uint8_t> &s, uint8_t *chain)
{
    const size_t bs = k.block_bytes();
    k.encrypt_block(iv, chain); // 0 XOR IV, encrypted
    for (size_t off = 0; off < s.size(); off += bs) {
        for (size_t j = 0; j < bs; j++)
            chain[j] ^= s[off + j];
        k.encrypt_block(chain, chain);
    }
}

} // namespace

bool block_cipher_df(BlockCipher &scratch, Span a, Span b, Span c, uint8_t *out, size_t out_bytes)
{
    const size_t bs = scratch.block_bytes(), kb = scratch.key_bytes();
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

    uint8_t key[32], temp[64 + 16], iv[16] = {0};
    for (size_t i = 0; i < kb; i++)
        key[i] = uint8_t(i);
    if (!scratch.set_key(key))
        return false;
    // temp = BCC(K, i || 0^(outlen-32) || S) for i = 0, 1, ... until keylen + outlen bits.
    for (uint32_t i = 0; i * bs < kb + bs; i++) {
        put_be32(iv, i);
        bcc(scratch, iv, s, temp + i * bs);
    }
    if (!scratch.set_key(temp))
        return false;
    uint8_t x[16];
    std::memcpy(x, temp + kb, bs);
    for (size_t done = 0; done < out_bytes; done += bs) {
        scratch.encrypt_block(x, x);
        std::memcpy(out + done, x, out_bytes - done < bs ? out_bytes - done : bs);
    }
    secure_wipe(s.data(), s.size());
    secure_wipe(temp, sizeof temp);
    secure_wipe(x, sizeof x);
    return true;
}

} // namespace kc::drbg
