// CTR_DRBG, SP 800-90A rev. 1 section 10.2.1 (TTAK.KO-12.0189 is the same mechanism), over
// any BlockCipher, with or without the derivation function, ctr_len = blocklen. Arguments
// are checked here against the standard's limits (table 3); the C front (drbg_api.cpp) only
// checks pointers. Not thread-safe: one Drbg per thread, or a lock around it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "drbg/block_cipher.hpp"
#include "drbg/derivation.hpp"
#include "kcipher/kcipher.h"

namespace kc::drbg {

// SP 800-90A rev. 1 table 3 (AES column for 128-bit blocks, TDEA column for 64-bit ones).
struct Limits {
    size_t block_bytes, key_bytes;
    size_t seed_bytes;            // seedlen = keylen + blocklen
    size_t security_bytes;        // security strength = key length: the least entropy with df
    size_t max_request_bytes;     // 2^19 bits (128-bit block), 2^13 bits (64-bit block)
    uint64_t max_reseed_interval; // 2^48 requests (128-bit block), 2^32 (64-bit block)
};
Limits limits_for(size_t block_bytes, size_t key_bytes);

// Our bound on each input string (entropy, nonce, personalization, additional input). The
// standard allows 2^35 bits; a lower bound is its choice to make, and keeps the df's 32-bit
// length field from overflowing whatever the inputs.
constexpr size_t max_input_bytes = size_t(1) << 20;

// Get_entropy_input (8.6.5, 9.3.3): writes between min_len and max_len bytes of full entropy
// to buf and returns how many; any other return is a failure. The C API's kcipher_entropy_fn.
using EntropyFn = size_t (*)(void *user, uint8_t *buf, size_t min_len, size_t max_len);
size_t entropy_getrandom(void *user, uint8_t *buf, size_t min_len, size_t max_len);

class Drbg {
  public:
    // `cipher` is unkeyed; it stays the DRBG's own (keyed with the state's Key).
    Drbg(std::unique_ptr<BlockCipher> cipher, bool use_df);
    ~Drbg() { uninstantiate(); }
    Drbg(const Drbg &) = delete;
    Drbg &operator=(const Drbg &) = delete;

    const Limits &limits() const { return lim_; }
    bool use_df() const { return df_; }
    bool instantiated() const { return inst_; }
    uint64_t reseed_counter() const { return counter_; }
    const BlockCipher &cipher() const { return *cipher_; }

    // fn == nullptr: no source. Reseeds that the interval or prediction resistance calls for
    // then fail with KCIPHER_ERR_DRBG_RESEED_REQUIRED (a caller-seeded, reproducible DRBG).
    void set_entropy_source(EntropyFn fn, void *user) { src_ = fn, src_user_ = user; }
    kcipher_status set_reseed_interval(uint64_t requests); // 1 .. max_reseed_interval

    // entropy == nullptr: from the entropy source (and, with df, the nonce too when empty).
    kcipher_status instantiate(const Span *entropy, Span nonce, Span personalization);
    kcipher_status reseed(const Span *entropy, Span additional);
    // One request of at most max_request_bytes (9.3.1 then 10.2.1.5).
    kcipher_status generate(uint8_t *out, size_t len, Span additional, bool prediction_resistance);
    void uninstantiate(); // wipes Key, V and every keyed cipher

    // In a child after fork() (fork_guard.hpp): reseed from the source before any output, or
    // KCIPHER_ERR_DRBG_RESEED_REQUIRED without one (the caller then reseeds explicitly).
    // begin_request calls it; so does every output path that does not pass through it.
    kcipher_status reseed_if_forked();

    // ---- For the throughput layer (chain.cpp, burst.cpp, drbg_multi.cpp), not part of the
    // standard's interface: each leaves the state where the standard's steps would have.

    // The request's steps, split so that the chain (chain.cpp) can run all of a request
    // except its output blocks. begin_request reseeds if needed and mixes in the additional
    // input; `provided` (seed_bytes) receives what end_request must Update with.
    kcipher_status begin_request(size_t len, Span additional, bool prediction_resistance, uint8_t *provided);
    void first_counter(uint8_t *ctr) const; // V + 1: the counter of the first output block (ctr_drbg_state.cpp)
    const uint8_t *key() const { return key_; }
    kcipher_status end_request(size_t len, const uint8_t *provided);

    // For runs of max-size requests computed outside (burst.hpp): V, and the state after
    // `requests` more requests without additional input, whose last Update gave key and v.
    // False when out of memory (the DRBG is then uninstantiated).
    const uint8_t *v() const { return v_; }
    bool finish_requests(const uint8_t *key, const uint8_t *v, uint64_t requests);

    // The working state (Key, V, reseed counter) of an instantiated DRBG, for the many-
    // instance mode (drbg_multi.*), which keeps N states in arrays and loads one into a
    // worker Drbg to reseed it. The bytes are secret: callers wipe their copies.
    struct State {
        uint8_t key[32];
        uint8_t v[16];
        uint64_t counter; // 0: not instantiated
    };
    void save_state(State &s) const;
    // Takes the state over (uninstantiated when s.counter == 0); false when out of memory
    // (the DRBG is then uninstantiated).
    bool load_state(const State &s);
    uint64_t reseed_interval() const { return interval_; }

    // Tests only: reach the reseed interval without 2^48 requests.
    void set_reseed_counter_for_test(uint64_t c) { counter_ = c; }

  private:
    kcipher_status check_entropy(const Span &e) const;
    kcipher_status seed(Span entropy, Span nonce, Span extra, bool reseeding);
    kcipher_status reseed_from_source(Span additional);
    bool update(const uint8_t *provided, uint64_t used_blocks);

    std::unique_ptr<BlockCipher> cipher_;
    DerivationFunction df_fn_; // keyed with the df's fixed key on first use
    Limits lim_;
    bool df_;
    bool inst_ = false;
    uint8_t key_[32] = {0}, v_[16] = {0};
    uint64_t counter_ = 0, interval_;
    uint64_t fork_gen_ = 0; // fork_generation() when last seeded or loaded
    EntropyFn src_ = entropy_getrandom;
    void *src_user_ = nullptr;
};

} // namespace kc::drbg
