// The C front of the DRBG: pointers and handles are checked here, the standard's limits in
// ctr_drbg.cpp. The state runs on the best CPU kernel (or a forced one); a GPU kernel, when
// named, serves only the output blocks of large requests (drbg_gpu.hpp).
#include <cstdint>
#include <memory>
#include <new>

#include "dispatch/registry.hpp"
#include "drbg/drbg_gpu.hpp"
#include "drbg/kernel_cipher.hpp"
#include "drbg/segments.hpp"
#include "kcipher/kcipher.h"

using namespace kc;
using namespace kc::drbg;

kcipher_status kc_lookup_cipher(const char *name, const CipherDesc **out);

struct kcipher_drbg {
    const CipherDesc *cipher = nullptr;
    const Kernel *kernel = nullptr;     // runs the state and the CPU output
    const Kernel *gpu_kernel = nullptr; // large outputs, when a GPU kernel was named
    std::unique_ptr<Drbg> drbg;
    unsigned threads = 0;
    int gpu_device = -1;
};

namespace {

// A NULL pointer is an empty input only with a zero length.
bool span_ok(const uint8_t *p, size_t n) { return p != nullptr || n == 0; }

bool buffer_ok(const uint8_t *p, size_t n)
{
    return n == 0 || (p != nullptr && UINTPTR_MAX - reinterpret_cast<uintptr_t>(p) >= n);
}

kcipher_status pick_kernels(kcipher_drbg &d, const char *kernel)
{
    const Kernel *k;
    kcipher_status st = select_kernel(d.cipher->id, kernel ? kernel : "", &k);
    if (st != KCIPHER_OK)
        return st;
    if (k->gpu != nullptr) {
        d.gpu_kernel = k;
        k = best_cpu_kernel(d.cipher->id);
    }
    d.kernel = k;
    return KCIPHER_OK;
}

} // namespace

extern "C" {

size_t kcipher_entropy_getrandom(void *user, uint8_t *buf, size_t min_len, size_t max_len)
{
    return buf == nullptr ? 0 : entropy_getrandom(user, buf, min_len, max_len);
}

kcipher_status kcipher_drbg_new(kcipher_drbg **drbg, const char *cipher, unsigned flags, const char *kernel)
{
    if (drbg == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    *drbg = nullptr;
    if (cipher == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if ((flags & ~unsigned(KCIPHER_DRBG_NO_DF)) != 0)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    std::unique_ptr<kcipher_drbg> d(new (std::nothrow) kcipher_drbg);
    if (!d)
        return KCIPHER_ERR_NO_MEMORY;
    kcipher_status st = kc_lookup_cipher(cipher, &d->cipher);
    if (st == KCIPHER_OK)
        st = pick_kernels(*d, kernel);
    if (st != KCIPHER_OK)
        return st;
    std::unique_ptr<BlockCipher> c(new (std::nothrow) KernelCipher(*d->kernel, d->cipher->id));
    if (!c)
        return KCIPHER_ERR_NO_MEMORY;
    d->drbg.reset(new (std::nothrow) Drbg(std::move(c), (flags & KCIPHER_DRBG_NO_DF) == 0));
    if (!d->drbg)
        return KCIPHER_ERR_NO_MEMORY;
    *drbg = d.release();
    return KCIPHER_OK;
}

void kcipher_drbg_free(kcipher_drbg *drbg) { delete drbg; } // ~Drbg wipes the state

kcipher_status kcipher_drbg_set_entropy_source(kcipher_drbg *drbg, kcipher_entropy_fn fn, void *user)
{
    if (drbg == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    drbg->drbg->set_entropy_source(fn, user);
    return KCIPHER_OK;
}

kcipher_status kcipher_drbg_set_reseed_interval(kcipher_drbg *drbg, uint64_t requests)
{
    return drbg == nullptr ? KCIPHER_ERR_NULL_POINTER : drbg->drbg->set_reseed_interval(requests);
}

kcipher_status kcipher_drbg_set_threads(kcipher_drbg *drbg, unsigned threads)
{
    if (drbg == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (threads > 4096)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    drbg->threads = threads;
    return KCIPHER_OK;
}

kcipher_status kcipher_drbg_set_gpu(kcipher_drbg *drbg, int device)
{
    if (drbg == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (device < -1)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    drbg->gpu_device = device;
    return KCIPHER_OK;
}

kcipher_status kcipher_drbg_instantiate(kcipher_drbg *drbg, const uint8_t *entropy, size_t entropy_len,
                                        const uint8_t *nonce, size_t nonce_len, const uint8_t *personalization,
                                        size_t personalization_len)
{
    if (drbg == nullptr || !span_ok(entropy, entropy_len) || !span_ok(nonce, nonce_len) ||
        !span_ok(personalization, personalization_len))
        return KCIPHER_ERR_NULL_POINTER;
    Span e{entropy, entropy_len};
    return drbg->drbg->instantiate(entropy != nullptr ? &e : nullptr, {nonce, nonce_len},
                                   {personalization, personalization_len});
}

kcipher_status kcipher_drbg_reseed(kcipher_drbg *drbg, const uint8_t *entropy, size_t entropy_len,
                                   const uint8_t *additional, size_t additional_len)
{
    if (drbg == nullptr || !span_ok(entropy, entropy_len) || !span_ok(additional, additional_len))
        return KCIPHER_ERR_NULL_POINTER;
    Span e{entropy, entropy_len};
    return drbg->drbg->reseed(entropy != nullptr ? &e : nullptr, {additional, additional_len});
}

kcipher_status kcipher_drbg_generate(kcipher_drbg *drbg, uint8_t *out, size_t len, const uint8_t *additional,
                                     size_t additional_len, int prediction_resistance)
{
    if (drbg == nullptr || !span_ok(out, len) || !span_ok(additional, additional_len))
        return KCIPHER_ERR_NULL_POINTER;
    if (!buffer_ok(out, len))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    return drbg->drbg->generate(out, len, {additional, additional_len}, prediction_resistance != 0);
}

kcipher_status kcipher_drbg_generate_large(kcipher_drbg *drbg, uint8_t *out, size_t len, int prediction_resistance)
{
    if (drbg == nullptr || !span_ok(out, len))
        return KCIPHER_ERR_NULL_POINTER;
    if (!buffer_ok(out, len))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    Drbg &d = *drbg->drbg;
    if (!d.instantiated())
        return KCIPHER_ERR_DRBG_NOT_INSTANTIATED;
    if (drbg->gpu_kernel == nullptr)
        return generate_large_cpu(d, out, len, prediction_resistance != 0, drbg->threads);
    const Kernel &g = *drbg->gpu_kernel;
    Cipher c = drbg->cipher->id;
    size_t stride = d.limits().max_request_bytes;
    int dev = drbg->gpu_device;
    return generate_large(d, out, len, prediction_resistance != 0, [&](const Segment *s, size_t n, uint8_t *o) {
        return run_segments_gpu(g, c, s, n, stride, o, dev);
    });
}

kcipher_status kcipher_drbg_uninstantiate(kcipher_drbg *drbg)
{
    if (drbg == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    drbg->drbg->uninstantiate();
    return KCIPHER_OK;
}

size_t kcipher_drbg_max_request(const kcipher_drbg *drbg)
{
    return drbg ? drbg->drbg->limits().max_request_bytes : 0;
}

kcipher_status kcipher_drbg_reseed_counter(const kcipher_drbg *drbg, uint64_t *counter)
{
    if (drbg == nullptr || counter == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    *counter = drbg->drbg->reseed_counter();
    return KCIPHER_OK;
}

const char *kcipher_drbg_kernel(const kcipher_drbg *drbg)
{
    if (drbg == nullptr)
        return nullptr;
    return drbg->gpu_kernel ? drbg->gpu_kernel->name : drbg->kernel->name;
}

} // extern "C"
