// The C API front of PKCS#7-padded ECB and CBC: checks every argument, then runs the whole
// blocks through the unpadded calls and handles the last block apart. Decryption puts the
// last block in a temporary and copies out only what the pad check lets through, so nothing
// unverified reaches `out`; on a bad pad what was written is wiped.
#include <cstdint>
#include <cstring>

#include "api/context.hpp"
#include "core/wipe.hpp"
#include "kcipher/kcipher.h"
#include "modes/padding.hpp"

namespace {

// [in, in + in_len) and [out, out + out_len) share bytes without starting at the same place.
bool overlaps_badly(const uint8_t *in, size_t in_len, const uint8_t *out, size_t out_len)
{
    if (in == out || in_len == 0 || out_len == 0)
        return false;
    uintptr_t a = reinterpret_cast<uintptr_t>(in), b = reinterpret_cast<uintptr_t>(out);
    return a < b + out_len && b < a + in_len;
}

// out_need: the bytes this call may write into out.
kcipher_status check_padded(const kcipher_ctx *ctx, const uint8_t *in, size_t len, const uint8_t *out,
                            size_t out_need, size_t *out_len)
{
    if (ctx == nullptr || out_len == nullptr || (out_need != 0 && out == nullptr) || (len != 0 && in == nullptr))
        return KCIPHER_ERR_NULL_POINTER;
    if (kc_plain_context(ctx) != KCIPHER_OK)
        return KCIPHER_ERR_CONTEXT_MODE;
    if (UINTPTR_MAX - reinterpret_cast<uintptr_t>(in) < len ||
        UINTPTR_MAX - reinterpret_cast<uintptr_t>(out) < out_need)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    if (overlaps_badly(in, len, out, out_need))
        return KCIPHER_ERR_OVERLAP;
    return KCIPHER_OK;
}

kcipher_status check_iv(const kcipher_ctx *ctx, const uint8_t *iv, size_t iv_len)
{
    if (iv == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    return iv_len == ctx->cipher->block_bytes ? KCIPHER_OK : KCIPHER_ERR_IV_LENGTH;
}

// The unpadded call for nblocks whole blocks of ECB (iv == nullptr) or CBC.
kcipher_status run_blocks(const kcipher_ctx *ctx, bool encrypt, uint8_t *iv, const uint8_t *in, uint8_t *out,
                          size_t len)
{
    const size_t bs = ctx->cipher->block_bytes;
    if (iv != nullptr)
        return encrypt ? kcipher_cbc_encrypt(ctx, iv, bs, in, out, len) : kcipher_cbc_decrypt(ctx, iv, bs, in, out, len);
    return encrypt ? kcipher_ecb_encrypt(ctx, in, out, len) : kcipher_ecb_decrypt(ctx, in, out, len);
}

// cbc false: ECB, iv unused.
kcipher_status encrypt_padded(const kcipher_ctx *ctx, bool cbc, uint8_t *iv, size_t iv_len, const uint8_t *in, size_t len,
                              uint8_t *out, size_t out_cap, size_t *out_len)
{
    if (out_len != nullptr)
        *out_len = 0;
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const size_t bs = ctx->cipher->block_bytes, whole = len / bs * bs;
    if (len > SIZE_MAX - bs)
        return KCIPHER_ERR_DATA_LENGTH;
    const size_t total = whole + bs;
    kcipher_status st = check_padded(ctx, in, len, out, total, out_len);
    if (st == KCIPHER_OK && cbc)
        st = check_iv(ctx, iv, iv_len);
    if (st == KCIPHER_OK && out_cap < total)
        st = KCIPHER_ERR_DATA_LENGTH;
    if (st != KCIPHER_OK)
        return st;
    // The tail is read before anything is written: in place, out's blocks cover it.
    uint8_t last[16];
    kc::pkcs7_pad_block(in + whole, len - whole, bs, last);
    uint8_t *chain = cbc ? iv : nullptr;
    st = run_blocks(ctx, true, chain, in, out, whole);
    if (st == KCIPHER_OK)
        st = run_blocks(ctx, true, chain, last, out + whole, bs);
    kc::secure_wipe(last, sizeof last);
    if (st == KCIPHER_OK)
        *out_len = total;
    return st;
}

kcipher_status decrypt_padded(const kcipher_ctx *ctx, bool cbc, uint8_t *iv, size_t iv_len, const uint8_t *in, size_t len,
                              uint8_t *out, size_t out_cap, size_t *out_len)
{
    if (out_len != nullptr)
        *out_len = 0;
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const size_t bs = ctx->cipher->block_bytes;
    // The longest plaintext a len-byte ciphertext can hold: at least one byte is padding.
    const size_t most = len == 0 ? 0 : len - 1;
    kcipher_status st = check_padded(ctx, in, len, out, most, out_len);
    if (st == KCIPHER_OK && cbc)
        st = check_iv(ctx, iv, iv_len);
    if (st == KCIPHER_OK && (len == 0 || len % bs != 0 || out_cap < most))
        st = KCIPHER_ERR_DATA_LENGTH;
    if (st != KCIPHER_OK)
        return st;
    const size_t whole = len - bs;
    uint8_t iv_before[16], last[16];
    uint8_t *chain = cbc ? iv : nullptr;
    if (cbc)
        std::memcpy(iv_before, iv, bs);
    st = run_blocks(ctx, false, chain, in, out, whole);
    if (st == KCIPHER_OK)
        st = run_blocks(ctx, false, chain, in + whole, last, bs);
    const size_t pad = st == KCIPHER_OK ? kc::pkcs7_pad_length(last, bs) : 0;
    if (st == KCIPHER_OK && pad == 0) {
        st = KCIPHER_ERR_PADDING;
        if (cbc)
            std::memcpy(iv, iv_before, bs); // a failed call leaves the chain where it was
    }
    if (st == KCIPHER_OK) {
        std::memcpy(out + whole, last, bs - pad);
        *out_len = whole + bs - pad;
    } else {
        kc::secure_wipe(out, whole);
    }
    kc::secure_wipe(last, sizeof last);
    return st;
}

} // namespace

extern "C" {

kcipher_status kcipher_ecb_encrypt_padded(const kcipher_ctx *ctx, const uint8_t *in, size_t len, uint8_t *out,
                                          size_t out_cap, size_t *out_len)
{
    return encrypt_padded(ctx, false, nullptr, 0, in, len, out, out_cap, out_len);
}

kcipher_status kcipher_ecb_decrypt_padded(const kcipher_ctx *ctx, const uint8_t *in, size_t len, uint8_t *out,
                                          size_t out_cap, size_t *out_len)
{
    return decrypt_padded(ctx, false, nullptr, 0, in, len, out, out_cap, out_len);
}

kcipher_status kcipher_cbc_encrypt_padded(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                                          size_t len, uint8_t *out, size_t out_cap, size_t *out_len)
{
    return encrypt_padded(ctx, true, iv, iv_len, in, len, out, out_cap, out_len);
}

kcipher_status kcipher_cbc_decrypt_padded(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                                          size_t len, uint8_t *out, size_t out_cap, size_t *out_len)
{
    return decrypt_padded(ctx, true, iv, iv_len, in, len, out, out_cap, out_len);
}

} // extern "C"
