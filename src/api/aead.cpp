// The C API of the authenticated modes and MACs (kcipher.h): every argument and limit is
// checked here, before any output; modes/aead.hpp computes. A context with a GPU kernel runs
// one-shot GCM's text through the GPU pipeline (modes/gpu_host_gcm.cu), and the rest (CCM,
// the MACs, the streams) on its companion CPU kernel.
#include <cstdint>
#include <cstring>
#include <new>

#include "api/context.hpp"
#include "core/wipe.hpp"
#include "dispatch/registry.hpp"
#include "kcipher/kcipher.h"
#include "modes/aead.hpp"

using namespace kc;

namespace {

constexpr uint64_t gcm_max_text = ((uint64_t)1 << 36) - 32;  // SP 800-38D 5.2.1.1: 2^39 - 256 bits
constexpr uint64_t gcm_max_aad_iv = ((uint64_t)1 << 61) - 1; // 2^64 - 1 bits

bool is_aead(kcipher_mode m) { return m == KCIPHER_MODE_GCM || m == KCIPHER_MODE_CCM; }

// The largest CCM payload for a nonce of n bytes: 2^(8q) - 1 bytes, q = 15 - n.
uint64_t ccm_max_text(size_t nonce_len)
{
    const size_t q = 15 - nonce_len;
    return q >= 8 ? UINT64_MAX : ((uint64_t)1 << (8 * q)) - 1;
}

bool gcm_tag_length_ok(size_t t) { return t == 4 || t == 8 || (t >= 12 && t <= 16); }

// The mode, the cipher's block size, the IV and the tag length, for GCM, CCM and GMAC.
kcipher_status check_iv_and_tag(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv, size_t iv_len,
                                size_t tag_len)
{
    if (ctx == nullptr || iv == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (kc_plain_context(ctx) != KCIPHER_OK)
        return KCIPHER_ERR_CONTEXT_MODE;
    if (ctx->cipher->block_bytes != 16)
        return KCIPHER_ERR_UNSUPPORTED;
    if (mode == KCIPHER_MODE_CCM) {
        if (iv_len < 7 || iv_len > 13)
            return KCIPHER_ERR_IV_LENGTH;
        if (tag_len < 4 || tag_len > 16 || tag_len % 2 != 0)
            return KCIPHER_ERR_TAG_LENGTH;
        return KCIPHER_OK;
    }
    if (iv_len == 0)
        return KCIPHER_ERR_IV_LENGTH;
    if ((uint64_t)iv_len > gcm_max_aad_iv)
        return KCIPHER_ERR_MODE_LIMIT;
    return gcm_tag_length_ok(tag_len) ? KCIPHER_OK : KCIPHER_ERR_TAG_LENGTH;
}

kcipher_status check_limits(kcipher_mode mode, size_t iv_len, uint64_t aad_len, uint64_t text_len)
{
    if (mode == KCIPHER_MODE_CCM)
        return text_len > ccm_max_text(iv_len) ? KCIPHER_ERR_MODE_LIMIT : KCIPHER_OK;
    return text_len > gcm_max_text || aad_len > gcm_max_aad_iv ? KCIPHER_ERR_MODE_LIMIT : KCIPHER_OK;
}

// [a, a + an) and [b, b + bn) may be the same start (in place) but must not otherwise meet.
bool overlap_badly(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    if (a == b || an == 0 || bn == 0)
        return false;
    uintptr_t x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x < y + bn && y < x + an;
}

kcipher_status check_data(const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len, const uint8_t *out,
                          size_t out_len)
{
    if ((aad_len != 0 && aad == nullptr) || (in_len != 0 && in == nullptr) || (out_len != 0 && out == nullptr))
        return KCIPHER_ERR_NULL_POINTER;
    if (overlap_badly(in, in_len, out, out_len))
        return KCIPHER_ERR_OVERLAP;
    return KCIPHER_OK;
}

// The first tag_len bytes of the tag that finish(full) computes, into tag; or, verifying,
// whether they equal tag (in constant time: KCIPHER_ERR_AUTH when not). The full tag is wiped.
template <class Finish> kcipher_status give_tag(Finish finish, uint8_t *tag, size_t tag_len)
{
    uint8_t full[16];
    kcipher_status s = finish(full);
    if (s == KCIPHER_OK)
        std::memcpy(tag, full, tag_len);
    secure_wipe(full, sizeof full);
    return s;
}

template <class Finish> kcipher_status verify_tag(Finish finish, const uint8_t *tag, size_t tag_len)
{
    uint8_t full[16];
    kcipher_status s = finish(full);
    if (s == KCIPHER_OK && !equal_constant_time(full, tag, tag_len))
        s = KCIPHER_ERR_AUTH;
    secure_wipe(full, sizeof full);
    return s;
}

// Every check of a one-shot seal (in: the plaintext) or open (in: ciphertext || tag), in order.
kcipher_status check_one_shot(const kcipher_ctx *ctx, kcipher_mode mode, bool seal, const uint8_t *iv, size_t iv_len,
                              const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len, const uint8_t *out,
                              size_t tag_len)
{
    if (!is_aead(mode))
        return KCIPHER_ERR_UNKNOWN_MODE;
    kcipher_status st = check_iv_and_tag(ctx, mode, iv, iv_len, tag_len);
    if (st != KCIPHER_OK)
        return st;
    if (seal ? in_len > SIZE_MAX - tag_len : in_len < tag_len)
        return seal ? KCIPHER_ERR_MODE_LIMIT : KCIPHER_ERR_DATA_LENGTH;
    const size_t text_len = seal ? in_len : in_len - tag_len;
    st = check_limits(mode, iv_len, aad_len, text_len);
    return st != KCIPHER_OK ? st : check_data(aad, aad_len, in, in_len, out, seal ? in_len + tag_len : text_len);
}

// One whole message through a GCM or CCM state: seal writes the tag after the ciphertext.
template <class Mode> void run(Mode &m, bool seal, const uint8_t *aad, size_t aad_len, const uint8_t *in,
                               uint8_t *out, size_t len, uint8_t tag[16])
{
    m.aad(aad, aad_len);
    if (seal)
        m.encrypt(in, out, len);
    else
        m.decrypt(in, out, len);
    m.tag(tag);
}

// The whole one-shot call: the tag into tag[16] (computed over the ciphertext either way).
// A GPU context takes GCM's text through the GPU pipeline (modes/gpu_host_gcm.cu).
kcipher_status one_shot(const kcipher_ctx *ctx, kcipher_mode mode, bool seal, const uint8_t *iv, size_t iv_len,
              const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, size_t tag_len,
              uint8_t tag[16])
{
    if (mode == KCIPHER_MODE_GCM && ctx->kernel->gpu != nullptr && len != 0)
        return gpu_host_gcm(ctx->gpu_job(), ctx->cpu_keyed(), ctx->gcm_key(), !seal, iv, iv_len, aad, aad_len, in, out,
                            len, ctx->gpu_device.load(), ctx->threads.load(), tag);
    if (mode == KCIPHER_MODE_GCM) {
        Gcm g;
        const Keyed chain = ctx->chain_keyed();
        g.start(ctx->cpu_keyed(), ctx->gcm_key(), iv, iv_len, &chain);
        run(g, seal, aad, aad_len, in, out, len, tag);
    } else {
        Ccm c;
        c.start(ctx->cpu_keyed(), ctx->chain_keyed(), iv, iv_len, aad_len, len, tag_len);
        run(c, seal, aad, aad_len, in, out, len, tag);
    }
    return KCIPHER_OK;
}

// A one-shot seal or open: every check, then the whole message (in: the plaintext, or
// ciphertext || tag), then finish(one_shot's status, the computed tag, the text's length);
// the tag is wiped after.
template <class Finish>
kcipher_status checked_one_shot(const kcipher_ctx *ctx, kcipher_mode mode, bool seal, const uint8_t *iv, size_t iv_len,
                                const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out,
                                size_t tag_len, Finish finish)
{
    const kcipher_status st = check_one_shot(ctx, mode, seal, iv, iv_len, aad, aad_len, in, in_len, out, tag_len);
    if (st != KCIPHER_OK)
        return st;
    const size_t len = seal ? in_len : in_len - tag_len;
    uint8_t tag[16];
    const kcipher_status done = one_shot(ctx, mode, seal, iv, iv_len, aad, aad_len, in, out, len, tag_len, tag);
    const kcipher_status result = finish(done, tag, len);
    secure_wipe(tag, sizeof tag);
    return result;
}

} // namespace

// What the AEAD and MAC streams share: their tag length, fixed at init, and whether the tag
// has been given (every later call is then KCIPHER_ERR_STATE).
namespace kc {
struct TagStream {
    size_t tag_len = 0;
    bool finished = false;
};

// The full tag, computed once by compute(full), for a stream not yet finished and asked for
// its own tag length.
template <class Compute> kcipher_status finish_stream(TagStream &s, size_t tag_len, uint8_t full[16], Compute compute)
{
    if (s.finished)
        return KCIPHER_ERR_STATE;
    if (s.tag_len == 0 ? !gcm_tag_length_ok(tag_len) : tag_len != s.tag_len) // 0: GCM opening, length at the end
        return KCIPHER_ERR_TAG_LENGTH;
    compute(full);
    s.finished = true;
    return KCIPHER_OK;
}
} // namespace kc

struct kcipher_aead : TagStream {
    const kcipher_ctx *ctx; // the context it was made on (it must outlive the stream)
    kcipher_mode mode;
    bool seal;
    size_t iv_len;
    uint64_t aad_len = 0, text_len = 0;         // so far
    uint64_t ccm_aad_total = 0, ccm_text_total = 0;
    bool in_text = false;
    Gcm gcm;
    Ccm ccm;
};

struct kcipher_mac_state : TagStream {
    kcipher_mode mode;
    size_t block_bytes;
    uint64_t len = 0;
    Cmac cmac;
    Gcm gmac;
};

namespace {

// One whole message through a MAC stream, ending with final (kcipher_mac_final or _final_verify).
template <class Final>
kcipher_status mac_one_shot(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv, size_t iv_len,
                                   const uint8_t *data, size_t len, size_t tag_len, Final final)
{
    kcipher_mac_state *m = nullptr;
    kcipher_status s = kcipher_mac_init(&m, ctx, mode, iv, iv_len, tag_len);
    if (s == KCIPHER_OK)
        s = kcipher_mac_update(m, data, len);
    if (s == KCIPHER_OK)
        s = final(m);
    kcipher_mac_free(m);
    return s;
}

} // namespace

extern "C" {

kcipher_status kcipher_aead_seal(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv, size_t iv_len,
                                 const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out,
                                 size_t tag_len)
{
    auto append_tag = [&](kcipher_status done, const uint8_t *tag, size_t len) {
        if (done == KCIPHER_OK)
            std::memcpy(out + len, tag, tag_len);
        return done;
    };
    return checked_one_shot(ctx, mode, true, iv, iv_len, aad, aad_len, in, in_len, out, tag_len, append_tag);
}

kcipher_status kcipher_aead_open(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv, size_t iv_len,
                                 const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out,
                                 size_t tag_len)
{
    auto verify_tag = [&](kcipher_status done, const uint8_t *tag, size_t len) -> kcipher_status {
        if (done == KCIPHER_OK && equal_constant_time(tag, in + len, tag_len))
            return KCIPHER_OK;
        if (len != 0)
            secure_wipe(out, len); // no unverified plaintext leaves
        return done != KCIPHER_OK ? done : KCIPHER_ERR_AUTH;
    };
    return checked_one_shot(ctx, mode, false, iv, iv_len, aad, aad_len, in, in_len, out, tag_len, verify_tag);
}

kcipher_status kcipher_aead_init(kcipher_aead **st, const kcipher_ctx *ctx, kcipher_mode mode, int seal,
                                 const uint8_t *iv, size_t iv_len, size_t tag_len, uint64_t aad_len,
                                 uint64_t text_len)
{
    if (st == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    *st = nullptr;
    if (!is_aead(mode))
        return KCIPHER_ERR_UNKNOWN_MODE;
    // GCM's tag length matters only to the tag, so an opening stream may leave it to final_verify
    // (OpenSSL's EVP takes the tag, and so its length, any time before the final call).
    const bool tag_len_later = tag_len == 0 && mode == KCIPHER_MODE_GCM && !seal;
    kcipher_status s = check_iv_and_tag(ctx, mode, iv, iv_len, tag_len_later ? 16 : tag_len);
    if (s == KCIPHER_OK && mode == KCIPHER_MODE_CCM)
        s = check_limits(mode, iv_len, aad_len, text_len);
    if (s != KCIPHER_OK)
        return s;
    kcipher_aead *a = new (std::nothrow) kcipher_aead;
    if (a == nullptr)
        return KCIPHER_ERR_NO_MEMORY;
    a->ctx = ctx;
    a->mode = mode;
    a->seal = seal != 0;
    a->tag_len = tag_len;
    a->iv_len = iv_len;
    if (mode == KCIPHER_MODE_GCM) {
        const Keyed chain = ctx->chain_keyed();
        a->gcm.start(ctx->cpu_keyed(), ctx->gcm_key(), iv, iv_len, &chain);
    } else {
        a->ccm_aad_total = aad_len;
        a->ccm_text_total = text_len;
        a->ccm.start(ctx->cpu_keyed(), ctx->chain_keyed(), iv, iv_len, aad_len, text_len, tag_len);
    }
    *st = a;
    return KCIPHER_OK;
}

kcipher_status kcipher_aead_aad(kcipher_aead *a, const uint8_t *aad, size_t len)
{
    if (a == nullptr || (len != 0 && aad == nullptr))
        return KCIPHER_ERR_NULL_POINTER;
    if (a->finished || a->in_text)
        return KCIPHER_ERR_STATE;
    if (a->mode == KCIPHER_MODE_CCM ? len > a->ccm_aad_total - a->aad_len : len > gcm_max_aad_iv - a->aad_len)
        return a->mode == KCIPHER_MODE_CCM ? KCIPHER_ERR_DATA_LENGTH : KCIPHER_ERR_MODE_LIMIT;
    if (a->mode == KCIPHER_MODE_GCM)
        a->gcm.aad(aad, len);
    else
        a->ccm.aad(aad, len);
    a->aad_len += len;
    return KCIPHER_OK;
}

kcipher_status kcipher_aead_update(kcipher_aead *a, const uint8_t *in, uint8_t *out, size_t len)
{
    if (a == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    kcipher_status s = check_data(nullptr, 0, in, len, out, len);
    if (s != KCIPHER_OK)
        return s;
    if (a->finished)
        return KCIPHER_ERR_STATE;
    if (a->mode == KCIPHER_MODE_CCM) {
        if (a->aad_len != a->ccm_aad_total)
            return KCIPHER_ERR_STATE; // CCM's AAD must all come before the payload
        if (len > a->ccm_text_total - a->text_len)
            return KCIPHER_ERR_DATA_LENGTH;
    } else if (len > gcm_max_text - a->text_len) {
        return KCIPHER_ERR_MODE_LIMIT;
    }
    a->in_text = true;
    if (a->mode == KCIPHER_MODE_GCM)
        a->seal ? a->gcm.encrypt(in, out, len) : a->gcm.decrypt(in, out, len);
    else
        a->seal ? a->ccm.encrypt(in, out, len) : a->ccm.decrypt(in, out, len);
    a->text_len += len;
    return KCIPHER_OK;
}

// The tag of a finished stream into full[16], or why it cannot be finished yet.
static kcipher_status finish(kcipher_aead *a, bool seal, size_t tag_len, uint8_t full[16])
{
    if (a->seal != seal)
        return KCIPHER_ERR_STATE;
    if (!a->finished && a->mode == KCIPHER_MODE_CCM &&
        (a->aad_len != a->ccm_aad_total || a->text_len != a->ccm_text_total))
        return KCIPHER_ERR_DATA_LENGTH;
    return finish_stream(*a, tag_len, full, [a](uint8_t *f) { a->mode == KCIPHER_MODE_GCM ? a->gcm.tag(f) : a->ccm.tag(f); });
}

kcipher_status kcipher_aead_final(kcipher_aead *a, uint8_t *tag, size_t tag_len)
{
    if (a == nullptr || tag == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    return give_tag([&](uint8_t *full) { return finish(a, true, tag_len, full); }, tag, tag_len);
}

kcipher_status kcipher_aead_final_verify(kcipher_aead *a, const uint8_t *tag, size_t tag_len)
{
    if (a == nullptr || tag == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    return verify_tag([&](uint8_t *full) { return finish(a, false, tag_len, full); }, tag, tag_len);
}

// Two contexts hold the same key when their cipher, CPU kernel and round keys are the same.
static bool same_key(const kcipher_ctx *x, const kcipher_ctx *y)
{
    const Keyed kx = x->cpu_keyed(), ky = y->cpu_keyed();
    const size_t n = kx.kernel->key_state_bytes;
    return x->cipher == y->cipher && kx.kernel == ky.kernel && std::memcmp(kx.keys, ky.keys, n) == 0;
}

kcipher_status kcipher_aead_dup(kcipher_aead **copy, const kcipher_aead *st, const kcipher_ctx *ctx)
{
    if (copy == nullptr || st == nullptr || ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    *copy = nullptr;
    if (kc_plain_context(ctx) != KCIPHER_OK || !same_key(st->ctx, ctx))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    kcipher_aead *a = new (std::nothrow) kcipher_aead(*st);
    if (a == nullptr)
        return KCIPHER_ERR_NO_MEMORY;
    a->ctx = ctx;
    const Keyed chain = ctx->chain_keyed();
    if (a->mode == KCIPHER_MODE_GCM)
        a->gcm.rebind(ctx->cpu_keyed(), ctx->gcm_key(), &chain);
    else
        a->ccm.rebind(ctx->cpu_keyed(), chain);
    *copy = a;
    return KCIPHER_OK;
}

void kcipher_aead_free(kcipher_aead *a) { delete a; }

kcipher_status kcipher_mac_init(kcipher_mac_state **st, const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv,
                                size_t iv_len, size_t tag_len)
{
    if (st == nullptr || ctx == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    *st = nullptr;
    if (kc_plain_context(ctx) != KCIPHER_OK)
        return KCIPHER_ERR_CONTEXT_MODE;
    if (mode == KCIPHER_MODE_GMAC) {
        kcipher_status s = check_iv_and_tag(ctx, mode, iv, iv_len, tag_len);
        if (s != KCIPHER_OK)
            return s;
    } else if (mode == KCIPHER_MODE_CMAC) {
        if (iv_len != 0)
            return KCIPHER_ERR_IV_LENGTH;
        if (tag_len < 4 || tag_len > ctx->cipher->block_bytes)
            return KCIPHER_ERR_TAG_LENGTH;
    } else {
        return KCIPHER_ERR_UNKNOWN_MODE;
    }
    kcipher_mac_state *m = new (std::nothrow) kcipher_mac_state;
    if (m == nullptr)
        return KCIPHER_ERR_NO_MEMORY;
    m->mode = mode;
    m->tag_len = tag_len;
    m->block_bytes = ctx->cipher->block_bytes;
    const Keyed chain = ctx->chain_keyed(); // E_K(J0) alone, and all of CMAC
    if (mode == KCIPHER_MODE_GMAC)
        m->gmac.start(ctx->cpu_keyed(), ctx->gcm_key(), iv, iv_len, &chain);
    else
        m->cmac.start(chain);
    *st = m;
    return KCIPHER_OK;
}

kcipher_status kcipher_mac_update(kcipher_mac_state *m, const uint8_t *data, size_t len)
{
    if (m == nullptr || (len != 0 && data == nullptr))
        return KCIPHER_ERR_NULL_POINTER;
    if (m->finished)
        return KCIPHER_ERR_STATE;
    if (m->mode == KCIPHER_MODE_GMAC) {
        if (len > gcm_max_aad_iv - m->len)
            return KCIPHER_ERR_MODE_LIMIT;
        m->gmac.aad(data, len);
    } else {
        m->cmac.update(data, len);
    }
    m->len += len;
    return KCIPHER_OK;
}

static kcipher_status mac_finish(kcipher_mac_state *m, size_t tag_len, uint8_t full[16])
{
    return finish_stream(*m, tag_len, full, [m](uint8_t *f) { m->mode == KCIPHER_MODE_GMAC ? m->gmac.tag(f) : m->cmac.tag(f); });
}

kcipher_status kcipher_mac_final(kcipher_mac_state *m, uint8_t *tag, size_t tag_len)
{
    if (m == nullptr || tag == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    return give_tag([&](uint8_t *full) { return mac_finish(m, tag_len, full); }, tag, tag_len);
}

kcipher_status kcipher_mac_final_verify(kcipher_mac_state *m, const uint8_t *tag, size_t tag_len)
{
    if (m == nullptr || tag == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    return verify_tag([&](uint8_t *full) { return mac_finish(m, tag_len, full); }, tag, tag_len);
}

void kcipher_mac_free(kcipher_mac_state *m) { delete m; }

kcipher_status kcipher_mac(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv, size_t iv_len,
                           const uint8_t *data, size_t len, uint8_t *tag, size_t tag_len)
{
    if (tag == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    return mac_one_shot(ctx, mode, iv, iv_len, data, len, tag_len,
                        [&](kcipher_mac_state *m) { return kcipher_mac_final(m, tag, tag_len); });
}

kcipher_status kcipher_mac_verify(const kcipher_ctx *ctx, kcipher_mode mode, const uint8_t *iv, size_t iv_len,
                                  const uint8_t *data, size_t len, const uint8_t *tag, size_t tag_len)
{
    if (tag == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    return mac_one_shot(ctx, mode, iv, iv_len, data, len, tag_len,
                        [&](kcipher_mac_state *m) { return kcipher_mac_final_verify(m, tag, tag_len); });
}

} // extern "C"

// The checks of a one-shot call, for the GPU's device-memory calls (api/gpu_aead.cpp).
kcipher_status kc_aead_check_one_shot(const kcipher_ctx *ctx, kcipher_mode mode, bool seal, const uint8_t *iv,
                                      size_t iv_len, const uint8_t *aad, size_t aad_len, const uint8_t *in,
                                      size_t in_len, const uint8_t *out, size_t tag_len)
{
    return check_one_shot(ctx, mode, seal, iv, iv_len, aad, aad_len, in, in_len, out, tag_len);
}

bool kc_gcm_tag_length_ok(size_t tag_len) { return gcm_tag_length_ok(tag_len); }
