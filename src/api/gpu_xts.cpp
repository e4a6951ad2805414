// The GPU's XTS calls of the C API (kcipher.h, "GPUs"): the device-memory checks of the other
// kcipher_gpu_* calls, then XTS's own (an XTS context, a 16-byte tweak, units of at least a
// block), then modes/gpu_xts.cu.
#include <cstdint>

#include "api/context.hpp"
#include "kcipher/kcipher.h"
#include "modes/gpu_modes.hpp"

using namespace kc;

kcipher_status kc_gpu_check_buffers(const void *in, const void *out, size_t len, bool in_optional,
                                    int *device); // api/gpu_api.cpp

namespace {

// Every unit, the last shorter one too, is at least one block (IEEE 1619: ciphertext stealing
// needs a full block to steal from).
bool xts_lengths_ok(size_t data_unit, size_t len)
{
    if (len < 16)
        return false;
    if (data_unit == 0 || data_unit >= len)
        return true;
    return data_unit >= 16 && (len % data_unit == 0 || len % data_unit >= 16);
}

kcipher_status device_xts(const kcipher_ctx *ctx, bool decrypt, const uint8_t *tweak, size_t tweak_len,
                          size_t data_unit, const void *in, void *out, size_t len, void *stream)
{
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (ctx->kernel->gpu == nullptr)
        return KCIPHER_ERR_NOT_GPU_KERNEL;
    if (!ctx->xts)
        return KCIPHER_ERR_CONTEXT_MODE;
    if (tweak == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (tweak_len != 16)
        return KCIPHER_ERR_IV_LENGTH;
    if (!xts_lengths_ok(data_unit, len)) // an empty input too, as kcipher_xts_encrypt says
        return KCIPHER_ERR_DATA_LENGTH;
    if (ctx->kernel->gpu->xts == nullptr)
        return KCIPHER_ERR_UNSUPPORTED;
    int dev = -1;
    kcipher_status st = kc_gpu_check_buffers(in, out, len, false, &dev);
    if (st != KCIPHER_OK)
        return st;
    GpuDeviceScope scope(dev);
    if (scope.status() != KCIPHER_OK)
        return scope.status();
    return gpu_device_xts(ctx->gpu_job(), ctx->tweak_keys.get(), decrypt, tweak, data_unit,
                          static_cast<const uint8_t *>(in), static_cast<uint8_t *>(out), len, stream);
}

} // namespace

extern "C" {

kcipher_status kcipher_gpu_xts_encrypt(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len,
                                       size_t data_unit, const void *in, void *out, size_t len, void *stream)
{
    return device_xts(ctx, false, tweak, tweak_len, data_unit, in, out, len, stream);
}

kcipher_status kcipher_gpu_xts_decrypt(const kcipher_ctx *ctx, const uint8_t *tweak, size_t tweak_len,
                                       size_t data_unit, const void *in, void *out, size_t len, void *stream)
{
    return device_xts(ctx, true, tweak, tweak_len, data_unit, in, out, len, stream);
}

} // extern "C"
