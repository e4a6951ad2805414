// One cipher context of the provider, whatever the mode: the key (a kcipher context, and the raw
// key so that EVP_CIPHER_CTX_copy can key a second one), the IV, the direction, and the
// parameters every mode shares. Each mode family derives from it (cipher_padded.cpp,
// cipher_stream.cpp, cipher_gcm.cpp, cipher_ccm.cpp, cipher_xts.cpp); the functions OpenSSL
// calls are the same for all of them (cipher_dispatch.cpp) and reach the mode through virtuals.
#pragma once

#include "algorithms.hpp"
#include "provider.hpp"

#include <openssl/core.h>

#include <cstddef>
#include <cstdint>

namespace kcprov {

class CipherCtx {
public:
    CipherCtx(ProvCtx *p, const Algo &a);
    virtual ~CipherCtx();
    CipherCtx &operator=(const CipherCtx &) = delete;
    // EVP_CIPHER_CTX_copy: a deep copy (a kcipher context of its own), or nullptr with the reason raised.
    virtual CipherCtx *clone() const = 0;

    int init(bool enc, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen, const OSSL_PARAM params[]);
    virtual int update(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) = 0;
    virtual int final(uint8_t *out, size_t *outl, size_t outsize) = 0;
    // EVP_Cipher: the bytes at once, no buffering of partial blocks (what CMAC and libssl call).
    virtual int cipher(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) = 0;
    virtual int get_params(OSSL_PARAM params[]);
    virtual int set_params(const OSSL_PARAM params[]);

    ProvCtx *prov() const { return prov_; }

protected:
    CipherCtx(const CipherCtx &o); // for clone(): keys a new kcipher context with the same key
    bool copied_ok() const { return kc_ != nullptr || key_len_set_ == 0; }
    // clone() of a mode class: a copy, or nullptr when its key could not be scheduled again.
    template <class T> static CipherCtx *copy_of(const T &self)
    {
        T *c = new T(self);
        if (c->copied_ok())
            return c;
        delete c;
        return nullptr;
    }

    // A new IV of len bytes is acceptable for this mode (the default: exactly iv_len_).
    virtual bool iv_length_ok(size_t len) const { return len == iv_len_; }
    // A new message starts (every init): drop buffered bytes, stream positions, tags.
    virtual void restart() {}
    // The context can process data: a key is set, and an IV where the mode needs one.
    bool ready(bool need_iv) const;
    // outsize holds need bytes; raises when not.
    bool room(size_t outsize, size_t need) const;

    ProvCtx *prov_;
    const Algo *algo_;
    size_t key_len_;  // bytes the mode's key takes (XTS: twice the cipher's)
    size_t block_;    // the cipher's block (8 or 16), whatever OpenSSL is told
    size_t iv_len_;
    bool enc_ = true;
    kcipher_ctx *kc_ = nullptr;
    uint8_t oiv_[128] = {}; // the IV as given (OpenSSL's "iv"); GCM takes up to 128 bytes
    uint8_t iv_[128] = {};  // the IV as the mode has moved it (OpenSSL's "updated-iv")
    bool iv_set_ = false;

private:
    int set_key(const uint8_t *key, size_t keylen);
    uint8_t key_[64] = {};
    size_t key_len_set_ = 0;
};

} // namespace kcprov
