// GCM (and so GMAC, which OpenSSL builds on it) as OpenSSL's EVP runs it: AAD as updates with
// no output buffer, any number of data updates, the tag read after encrypting or set before
// the final call when decrypting (of any GCM length, set any time before final). And TLS 1.2's
// record calls: after "tlsivfixed" and "tlsaad", one call seals or opens a whole record
// (explicit nonce || payload || tag) in place, as libssl expects.
#include "cipher_modes.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstring>

namespace kcprov {
namespace {

constexpr size_t kTlsAadLen = 13, kTlsFixedIvLen = 4, kTlsExplicitIvLen = 8, kTagLen = 16;

class GcmCtx final : public CipherCtx {
public:
    using CipherCtx::CipherCtx;
    ~GcmCtx() override
    {
        kcipher_aead_free(st_);
        OPENSSL_cleanse(tag_, sizeof tag_);
    }
    // A message under way continues in the copy on the copy's own key schedule.
    CipherCtx *clone() const override
    {
        auto *c = new GcmCtx(*this);
        c->st_ = nullptr;
        if (!c->copied_ok()) {
            delete c;
            return nullptr;
        }
        const kcipher_status s = st_ != nullptr ? kcipher_aead_dup(&c->st_, st_, c->kc_) : KCIPHER_OK;
        if (s != KCIPHER_OK) {
            raise_status(prov_, s, "copying the GCM state");
            delete c;
            return nullptr;
        }
        return c;
    }

    int update(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        if (tls_aad_len_ != 0)
            return tls_record(out, outl, outsize, in, inl);
        *outl = 0;
        if (inl == 0)
            return 1;
        if (!started())
            return 0;
        if (out == nullptr) // AAD
            return ok(kcipher_aead_aad(st_, in, inl), "the AAD");
        if (!room(outsize, inl) || !ok(kcipher_aead_update(st_, in, out, inl), "the data"))
            return 0;
        *outl = inl;
        return 1;
    }

    int final(uint8_t *, size_t *outl, size_t) override
    {
        *outl = 0;
        if (!started())
            return 0;
        finished_ = true;
        if (enc_) {
            if (!ok(kcipher_aead_final(st_, tag_, kTagLen), "the tag"))
                return 0;
            tag_len_ = kTagLen;
            return 1;
        }
        if (tag_len_ == 0) {
            raise(prov_, R_TAG_NOT_SET, "set the expected tag before the final call");
            return 0;
        }
        const kcipher_status s = kcipher_aead_final_verify(st_, tag_, tag_len_);
        if (s == KCIPHER_ERR_AUTH) {
            raise(prov_, R_BAD_DECRYPT, "the GCM tag does not match: discard the plaintext");
            return 0;
        }
        return ok(s, "the tag");
    }

    // EVP_Cipher: no input is the final call; no output buffer is AAD.
    int cipher(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        if (tls_aad_len_ != 0)
            return tls_record(out, outl, outsize, in, inl);
        return in == nullptr ? final(out, outl, outsize) : update(out, outl, outsize, in, inl);
    }

    int get_params(OSSL_PARAM params[]) override
    {
        OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
        if (p != nullptr && !OSSL_PARAM_set_size_t(p, tag_len_ != 0 ? tag_len_ : kTagLen))
            return 0;
        p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG);
        if (p != nullptr && !get_tag(p))
            return 0;
        p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD);
        if (p != nullptr && !OSSL_PARAM_set_size_t(p, tls_aad_len_ != 0 ? kTagLen : 0))
            return 0;
        return CipherCtx::get_params(params);
    }

    int set_params(const OSSL_PARAM params[]) override
    {
        if (params == nullptr)
            return 1;
        const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN);
        if (p != nullptr && !set_iv_length(p))
            return 0;
        p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG);
        if (p != nullptr && !set_tag(p))
            return 0;
        p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED);
        if (p != nullptr && !set_tls_fixed_iv(p))
            return 0;
        p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD);
        if (p != nullptr && !set_tls_aad(p))
            return 0;
        return CipherCtx::set_params(params);
    }

private:
    bool iv_length_ok(size_t len) const override { return len >= 1 && len <= sizeof oiv_; }

    void restart() override
    {
        kcipher_aead_free(st_);
        st_ = nullptr;
        finished_ = false;
        tls_aad_len_ = 0;
    }

    bool ok(kcipher_status s, const char *what) { return s == KCIPHER_OK || raise_status(prov_, s, what); }

    // The kcipher stream for this message, begun at its first AAD or data byte.
    bool started()
    {
        if (finished_) {
            raise(prov_, R_UPDATE_AFTER_FINAL);
            return false;
        }
        if (st_ != nullptr)
            return true;
        if (!ready(true))
            return false;
        // Opening: the tag's length comes with the tag, which may be set after the data.
        return ok(kcipher_aead_init(&st_, kc_, KCIPHER_MODE_GCM, enc_, oiv_, iv_len_, enc_ ? kTagLen : 0, 0, 0),
                  "starting GCM");
    }

    bool get_tag(OSSL_PARAM *p)
    {
        if (!enc_ || !finished_ || p->data_size == 0 || p->data_size > kTagLen) {
            raise(prov_, R_INVALID_TAG, "the tag is read after encrypting, 1 to 16 bytes");
            return false;
        }
        return OSSL_PARAM_set_octet_string(p, tag_, p->data_size) != 0;
    }

    bool set_tag(const OSSL_PARAM *p)
    {
        if (enc_) {
            raise(prov_, R_TAG_NOT_NEEDED);
            return false;
        }
        const size_t len = p->data_size;
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data == nullptr ||
            !(len == 4 || len == 8 || (len >= 12 && len <= 16))) {
            raise(prov_, R_INVALID_TAG_LENGTH, "a GCM tag is 16, 15, 14, 13, 12, 8 or 4 bytes");
            return false;
        }
        std::memcpy(tag_, p->data, len);
        tag_len_ = len;
        return true;
    }

    bool set_iv_length(const OSSL_PARAM *p)
    {
        size_t len = 0;
        if (!OSSL_PARAM_get_size_t(p, &len) || !iv_length_ok(len)) {
            raise(prov_, R_INVALID_IV_LENGTH, "a GCM IV is 1 to %zu bytes", sizeof oiv_);
            return false;
        }
        if (len != iv_len_)
            iv_set_ = false;
        iv_len_ = len;
        return true;
    }

    // The record IV's fixed part from the key block; a sender starts the explicit part at random.
    bool set_tls_fixed_iv(const OSSL_PARAM *p)
    {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != kTlsFixedIvLen || iv_len_ != 12) {
            raise(prov_, R_INVALID_IV_LENGTH, "TLS's fixed IV is 4 bytes of a 12-byte IV");
            return false;
        }
        std::memcpy(oiv_, p->data, kTlsFixedIvLen);
        if (enc_ && kcipher_entropy_getrandom(nullptr, oiv_ + kTlsFixedIvLen, kTlsExplicitIvLen,
                                              kTlsExplicitIvLen) != kTlsExplicitIvLen) {
            raise(prov_, R_KCIPHER, "no random bytes for the explicit nonce");
            return false;
        }
        iv_set_ = true;
        return true;
    }

    // The record header (13 bytes); its length field counts the explicit nonce (and, received,
    // the tag), which are not authenticated data: corrected here, as OpenSSL does.
    bool set_tls_aad(const OSSL_PARAM *p)
    {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != kTlsAadLen) {
            raise(prov_, R_BAD_PARAMETER, "TLS AAD is 13 bytes");
            return false;
        }
        std::memcpy(tls_aad_, p->data, kTlsAadLen);
        size_t len = (size_t)tls_aad_[11] << 8 | tls_aad_[12];
        const size_t less = kTlsExplicitIvLen + (enc_ ? 0 : kTagLen);
        if (len < less) {
            raise(prov_, R_BAD_PARAMETER, "TLS record too short");
            return false;
        }
        len -= less;
        tls_aad_[11] = (uint8_t)(len >> 8);
        tls_aad_[12] = (uint8_t)len;
        tls_aad_len_ = kTlsAadLen;
        return true;
    }

    // One TLS record in place: explicit nonce || payload || tag.
    int tls_record(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t len)
    {
        tls_aad_len_ = 0; // one record per header
        *outl = 0;
        if (!ready(true))
            return 0;
        if (out != in || len < kTlsExplicitIvLen + kTagLen || outsize < len) {
            raise(prov_, R_BAD_PARAMETER, "a TLS record is processed in place, nonce and tag included");
            return 0;
        }
        const size_t plen = len - kTlsExplicitIvLen - kTagLen;
        uint8_t *nonce = oiv_ + kTlsFixedIvLen;
        kcipher_status s;
        if (enc_) {
            std::memcpy(out, nonce, kTlsExplicitIvLen);
            s = kcipher_aead_seal(kc_, KCIPHER_MODE_GCM, oiv_, 12, tls_aad_, kTlsAadLen, in + kTlsExplicitIvLen, plen,
                                  out + kTlsExplicitIvLen, kTagLen);
            for (size_t i = kTlsExplicitIvLen; i-- > 0 && ++nonce[i] == 0;) { // the next record's nonce
            }
        } else {
            std::memcpy(nonce, in, kTlsExplicitIvLen);
            s = kcipher_aead_open(kc_, KCIPHER_MODE_GCM, oiv_, 12, tls_aad_, kTlsAadLen, in + kTlsExplicitIvLen,
                                  plen + kTagLen, out + kTlsExplicitIvLen, kTagLen);
        }
        if (s != KCIPHER_OK)
            return raise_status(prov_, s, "a TLS record");
        (enc_ ? prov_->stats.tls_records_sealed : prov_->stats.tls_records_opened).fetch_add(1);
        prov_->stats.tls_bytes.fetch_add(plen);
        *outl = enc_ ? len : plen;
        return 1;
    }

    kcipher_aead *st_ = nullptr;
    uint8_t tag_[kTagLen] = {};
    size_t tag_len_ = 0; // 0: no tag yet
    bool finished_ = false;
    uint8_t tls_aad_[kTlsAadLen] = {};
    size_t tls_aad_len_ = 0; // 0: the next call is not a TLS record
};

} // namespace

CipherCtx *new_gcm_ctx(ProvCtx *p, const Algo &a) { return new GcmCtx(p, a); }

} // namespace kcprov
