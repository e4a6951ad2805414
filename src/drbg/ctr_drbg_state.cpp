// The working state (Key, V, reseed counter) as the throughput layer reads and sets it
// (chain.cpp, burst.cpp, drbg_multi.cpp): outside the standard's interface, each leaves the
// state where the standard's own steps would have.
#include <cstring>

#include "core/counter.hpp"
#include "drbg/ctr_drbg.hpp"
#include "drbg/fork_guard.hpp"

namespace kc::drbg {

void Drbg::first_counter(uint8_t *ctr) const
{
    std::memcpy(ctr, v_, lim_.block_bytes);
    counter_increment(ctr, lim_.block_bytes);
}

bool Drbg::finish_requests(const uint8_t *key, const uint8_t *v, uint64_t requests)
{
    std::memcpy(key_, key, lim_.key_bytes);
    std::memcpy(v_, v, lim_.block_bytes);
    counter_ += requests;
    if (!cipher_->set_key(key_)) {
        uninstantiate();
        return false;
    }
    return true;
}

void Drbg::save_state(State &s) const
{
    std::memcpy(s.key, key_, sizeof s.key);
    std::memcpy(s.v, v_, sizeof s.v);
    s.counter = inst_ ? counter_ : 0;
}

bool Drbg::load_state(const State &s)
{
    if (s.counter == 0) {
        uninstantiate();
        return true;
    }
    std::memcpy(key_, s.key, sizeof key_);
    std::memcpy(v_, s.v, sizeof v_);
    counter_ = s.counter;
    inst_ = true;
    fork_gen_ = fork_generation(); // the owner of the state checked for a fork
    if (!cipher_->set_key(key_)) {
        uninstantiate();
        return false;
    }
    return true;
}

} // namespace kc::drbg
