// KCIPHER-CTR-DRBG, an EVP_RAND: kcipher's CTR_DRBG over the cipher named by the "cipher"
// parameter ("ARIA-256-CTR" as OpenSSL's CTR-DRBG spells it, or kcipher's "aria-256"; ARIA-256
// when none is set), with the derivation function unless "use_derivation_function" is 0. Its
// entropy comes from its parent (EVP_RAND_CTX_new's parent: OpenSSL's SEED-SRC, another DRBG,
// TEST-RAND in tests), else from getrandom(2); the same entropy, nonce and personalization
// give the same bytes as `kcipher rand --entropy --nonce --personalization`. It serves as a
// parent in turn (get_seed), so openssl.cnf's [random] section can make it the library's
// primary DRBG. Its own name, not OpenSSL's "CTR-DRBG": a fetch of "CTR-DRBG" that prefers
// this provider must still get OpenSSL's, which knows AES.
#include "provider.hpp"
#include "rand_drbg.hpp"

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include <cctype>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

namespace kcprov {
namespace {

enum State { kUninstantiated = 0, kReady = 1, kError = 2 }; // EVP_RAND_STATE_*

struct Parent {
    void *ctx = nullptr;
    OSSL_FUNC_rand_get_seed_fn *get_seed = nullptr;
    OSSL_FUNC_rand_clear_seed_fn *clear_seed = nullptr;
    OSSL_FUNC_rand_generate_fn *generate = nullptr;
    OSSL_FUNC_rand_nonce_fn *nonce = nullptr;
    OSSL_FUNC_rand_lock_fn *lock = nullptr;
    OSSL_FUNC_rand_unlock_fn *unlock = nullptr;
};

struct Drbg {
    ProvCtx *prov = nullptr;
    Parent parent;
    std::string cipher = "aria-256";
    bool df = true;
    kcipher_drbg *d = nullptr;
    State state = kUninstantiated;
    unsigned strength = 0;
    std::mutex *mutex = nullptr; // after enable_locking

    ~Drbg()
    {
        kcipher_drbg_free(d);
        delete mutex;
    }
};

unsigned strength_of(const std::string &cipher)
{
    kcipher_cipher_info info{};
    return kcipher_cipher_find(cipher.c_str(), &info) == KCIPHER_OK ? (unsigned)info.key_bytes * 8 : 0;
}

// Get_entropy_input through the parent (its seed, else its output), or the kernel's CSPRNG.
size_t entropy(void *user, uint8_t *buf, size_t min_len, size_t max_len)
{
    const Drbg *g = static_cast<const Drbg *>(user);
    const Parent &p = g->parent;
    if (p.ctx == nullptr)
        return kcipher_entropy_getrandom(nullptr, buf, min_len, max_len);
    if (p.lock != nullptr && !p.lock(p.ctx))
        return 0;
    size_t got = 0;
    if (p.get_seed != nullptr) {
        unsigned char *seed = nullptr;
        // The entropy asked is what min_len bytes can hold, at most the strength: a nonce is half.
        const int bits = (int)(8 * min_len < g->strength ? 8 * min_len : g->strength);
        const size_t n = p.get_seed(p.ctx, &seed, bits, min_len, max_len, 0, nullptr, 0);
        if (seed != nullptr && n >= min_len && n <= max_len) {
            std::memcpy(buf, seed, n);
            got = n;
        }
        if (seed != nullptr && p.clear_seed != nullptr)
            p.clear_seed(p.ctx, seed, n);
    } else if (p.generate != nullptr && p.generate(p.ctx, buf, min_len, g->strength, 0, nullptr, 0)) {
        got = min_len;
    }
    if (p.unlock != nullptr)
        p.unlock(p.ctx);
    return got;
}

// Instantiate's entropy input from the source, and (with the derivation function) a nonce of
// half the strength: the parent's nonce where it has one (OpenSSL's DRBGs take it so), else
// from the source too. Reseeds later take entropy from the source through the callback.
kcipher_status seed_from_parent(Drbg *g, const unsigned char *pstr, size_t pstr_len)
{
    kcipher_cipher_info info{};
    kcipher_cipher_find(g->cipher.c_str(), &info);
    uint8_t e[64], n[64];
    const size_t want = g->df ? info.key_bytes : info.key_bytes + info.block_bytes;
    size_t nonce_len = g->df ? info.key_bytes / 2 : 0;
    kcipher_status s = entropy(g, e, want, want) == want ? KCIPHER_OK : KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
    if (s == KCIPHER_OK && nonce_len != 0) {
        const Parent &p = g->parent;
        nonce_len = p.nonce != nullptr ? p.nonce(p.ctx, n, g->strength / 2, nonce_len, sizeof n)
                                       : entropy(g, n, nonce_len, nonce_len);
        if (nonce_len == 0 || nonce_len > sizeof n)
            s = KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
    }
    if (s == KCIPHER_OK)
        s = kcipher_drbg_instantiate(g->d, e, want, nonce_len != 0 ? n : nullptr, nonce_len, pstr, pstr_len);
    OPENSSL_cleanse(e, sizeof e);
    OPENSSL_cleanse(n, sizeof n);
    return s;
}

int fail(Drbg *g, kcipher_status s, const char *what)
{
    g->state = kError;
    return raise_status(g->prov, s, what);
}

void *newctx(void *provctx, void *parent, const OSSL_DISPATCH *calls)
{
    auto *g = new (std::nothrow) Drbg;
    if (g == nullptr)
        return nullptr;
    g->prov = static_cast<ProvCtx *>(provctx);
    g->parent.ctx = parent;
    for (; parent != nullptr && calls != nullptr && calls->function_id != 0; ++calls) {
        switch (calls->function_id) {
        case OSSL_FUNC_RAND_GET_SEED: g->parent.get_seed = OSSL_FUNC_rand_get_seed(calls); break;
        case OSSL_FUNC_RAND_CLEAR_SEED: g->parent.clear_seed = OSSL_FUNC_rand_clear_seed(calls); break;
        case OSSL_FUNC_RAND_GENERATE: g->parent.generate = OSSL_FUNC_rand_generate(calls); break;
        case OSSL_FUNC_RAND_NONCE: g->parent.nonce = OSSL_FUNC_rand_nonce(calls); break;
        case OSSL_FUNC_RAND_LOCK: g->parent.lock = OSSL_FUNC_rand_lock(calls); break;
        case OSSL_FUNC_RAND_UNLOCK: g->parent.unlock = OSSL_FUNC_rand_unlock(calls); break;
        default: break;
        }
    }
    return g;
}

void freectx(void *c) { delete static_cast<Drbg *>(c); } // kcipher_drbg_free wipes

int set_ctx_params(void *c, const OSSL_PARAM params[]);

int instantiate(void *c, unsigned int strength, int prediction_resistance, const unsigned char *pstr, size_t pstr_len,
                const OSSL_PARAM params[])
{
    Drbg *g = static_cast<Drbg *>(c);
    if (!set_ctx_params(c, params))
        return 0;
    g->strength = strength_of(g->cipher);
    if (strength > g->strength) {
        raise(g->prov, R_DRBG, "%s gives %u bits of security strength, %u asked", g->cipher.c_str(), g->strength,
              strength);
        return 0;
    }
    kcipher_drbg_free(g->d);
    g->d = nullptr;
    kcipher_status s = kcipher_drbg_new(&g->d, g->cipher.c_str(), g->df ? 0 : KCIPHER_DRBG_NO_DF, nullptr);
    if (s == KCIPHER_OK)
        s = kcipher_drbg_set_entropy_source(g->d, entropy, g);
    if (s == KCIPHER_OK)
        s = kcipher_drbg_set_threads(g->d, 1);
    if (s == KCIPHER_OK)
        s = seed_from_parent(g, pstr, pstr_len);
    if (s == KCIPHER_OK && prediction_resistance)
        s = kcipher_drbg_reseed(g->d, nullptr, 0, nullptr, 0);
    if (s != KCIPHER_OK)
        return fail(g, s, "instantiating the DRBG");
    g->state = kReady;
    return 1;
}

int uninstantiate(void *c)
{
    Drbg *g = static_cast<Drbg *>(c);
    if (g->d != nullptr)
        kcipher_drbg_uninstantiate(g->d);
    g->state = kUninstantiated;
    return 1;
}

bool ready(Drbg *g)
{
    if (g->state == kReady)
        return true;
    raise(g->prov, R_DRBG, g->state == kError ? "the DRBG failed earlier" : "the DRBG is not instantiated");
    return false;
}

// Requests of at most the standard's size; the additional input goes with the first.
int generate(void *c, unsigned char *out, size_t outlen, unsigned int strength, int prediction_resistance,
             const unsigned char *addin, size_t addin_len)
{
    Drbg *g = static_cast<Drbg *>(c);
    if (!ready(g))
        return 0;
    if (strength > g->strength) {
        raise(g->prov, R_DRBG, "%u bits of strength asked of a %u-bit DRBG", strength, g->strength);
        return 0;
    }
    const size_t most = kcipher_drbg_max_request(g->d);
    for (size_t at = 0; at < outlen || (at == 0 && outlen == 0); at += most) {
        const size_t n = outlen - at < most ? outlen - at : most;
        const kcipher_status s = kcipher_drbg_generate(g->d, out + at, n, at == 0 ? addin : nullptr,
                                                       at == 0 ? addin_len : 0, prediction_resistance && at == 0);
        if (s != KCIPHER_OK)
            return fail(g, s, "generating");
        if (outlen == 0)
            break;
    }
    return 1;
}

int reseed(void *c, int prediction_resistance, const unsigned char *ent, size_t ent_len, const unsigned char *addin,
           size_t addin_len)
{
    (void)prediction_resistance; // a reseed takes fresh entropy either way
    Drbg *g = static_cast<Drbg *>(c);
    if (!ready(g))
        return 0;
    const kcipher_status s = kcipher_drbg_reseed(g->d, ent_len != 0 ? ent : nullptr, ent_len, addin, addin_len);
    return s == KCIPHER_OK ? 1 : fail(g, s, "reseeding");
}

// As a parent: a seed for a child DRBG is this DRBG's output.
size_t get_seed(void *c, unsigned char **pout, int, size_t min_len, size_t max_len, int prediction_resistance,
                const unsigned char *adin, size_t adin_len)
{
    (void)max_len;
    auto *buf = static_cast<unsigned char *>(OPENSSL_secure_malloc(min_len));
    if (buf == nullptr)
        return 0;
    if (!generate(c, buf, min_len, 0, prediction_resistance, adin, adin_len)) {
        OPENSSL_secure_clear_free(buf, min_len);
        return 0;
    }
    *pout = buf;
    return min_len;
}

void clear_seed(void *, unsigned char *buf, size_t len) { OPENSSL_secure_clear_free(buf, len); }

int enable_locking(void *c)
{
    Drbg *g = static_cast<Drbg *>(c);
    if (g->mutex == nullptr)
        g->mutex = new (std::nothrow) std::mutex;
    return g->mutex != nullptr;
}

int lock(void *c)
{
    Drbg *g = static_cast<Drbg *>(c);
    if (g->mutex != nullptr)
        g->mutex->lock();
    return 1;
}

void unlock(void *c)
{
    Drbg *g = static_cast<Drbg *>(c);
    if (g->mutex != nullptr)
        g->mutex->unlock();
}

// "ARIA-256-CTR", "ARIA-256" and "aria-256" all name kcipher's aria-256.
std::string kcipher_name(const char *s)
{
    std::string n(s);
    for (char &ch : n)
        ch = (char)std::tolower((unsigned char)ch);
    if (n.size() > 4 && n.compare(n.size() - 4, 4, "-ctr") == 0)
        n.resize(n.size() - 4);
    return n;
}

int set_ctx_params(void *c, const OSSL_PARAM params[])
{
    Drbg *g = static_cast<Drbg *>(c);
    if (params == nullptr)
        return 1;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_DRBG_PARAM_CIPHER);
    if (p != nullptr) {
        const char *name = nullptr;
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name) || strength_of(kcipher_name(name)) == 0) {
            raise(g->prov, R_DRBG, "not a kcipher cipher: %s", name != nullptr ? name : "(none)");
            return 0;
        }
        g->cipher = kcipher_name(name);
    }
    p = OSSL_PARAM_locate_const(params, OSSL_DRBG_PARAM_USE_DF);
    int df = 1;
    if (p != nullptr) {
        if (!OSSL_PARAM_get_int(p, &df))
            return 0;
        g->df = df != 0;
    }
    return 1;
}

int get_ctx_params(void *c, OSSL_PARAM params[])
{
    Drbg *g = static_cast<Drbg *>(c);
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STATE);
    if (p != nullptr && !OSSL_PARAM_set_int(p, g->state))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STRENGTH);
    if (p != nullptr && !OSSL_PARAM_set_uint(p, strength_of(g->cipher)))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_MAX_REQUEST);
    if (p != nullptr && !OSSL_PARAM_set_size_t(p, g->d != nullptr ? kcipher_drbg_max_request(g->d) : 65536))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_CIPHER);
    if (p != nullptr && !OSSL_PARAM_set_utf8_string(p, g->cipher.c_str()))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_USE_DF);
    if (p != nullptr && !OSSL_PARAM_set_int(p, g->df))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_DRBG_PARAM_RESEED_COUNTER);
    uint64_t counter = 0;
    if (p != nullptr && g->d != nullptr)
        kcipher_drbg_reseed_counter(g->d, &counter);
    if (p != nullptr && !OSSL_PARAM_set_uint(p, (unsigned)counter))
        return 0;
    return 1;
}

const OSSL_PARAM kGettable[] = {
    OSSL_PARAM_int(OSSL_RAND_PARAM_STATE, nullptr),
    OSSL_PARAM_uint(OSSL_RAND_PARAM_STRENGTH, nullptr),
    OSSL_PARAM_size_t(OSSL_RAND_PARAM_MAX_REQUEST, nullptr),
    OSSL_PARAM_utf8_string(OSSL_DRBG_PARAM_CIPHER, nullptr, 0),
    OSSL_PARAM_int(OSSL_DRBG_PARAM_USE_DF, nullptr),
    OSSL_PARAM_uint(OSSL_DRBG_PARAM_RESEED_COUNTER, nullptr),
    OSSL_PARAM_END,
};
const OSSL_PARAM kSettable[] = {
    OSSL_PARAM_utf8_string(OSSL_DRBG_PARAM_CIPHER, nullptr, 0),
    OSSL_PARAM_int(OSSL_DRBG_PARAM_USE_DF, nullptr),
    OSSL_PARAM_utf8_string(OSSL_DRBG_PARAM_PROPERTIES, nullptr, 0),
    OSSL_PARAM_END,
};
const OSSL_PARAM *gettable_ctx_params(void *, void *) { return kGettable; }
const OSSL_PARAM *settable_ctx_params(void *, void *) { return kSettable; }

int verify_zeroization(void *) { return 1; } // kcipher_drbg_uninstantiate wipes the state

const OSSL_DISPATCH kDrbg[] = {
    {OSSL_FUNC_RAND_NEWCTX, as_dispatch_fn(&newctx)},
    {OSSL_FUNC_RAND_FREECTX, as_dispatch_fn(&freectx)},
    {OSSL_FUNC_RAND_INSTANTIATE, as_dispatch_fn(&instantiate)},
    {OSSL_FUNC_RAND_UNINSTANTIATE, as_dispatch_fn(&uninstantiate)},
    {OSSL_FUNC_RAND_GENERATE, as_dispatch_fn(&generate)},
    {OSSL_FUNC_RAND_RESEED, as_dispatch_fn(&reseed)},
    {OSSL_FUNC_RAND_GET_SEED, as_dispatch_fn(&get_seed)},
    {OSSL_FUNC_RAND_CLEAR_SEED, as_dispatch_fn(&clear_seed)},
    {OSSL_FUNC_RAND_ENABLE_LOCKING, as_dispatch_fn(&enable_locking)},
    {OSSL_FUNC_RAND_LOCK, as_dispatch_fn(&lock)},
    {OSSL_FUNC_RAND_UNLOCK, as_dispatch_fn(&unlock)},
    {OSSL_FUNC_RAND_GETTABLE_CTX_PARAMS, as_dispatch_fn(&gettable_ctx_params)},
    {OSSL_FUNC_RAND_GET_CTX_PARAMS, as_dispatch_fn(&get_ctx_params)},
    {OSSL_FUNC_RAND_SETTABLE_CTX_PARAMS, as_dispatch_fn(&settable_ctx_params)},
    {OSSL_FUNC_RAND_SET_CTX_PARAMS, as_dispatch_fn(&set_ctx_params)},
    {OSSL_FUNC_RAND_VERIFY_ZEROIZATION, as_dispatch_fn(&verify_zeroization)},
    {0, nullptr},
};

const OSSL_ALGORITHM kRands[] = {
    {"KCIPHER-CTR-DRBG", kProperties, kDrbg, "CTR_DRBG (SP 800-90A) over ARIA, LEA, HIGHT, CHAM or SEED"},
    {nullptr, nullptr, nullptr, nullptr},
};

} // namespace

const OSSL_ALGORITHM *rand_algorithms() { return kRands; }

} // namespace kcprov
