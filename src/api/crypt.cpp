// The C API front: every argument is checked here, then the modes layer computes
// (libsodium's split: the front never computes, the implementation never validates).
#include <cstdint>
#include <cstring>
#include <new>

#include "api/buffer_checks.hpp"
#include "api/context.hpp"
#include "core/counter.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "modes/modes.hpp"

using namespace kc;

kcipher_status kc_lookup_cipher(const char *name, const CipherDesc **out);
kcipher_status kc_split_name(const char *name, const CipherDesc **cipher, kcipher_mode *mode);

// IEEE 1619 requires the data and tweak keys to differ. Not a secret-dependent branch worth
// hiding: equal halves are refused, and that refusal is the only thing that leaks.
static bool halves_equal(const uint8_t *key, size_t half)
{
    uint8_t diff = 0;
    for (size_t i = 0; i < half; i++)
        diff |= key[i] ^ key[half + i];
    return diff == 0;
}

// The buffers of any mode, XTS's included (api/xts.cpp).
kcipher_status kc_check_buffers(const kcipher_ctx *ctx, const uint8_t *in, const uint8_t *out, size_t len)
{
    return check_buffers(ctx, in, out, len);
}

// The buffers of a mode other than XTS, on a context that is not an XTS one.
static kcipher_status check_plain_buffers(const kcipher_ctx *ctx, const uint8_t *in, const uint8_t *out,
                                          size_t len)
{
    const kcipher_status st = kc_plain_context(ctx);
    return st != KCIPHER_OK ? st : check_buffers(ctx, in, out, len);
}

static kcipher_status check_blocks(const kcipher_ctx *ctx, const uint8_t *in, const uint8_t *out,
                                   size_t len)
{
    kcipher_status st = check_plain_buffers(ctx, in, out, len);
    if (st == KCIPHER_OK && len % ctx->cipher->block_bytes != 0)
        return KCIPHER_ERR_DATA_LENGTH;
    return st;
}

// Keystream blocks block_offset .. block_offset + ceil(len/bs) - 1 must all be distinct
// counter values: at most 2^(8*bs) blocks from the IV. Only 64-bit blocks can get there
// with a 64-bit offset and a size_t length.
static bool exceeds_counter_space(size_t block_bytes, uint64_t block_offset, size_t len)
{
    if (block_bytes >= 16)
        return false;
    uint64_t nblocks = len / block_bytes + (len % block_bytes != 0);
    // block_offset + nblocks <= 2^64  <=>  nblocks <= 2^64 - block_offset
    return block_offset != 0 && nblocks > UINT64_MAX - block_offset + 1;
}

extern "C" {

kcipher_status kcipher_new(kcipher_ctx **ctx, const char *cipher, const uint8_t *key, size_t key_len,
                           const char *kernel)
{
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    *ctx = nullptr;
    if (cipher == nullptr || key == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    const CipherDesc *d;
    kcipher_mode mode;
    kcipher_status st = kc_split_name(cipher, &d, &mode);
    if (st != KCIPHER_OK)
        return st;
    const bool xts = mode == KCIPHER_MODE_XTS;
    if (xts && d->block_bytes != 16)
        return KCIPHER_ERR_UNSUPPORTED; // XTS is defined for 128-bit blocks
    if (key_len != (xts ? 2 : 1) * d->key_bytes)
        return KCIPHER_ERR_KEY_LENGTH;
    if (xts && halves_equal(key, d->key_bytes))
        return KCIPHER_ERR_XTS_KEY;
    const Kernel *k;
    st = select_kernel(d->id, kernel ? kernel : "", &k);
    if (st != KCIPHER_OK)
        return st;
    kcipher_ctx *c = new (std::nothrow) kcipher_ctx;
    if (c == nullptr)
        return KCIPHER_ERR_NO_MEMORY;
    c->cipher = d;
    c->kernel = k;
    if (!c->keys.init(*k, d->id, key)) {
        delete c;
        return KCIPHER_ERR_NO_MEMORY;
    }
    if (k->gpu != nullptr) {
        c->cpu_kernel = best_cpu_kernel(d->id);
        if (!c->cpu_keys.init(*c->cpu_kernel, d->id, key)) {
            delete c;
            return KCIPHER_ERR_NO_MEMORY;
        }
    }
    if (xts) {
        c->xts = true;
        const uint8_t *tweak_key = key + d->key_bytes;
        if (!c->tweak_keys.init(*k, d->id, tweak_key) ||
            (k->gpu != nullptr && !c->cpu_tweak_keys.init(*c->cpu_kernel, d->id, tweak_key))) {
            delete c;
            return KCIPHER_ERR_NO_MEMORY;
        }
    }
    const Kernel &cpu = k->gpu != nullptr ? *c->cpu_kernel : *k;
    c->chain_kernel = &chain_kernel(d->id, cpu);
    c->chain_accel = chain_accel_for(*c->chain_kernel);
    if (c->chain_kernel != &cpu && !c->chain_keys.init(*c->chain_kernel, d->id, key)) {
        delete c;
        return KCIPHER_ERR_NO_MEMORY;
    }
    *ctx = c;
    return KCIPHER_OK;
}

void kcipher_free(kcipher_ctx *ctx) { delete ctx; } // ~KeyState wipes the round keys

kcipher_status kcipher_set_threads(kcipher_ctx *ctx, unsigned threads)
{
    if (ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (threads > 4096)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    ctx->threads.store(threads, std::memory_order_relaxed);
    return KCIPHER_OK;
}

size_t kcipher_block_size(const kcipher_ctx *ctx) { return ctx ? ctx->cipher->block_bytes : 0; }
const char *kcipher_ctx_cipher(const kcipher_ctx *ctx) { return ctx ? ctx->cipher->name : nullptr; }
const char *kcipher_ctx_kernel(const kcipher_ctx *ctx) { return ctx ? ctx->kernel->name : nullptr; }

kcipher_status kcipher_ecb_encrypt(const kcipher_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len)
{
    kcipher_status st = check_blocks(ctx, in, out, len);
    if (st == KCIPHER_OK && len != 0) {
        if (ctx->kernel->gpu)
            return gpu_host_ecb(ctx->gpu_job(), false, in, out, len, ctx->gpu_device, ctx->threads);
        ecb_encrypt(ctx->keyed(), in, out, len / ctx->cipher->block_bytes);
    }
    return st;
}

kcipher_status kcipher_ecb_decrypt(const kcipher_ctx *ctx, const uint8_t *in, uint8_t *out, size_t len)
{
    kcipher_status st = check_blocks(ctx, in, out, len);
    if (st == KCIPHER_OK && len != 0) {
        if (ctx->kernel->gpu)
            return gpu_host_ecb(ctx->gpu_job(), true, in, out, len, ctx->gpu_device, ctx->threads);
        ecb_decrypt(ctx->keyed(), in, out, len / ctx->cipher->block_bytes);
    }
    return st;
}

kcipher_status kcipher_cbc_encrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                                   uint8_t *out, size_t len)
{
    kcipher_status st = check_blocks(ctx, in, out, len);
    if (st == KCIPHER_OK)
        st = check_iv(ctx, iv, iv_len);
    if (st == KCIPHER_OK && len != 0)
        cbc_encrypt(ctx->chain_keyed(), iv, in, out, len / ctx->cipher->block_bytes);
    return st;
}

kcipher_status kcipher_cbc_decrypt(const kcipher_ctx *ctx, uint8_t *iv, size_t iv_len, const uint8_t *in,
                                   uint8_t *out, size_t len)
{
    kcipher_status st = check_blocks(ctx, in, out, len);
    if (st == KCIPHER_OK)
        st = check_iv(ctx, iv, iv_len);
    if (st == KCIPHER_OK && len != 0)
        cbc_decrypt(ctx->cpu_keyed(), iv, in, out, len / ctx->cipher->block_bytes);
    return st;
}

kcipher_status kcipher_ctr_xor(const kcipher_ctx *ctx, const uint8_t *iv, size_t iv_len,
                               uint64_t block_offset, const uint8_t *in, uint8_t *out, size_t len)
{
    kcipher_status st = check_plain_buffers(ctx, in, out, len);
    if (st == KCIPHER_OK)
        st = check_iv(ctx, iv, iv_len);
    if (st == KCIPHER_OK && exceeds_counter_space(ctx->cipher->block_bytes, block_offset, len))
        st = KCIPHER_ERR_COUNTER_SPACE;
    if (st == KCIPHER_OK && len != 0) {
        if (ctx->kernel->gpu) {
            uint8_t ctr[16];
            std::memcpy(ctr, iv, iv_len);
            counter_add(ctr, iv_len, block_offset);
            return gpu_host_ctr(ctx->gpu_job(), ctr, in, out, len, ctx->gpu_device, ctx->threads);
        }
        ctr_xor(ctx->keyed(), iv, block_offset, in, out, len);
    }
    return st;
}

} // extern "C"
