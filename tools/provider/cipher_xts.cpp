// XTS as OpenSSL's EVP runs it: each update is one whole data unit under the context's tweak
// (the IV), at least one block, ciphertext stealing for a partial last block. The key is the
// data key then the tweak key; equal halves are refused.
#include "cipher_modes.hpp"

namespace kcprov {
namespace {

class XtsCtx final : public CipherCtx {
public:
    using CipherCtx::CipherCtx;
    CipherCtx *clone() const override { return copy_of(*this); }

    int update(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        if (!ready(true) || !room(outsize, inl))
            return 0;
        if (inl < block_) {
            raise(prov_, R_BAD_PARAMETER, "an XTS data unit is at least one block");
            return 0;
        }
        const kcipher_status s = enc_ ? kcipher_xts_encrypt(kc_, oiv_, iv_len_, 0, in, out, inl)
                                      : kcipher_xts_decrypt(kc_, oiv_, iv_len_, 0, in, out, inl);
        if (s != KCIPHER_OK)
            return raise_status(prov_, s, "XTS");
        *outl = inl;
        return 1;
    }

    int final(uint8_t *, size_t *outl, size_t) override
    {
        *outl = 0;
        return ready(true) ? 1 : 0;
    }

    int cipher(uint8_t *out, size_t *outl, size_t outsize, const uint8_t *in, size_t inl) override
    {
        return update(out, outl, outsize, in, inl);
    }
};

} // namespace

CipherCtx *new_xts_ctx(ProvCtx *p, const Algo &a) { return new XtsCtx(p, a); }

} // namespace kcprov
