// CTR_DRBG, SP 800-90A rev. 1 section 10.2.1 (section numbers are the standard's): Update,
// Instantiate, Reseed, Generate and Uninstantiate over the BlockCipher interface, with the
// derivation function of derivation.cpp. The throughput layer's access to the working state
// is in ctr_drbg_state.cpp.
#include "drbg/ctr_drbg.hpp"

#include <cstring>
#include <new>

#include "core/counter.hpp"
#include "core/wipe.hpp"
#include "drbg/fork_guard.hpp"

namespace kc::drbg {

Limits limits_for(size_t block_bytes, size_t key_bytes)
{
    const bool wide = block_bytes >= 16;
    return {block_bytes,
            key_bytes,
            key_bytes + block_bytes,
            key_bytes,
            wide ? (size_t(1) << 19) / 8 : (size_t(1) << 13) / 8,
            wide ? uint64_t(1) << 48 : uint64_t(1) << 32};
}

Drbg::Drbg(std::unique_ptr<BlockCipher> cipher, bool use_df)
    : cipher_(std::move(cipher)), lim_(limits_for(cipher_->block_bytes(), cipher_->key_bytes())), df_(use_df),
      interval_(lim_.max_reseed_interval)
{
}

kcipher_status Drbg::set_reseed_interval(uint64_t requests)
{
    if (requests == 0 || requests > lim_.max_reseed_interval)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    interval_ = requests;
    return KCIPHER_OK;
}

// CTR_DRBG_Update (10.2.1.2), after `used_blocks` output blocks have advanced V: the next
// seedlen bits of keystream, XOR provided_data, become the new Key || V.
bool Drbg::update(const uint8_t *provided, uint64_t used_blocks)
{
    const size_t bs = lim_.block_bytes, n = (lim_.seed_bytes + bs - 1) / bs;
    uint8_t ctr[16], temp[64];
    std::memcpy(ctr, v_, bs);
    counter_add(ctr, bs, used_blocks + 1);
    cipher_->keystream(ctr, temp, n);
    for (size_t i = 0; i < lim_.seed_bytes; i++)
        temp[i] ^= provided[i];
    std::memcpy(key_, temp, lim_.key_bytes);
    std::memcpy(v_, temp + lim_.key_bytes, bs);
    secure_wipe(temp, sizeof temp);
    secure_wipe(ctr, sizeof ctr);
    return cipher_->set_key(key_);
}

kcipher_status Drbg::check_entropy(const Span &e) const
{
    if (df_ ? e.n < lim_.security_bytes || e.n > max_input_bytes : e.n != lim_.seed_bytes)
        return KCIPHER_ERR_DRBG_ENTROPY_LENGTH;
    return KCIPHER_OK;
}

// Instantiate (10.2.1.3) when !reseeding, else Reseed (10.2.1.4): seed_material is
// df(entropy || nonce || extra) with df, entropy XOR extra (zero-padded) without.
kcipher_status Drbg::seed(Span entropy, Span nonce, Span extra, bool reseeding)
{
    kcipher_status st = check_entropy(entropy);
    if (st != KCIPHER_OK)
        return st;
    size_t limit = df_ ? max_input_bytes : lim_.seed_bytes;
    if (extra.n > limit || (df_ && nonce.n > max_input_bytes))
        return KCIPHER_ERR_DRBG_INPUT_LENGTH;
    if (df_ && !df_fn_.ready() && !df_fn_.init(*cipher_))
        return KCIPHER_ERR_NO_MEMORY;

    uint8_t material[64] = {0};
    if (df_) {
        if (!df_fn_.derive(entropy, nonce, extra, material, lim_.seed_bytes))
            return KCIPHER_ERR_NO_MEMORY;
    } else {
        for (size_t i = 0; i < lim_.seed_bytes; i++)
            material[i] = entropy.p[i] ^ (i < extra.n ? extra.p[i] : 0);
    }
    if (!reseeding) {
        std::memset(key_, 0, sizeof key_);
        std::memset(v_, 0, sizeof v_);
        if (!cipher_->set_key(key_))
            return KCIPHER_ERR_NO_MEMORY;
    }
    bool ok = update(material, 0);
    secure_wipe(material, sizeof material);
    if (!ok) {
        uninstantiate();
        return KCIPHER_ERR_NO_MEMORY;
    }
    counter_ = 1;
    inst_ = true;
    fork_gen_ = fork_generation();
    return KCIPHER_OK;
}

kcipher_status Drbg::instantiate(const Span *entropy, Span nonce, Span personalization)
{
    uninstantiate();
    if (entropy != nullptr)
        return seed(*entropy, nonce, personalization, false);
    if (src_ == nullptr)
        return KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
    // Get_entropy_input, plus (8.6.7) a nonce of half the security strength from the same
    // source where the caller gave none.
    uint8_t e[64 + 32], *nb = e + 64;
    size_t want = df_ ? lim_.security_bytes : lim_.seed_bytes;
    size_t got = src_(src_user_, e, want, want);
    size_t nonce_len = df_ && nonce.n == 0 ? lim_.security_bytes / 2 : 0;
    if (got != want || (nonce_len != 0 && src_(src_user_, nb, nonce_len, nonce_len) != nonce_len)) {
        secure_wipe(e, sizeof e);
        return KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
    }
    kcipher_status st = seed({e, got}, nonce_len != 0 ? Span{nb, nonce_len} : nonce, personalization, false);
    secure_wipe(e, sizeof e);
    return st;
}

kcipher_status Drbg::reseed_from_source(Span additional)
{
    if (src_ == nullptr)
        return KCIPHER_ERR_DRBG_RESEED_REQUIRED;
    // With df a source may give more than the minimum (KISA's HIGHT vectors reseed with 192
    // bits at a 128-bit strength); the buffer bounds it.
    uint8_t e[128];
    size_t min = df_ ? lim_.security_bytes : lim_.seed_bytes, max = df_ ? sizeof e : lim_.seed_bytes;
    size_t got = src_(src_user_, e, min, max);
    kcipher_status st = got < min || got > max ? KCIPHER_ERR_DRBG_ENTROPY_SOURCE : seed({e, got}, {}, additional, true);
    secure_wipe(e, sizeof e);
    return st;
}

kcipher_status Drbg::reseed_if_forked()
{
    if (!inst_ || fork_gen_ == fork_generation())
        return KCIPHER_OK;
    return reseed_from_source({});
}

kcipher_status Drbg::reseed(const Span *entropy, Span additional)
{
    if (!inst_)
        return KCIPHER_ERR_DRBG_NOT_INSTANTIATED;
    if (entropy == nullptr)
        return src_ == nullptr ? KCIPHER_ERR_DRBG_ENTROPY_SOURCE : reseed_from_source(additional);
    return seed(*entropy, {}, additional, true);
}

// 9.3.1 steps 7-9 (reseed when asked or due, then drop the additional input) and
// 10.2.1.5 steps 1-2 (the additional input enters the state before the output).
kcipher_status Drbg::begin_request(size_t len, Span additional, bool prediction_resistance, uint8_t *provided)
{
    if (!inst_)
        return KCIPHER_ERR_DRBG_NOT_INSTANTIATED;
    if (len > lim_.max_request_bytes)
        return KCIPHER_ERR_DRBG_REQUEST_TOO_LARGE;
    if (additional.n > (df_ ? max_input_bytes : lim_.seed_bytes))
        return KCIPHER_ERR_DRBG_INPUT_LENGTH;
    if (kcipher_status st = reseed_if_forked(); st != KCIPHER_OK)
        return st;
    if (prediction_resistance || counter_ > interval_) {
        kcipher_status st = reseed_from_source(additional);
        if (st != KCIPHER_OK)
            return st;
        additional = {};
    }
    std::memset(provided, 0, lim_.seed_bytes);
    if (additional.n == 0)
        return KCIPHER_OK;
    if (df_) {
        if (!df_fn_.ready() && !df_fn_.init(*cipher_))
            return KCIPHER_ERR_NO_MEMORY;
        if (!df_fn_.derive(additional, {}, {}, provided, lim_.seed_bytes))
            return KCIPHER_ERR_NO_MEMORY;
    } else {
        std::memcpy(provided, additional.p, additional.n);
    }
    if (!update(provided, 0)) {
        uninstantiate();
        return KCIPHER_ERR_NO_MEMORY;
    }
    return KCIPHER_OK;
}

// 10.2.1.5 steps 6-7: Update with the same additional input, count the request.
kcipher_status Drbg::end_request(size_t len, const uint8_t *provided)
{
    const size_t bs = lim_.block_bytes;
    if (!update(provided, (len + bs - 1) / bs)) {
        uninstantiate();
        return KCIPHER_ERR_NO_MEMORY;
    }
    counter_++;
    return KCIPHER_OK;
}

kcipher_status Drbg::generate(uint8_t *out, size_t len, Span additional, bool prediction_resistance)
{
    uint8_t provided[64];
    kcipher_status st = begin_request(len, additional, prediction_resistance, provided);
    if (st == KCIPHER_OK) {
        uint8_t ctr[16];
        first_counter(ctr);
        keystream_bytes(*cipher_, ctr, out, len);
        secure_wipe(ctr, sizeof ctr);
        st = end_request(len, provided);
    }
    secure_wipe(provided, sizeof provided);
    return st;
}

void Drbg::uninstantiate()
{
    secure_wipe(key_, sizeof key_);
    secure_wipe(v_, sizeof v_);
    counter_ = 0;
    inst_ = false;
    // Rekeying with zeros overwrites the state cipher's round keys; the df's derived key
    // goes with its instance (the folded constants hold nothing secret).
    if (cipher_)
        cipher_->set_key(key_);
    df_fn_ = DerivationFunction();
}

} // namespace kc::drbg
