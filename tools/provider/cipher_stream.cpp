// CTR, CFB (full-block segments), CFB8 and OFB as OpenSSL's EVP runs them: any number of bytes
// per call, the stream continuing where the last call stopped. Whole blocks go through kcipher
// (CTR and CFB decryption in parallel); a block begun in one call and finished in the next is
// done here byte by byte from the register, exactly as OpenSSL's "num" counts it.
#include "cipher_modes.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cstring>

namespace kcprov {
namespace {

class StreamCtx final : public CipherCtx {
public:
    using CipherCtx::CipherCtx;
    CipherCtx *clone() const override { return copy_of(*this); }

    int update(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        if (!ready(true) || !room(outsize, inl))
            return 0;
        if (inl != 0 && !run(in, out, inl))
            return 0;
        *outl = inl;
        return 1;
    }

    int final(uint8_t *, size_t *outl, size_t) override
    {
        if (!ready(true))
            return 0;
        *outl = 0;
        return 1;
    }

    int cipher(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        return update(out, outl, outsize, in, inl);
    }

    int get_params(OSSL_PARAM params[]) override
    {
        OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_NUM);
        if (p != nullptr && !OSSL_PARAM_set_uint(p, (unsigned)num()))
            return 0;
        p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_PADDING);
        if (p != nullptr && !OSSL_PARAM_set_uint(p, 0))
            return 0;
        if (algo_->mode == KCIPHER_MODE_CTR)
            counter_after(ctr_pos_, iv_);
        return CipherCtx::get_params(params);
    }

    int set_params(const OSSL_PARAM params[]) override
    {
        const OSSL_PARAM *p = params == nullptr ? nullptr : OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_NUM);
        if (p != nullptr) {
            unsigned n = 0;
            if (!OSSL_PARAM_get_uint(p, &n) || n >= block_) {
                raise(prov_, R_BAD_PARAMETER, "num");
                return 0;
            }
            if (algo_->mode == KCIPHER_MODE_CTR)
                ctr_pos_ = ctr_pos_ / block_ * block_ + n;
            else
                num_ = n;
        }
        // padding is accepted and means nothing here, as in OpenSSL
        return CipherCtx::set_params(params);
    }

private:
    void restart() override
    {
        ctr_pos_ = 0;
        num_ = 0;
    }

    size_t num() const { return algo_->mode == KCIPHER_MODE_CTR ? (size_t)(ctr_pos_ % block_) : num_; }

    bool ok(kcipher_status s) { return s == KCIPHER_OK || raise_status(prov_, s, "the keystream"); }

    bool run(const uint8_t *in, uint8_t *out, size_t len)
    {
        switch (algo_->mode) {
        case KCIPHER_MODE_CTR: return ctr(in, out, len);
        case KCIPHER_MODE_CFB8:
            return ok(enc_ ? kcipher_cfb8_encrypt(kc_, iv_, block_, in, out, len)
                           : kcipher_cfb8_decrypt(kc_, iv_, block_, in, out, len));
        default: return feedback(in, out, len);
        }
    }

    // CTR: block ctr_pos_ / block_ of the stream from the IV; a partial block's keystream is
    // made again for its remaining bytes.
    bool ctr(const uint8_t *in, uint8_t *out, size_t len)
    {
        const size_t off = (size_t)(ctr_pos_ % block_);
        if (off != 0) {
            uint8_t ks[16] = {};
            if (!ok(kcipher_ctr_xor(kc_, oiv_, block_, ctr_pos_ / block_, ks, ks, block_)))
                return false;
            const size_t n = len < block_ - off ? len : block_ - off;
            for (size_t i = 0; i < n; ++i)
                out[i] = in[i] ^ ks[off + i];
            OPENSSL_cleanse(ks, sizeof ks);
            in += n;
            out += n;
            len -= n;
            ctr_pos_ += n;
        }
        if (len != 0 && !ok(kcipher_ctr_xor(kc_, oiv_, block_, ctr_pos_ / block_, in, out, len)))
            return false;
        ctr_pos_ += len;
        return true;
    }

    // The IV plus ceil(pos / block) as a big-endian integer: the next counter block, OpenSSL's
    // "updated-iv".
    void counter_after(uint64_t pos, uint8_t *iv) const
    {
        std::memcpy(iv, oiv_, block_);
        uint64_t add = (pos + block_ - 1) / block_;
        for (size_t i = block_; i-- > 0 && add != 0;) {
            const uint64_t sum = iv[i] + (add & 0xff);
            iv[i] = (uint8_t)sum;
            add = (add >> 8) + (sum >> 8);
        }
    }

    // CFB and OFB: bytes up to the end of a begun block, whole blocks through kcipher, then the
    // start of the next block.
    bool feedback(const uint8_t *in, uint8_t *out, size_t len)
    {
        size_t n = num_ == 0 ? 0 : (len < block_ - num_ ? len : block_ - num_);
        if (n != 0 && !bytes(in, out, n))
            return false;
        in += n, out += n, len -= n;
        const size_t whole = len / block_ * block_;
        if (whole != 0) {
            kcipher_status s = algo_->mode == KCIPHER_MODE_OFB ? kcipher_ofb_xor(kc_, iv_, block_, in, out, whole)
                               : enc_ ? kcipher_cfb_encrypt(kc_, iv_, block_, in, out, whole)
                                      : kcipher_cfb_decrypt(kc_, iv_, block_, in, out, whole);
            if (!ok(s))
                return false;
        }
        return bytes(in + whole, out + whole, len - whole);
    }

    // OpenSSL's register arithmetic, one byte at a time: at the start of a block the register
    // is encrypted; CFB then keeps the ciphertext byte in it, OFB the keystream.
    bool bytes(const uint8_t *in, uint8_t *out, size_t len)
    {
        for (size_t i = 0; i < len; ++i) {
            if (num_ == 0 && !ok(kcipher_ecb_encrypt(kc_, iv_, iv_, block_)))
                return false;
            const uint8_t c = in[i];
            out[i] = c ^ iv_[num_];
            if (algo_->mode == KCIPHER_MODE_CFB)
                iv_[num_] = enc_ ? out[i] : c;
            num_ = (num_ + 1) % block_;
        }
        return true;
    }

    uint64_t ctr_pos_ = 0; // CTR: bytes since the IV
    size_t num_ = 0;       // CFB, OFB: bytes of the register's block used
};

} // namespace

CipherCtx *new_stream_ctx(ProvCtx *p, const Algo &a) { return new StreamCtx(p, a); }

} // namespace kcprov
