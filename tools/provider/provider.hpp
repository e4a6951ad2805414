// What every part of the OpenSSL 3 provider shares: the provider's context (handed to every
// operation as provctx), the error stack, and the table of algorithms it offers.
#pragma once

#include <kcipher/kcipher.h>
#include <openssl/core.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace kcprov {

// Counts of what the provider did, readable as provider parameters and, with
// KCIPHER_PROVIDER_LOG=FILE in the environment, appended to FILE when the provider unloads:
// the evidence that a TLS session's records were sealed here and not by another provider.
struct Stats {
    std::atomic<uint64_t> tls_records_sealed{0};
    std::atomic<uint64_t> tls_records_opened{0};
    std::atomic<uint64_t> tls_bytes{0}; // payload bytes of those records
    std::atomic<uint64_t> cipher_inits{0};
};

struct ProvCtx {
    const OSSL_CORE_HANDLE *handle = nullptr;
    OSSL_LIB_CTX *libctx = nullptr; // a child of the application's library context
    unsigned threads = 1;           // kcipher_set_threads for every context: openssl.cnf "threads"
    Stats stats;
};

// Reasons this provider puts on OpenSSL's error stack (their strings: errors.cpp).
enum Reason : int {
    R_KCIPHER = 1,           // a kcipher call failed: the message is kcipher's
    R_INVALID_KEY_LENGTH,
    R_INVALID_IV_LENGTH,
    R_WRONG_FINAL_BLOCK_LENGTH,
    R_BAD_DECRYPT,
    R_OUTPUT_BUFFER_TOO_SMALL,
    R_NO_KEY_SET,
    R_NO_IV_SET,
    R_UPDATE_AFTER_FINAL,
    R_INVALID_TAG,
    R_TAG_NOT_NEEDED,
    R_TAG_NOT_SET,
    R_INVALID_TAG_LENGTH,
    R_BAD_PARAMETER,
    R_NOT_SUPPORTED,
    R_DRBG,
};

void raise(const ProvCtx *p, Reason r, const char *fmt = nullptr, ...);
// The kcipher status s of `what`, on the stack; returns 0 (an OpenSSL failure) for tail calls.
int raise_status(const ProvCtx *p, kcipher_status s, const char *what);
const OSSL_ITEM *reason_strings();

// A function as OSSL_DISPATCH holds it.
template <class F> void (*as_dispatch_fn(F *f))(void) { return reinterpret_cast<void (*)(void)>(f); }

// The provider's own name, as `openssl list -providers` and property queries show it.
constexpr const char *kName = "kcipher";
constexpr const char *kProperties = "provider=kcipher";

} // namespace kcprov
