// The C API front of CFB, CFB8 and OFB (modes/feedback.hpp computes): the buffer and IV
// checks of every mode, and the refusal of an XTS context. The serial directions run on the
// context's chain kernel, CFB decryption on its CPU kernel (a GPU context's CPU companion:
// a chain has no GPU work, and CFB decryption of host data is not worth the copies).
#include "api/buffer_checks.hpp"
#include "api/context.hpp"
#include "kcipher/kcipher.h"
#include "modes/feedback.hpp"

using namespace kc;

namespace {

using FeedbackFn = void (*)(const Keyed &, uint8_t *, const uint8_t *, uint8_t *, size_t);

// Checks, then runs fn on the chain kernel (chain = true) or the CPU kernel.
kcipher_status feedback(FeedbackFn fn, bool chain, const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len,
                        const uint8_t *in, uint8_t *out, size_t len)
{
    kcipher_status st = check_buffers(ctx, in, out, len);
    if (st == KCIPHER_OK)
        st = check_iv(ctx, iv, iv_len);
    if (st == KCIPHER_OK)
        st = kc_plain_context(ctx);
    if (st == KCIPHER_OK && len != 0)
        fn(chain ? ctx->chain_keyed() : ctx->cpu_keyed(), iv, in, out, len);
    return st;
}

} // namespace

extern "C" {

kcipher_status kcipher_cfb_encrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                                   uint8_t *out, size_t len)
{
    return feedback(cfb_encrypt, true, ctx, iv, iv_len, in, out, len);
}

kcipher_status kcipher_cfb_decrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                                   uint8_t *out, size_t len)
{
    return feedback(cfb_decrypt, false, ctx, iv, iv_len, in, out, len);
}

kcipher_status kcipher_cfb8_encrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                                    uint8_t *out, size_t len)
{
    return feedback(cfb8_encrypt, true, ctx, iv, iv_len, in, out, len);
}

kcipher_status kcipher_cfb8_decrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                                    uint8_t *out, size_t len)
{
    return feedback(cfb8_decrypt, true, ctx, iv, iv_len, in, out, len);
}

kcipher_status kcipher_ofb_xor(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                               uint8_t *out, size_t len)
{
    return feedback(ofb_xor, true, ctx, iv, iv_len, in, out, len);
}

} // extern "C"
