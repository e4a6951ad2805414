// ECB and CBC as OpenSSL's EVP runs them: whole blocks through kcipher, a partial block held
// until more input comes, PKCS#7 padding on by default (the "padding" parameter turns it off),
// and on decryption the last block held back until final, where its padding is checked.
#include "cipher_modes.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstring>

namespace kcprov {
namespace {

class PaddedCtx final : public CipherCtx {
public:
    using CipherCtx::CipherCtx;
    ~PaddedCtx() override { OPENSSL_cleanse(buf_, sizeof buf_); }
    CipherCtx *clone() const override { return copy_of(*this); }

    int update(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        if (!usable())
            return 0;
        const size_t total = buffered_ + inl;
        size_t whole = total / block_ * block_;
        if (!enc_ && padding_ && whole == total && whole != 0)
            whole -= block_; // the last block may be the padding: final decides
        if (!room(outsize, whole))
            return 0;
        size_t written = 0;
        if (buffered_ != 0 && whole != 0) {
            const size_t take = block_ - buffered_;
            std::memcpy(buf_ + buffered_, in, take);
            in += take;
            inl -= take;
            if (!blocks(buf_, out, block_))
                return 0;
            buffered_ = 0;
            written = block_;
        }
        if (whole > written && !blocks(in, out + written, whole - written))
            return 0;
        in += whole - written;
        inl -= whole - written;
        if (inl != 0) // in may be NULL with inl 0
            std::memcpy(buf_ + buffered_, in, inl);
        buffered_ += inl;
        *outl = whole;
        return 1;
    }

    int final(uint8_t *out, size_t *outl, size_t outsize) override
    {
        if (!usable())
            return 0;
        finished_ = true;
        *outl = 0;
        if (!padding_) {
            if (buffered_ == 0)
                return 1;
            raise(prov_, R_WRONG_FINAL_BLOCK_LENGTH, "%zu bytes left over with padding off", buffered_);
            return 0;
        }
        return enc_ ? pad_and_encrypt(out, outl, outsize) : decrypt_and_unpad(out, outl, outsize);
    }

    int cipher(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        if (!ready(true))
            return 0;
        if (inl % block_ != 0) {
            raise(prov_, R_WRONG_FINAL_BLOCK_LENGTH, "%zu bytes is not whole blocks", inl);
            return 0;
        }
        if (!room(outsize, inl) || !blocks(in, out, inl))
            return 0;
        *outl = inl;
        return 1;
    }

    int get_params(OSSL_PARAM params[]) override
    {
        OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_PADDING);
        if (p != nullptr && !OSSL_PARAM_set_uint(p, padding_ ? 1 : 0))
            return 0;
        p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_NUM);
        if (p != nullptr && !OSSL_PARAM_set_uint(p, 0))
            return 0;
        return CipherCtx::get_params(params);
    }

    int set_params(const OSSL_PARAM params[]) override
    {
        const OSSL_PARAM *p = params == nullptr ? nullptr : OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_PADDING);
        if (p != nullptr) {
            unsigned v = 0;
            if (!OSSL_PARAM_get_uint(p, &v)) {
                raise(prov_, R_BAD_PARAMETER, "padding");
                return 0;
            }
            padding_ = v != 0;
        }
        return CipherCtx::set_params(params);
    }

private:
    void restart() override
    {
        OPENSSL_cleanse(buf_, sizeof buf_);
        buffered_ = 0;
        finished_ = false;
    }

    bool usable() const
    {
        if (finished_) {
            raise(prov_, R_UPDATE_AFTER_FINAL);
            return false;
        }
        return ready(true);
    }

    // len bytes of whole blocks through the mode, in the context's direction.
    bool blocks(const uint8_t *in, uint8_t *out, size_t len)
    {
        if (len == 0)
            return true;
        kcipher_status s;
        if (algo_->mode == KCIPHER_MODE_ECB)
            s = enc_ ? kcipher_ecb_encrypt(kc_, in, out, len) : kcipher_ecb_decrypt(kc_, in, out, len);
        else
            s = enc_ ? kcipher_cbc_encrypt(kc_, iv_, block_, in, out, len)
                     : kcipher_cbc_decrypt(kc_, iv_, block_, in, out, len);
        return s == KCIPHER_OK || raise_status(prov_, s, enc_ ? "encrypting" : "decrypting");
    }

    int pad_and_encrypt(uint8_t *out, size_t *outl, size_t outsize)
    {
        if (!room(outsize, block_))
            return 0;
        const uint8_t pad = (uint8_t)(block_ - buffered_);
        std::memset(buf_ + buffered_, pad, pad);
        if (!blocks(buf_, out, block_))
            return 0;
        *outl = block_;
        return 1;
    }

    // The held-back block, decrypted; its padding checked without branching on the bytes.
    int decrypt_and_unpad(uint8_t *out, size_t *outl, size_t outsize)
    {
        if (buffered_ != block_) {
            raise(prov_, R_WRONG_FINAL_BLOCK_LENGTH, "the input is not whole blocks");
            return 0;
        }
        uint8_t plain[16];
        if (!blocks(buf_, plain, block_))
            return 0;
        const unsigned pad = plain[block_ - 1];
        unsigned bad = (unsigned)(pad == 0) | (unsigned)(pad > block_);
        for (size_t i = 0; i < block_; ++i) {
            const unsigned in_pad = (unsigned)(i >= block_ - pad);
            bad |= in_pad & (unsigned)(plain[i] != pad);
        }
        const size_t keep = bad ? 0 : block_ - pad;
        if (bad || !room(outsize, keep)) {
            OPENSSL_cleanse(plain, sizeof plain);
            if (bad)
                raise(prov_, R_BAD_DECRYPT, "bad padding");
            return 0;
        }
        std::memcpy(out, plain, keep);
        OPENSSL_cleanse(plain, sizeof plain);
        *outl = keep;
        return 1;
    }

    uint8_t buf_[16] = {};
    size_t buffered_ = 0;
    bool padding_ = true;
    bool finished_ = false;
};

} // namespace

CipherCtx *new_padded_ctx(ProvCtx *p, const Algo &a) { return new PaddedCtx(p, a); }

} // namespace kcprov
