// Errors go on OpenSSL's error stack through the core's functions (a provider has no error
// library of its own: the core numbers it and asks us for the reason strings).
#include "errors.hpp"

#include <openssl/core_dispatch.h>
#include <openssl/err.h>

#include <cstdarg>

namespace kcprov {
namespace {
OSSL_FUNC_core_new_error_fn *new_error = nullptr;
OSSL_FUNC_core_set_error_debug_fn *set_error_debug = nullptr;
OSSL_FUNC_core_vset_error_fn *vset_error = nullptr;

// OSSL_ITEM holds a void *: the strings are never written through it.
const OSSL_ITEM kReasons[] = {
    {R_KCIPHER, const_cast<char *>("kcipher error")},
    {R_INVALID_KEY_LENGTH, const_cast<char *>("invalid key length")},
    {R_INVALID_IV_LENGTH, const_cast<char *>("invalid iv length")},
    {R_WRONG_FINAL_BLOCK_LENGTH, const_cast<char *>("wrong final block length")},
    {R_BAD_DECRYPT, const_cast<char *>("bad decrypt")},
    {R_OUTPUT_BUFFER_TOO_SMALL, const_cast<char *>("output buffer too small")},
    {R_NO_KEY_SET, const_cast<char *>("no key set")},
    {R_NO_IV_SET, const_cast<char *>("no iv set")},
    {R_UPDATE_AFTER_FINAL, const_cast<char *>("update or final after final")},
    {R_INVALID_TAG, const_cast<char *>("invalid tag")},
    {R_TAG_NOT_NEEDED, const_cast<char *>("tag not needed when encrypting")},
    {R_TAG_NOT_SET, const_cast<char *>("tag not set")},
    {R_INVALID_TAG_LENGTH, const_cast<char *>("invalid tag length")},
    {R_BAD_PARAMETER, const_cast<char *>("bad parameter")},
    {R_NOT_SUPPORTED, const_cast<char *>("operation not supported")},
    {R_DRBG, const_cast<char *>("drbg error")},
    {0, nullptr},
};
} // namespace

void take_core_error_functions(const OSSL_DISPATCH *in)
{
    for (; in->function_id != 0; ++in) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR: new_error = OSSL_FUNC_core_new_error(in); break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG: set_error_debug = OSSL_FUNC_core_set_error_debug(in); break;
        case OSSL_FUNC_CORE_VSET_ERROR: vset_error = OSSL_FUNC_core_vset_error(in); break;
        default: break;
        }
    }
}

void raise(const ProvCtx *p, Reason r, const char *fmt, ...)
{
    if (p == nullptr || new_error == nullptr || vset_error == nullptr)
        return;
    new_error(p->handle);
    if (set_error_debug != nullptr)
        set_error_debug(p->handle, nullptr, 0, "kcipher provider");
    va_list args;
    va_start(args, fmt);
    vset_error(p->handle, (uint32_t)r, fmt, args); // no library bits: the core adds ours
    va_end(args);
}

int raise_status(const ProvCtx *p, kcipher_status s, const char *what)
{
    raise(p, s == KCIPHER_ERR_AUTH ? R_BAD_DECRYPT : R_KCIPHER, "%s: %s", what, kcipher_strerror(s));
    return 0;
}

const OSSL_ITEM *reason_strings() { return kReasons; }

} // namespace kcprov
