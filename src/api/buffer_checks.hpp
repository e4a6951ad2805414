// The checks that every mode's front makes of its buffers and IV (src/api/crypt.cpp for ECB,
// CBC and CTR; feedback.cpp for CFB and OFB).
#pragma once

#include <cstdint>

#include "api/context.hpp"
#include "kcipher/kcipher.h"

// in == out is in-place use; any other overlap would let a block be read after it was
// written, so it is refused.
inline bool overlaps_badly(const uint8_t *in, const uint8_t *out, size_t len)
{
    if (in == out || len == 0)
        return false;
    uintptr_t a = reinterpret_cast<uintptr_t>(in), b = reinterpret_cast<uintptr_t>(out);
    return a < b + len && b < a + len;
}

inline kcipher_status check_buffers(const kcipher_ctx *ctx, const uint8_t *in, const uint8_t *out,
                                    size_t len)
{
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (len != 0 && (in == nullptr || out == nullptr))
        return KCIPHER_ERR_NULL_POINTER;
    if (len != 0 && (UINTPTR_MAX - reinterpret_cast<uintptr_t>(in) < len ||
                     UINTPTR_MAX - reinterpret_cast<uintptr_t>(out) < len))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    if (overlaps_badly(in, out, len))
        return KCIPHER_ERR_OVERLAP;
    return KCIPHER_OK;
}

inline kcipher_status check_iv(const kcipher_ctx *ctx, const uint8_t *iv, size_t iv_len)
{
    if (iv == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (iv_len != ctx->cipher->block_bytes)
        return KCIPHER_ERR_IV_LENGTH;
    return KCIPHER_OK;
}
