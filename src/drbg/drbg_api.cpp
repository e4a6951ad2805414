// The C front of the DRBG: pointers and handles are checked here, the standard's limits in
// ctr_drbg.cpp. The state runs on the best CPU kernel (or a forced one); a GPU kernel, when
// named, serves only the output blocks of large requests (drbg_gpu.hpp). The many-instance
// handles (kcipher_drbg_multi_*) front drbg_multi.hpp.
#include <cstdint>
#include <memory>
#include <new>

#include "cuda/devices.hpp"
#include "modes/gpu_modes.hpp"
#include "dispatch/registry.hpp"
#include "drbg/drbg_gpu.hpp"
#include "drbg/drbg_multi.hpp"
#include "drbg/kernel_cipher.hpp"
#include "drbg/segments.hpp"
#include "kcipher/kcipher.h"

using namespace kc;
using namespace kc::drbg;

kcipher_status kc_lookup_cipher(const char *name, const CipherDesc **out);

struct kcipher_drbg {
    const CipherDesc *cipher = nullptr;
    const Kernel *kernel = nullptr;     // runs the state and the CPU output
    Accelerations fast;                 // what the registry offers the DRBG for `kernel`
    const Kernel *gpu_kernel = nullptr; // large outputs, when a GPU kernel was named
    std::unique_ptr<Drbg> drbg;
    unsigned threads = 0;
    int gpu_device = -1;
    GpuWorkspace *gpu_ws = nullptr; // the GPU path's buffers, kept between calls
    GpuCallObserver *observer = nullptr; // set_gpu_observer (drbg_gpu.hpp): none unless a harness sets one
    ~kcipher_drbg() { free_gpu_workspace(gpu_ws); }
};

struct kcipher_drbg_multi {
    const CipherDesc *cipher = nullptr;
    const Kernel *kernel = nullptr;     // the instances' CPU kernel
    const Kernel *gpu_kernel = nullptr; // the output's, when a GPU kernel was named
    std::unique_ptr<Multi> multi;
};

const GpuWorkspace *kc::drbg::gpu_workspace_of(const kcipher_drbg *drbg) { return drbg->gpu_ws; }
void kc::drbg::set_gpu_observer(kcipher_drbg *drbg, GpuCallObserver *observer) { drbg->observer = observer; }
const GpuWorkspace *kc::drbg::gpu_workspace_of(const kcipher_drbg_multi *multi) { return multi->multi->gpu_workspace(); }

namespace {

// A NULL pointer is an empty input only with a zero length.
bool span_ok(const uint8_t *p, size_t n) { return p != nullptr || n == 0; }

bool buffer_ok(const uint8_t *p, size_t n)
{
    return n == 0 || (p != nullptr && UINTPTR_MAX - reinterpret_cast<uintptr_t>(p) >= n);
}

template <class Handle> kcipher_status pick_kernels(Handle &d, const char *kernel)
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

// -1 (the GPU path's choice: GPU 0) or a GPU of this machine; any index in a build without
// CUDA, which has no GPU path to use it.
kcipher_status check_gpu_index(int device)
{
    if (device < -1)
        return KCIPHER_ERR_INVALID_ARGUMENT;
#ifdef KCIPHER_HAVE_CUDA
    if (device >= cuda_device_count())
        return KCIPHER_ERR_NO_GPU;
#endif
    return KCIPHER_OK;
}

// len bytes at p, all device memory of one GPU (its first and last byte are checked).
kcipher_status device_range(void *p, size_t len, int *device)
{
    uint8_t *b = static_cast<uint8_t *>(p);
    if (p == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (!buffer_ok(b, len))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    return gpu_pointers_device(b + len - 1, b, device);
}

kcipher_status flags_ok(unsigned flags)
{
    return (flags & ~unsigned(KCIPHER_DRBG_NO_DF)) != 0 ? KCIPHER_ERR_INVALID_ARGUMENT : KCIPHER_OK;
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
    if (flags_ok(flags) != KCIPHER_OK)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    std::unique_ptr<kcipher_drbg> d(new (std::nothrow) kcipher_drbg);
    if (!d)
        return KCIPHER_ERR_NO_MEMORY;
    kcipher_status st = kc_lookup_cipher(cipher, &d->cipher);
    if (st == KCIPHER_OK)
        st = pick_kernels(*d, kernel);
    if (st != KCIPHER_OK)
        return st;
    d->fast = accelerations_for(*d->kernel, d->cipher->id);
    std::unique_ptr<BlockCipher> c(new (std::nothrow) KernelCipher(d->fast));
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
    kcipher_status st = check_gpu_index(device);
    if (st == KCIPHER_OK)
        drbg->gpu_device = device;
    return st;
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
    if (kcipher_status st = d.reseed_if_forked(); st != KCIPHER_OK)
        return st; // the chained and burst paths skip begin_request
    if (drbg->gpu_kernel == nullptr)
        return generate_large_cpu(d, drbg->fast, out, len, prediction_resistance != 0, drbg->threads);
    GpuOutput o{out, false, nullptr, drbg->gpu_device < 0 ? 0 : drbg->gpu_device, drbg->threads, drbg->observer};
    return generate_gpu(d, drbg->fast, *drbg->gpu_kernel, drbg->gpu_ws, o, len, prediction_resistance != 0);
}

kcipher_status kcipher_drbg_generate_device(kcipher_drbg *drbg, void *device_out, size_t len, void *cuda_stream)
{
    if (drbg == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (drbg->gpu_kernel == nullptr)
        return KCIPHER_ERR_NOT_GPU_KERNEL;
    int dev = -1;
    if (len != 0) {
        kcipher_status st = device_range(device_out, len, &dev);
        if (st != KCIPHER_OK)
            return st;
    }
    Drbg &d = *drbg->drbg;
    if (!d.instantiated())
        return KCIPHER_ERR_DRBG_NOT_INSTANTIATED;
    if (len == 0)
        return KCIPHER_OK;
    if (kcipher_status st = d.reseed_if_forked(); st != KCIPHER_OK)
        return st;
    GpuOutput o{static_cast<uint8_t *>(device_out), true, cuda_stream, dev, drbg->threads, drbg->observer};
    return generate_gpu(d, drbg->fast, *drbg->gpu_kernel, drbg->gpu_ws, o, len, false);
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

// ---- many instances ------------------------------------------------------------------------

kcipher_status kcipher_drbg_multi_new(kcipher_drbg_multi **multi, const char *cipher, size_t instances,
                                      unsigned flags, const char *kernel)
{
    if (multi == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    *multi = nullptr;
    if (cipher == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (flags_ok(flags) != KCIPHER_OK || instances == 0 || instances > Multi::max_instances)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    std::unique_ptr<kcipher_drbg_multi> m(new (std::nothrow) kcipher_drbg_multi);
    if (!m)
        return KCIPHER_ERR_NO_MEMORY;
    kcipher_status st = kc_lookup_cipher(cipher, &m->cipher);
    if (st == KCIPHER_OK)
        st = pick_kernels(*m, kernel);
    if (st != KCIPHER_OK)
        return st;
    m->multi.reset(new (std::nothrow)
                       Multi(*m->kernel, m->gpu_kernel, m->cipher->id, (flags & KCIPHER_DRBG_NO_DF) == 0));
    if (!m->multi)
        return KCIPHER_ERR_NO_MEMORY;
    st = m->multi->init(instances);
    if (st != KCIPHER_OK)
        return st;
    *multi = m.release();
    return KCIPHER_OK;
}

void kcipher_drbg_multi_free(kcipher_drbg_multi *multi) { delete multi; } // ~Multi wipes

kcipher_status kcipher_drbg_multi_set_entropy_source(kcipher_drbg_multi *multi, kcipher_entropy_fn fn, void *user)
{
    if (multi == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    multi->multi->set_entropy_source(fn, user);
    return KCIPHER_OK;
}

kcipher_status kcipher_drbg_multi_set_reseed_interval(kcipher_drbg_multi *multi, uint64_t requests)
{
    return multi == nullptr ? KCIPHER_ERR_NULL_POINTER : multi->multi->set_reseed_interval(requests);
}

kcipher_status kcipher_drbg_multi_set_threads(kcipher_drbg_multi *multi, unsigned threads)
{
    if (multi == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (threads > 4096)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    multi->multi->set_threads(threads);
    return KCIPHER_OK;
}

kcipher_status kcipher_drbg_multi_set_gpu(kcipher_drbg_multi *multi, int device)
{
    if (multi == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    kcipher_status st = check_gpu_index(device);
    if (st == KCIPHER_OK)
        multi->multi->set_gpu(device);
    return st;
}

// `count` inputs of n bytes each at p: NULL only when n == 0, no wrap of the address space.
static bool inputs_ok(const uint8_t *p, size_t n, size_t count)
{
    if (n == 0)
        return true;
    if (p == nullptr || n > SIZE_MAX / count)
        return false;
    return buffer_ok(p, n * count);
}

kcipher_status kcipher_drbg_multi_instantiate(kcipher_drbg_multi *multi, const uint8_t *entropy, size_t entropy_len,
                                              const uint8_t *nonce, size_t nonce_len, const uint8_t *personalization,
                                              size_t personalization_len)
{
    if (multi == nullptr || !span_ok(entropy, entropy_len) || !span_ok(nonce, nonce_len) ||
        !span_ok(personalization, personalization_len))
        return KCIPHER_ERR_NULL_POINTER;
    const size_t n = multi->multi->count();
    if (!inputs_ok(entropy, entropy_len, n) || !inputs_ok(nonce, nonce_len, n) ||
        !inputs_ok(personalization, personalization_len, n))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    return multi->multi->instantiate(entropy, entropy_len, nonce, nonce_len, personalization, personalization_len);
}

kcipher_status kcipher_drbg_multi_reseed(kcipher_drbg_multi *multi, const uint8_t *entropy, size_t entropy_len,
                                         const uint8_t *additional, size_t additional_len)
{
    if (multi == nullptr || !span_ok(entropy, entropy_len) || !span_ok(additional, additional_len))
        return KCIPHER_ERR_NULL_POINTER;
    const size_t n = multi->multi->count();
    if (!inputs_ok(entropy, entropy_len, n) || !inputs_ok(additional, additional_len, n))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    return multi->multi->reseed(entropy, entropy_len, additional, additional_len);
}

// The output of a generate call: len bytes per instance, without overflow.
static kcipher_status multi_total(const kcipher_drbg_multi *multi, size_t len, size_t *total)
{
    const size_t n = multi->multi->count();
    if (len > SIZE_MAX / n)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    *total = len * n;
    return KCIPHER_OK;
}

kcipher_status kcipher_drbg_multi_generate(kcipher_drbg_multi *multi, uint8_t *out, size_t len,
                                           int prediction_resistance)
{
    if (multi == nullptr || !span_ok(out, len))
        return KCIPHER_ERR_NULL_POINTER;
    size_t total = 0;
    if (multi_total(multi, len, &total) != KCIPHER_OK || !buffer_ok(out, total))
        return KCIPHER_ERR_INVALID_ARGUMENT;
    return multi->multi->generate(out, len, prediction_resistance != 0, false, nullptr, -1);
}

kcipher_status kcipher_drbg_multi_generate_device(kcipher_drbg_multi *multi, void *device_out, size_t len,
                                                  int prediction_resistance, void *cuda_stream)
{
    if (multi == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (multi->gpu_kernel == nullptr)
        return KCIPHER_ERR_NOT_GPU_KERNEL;
    size_t total = 0;
    if (multi_total(multi, len, &total) != KCIPHER_OK)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    int dev = -1;
    if (total != 0) {
        kcipher_status st = device_range(device_out, total, &dev);
        if (st != KCIPHER_OK)
            return st;
    }
    return multi->multi->generate(static_cast<uint8_t *>(device_out), len, prediction_resistance != 0, true,
                                  cuda_stream, dev);
}

kcipher_status kcipher_drbg_multi_uninstantiate(kcipher_drbg_multi *multi)
{
    if (multi == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    multi->multi->uninstantiate();
    return KCIPHER_OK;
}

size_t kcipher_drbg_multi_instances(const kcipher_drbg_multi *multi) { return multi ? multi->multi->count() : 0; }

size_t kcipher_drbg_multi_max_request(const kcipher_drbg_multi *multi)
{
    return multi ? multi->multi->limits().max_request_bytes : 0;
}

kcipher_status kcipher_drbg_multi_reseed_counter(const kcipher_drbg_multi *multi, size_t instance, uint64_t *counter)
{
    if (multi == nullptr || counter == nullptr)
        return KCIPHER_ERR_NULL_POINTER;
    if (instance >= multi->multi->count())
        return KCIPHER_ERR_INVALID_ARGUMENT;
    *counter = multi->multi->reseed_counter(instance);
    return KCIPHER_OK;
}

const char *kcipher_drbg_multi_kernel(const kcipher_drbg_multi *multi)
{
    if (multi == nullptr)
        return nullptr;
    return multi->gpu_kernel ? multi->gpu_kernel->name : multi->kernel->name;
}

} // extern "C"
