#include "drbg/burst.hpp"

#include <cstring>
#include <new>
#include <vector>

#include "core/counter.hpp"
#include "core/key_state.hpp"
#include "core/wipe.hpp"
#include "core/write_prefetch.hpp"
#include "drbg/kernel_cipher.hpp"

namespace kc::drbg {
namespace {

constexpr size_t keyed_call_blocks = 128; // waiting blocks per encrypt_blocks_keyed call
constexpr size_t min_requests = 8;       // below this a burst's start costs more than it gains

// memcpy of the burst's few sizes (key, block, seed material), with the size a constant so
// that the compiler inlines it: calls to memcpy showed in profiles.
inline void copy_small(uint8_t *dst, const uint8_t *src, size_t n)
{
    switch (n) {
    case 8: std::memcpy(dst, src, 8); break;
    case 16: std::memcpy(dst, src, 16); break;
    case 24: std::memcpy(dst, src, 24); break;
    case 32: std::memcpy(dst, src, 32); break;
    case 48: std::memcpy(dst, src, 48); break;
    default: std::memcpy(dst, src, n);
    }
}

// One burst over d's kernel: the key states, the waiting blocks and the running Key and V.
class Burst {
  public:
    Burst(const Drbg &d, const Accelerations &a)
        : a_(a), k_(*a.kernel), x_(*a.accel), c_(a.cipher), schedule_(a.encrypt_key()), lim_(d.limits()), bs_(lim_.block_bytes),
          kb_(lim_.key_bytes), req_(lim_.max_request_bytes), r_(req_ / bs_),
          u_((lim_.seed_bytes + bs_ - 1) / bs_),
          per_call_(keyed_call_blocks / u_ > 0 ? keyed_call_blocks / u_ : 1)
    {
        std::memcpy(key_, d.key(), kb_);
        std::memcpy(v_, d.v(), bs_);
    }
    Burst(const Burst &) = delete;
    Burst &operator=(const Burst &) = delete;
    ~Burst()
    {
        secure_wipe(key_, sizeof key_);
        secure_wipe(v_, sizeof v_);
        secure_wipe(prev_key_, sizeof prev_key_);
        secure_wipe(prev_v_, sizeof prev_v_);
        wipe(keys_);
        wipe(blocks_);
        wipe(scratch_);
    }

    // Every allocation of the burst, before any output: afterwards nothing can fail.
    bool prepare()
    {
        try {
            keys_.resize(per_call_ * u_ * kb_);
            blocks_.resize(per_call_ * u_ * bs_);
            scratch_.resize(r_ * bs_);
            dst_.resize(per_call_);
        } catch (const std::bad_alloc &) {
            return false;
        }
        return ks_[0].init(k_, c_, key_, schedule_) && ks_[1].init(k_, c_, key_, schedule_);
    }

    bool paired() const { return x_.keystream_pair != nullptr && 2 * x_.pair_bytes == req_; }

    void run(uint8_t *out, size_t n)
    {
        if (paired())
            run_paired(out, n);
        else
            run_plain(out, n);
        flush();
    }

    const uint8_t *key() const { return key_; }
    const uint8_t *v() const { return v_; }

  private:
    static void wipe(std::vector<uint8_t> &b)
    {
        if (!b.empty())
            secure_wipe(b.data(), b.size());
    }

    // The counter V + add.
    void counter(uint8_t *ctr, uint64_t add) const { counter_plus(ctr, v_, bs_, add); }

    // Key and V of the next request from the Update blocks at `update` (no additional input:
    // the seedlen bits themselves); the current ones are kept for the waiting blocks.
    void next_state(const uint8_t *update)
    {
        copy_small(prev_key_, key_, kb_);
        copy_small(prev_v_, v_, bs_);
        copy_small(key_, update, kb_);
        copy_small(v_, update + kb_, bs_);
    }

    // Request `dst`'s first u blocks, V + 1 .. V + u under Key (the previous request's, now
    // in prev_*), wait for one encrypt_blocks_keyed call.
    void defer(uint8_t *dst)
    {
        for (size_t j = 0; j < u_; j++) {
            const size_t lane = waiting_ * u_ + j;
            copy_small(&keys_[lane * kb_], prev_key_, kb_);
            counter_plus(&blocks_[lane * bs_], prev_v_, bs_, 1 + j);
        }
        dst_[waiting_++] = dst;
        if (waiting_ == per_call_)
            flush();
    }

    void flush()
    {
        if (waiting_ == 0)
            return;
        x_.encrypt_blocks_keyed(c_, keys_.data(), blocks_.data(), blocks_.data(), waiting_ * u_);
        for (size_t i = 0; i < waiting_; i++)
            copy_small(dst_[i], &blocks_[i * u_ * bs_], u_ * bs_);
        waiting_ = 0;
    }

    // Each request in one run of R blocks from V + u + 1: the last request's run goes to the
    // scratch block, so that its Update blocks do not land past the output.
    void run_plain(uint8_t *out, size_t n)
    {
        uint8_t ctr[16];
        for (size_t i = 0; i < n; i++) {
            uint8_t *dst = out + i * req_, *run = i + 1 < n ? dst + u_ * bs_ : scratch_.data();
            // Short requests (the 64-bit ciphers') are whole kernel calls, too short for the
            // kernels' own prefetch: here it runs two requests ahead. A long request is left to
            // the kernel; asking for all of it at once made CHAM-128's bursts slower (time
            // `kcipher bench --drbg --threads 1` with the prefetch for every request size).
            if (i + 2 < n && req_ <= write_prefetch_ahead)
                prefetch_for_write(dst + 2 * req_, req_);
            if (i > 0)
                ks_[0].schedule_over(k_, c_, key_, schedule_);
            counter(ctr, 1 + u_);
            kernel_keystream(a_, ks_[0].get(), bs_, ctr, run, r_);
            if (i + 1 == n)
                std::memcpy(dst + u_ * bs_, run, req_ - u_ * bs_);
            next_state(run + req_ - u_ * bs_);
            defer(dst);
        }
        secure_wipe(ctr, sizeof ctr);
    }

    // Each request's run in halves: L from V + u + 1 (output only), E after it (its last u
    // blocks the Update). E of request i runs beside L of request i - 1, under the previous
    // key state, so only E waits for the new key.
    void run_paired(uint8_t *out, size_t n)
    {
        const size_t half = r_ / 2;
        uint8_t ctr_e[16], ctr_l[16];
        auto e_out = [&](size_t i) { return i + 1 < n ? out + i * req_ + (u_ + half) * bs_ : scratch_.data(); };
        counter(ctr_e, 1 + u_ + half);
        kernel_keystream(a_, ks_[0].get(), bs_, ctr_e, e_out(0), half);
        for (size_t i = 1; i <= n; i++) {
            uint8_t *prev = out + (i - 1) * req_;
            counter(ctr_l, 1 + u_); // request i - 1's L, before V moves on
            if (i + 1 < n)
                prefetch_for_write(prev + 2 * req_, req_);
            next_state(e_out(i - 1) + (half - u_) * bs_);
            if (i < n) {
                ks_[i & 1].schedule_over(k_, c_, key_, schedule_);
                counter(ctr_e, 1 + u_ + half);
                x_.keystream_pair(ks_[i & 1].get(), ctr_e, e_out(i), ks_[(i - 1) & 1].get(), ctr_l,
                                  prev + u_ * bs_);
            } else {
                kernel_keystream(a_, ks_[(i - 1) & 1].get(), bs_, ctr_l, prev + u_ * bs_, half);
                std::memcpy(prev + (u_ + half) * bs_, scratch_.data(), (half - u_) * bs_);
            }
            defer(prev);
        }
        secure_wipe(ctr_e, sizeof ctr_e);
        secure_wipe(ctr_l, sizeof ctr_l);
    }

    const Accelerations &a_;
    const Kernel &k_;
    const DrbgAccel &x_; // the kernel's bursts: encrypt_blocks_keyed, keystream_pair
    const Cipher c_;
    const KeySchedule schedule_;
    const Limits &lim_;
    const size_t bs_, kb_, req_, r_, u_, per_call_;
    KeyState ks_[2]; // rekeyed in place: KeyState::schedule_over
    uint8_t key_[32] = {0}, v_[16] = {0}, prev_key_[32] = {0}, prev_v_[16] = {0};
    std::vector<uint8_t> keys_, blocks_, scratch_; // waiting blocks' keys and blocks; last run
    std::vector<uint8_t *> dst_;                   // where each waiting request's blocks go
    size_t waiting_ = 0;
};

} // namespace

size_t burst_requests(const Drbg &d, const Accelerations &a, size_t requests, bool prediction_resistance)
{
    if (!a.bursts() || prediction_resistance || !d.instantiated() || d.reseed_counter() > d.reseed_interval())
        return 0;
    const uint64_t room = d.reseed_interval() - d.reseed_counter() + 1; // requests before a reseed
    const size_t n = requests < room ? requests : (size_t)room;
    return n >= min_requests ? n : 0;
}

kcipher_status generate_burst(Drbg &d, const Accelerations &a, uint8_t *out, size_t requests)
{
    if (requests == 0 || burst_requests(d, a, requests, false) < requests)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    Burst b(d, a);
    if (!b.prepare())
        return KCIPHER_ERR_NO_MEMORY;
    b.run(out, requests);
    return d.finish_requests(b.key(), b.v(), requests) ? KCIPHER_OK : KCIPHER_ERR_NO_MEMORY;
}

} // namespace kc::drbg
