// CCM as OpenSSL's EVP runs it: the nonce length (7..13, default 7) and the tag length
// (4..16 even, default 12) set as parameters; the payload length announced by an update with
// neither input nor output (needed when there is AAD); the AAD in one update with no output;
// the payload in one update. Opening checks the tag in that update and releases nothing when
// it fails.
#include "cipher_modes.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstring>
#include <new>
#include <vector>

namespace kcprov {
namespace {

class CcmCtx final : public CipherCtx {
public:
    CcmCtx(ProvCtx *p, const Algo &a) : CipherCtx(p, a) {}
    ~CcmCtx() override { wipe(); }
    CipherCtx *clone() const override { return copy_of(*this); }

    int update(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        *outl = 0;
        if (!ready(true) || !not_done())
            return 0;
        if (out == nullptr && in == nullptr) { // the payload's length
            text_len_ = inl;
            text_len_set_ = true;
            return 1;
        }
        if (out == nullptr) { // the AAD, all of it
            if (!text_len_set_ && inl != 0) {
                raise(prov_, R_BAD_PARAMETER, "CCM needs the payload length before the AAD");
                return 0;
            }
            try {
                aad_.assign(in, in + inl);
            } catch (const std::bad_alloc &) {
                return raise_status(prov_, KCIPHER_ERR_NO_MEMORY, "the AAD");
            }
            return 1;
        }
        if (text_len_set_ && inl != text_len_) {
            raise(prov_, R_BAD_PARAMETER, "CCM's payload is %zu bytes, announced as %zu", inl, text_len_);
            return 0;
        }
        if (!room(outsize, inl) || !payload(in, out, inl))
            return 0;
        *outl = inl;
        return 1;
    }

    // An empty payload may end without an update for it: its tag is computed here.
    int final(uint8_t *, size_t *outl, size_t) override
    {
        *outl = 0;
        if (!ready(true))
            return 0;
        if (!done_ && !payload(nullptr, nullptr, 0))
            return 0;
        return 1;
    }

    int cipher(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        if (in == nullptr && out != nullptr)
            return final(out, outl, outsize);
        return update(out, outl, outsize, in, inl);
    }

    int get_params(OSSL_PARAM params[]) override
    {
        OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAGLEN);
        if (p != nullptr && !OSSL_PARAM_set_size_t(p, tag_len_))
            return 0;
        p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD_TAG);
        if (p != nullptr) {
            if (!enc_ || !done_ || p->data_size != tag_len_) {
                raise(prov_, R_INVALID_TAG, "the CCM tag is read after encrypting, at its set length");
                return 0;
            }
            if (!OSSL_PARAM_set_octet_string(p, tag_, tag_len_))
                return 0;
        }
        return CipherCtx::get_params(params);
    }

    int set_params(const OSSL_PARAM params[]) override
    {
        if (params == nullptr)
            return 1;
        const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_IVLEN);
        if (p != nullptr) {
            size_t len = 0;
            if (!OSSL_PARAM_get_size_t(p, &len) || !iv_length_ok(len)) {
                raise(prov_, R_INVALID_IV_LENGTH, "a CCM nonce is 7 to 13 bytes");
                return 0;
            }
            if (len != iv_len_)
                iv_set_ = false;
            iv_len_ = len;
        }
        p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_AEAD_TAG);
        if (p != nullptr && !set_tag(p))
            return 0;
        return CipherCtx::set_params(params);
    }

private:
    bool iv_length_ok(size_t len) const override { return len >= 7 && len <= 13; }

    void restart() override
    {
        aad_.clear();
        text_len_set_ = false;
        text_len_ = 0;
        done_ = false;
    }

    void wipe()
    {
        OPENSSL_cleanse(tag_, sizeof tag_);
        if (!aad_.empty())
            OPENSSL_cleanse(aad_.data(), aad_.size());
    }

    bool not_done() const
    {
        if (done_)
            raise(prov_, R_UPDATE_AFTER_FINAL, "CCM takes its payload in one update");
        return !done_;
    }

    // The tag's length alone (no data, as EVP_CTRL_AEAD_SET_TAG with NULL sends it), or the
    // expected tag when opening.
    bool set_tag(const OSSL_PARAM *p)
    {
        const size_t len = p->data_size;
        if (p->data_type != OSSL_PARAM_OCTET_STRING || len < 4 || len > 16 || len % 2 != 0) {
            raise(prov_, R_INVALID_TAG_LENGTH, "a CCM tag is 4, 6, ..., 16 bytes");
            return false;
        }
        if (p->data != nullptr) {
            if (enc_) {
                raise(prov_, R_TAG_NOT_NEEDED);
                return false;
            }
            std::memcpy(tag_, p->data, len);
        }
        tag_len_ = len;
        return true;
    }

    // Seals (ciphertext out, tag kept) or opens (tag checked, out wiped on failure) len bytes.
    bool payload(const uint8_t *in, uint8_t *out, size_t len)
    {
        done_ = true;
        std::vector<uint8_t> both;
        try {
            both.resize(len + tag_len_);
        } catch (const std::bad_alloc &) {
            return raise_status(prov_, KCIPHER_ERR_NO_MEMORY, "CCM");
        }
        kcipher_status s;
        if (enc_) {
            s = kcipher_aead_seal(kc_, KCIPHER_MODE_CCM, oiv_, iv_len_, aad_.data(), aad_.size(), in, len, both.data(),
                                  tag_len_);
            if (s == KCIPHER_OK) {
                if (len != 0)
                    std::memcpy(out, both.data(), len);
                std::memcpy(tag_, both.data() + len, tag_len_);
            }
        } else {
            if (len != 0)
                std::memcpy(both.data(), in, len);
            std::memcpy(both.data() + len, tag_, tag_len_);
            uint8_t empty[1];
            s = kcipher_aead_open(kc_, KCIPHER_MODE_CCM, oiv_, iv_len_, aad_.data(), aad_.size(), both.data(),
                                  len + tag_len_, len != 0 ? out : empty, tag_len_);
        }
        OPENSSL_cleanse(both.data(), both.size());
        if (s == KCIPHER_ERR_AUTH) {
            raise(prov_, R_BAD_DECRYPT, "the CCM tag does not match");
            return false;
        }
        return s == KCIPHER_OK || raise_status(prov_, s, "CCM");
    }

    std::vector<uint8_t> aad_;
    size_t text_len_ = 0;
    bool text_len_set_ = false;
    bool done_ = false;
    uint8_t tag_[16] = {};
    size_t tag_len_ = 12;
};

} // namespace

CipherCtx *new_ccm_ctx(ProvCtx *p, const Algo &a) { return new CcmCtx(p, a); }

} // namespace kcprov
