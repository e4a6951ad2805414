// The C API of XTS (kcipher.h): every check, then modes/xts.cpp. A GPU context whose kernel
// has XTS runs on the GPU through the pinned pipeline (modes/gpu_host.cu); another GPU
// context (aria/cuda-bitslice) on its companion CPU kernel, keyed with both halves at kcipher_new.
#include <cstdint>

#include "api/context.hpp"
#include "kcipher/kcipher.h"
#include "modes/gpu_modes.hpp"
#include "modes/xts.hpp"

using namespace kc;

kcipher_status kc_check_buffers(const kcipher_ctx *ctx, const uint8_t *in, const uint8_t *out, size_t len);

namespace {

// Every data unit, and a shorter last one, must hold at least one block: ciphertext stealing
// needs a whole block to steal from (IEEE 1619-2018 5.1).
bool units_long_enough(size_t data_unit, size_t len)
{
    if (len < 16)
        return false;
    if (data_unit == 0 || data_unit >= len)
        return true;
    return data_unit >= 16 && (len % data_unit == 0 || len % data_unit >= 16);
}

kcipher_status check_xts(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len, size_t data_unit,
                         const uint8_t *in, const uint8_t *out, size_t len)
{
    if (ctx == nullptr || tweak == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (!ctx->xts)
        return KCIPHER_ERR_CONTEXT_MODE;
    if (tweak_len != 16)
        return KCIPHER_ERR_IV_LENGTH;
    kcipher_status st = kc_check_buffers(ctx, in, out, len);
    if (st != KCIPHER_OK)
        return st;
    return units_long_enough(data_unit, len) ? KCIPHER_OK : KCIPHER_ERR_DATA_LENGTH;
}

bool on_gpu(const kcipher_ctx *ctx) { return ctx->kernel->gpu != nullptr && ctx->kernel->gpu->xts != nullptr; }

kcipher_status gpu_xts(const kcipher_ctx *ctx, bool decrypt, const uint8_t *tweak, size_t data_unit,
                       const uint8_t *in, uint8_t *out, size_t len)
{
    return gpu_host_xts(ctx->gpu_job(), ctx->tweak_keys.get(), decrypt, tweak, data_unit, in, out, len,
                        ctx->gpu_device.load(), ctx->threads.load());
}

} // namespace

extern "C" {

kcipher_status kcipher_xts_encrypt(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len, size_t data_unit,
                                   const uint8_t *in, uint8_t *out, size_t len)
{
    const kcipher_status st = check_xts(ctx, tweak, tweak_len, data_unit, in, out, len);
    if (st == KCIPHER_OK && on_gpu(ctx))
        return gpu_xts(ctx, false, tweak, data_unit, in, out, len);
    if (st == KCIPHER_OK)
        xts_encrypt(ctx->cpu_keyed(), ctx->cpu_tweak_keyed(), tweak, data_unit, in, out, len);
    return st;
}

kcipher_status kcipher_xts_decrypt(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len, size_t data_unit,
                                   const uint8_t *in, uint8_t *out, size_t len)
{
    const kcipher_status st = check_xts(ctx, tweak, tweak_len, data_unit, in, out, len);
    if (st == KCIPHER_OK && on_gpu(ctx))
        return gpu_xts(ctx, true, tweak, data_unit, in, out, len);
    if (st == KCIPHER_OK)
        xts_decrypt(ctx->cpu_keyed(), ctx->cpu_tweak_keyed(), tweak, data_unit, in, out, len);
    return st;
}

} // extern "C"
