// A block kernel over OpenSSL's ECB (AES, TDES, ...), so that mode code can be checked against
// OpenSSL's own modes and against published AES vectors independently of our ciphers.
// EvpBlock::cipher() is the EVP ECB cipher the adapter runs (one at a time, set by the test);
// the key state holds the raw key, zero-padded to 32 bytes.
#pragma once

#ifdef KC_HAVE_OPENSSL

#include <openssl/evp.h>

#include <cstring>
#include <vector>

#include "core/key_state.hpp"

namespace kct {

struct EvpBlock {
    static const EVP_CIPHER *&cipher()
    {
        static const EVP_CIPHER *c = nullptr;
        return c;
    }
    static void set_key(void *state, kc::Cipher, const uint8_t *key) { std::memcpy(state, key, 32); }
    static void run(const void *state, const uint8_t *in, uint8_t *out, size_t n, int enc)
    {
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        EVP_CipherInit_ex(x, cipher(), nullptr, static_cast<const uint8_t *>(state), nullptr, enc);
        EVP_CIPHER_CTX_set_padding(x, 0);
        int l = 0;
        EVP_CipherUpdate(x, out, &l, in, (int)(n * EVP_CIPHER_get_block_size(cipher())));
        EVP_CIPHER_CTX_free(x);
    }
    static void enc(const void *s, const uint8_t *in, uint8_t *out, size_t n) { run(s, in, out, n, 1); }
    static void dec(const void *s, const uint8_t *in, uint8_t *out, size_t n) { run(s, in, out, n, 0); }
    static void ctr(const void *s, const uint8_t *c, const uint8_t *in, uint8_t *out, size_t n)
    {
        const size_t bs = (size_t)EVP_CIPHER_get_block_size(cipher());
        std::vector<uint8_t> blocks(n * bs), cb(c, c + bs);
        for (size_t i = 0; i < n; i++) {
            std::memcpy(blocks.data() + i * bs, cb.data(), bs);
            for (size_t j = bs; j-- > 0 && ++cb[j] == 0;) {
            }
        }
        enc(s, blocks.data(), blocks.data(), n);
        for (size_t i = 0; i < n * bs; i++)
            out[i] = (in ? in[i] : 0) ^ blocks[i];
    }
};

inline bool init_evp(kc::KeyState &ks, const kc::Kernel &k, std::vector<uint8_t> key)
{
    key.resize(32);
    return ks.init(k, kc::Cipher::aria128, key.data());
}

inline const kc::Kernel evp_kernel = {"test/evp", "test", 16, 1, false, 0, 0, 32, nullptr,
                                      EvpBlock::set_key, EvpBlock::enc, EvpBlock::dec, EvpBlock::ctr};

} // namespace kct

#endif
