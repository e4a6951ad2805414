// The provider's entry point (OSSL_provider_init) and its provider-level functions: what it
// offers (query_operation), its parameters (name, version, the TLS record counts), its reason
// strings, and teardown.
#include "algorithms.hpp"
#include "errors.hpp"
#include "provider.hpp"
#include "rand_drbg.hpp"

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <cstdio>
#include <cstdlib>
#include <new>
#include <unistd.h>

namespace kcprov {
namespace {

constexpr const char *kParamTlsSealed = "kcipher-tls-records-sealed";
constexpr const char *kParamTlsOpened = "kcipher-tls-records-opened";
constexpr const char *kParamTlsBytes = "kcipher-tls-bytes";

// With KCIPHER_PROVIDER_LOG=FILE, a line of counts appended when the provider unloads.
void log_stats(const ProvCtx *p)
{
    const char *path = std::getenv("KCIPHER_PROVIDER_LOG");
    if (path == nullptr || *path == '\0')
        return;
    FILE *f = std::fopen(path, "a");
    if (f == nullptr)
        return;
    std::fprintf(f, "pid=%ld tls_records_sealed=%llu tls_records_opened=%llu tls_bytes=%llu cipher_inits=%llu\n",
                 (long)getpid(), (unsigned long long)p->stats.tls_records_sealed.load(),
                 (unsigned long long)p->stats.tls_records_opened.load(),
                 (unsigned long long)p->stats.tls_bytes.load(), (unsigned long long)p->stats.cipher_inits.load());
    std::fclose(f);
}

void teardown(void *provctx)
{
    auto *p = static_cast<ProvCtx *>(provctx);
    log_stats(p);
    delete p;
}

const OSSL_PARAM kParams[] = {
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, nullptr, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, nullptr, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, nullptr, 0),
    OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, nullptr),
    OSSL_PARAM_uint64(kParamTlsSealed, nullptr),
    OSSL_PARAM_uint64(kParamTlsOpened, nullptr),
    OSSL_PARAM_uint64(kParamTlsBytes, nullptr),
    OSSL_PARAM_END,
};

const OSSL_PARAM *gettable_params(void *) { return kParams; }

int get_params(void *provctx, OSSL_PARAM params[])
{
    const auto *prov = static_cast<const ProvCtx *>(provctx);
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
    if (p != nullptr && !OSSL_PARAM_set_utf8_ptr(p, "kcipher: ARIA, LEA, HIGHT, CHAM and SEED"))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
    if (p != nullptr && !OSSL_PARAM_set_utf8_ptr(p, kcipher_version()))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
    if (p != nullptr && !OSSL_PARAM_set_utf8_ptr(p, kcipher_cpu_features()))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p != nullptr && !OSSL_PARAM_set_int(p, 1))
        return 0;
    const std::pair<const char *, uint64_t> counts[] = {
        {kParamTlsSealed, prov->stats.tls_records_sealed.load()},
        {kParamTlsOpened, prov->stats.tls_records_opened.load()},
        {kParamTlsBytes, prov->stats.tls_bytes.load()},
    };
    for (const auto &c : counts) {
        p = OSSL_PARAM_locate(params, c.first);
        if (p != nullptr && !OSSL_PARAM_set_uint64(p, c.second))
            return 0;
    }
    return 1;
}

const OSSL_ALGORITHM *query_operation(void *, int operation_id, int *no_cache)
{
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_CIPHER: return cipher_algorithms();
    case OSSL_OP_RAND: return rand_algorithms();
    default: return nullptr;
    }
}

const OSSL_ITEM *get_reason_strings(void *) { return reason_strings(); }

const OSSL_DISPATCH kProviderFunctions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, as_dispatch_fn(&teardown)},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, as_dispatch_fn(&gettable_params)},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, as_dispatch_fn(&get_params)},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, as_dispatch_fn(&query_operation)},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, as_dispatch_fn(&get_reason_strings)},
    {0, nullptr},
};

// "threads" from the provider's openssl.cnf section: kcipher_set_threads for every context
// (1 by default, as a library inside someone else's process should; 0 = one per core).
unsigned configured_threads(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in)
{
    OSSL_FUNC_core_get_params_fn *core_get_params = nullptr;
    for (const OSSL_DISPATCH *d = in; d->function_id != 0; ++d)
        if (d->function_id == OSSL_FUNC_CORE_GET_PARAMS)
            core_get_params = OSSL_FUNC_core_get_params(d);
    const char *threads = nullptr;
    OSSL_PARAM params[] = {OSSL_PARAM_utf8_ptr("threads", &threads, 0), OSSL_PARAM_END};
    if (core_get_params == nullptr || !core_get_params(handle, params) || threads == nullptr)
        return 1;
    char *end = nullptr;
    const unsigned long n = std::strtoul(threads, &end, 10);
    return end != threads && *end == '\0' && n <= 1024 ? (unsigned)n : 1;
}

} // namespace
} // namespace kcprov

extern "C" __attribute__((visibility("default"))) int OSSL_provider_init(const OSSL_CORE_HANDLE *handle,
                                                                          const OSSL_DISPATCH *in,
                                                                          const OSSL_DISPATCH **out, void **provctx)
{
    using namespace kcprov;
    auto *p = new (std::nothrow) ProvCtx;
    if (p == nullptr)
        return 0;
    p->handle = handle;
    p->threads = configured_threads(handle, in);
    take_core_error_functions(in);
    *out = kProviderFunctions;
    *provctx = p;
    return 1;
}
