// The GPU's GCM calls of the C API (kcipher.h, "GCM on the GPU"): the checks of the host
// calls, plus "is this a GPU context" and "are these GPU pointers", then modes/gpu_gcm.cu.
// H = E_K(0) and, for one message, J0 are computed on the host by the companion CPU kernel.
#include <cstdint>
#include <cstring>

#include "api/context.hpp"
#include "core/wipe.hpp"
#include "kcipher/kcipher.h"
#include "modes/gcm_parts.hpp"
#include "modes/gpu_modes.hpp"

using namespace kc;

kcipher_status kc_aead_check_one_shot(const kcipher_ctx *ctx, kcipher_mode mode, bool seal, const uint8_t *iv,
                                      size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                      size_t in_len, const uint8_t *out, size_t tag_len); // api/aead.cpp
bool kc_gcm_tag_length_ok(size_t tag_len);

namespace {

// A GPU context, GCM, a 128-bit block cipher.
kcipher_status check_gpu_gcm(const kcipher_ctx *ctx, kcipher_mode mode)
{
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (kc_plain_context(ctx) != KCIPHER_OK)
        return KCIPHER_ERR_CONTEXT_MODE;
    if (ctx->kernel->gpu == nullptr)
        return KCIPHER_ERR_NOT_GPU_KERNEL;
    if (mode == KCIPHER_MODE_CCM) // a chain: the CPU's (kcipher_aead_*)
        return KCIPHER_ERR_UNSUPPORTED;
    if (mode != KCIPHER_MODE_GCM)
        return KCIPHER_ERR_UNKNOWN_MODE;
    if (ctx->cipher->block_bytes != 16 || ctx->kernel->gpu->gcm == nullptr)
        return KCIPHER_ERR_UNSUPPORTED;
    return KCIPHER_OK;
}

// H = E_K(0) with the companion CPU kernel.
void hash_key(const kcipher_ctx *ctx, uint8_t h[16])
{
    const Keyed k = ctx->cpu_keyed();
    std::memset(h, 0, 16);
    k.kernel->encrypt_blocks(k.keys, h, h, 1);
}

kcipher_status gpu_one(const kcipher_ctx *ctx, kcipher_mode mode, bool seal, const uint8_t *iv, size_t iv_len,
                       const uint8_t *aad, size_t aad_len, const void *in_arg, size_t in_len, void *out_arg,
                       size_t tag_len, void *stream)
{
    kcipher_status st = check_gpu_gcm(ctx, mode);
    const uint8_t *in = static_cast<const uint8_t *>(in_arg);
    uint8_t *out = static_cast<uint8_t *>(out_arg);
    if (st == KCIPHER_OK)
        st = kc_aead_check_one_shot(ctx, mode, seal, iv, iv_len, aad, aad_len, in, in_len, out, tag_len);
    if (st != KCIPHER_OK)
        return st;
    const size_t len = seal ? in_len : in_len - tag_len, out_len = seal ? in_len + tag_len : len;
    int device = -1;
    st = gpu_pointers_device(in_len ? in : nullptr, out_len ? out : in, &device);
    if (st != KCIPHER_OK)
        return st;
    GpuDeviceScope scope(device);
    if (scope.status() != KCIPHER_OK)
        return scope.status();
    uint8_t h[16], j0[16];
    hash_key(ctx, h);
    gcm_pre_counter(ctx->gcm_key(), iv, iv_len, j0);
    st = gpu_device_gcm_one(ctx->gpu_job(), h, j0, !seal, iv, iv_len, aad, aad_len, in, len, out, tag_len, stream);
    secure_wipe(h, sizeof h);
    secure_wipe(j0, sizeof j0);
    return st;
}

kcipher_status gpu_batch(const kcipher_ctx *ctx, kcipher_mode mode, bool seal, kcipher_gpu_aead_msg *msgs, size_t n,
                         size_t tag_len, void *stream)
{
    kcipher_status st = check_gpu_gcm(ctx, mode);
    if (st != KCIPHER_OK)
        return st;
    if (!kc_gcm_tag_length_ok(tag_len))
        return KCIPHER_ERR_TAG_LENGTH;
    if (n == 0)
        return KCIPHER_OK;
    if (msgs == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    int device = -1;
    st = gpu_pointers_device(nullptr, msgs, &device);
    if (st != KCIPHER_OK)
        return st;
    GpuDeviceScope scope(device);
    if (scope.status() != KCIPHER_OK)
        return scope.status();
    uint8_t h[16];
    hash_key(ctx, h);
    bool failed = false;
    st = gpu_device_gcm(ctx->gpu_job(), h, !seal, msgs, n, tag_len, stream, nullptr, 0, &failed);
    secure_wipe(h, sizeof h);
    return st;
}

} // namespace

extern "C" {

kcipher_status kcipher_gpu_aead_seal(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv, size_t iv_len,
                                     const uint8_t *aad, size_t aad_len, const void *in, size_t in_len, void *out,
                                     size_t tag_len, void *stream)
{
    return gpu_one(ctx, mode, true, iv, iv_len, aad, aad_len, in, in_len, out, tag_len, stream);
}

kcipher_status kcipher_gpu_aead_open(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv, size_t iv_len,
                                     const uint8_t *aad, size_t aad_len, const void *in, size_t in_len, void *out,
                                     size_t tag_len, void *stream)
{
    return gpu_one(ctx, mode, false, iv, iv_len, aad, aad_len, in, in_len, out, tag_len, stream);
}

kcipher_status kcipher_gpu_aead_seal_batch(const kcipher_ctx *ctx, kcipher_mode mode, kcipher_gpu_aead_msg *msgs,
                                           size_t n, size_t tag_len, void *stream)
{
    return gpu_batch(ctx, mode, true, msgs, n, tag_len, stream);
}

kcipher_status kcipher_gpu_aead_open_batch(const kcipher_ctx *ctx, kcipher_mode mode, kcipher_gpu_aead_msg *msgs,
                                           size_t n, size_t tag_len, void *stream)
{
    return gpu_batch(ctx, mode, false, msgs, n, tag_len, stream);
}

} // extern "C"
