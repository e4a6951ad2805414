// The device-memory front of the C API (kcipher.h, "GPUs"): the same checks as the host
// calls, plus "is this a GPU context" and "are these GPU pointers", then src/cuda.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "api/context.hpp"
#include "core/counter.hpp"
#include "cuda/devices.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"

using namespace kc;

kcipher_status kc_lookup_cipher(const char *name, const CipherDesc **out);

// The buffers of a device call (api/gpu_xts.cpp's too): both given, not overlapping unless
// equal, on one GPU, whose index goes to *device.
kcipher_status kc_gpu_check_buffers(const void *in, const void *out, size_t len, bool in_optional, int *device)
{
    if (len == 0)
        return KCIPHER_OK;
    if (out == nullptr || (in == nullptr && !in_optional))
        return KCIPHER_ERR_NULL_POINTER;
    uintptr_t a = reinterpret_cast<uintptr_t>(in), b = reinterpret_cast<uintptr_t>(out);
    if (UINTPTR_MAX - b < len || (in != nullptr && UINTPTR_MAX - a < len))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    if (in != nullptr && in != out && a < b + len && b < a + len)
        return KCIPHER_ERR_OVERLAP;
    return gpu_pointers_device(in, out, device);
}

static kcipher_status check_device_call(const kcipher_ctx *ctx, const void *in, const void *out, size_t len,
                                        bool in_optional, int *device)
{
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (kc_plain_context(ctx) != KCIPHER_OK)
        return KCIPHER_ERR_CONTEXT_MODE;
    if (ctx->kernel->gpu == nullptr)
        return KCIPHER_ERR_NOT_GPU_KERNEL;
    return kc_gpu_check_buffers(in, out, len, in_optional, device);
}

extern "C" {

kcipher_status kcipher_default_gpu_kernel(const char *cipher, const char **kernel_name)
{
    if (cipher == nullptr || kernel_name == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const CipherDesc *d;
    kcipher_status st = kc_lookup_cipher(cipher, &d);
    if (st != KCIPHER_OK)
        return st;
    const Kernel *k = best_gpu_kernel(d->id);
    if (k == nullptr)
        return KCIPHER_ERR_NO_GPU;
    *kernel_name = k->name;
    return KCIPHER_OK;
}

kcipher_status kcipher_set_gpu(kcipher_ctx *ctx, int device)
{
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (device < -1 || device >= cuda_device_count())
        return KCIPHER_ERR_NO_GPU;
    ctx->gpu_device.store(device, std::memory_order_relaxed);
    return KCIPHER_OK;
}

static kcipher_status device_ecb(const kcipher_ctx *ctx, bool decrypt, const void *in, void *out, size_t len,
                                 void *stream)
{
    int dev = -1;
    kcipher_status st = check_device_call(ctx, in, out, len, false, &dev);
    if (st != KCIPHER_OK || len == 0)
        return st;
    if (len % ctx->cipher->block_bytes != 0)
        return KCIPHER_ERR_DATA_LENGTH;
    GpuDeviceScope scope(dev);
    if (scope.status() != KCIPHER_OK)
        return scope.status();
    return gpu_device_ecb(ctx->gpu_job(), decrypt, static_cast<const uint8_t *>(in), static_cast<uint8_t *>(out),
                          len, stream);
}

kcipher_status kcipher_gpu_ecb_encrypt(const kcipher_ctx *ctx, const void *in, void *out, size_t len, void *stream)
{
    return device_ecb(ctx, false, in, out, len, stream);
}

kcipher_status kcipher_gpu_ecb_decrypt(const kcipher_ctx *ctx, const void *in, void *out, size_t len, void *stream)
{
    return device_ecb(ctx, true, in, out, len, stream);
}

kcipher_status kcipher_gpu_ctr_xor(const kcipher_ctx *ctx, const uint8_t *iv, size_t iv_len, uint64_t block_offset,
                                   const void *in, void *out, size_t len, void *stream)
{
    int dev = -1;
    kcipher_status st = check_device_call(ctx, in, out, len, true, &dev);
    if (st != KCIPHER_OK)
        return st;
    if (iv == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const size_t bs = ctx->cipher->block_bytes;
    if (iv_len != bs)
        return KCIPHER_ERR_IV_LENGTH;
    uint64_t nblocks = len / bs + (len % bs != 0);
    if (bs < 16 && block_offset != 0 && nblocks > UINT64_MAX - block_offset + 1)
        return KCIPHER_ERR_COUNTER_SPACE;
    if (len == 0)
        return KCIPHER_OK;
    uint8_t ctr[16];
    std::memcpy(ctr, iv, bs);
    counter_add(ctr, bs, block_offset);
    GpuDeviceScope scope(dev);
    if (scope.status() != KCIPHER_OK)
        return scope.status();
    return gpu_device_ctr(ctx->gpu_job(), ctr, static_cast<const uint8_t *>(in), static_cast<uint8_t *>(out), len,
                          stream);
}

const char *kcipher_gpu_last_error(void) { return gpu_last_error(); }

kcipher_status kcipher_gpu_get(int index, kcipher_gpu_info *info)
{
    if (info == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    for (const GpuInfo &g : cuda_devices()) {
        if (g.index != index)
            continue;
        std::memset(info, 0, sizeof *info);
        info->index = g.index;
        std::snprintf(info->name, sizeof info->name, "%s", g.name.c_str());
        info->sm_major = g.sm_major;
        info->sm_minor = g.sm_minor;
        info->multiprocessors = g.multiprocessors;
        info->global_memory_bytes = g.global_memory_bytes;
        info->clock_khz = g.clock_khz;
        return KCIPHER_OK;
    }
    return KCIPHER_ERR_NO_GPU;
}

const char *kcipher_gpu_runtime_status(void)
{
    static const std::string s = cuda_runtime_status();
    return s.c_str();
}

} // extern "C"
