#include "cipher_ctx.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstdio>
#include <cstring>

namespace kcprov {

CipherCtx::CipherCtx(ProvCtx *p, const Algo &a) : prov_(p), algo_(&a)
{
    const AlgoShape s = shape_of(a);
    key_len_ = s.key_len;
    block_ = s.block;
    iv_len_ = s.iv_len;
}

CipherCtx::CipherCtx(const CipherCtx &o)
    : prov_(o.prov_), algo_(o.algo_), key_len_(o.key_len_), block_(o.block_), iv_len_(o.iv_len_), enc_(o.enc_),
      iv_set_(o.iv_set_)
{
    std::memcpy(oiv_, o.oiv_, sizeof oiv_);
    std::memcpy(iv_, o.iv_, sizeof iv_);
    if (o.key_len_set_ != 0)
        set_key(o.key_, o.key_len_set_);
}

CipherCtx::~CipherCtx()
{
    kcipher_free(kc_);
    OPENSSL_cleanse(key_, sizeof key_);
    OPENSSL_cleanse(oiv_, sizeof oiv_);
    OPENSSL_cleanse(iv_, sizeof iv_);
}

int CipherCtx::set_key(const uint8_t *key, size_t keylen)
{
    if (keylen != key_len_) {
        raise(prov_, R_INVALID_KEY_LENGTH, "%s takes a %zu-byte key, not %zu", algo_->names, key_len_, keylen);
        return 0;
    }
    // The same key again (openssl speed re-inits with its key before every message; so may
    // applications): the schedule already made is the one it would make.
    if (kc_ != nullptr && keylen == key_len_set_ && CRYPTO_memcmp(key, key_, keylen) == 0)
        return 1;
    // An XTS context is keyed under the mode's name (kcipher checks the two halves differ).
    char name[48];
    std::snprintf(name, sizeof name, "%s%s", algo_->cipher, algo_->mode == KCIPHER_MODE_XTS ? "-xts" : "");
    kcipher_ctx *kc = nullptr;
    kcipher_status s = kcipher_new(&kc, name, key, keylen, nullptr);
    if (s == KCIPHER_OK)
        s = kcipher_set_threads(kc, prov_->threads);
    if (s != KCIPHER_OK) {
        kcipher_free(kc);
        return raise_status(prov_, s, "setting the key");
    }
    kcipher_free(kc_);
    kc_ = kc;
    std::memcpy(key_, key, keylen);
    key_len_set_ = keylen;
    prov_->stats.cipher_inits.fetch_add(1, std::memory_order_relaxed);
    return 1;
}

int CipherCtx::init(bool enc, const uint8_t *key, size_t keylen, const uint8_t *iv, size_t ivlen,
                    const OSSL_PARAM params[])
{
    enc_ = enc;
    if (key != nullptr && !set_key(key, keylen))
        return 0;
    if (iv != nullptr && iv_len_ != 0) {
        if (!iv_length_ok(ivlen) || ivlen > sizeof oiv_) {
            raise(prov_, R_INVALID_IV_LENGTH, "%s takes a %zu-byte IV, not %zu", algo_->names, iv_len_, ivlen);
            return 0;
        }
        iv_len_ = ivlen;
        std::memcpy(oiv_, iv, ivlen);
        iv_set_ = true;
    }
    // Every init starts a new message; without a new IV it starts again from the last one given.
    std::memcpy(iv_, oiv_, sizeof iv_);
    restart();
    return set_params(params);
}

bool CipherCtx::ready(bool need_iv) const
{
    if (kc_ == nullptr) {
        raise(prov_, R_NO_KEY_SET);
        return false;
    }
    if (need_iv && iv_len_ != 0 && !iv_set_) {
        raise(prov_, R_NO_IV_SET);
        return false;
    }
    return true;
}

bool CipherCtx::room(size_t outsize, size_t need) const
{
    if (outsize >= need)
        return true;
    raise(prov_, R_OUTPUT_BUFFER_TOO_SMALL, "%zu bytes of output, %zu needed", outsize, need);
    return false;
}

int CipherCtx::get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
    if (p != nullptr && !OSSL_PARAM_set_size_t(p, iv_len_))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
    if (p != nullptr && !OSSL_PARAM_set_size_t(p, key_len_))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV);
    if (p != nullptr && iv_len_ != 0 && !OSSL_PARAM_set_octet_string(p, oiv_, iv_len_))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV);
    if (p != nullptr && iv_len_ != 0 && !OSSL_PARAM_set_octet_string(p, iv_, iv_len_))
        return 0;
    return 1;
}

int CipherCtx::set_params(const OSSL_PARAM params[])
{
    if (params == nullptr)
        return 1;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
    if (p != nullptr) {
        size_t len = 0;
        if (!OSSL_PARAM_get_size_t(p, &len) || len != key_len_) {
            raise(prov_, R_INVALID_KEY_LENGTH, "%s takes a %zu-byte key", algo_->names, key_len_);
            return 0;
        }
    }
    // GCM and CCM take new IV lengths (their set_params, before this); the others have one.
    p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_IVLEN);
    if (p != nullptr) {
        size_t len = 0;
        if (!OSSL_PARAM_get_size_t(p, &len) || len != iv_len_) {
            raise(prov_, R_INVALID_IV_LENGTH, "%s takes a %zu-byte IV", algo_->names, iv_len_);
            return 0;
        }
    }
    return 1;
}

} // namespace kcprov
