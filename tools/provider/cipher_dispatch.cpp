// The functions OpenSSL calls for a cipher, and the dispatch table of each algorithm. Only
// newctx and get_params differ between algorithms (they are told which one by a template
// index into algos()); everything else reaches the context's mode through CipherCtx.
#include "algorithms.hpp"
#include "cipher_modes.hpp"

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <array>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace kcprov {
namespace {

constexpr size_t kMaxAlgos = 128; // room above today's 93; OffersEveryCipherInEveryMode counts them

CipherCtx *make(ProvCtx *p, const Algo &a)
{
    switch (a.mode) {
    case KCIPHER_MODE_ECB:
    case KCIPHER_MODE_CBC: return new_padded_ctx(p, a);
    case KCIPHER_MODE_GCM: return new_gcm_ctx(p, a);
    case KCIPHER_MODE_CCM: return new_ccm_ctx(p, a);
    case KCIPHER_MODE_XTS: return new_xts_ctx(p, a);
    default: return new_stream_ctx(p, a);
    }
}

template <size_t I> void *newctx(void *provctx)
{
    try {
        return make(static_cast<ProvCtx *>(provctx), algos()[I]);
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

// What EVP_CIPHER_fetch reads once about the algorithm.
int algo_get_params(const Algo &a, OSSL_PARAM params[])
{
    const AlgoShape s = shape_of(a);
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE);
    if (p != nullptr && !OSSL_PARAM_set_uint(p, s.ossl_mode))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
    if (p != nullptr && !OSSL_PARAM_set_size_t(p, s.key_len))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
    if (p != nullptr && !OSSL_PARAM_set_size_t(p, s.iv_len))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE);
    if (p != nullptr && !OSSL_PARAM_set_size_t(p, s.ossl_block))
        return 0;
    const bool custom_iv = s.aead || a.mode == KCIPHER_MODE_XTS;
    const std::pair<const char *, int> flags[] = {
        {OSSL_CIPHER_PARAM_AEAD, s.aead},       {OSSL_CIPHER_PARAM_CUSTOM_IV, custom_iv},
        {OSSL_CIPHER_PARAM_CTS, 0},             {OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0},
        {OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0},
    };
    for (const auto &f : flags) {
        p = OSSL_PARAM_locate(params, f.first);
        if (p != nullptr && !OSSL_PARAM_set_int(p, f.second))
            return 0;
    }
    return 1;
}

template <size_t I> int get_params(OSSL_PARAM params[]) { return algo_get_params(algos()[I], params); }

CipherCtx *ctx_of(void *c) { return static_cast<CipherCtx *>(c); }

void freectx(void *c) { delete ctx_of(c); }

void *dupctx(void *c)
{
    try {
        return ctx_of(c)->clone();
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

int einit(void *c, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
          const OSSL_PARAM params[])
{
    return ctx_of(c)->init(true, key, keylen, iv, ivlen, params);
}

int dinit(void *c, const unsigned char *key, size_t keylen, const unsigned char *iv, size_t ivlen,
          const OSSL_PARAM params[])
{
    return ctx_of(c)->init(false, key, keylen, iv, ivlen, params);
}

int update(void *c, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
    return ctx_of(c)->update(out, outl, outsize, in, inl);
}

int final(void *c, unsigned char *out, size_t *outl, size_t outsize) { return ctx_of(c)->final(out, outl, outsize); }

int cipher(void *c, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in, size_t inl)
{
    return ctx_of(c)->cipher(out, outl, outsize, in, inl);
}

int get_ctx_params(void *c, OSSL_PARAM params[]) { return ctx_of(c)->get_params(params); }
int set_ctx_params(void *c, const OSSL_PARAM params[]) { return ctx_of(c)->set_params(params); }

const OSSL_PARAM kGettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, nullptr),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, nullptr),
    OSSL_PARAM_END,
};

const OSSL_PARAM kCtxGettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, nullptr, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, nullptr),
    OSSL_PARAM_END,
};

const OSSL_PARAM kCtxSettable[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, nullptr),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, nullptr),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, nullptr),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, nullptr, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, nullptr, 0),
    OSSL_PARAM_END,
};

const OSSL_PARAM *gettable_params(void *) { return kGettable; }
const OSSL_PARAM *gettable_ctx_params(void *, void *) { return kCtxGettable; }
const OSSL_PARAM *settable_ctx_params(void *, void *) { return kCtxSettable; }

using Dispatch = std::array<OSSL_DISPATCH, 15>;
using NewCtx = void *(void *);
using GetParams = int(OSSL_PARAM[]);

// The two per-algorithm functions, instantiated for indices 0 .. kMaxAlgos - 1.
template <size_t... I> std::array<NewCtx *, sizeof...(I)> newctx_fns(std::index_sequence<I...>) { return {&newctx<I>...}; }
template <size_t... I> std::array<GetParams *, sizeof...(I)> get_params_fns(std::index_sequence<I...>)
{
    return {&get_params<I>...};
}

Dispatch dispatch_for(NewCtx *new_ctx, GetParams *params)
{
    return Dispatch{{
        {OSSL_FUNC_CIPHER_NEWCTX, as_dispatch_fn(new_ctx)},
        {OSSL_FUNC_CIPHER_FREECTX, as_dispatch_fn(&freectx)},
        {OSSL_FUNC_CIPHER_DUPCTX, as_dispatch_fn(&dupctx)},
        {OSSL_FUNC_CIPHER_ENCRYPT_INIT, as_dispatch_fn(&einit)},
        {OSSL_FUNC_CIPHER_DECRYPT_INIT, as_dispatch_fn(&dinit)},
        {OSSL_FUNC_CIPHER_UPDATE, as_dispatch_fn(&update)},
        {OSSL_FUNC_CIPHER_FINAL, as_dispatch_fn(&final)},
        {OSSL_FUNC_CIPHER_CIPHER, as_dispatch_fn(&cipher)},
        {OSSL_FUNC_CIPHER_GET_PARAMS, as_dispatch_fn(params)},
        {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, as_dispatch_fn(&gettable_params)},
        {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, as_dispatch_fn(&get_ctx_params)},
        {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, as_dispatch_fn(&set_ctx_params)},
        {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, as_dispatch_fn(&gettable_ctx_params)},
        {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, as_dispatch_fn(&settable_ctx_params)},
        {0, nullptr},
    }};
}

} // namespace

const OSSL_ALGORITHM *cipher_algorithms()
{
    static const std::vector<Dispatch> tables = [] {
        const auto news = newctx_fns(std::make_index_sequence<kMaxAlgos>{});
        const auto params = get_params_fns(std::make_index_sequence<kMaxAlgos>{});
        std::vector<Dispatch> t;
        for (size_t i = 0; i < algos().size() && i < kMaxAlgos; ++i) // the test counts them all
            t.push_back(dispatch_for(news[i], params[i]));
        return t;
    }();
    static const std::vector<OSSL_ALGORITHM> list = [] {
        std::vector<OSSL_ALGORITHM> l;
        for (size_t i = 0; i < tables.size(); ++i)
            l.push_back({algos()[i].names, kProperties, tables[i].data(), "kcipher"});
        l.push_back({nullptr, nullptr, nullptr, nullptr});
        return l;
    }();
    return list.data();
}

} // namespace kcprov
