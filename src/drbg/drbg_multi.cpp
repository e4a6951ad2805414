#include "drbg/drbg_multi.hpp"
#include "drbg/fork_guard.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <thread>

#include "core/wipe.hpp"
#include "drbg/kernel_cipher.hpp"
#include "modes/parallel.hpp"

namespace kc::drbg {

namespace {

// Below this many instances a step stays on the calling thread.
constexpr size_t parallel_min_instances = 64;

// fn(first, end, worker) over [0, n) in `threads` contiguous parts, worker w on part w; the
// first failure (an exception is KCIPHER_ERR_NO_MEMORY).
template <class Fn> kcipher_status for_parts(size_t n, unsigned threads, Fn fn)
{
    auto guarded = [&fn](size_t a, size_t b, unsigned w) {
        try {
            return fn(a, b, w);
        } catch (const std::exception &) {
            return KCIPHER_ERR_NO_MEMORY;
        }
    };
    size_t parts = std::min<size_t>(threads, n);
    if (parts <= 1)
        return guarded(0, n, 0);
    std::vector<kcipher_status> st(parts, KCIPHER_ERR_NO_MEMORY);
    std::vector<std::thread> pool;
    try {
        pool.reserve(parts - 1);
        for (size_t w = 1; w < parts; w++)
            pool.emplace_back([&, w] { st[w] = guarded(n * w / parts, n * (w + 1) / parts, (unsigned)w); });
    } catch (const std::exception &) { // the parts not started stay failed
    }
    st[0] = guarded(0, n / parts, 0);
    for (std::thread &t : pool)
        t.join();
    for (kcipher_status s : st)
        if (s != KCIPHER_OK)
            return s;
    return KCIPHER_OK;
}

// Takes exactly `len` bytes from the source (Get_entropy_input with min = max = len).
bool take(EntropyFn src, void *user, uint8_t *buf, size_t len)
{
    return len == 0 || src(user, buf, len, len) == len;
}

} // namespace

// The reseeds of one generate call, found by replaying the reseed rule of begin_request on
// each instance's counter, with their entropy already taken: instance i's reseeds are
// recs[first[i] .. first[i+1]), in round order.
struct Multi::Reseeds {
    struct Rec {
        size_t round, at, n; // entropy: bytes[at .. at+n)
    };
    std::vector<uint8_t> bytes;
    std::vector<Rec> recs;
    std::vector<size_t> first; // empty: no reseed in this call

    const Rec *find(size_t i, size_t round) const
    {
        if (first.empty())
            return nullptr;
        auto b = recs.begin() + (ptrdiff_t)first[i], e = recs.begin() + (ptrdiff_t)first[i + 1];
        auto it = std::lower_bound(b, e, round, [](const Rec &r, size_t x) { return r.round < x; });
        return it != e && it->round == round ? &*it : nullptr;
    }
    ~Reseeds()
    {
        if (!bytes.empty())
            secure_wipe(bytes.data(), bytes.size());
    }
};

Multi::Multi(const Kernel &cpu, const Kernel *gpu, Cipher c, bool df)
    : cpu_(cpu), gpu_(gpu), c_(c), df_(df),
      lim_(limits_for(cipher_desc(c).block_bytes, cipher_desc(c).key_bytes)), interval_(lim_.max_reseed_interval)
{
}

Multi::~Multi()
{
    uninstantiate();
    free_gpu_workspace(ws_);
}

kcipher_status Multi::init(size_t count)
{
    try {
        states_.assign(count, Drbg::State{});
    } catch (const std::exception &) {
        return KCIPHER_ERR_NO_MEMORY;
    }
    return KCIPHER_OK;
}

kcipher_status Multi::set_reseed_interval(uint64_t requests)
{
    if (requests == 0 || requests > lim_.max_reseed_interval)
        return KCIPHER_ERR_INVALID_ARGUMENT;
    interval_ = requests;
    return KCIPHER_OK;
}

kcipher_status Multi::ensure_workers(size_t n)
{
    try {
        while (workers_.size() < n) {
            std::unique_ptr<BlockCipher> c(new (std::nothrow) KernelCipher(cpu_, c_));
            if (!c)
                return KCIPHER_ERR_NO_MEMORY;
            std::unique_ptr<Drbg> d(new (std::nothrow) Drbg(std::move(c), df_));
            if (!d)
                return KCIPHER_ERR_NO_MEMORY;
            d->set_entropy_source(nullptr, nullptr); // entropy comes only as arguments
            workers_.push_back(std::move(d));
        }
    } catch (const std::exception &) {
        return KCIPHER_ERR_NO_MEMORY;
    }
    return KCIPHER_OK;
}

void Multi::release_workers()
{
    for (auto &w : workers_)
        w->uninstantiate();
}

void Multi::uninstantiate()
{
    if (!states_.empty())
        secure_wipe(states_.data(), states_.size() * sizeof(Drbg::State));
    release_workers();
    inst_ = false;
}

kcipher_status Multi::instantiate(const uint8_t *entropy, size_t entropy_len, const uint8_t *nonce, size_t nonce_len,
                                  const uint8_t *pers, size_t pers_len)
{
    uninstantiate();
    const size_t n = states_.size();
    // The checks of Drbg::seed, once for all instances, before any entropy is taken.
    if (entropy != nullptr &&
        (df_ ? entropy_len < lim_.security_bytes || entropy_len > max_input_bytes : entropy_len != lim_.seed_bytes))
        return KCIPHER_ERR_DRBG_ENTROPY_LENGTH;
    if (pers_len > (df_ ? max_input_bytes : lim_.seed_bytes) || (df_ && nonce_len > max_input_bytes))
        return KCIPHER_ERR_DRBG_INPUT_LENGTH;

    // From the source: entropy, then (with df and no nonce given) a nonce of half the
    // security strength, instance after instance, as Drbg::instantiate takes them.
    const size_t want = df_ ? lim_.security_bytes : lim_.seed_bytes;
    const size_t own_nonce = entropy == nullptr && df_ && nonce_len == 0 ? lim_.security_bytes / 2 : 0;
    std::vector<uint8_t> taken;
    WipeOnExit wipe(taken);
    if (entropy == nullptr) {
        if (src_ == nullptr)
            return KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
        try {
            taken.resize(n * (want + own_nonce));
        } catch (const std::exception &) {
            return KCIPHER_ERR_NO_MEMORY;
        }
        for (size_t i = 0; i < n; i++) {
            uint8_t *e = taken.data() + i * (want + own_nonce);
            if (!take(src_, src_user_, e, want) || !take(src_, src_user_, e + want, own_nonce))
                return KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
        }
    }
    const unsigned threads = n < parallel_min_instances ? 1u : resolve_threads(threads_);
    kcipher_status st = ensure_workers(std::min<size_t>(threads, n));
    if (st == KCIPHER_OK)
        st = for_parts(n, threads, [&](size_t a, size_t b, unsigned w) {
            Drbg &d = *workers_[w];
            for (size_t i = a; i < b; i++) {
                Span e = entropy != nullptr ? Span{entropy + i * entropy_len, entropy_len}
                                            : Span{taken.data() + i * (want + own_nonce), want};
                Span no = own_nonce != 0 ? Span{taken.data() + i * (want + own_nonce) + want, own_nonce}
                                         : Span{nonce != nullptr ? nonce + i * nonce_len : nullptr, nonce_len};
                Span ps{pers != nullptr ? pers + i * pers_len : nullptr, pers_len};
                kcipher_status s = d.instantiate(&e, no, ps);
                if (s != KCIPHER_OK)
                    return s;
                d.save_state(states_[i]);
            }
            return KCIPHER_OK;
        });
    release_workers();
    if (st != KCIPHER_OK) {
        uninstantiate();
        return st;
    }
    inst_ = true;
    fork_gen_ = fork_generation();
    return KCIPHER_OK;
}

kcipher_status Multi::reseed(const uint8_t *entropy, size_t entropy_len, const uint8_t *additional,
                             size_t additional_len)
{
    if (!inst_)
        return KCIPHER_ERR_DRBG_NOT_INSTANTIATED;
    const size_t n = states_.size();
    if (entropy != nullptr &&
        (df_ ? entropy_len < lim_.security_bytes || entropy_len > max_input_bytes : entropy_len != lim_.seed_bytes))
        return KCIPHER_ERR_DRBG_ENTROPY_LENGTH;
    if (additional_len > (df_ ? max_input_bytes : lim_.seed_bytes))
        return KCIPHER_ERR_DRBG_INPUT_LENGTH;
    // From the source as Drbg::reseed takes it: between the minimum and (with df) 128 bytes.
    constexpr size_t cap = 128;
    const size_t min = df_ ? lim_.security_bytes : lim_.seed_bytes, max = df_ ? cap : lim_.seed_bytes;
    std::vector<uint8_t> taken;
    std::vector<size_t> got;
    WipeOnExit wipe(taken);
    if (entropy == nullptr) {
        if (src_ == nullptr)
            return KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
        try {
            taken.resize(n * cap);
            got.resize(n);
        } catch (const std::exception &) {
            return KCIPHER_ERR_NO_MEMORY;
        }
        for (size_t i = 0; i < n; i++) {
            got[i] = src_(src_user_, taken.data() + i * cap, min, max);
            if (got[i] < min || got[i] > max)
                return KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
        }
    }
    const unsigned threads = n < parallel_min_instances ? 1u : resolve_threads(threads_);
    kcipher_status st = ensure_workers(std::min<size_t>(threads, n));
    if (st == KCIPHER_OK)
        st = for_parts(n, threads, [&](size_t a, size_t b, unsigned w) {
            Drbg &d = *workers_[w];
            for (size_t i = a; i < b; i++) {
                Span e = entropy != nullptr ? Span{entropy + i * entropy_len, entropy_len}
                                            : Span{taken.data() + i * cap, got[i]};
                Span ad{additional != nullptr ? additional + i * additional_len : nullptr, additional_len};
                if (!d.load_state(states_[i]))
                    return KCIPHER_ERR_NO_MEMORY;
                kcipher_status s = d.reseed(&e, ad);
                if (s != KCIPHER_OK)
                    return s;
                d.save_state(states_[i]);
            }
            return KCIPHER_OK;
        });
    release_workers();
    if (st != KCIPHER_OK)
        uninstantiate(); // some instances reseeded, others not: none is left half-known
    else
        fork_gen_ = fork_generation();
    return st;
}

kcipher_status Multi::reseed_if_forked()
{
    if (fork_gen_ == fork_generation())
        return KCIPHER_OK;
    return src_ == nullptr ? KCIPHER_ERR_DRBG_RESEED_REQUIRED : reseed(nullptr, 0, nullptr, 0);
}

// Replays begin_request's rule (reseed when prediction resistance asks or the counter is
// past the interval) over the call's rounds, taking each reseed's entropy from the source as
// Drbg::reseed_from_source does, instance after instance.
kcipher_status Multi::plan_reseeds(size_t rounds, bool pr, Reseeds &plan) const
{
    const size_t n = states_.size();
    bool any = pr;
    for (size_t i = 0; i < n && !any; i++)
        any = states_[i].counter + rounds - 1 > interval_;
    if (!any)
        return KCIPHER_OK;
    if (src_ == nullptr)
        return KCIPHER_ERR_DRBG_RESEED_REQUIRED;
    constexpr size_t cap = 128;
    const size_t min = df_ ? lim_.security_bytes : lim_.seed_bytes, max = df_ ? cap : lim_.seed_bytes;
    uint8_t e[cap];
    try {
        plan.first.assign(n + 1, 0);
        for (size_t i = 0; i < n; i++) {
            plan.first[i] = plan.recs.size();
            uint64_t c = states_[i].counter;
            for (size_t r = 0; r < rounds; r++, c++) {
                if (!pr && c <= interval_)
                    continue;
                size_t got = src_(src_user_, e, min, max);
                if (got < min || got > max) {
                    secure_wipe(e, sizeof e);
                    return KCIPHER_ERR_DRBG_ENTROPY_SOURCE;
                }
                plan.recs.push_back({r, plan.bytes.size(), got});
                plan.bytes.insert(plan.bytes.end(), e, e + got);
                c = 1;
            }
        }
        plan.first[n] = plan.recs.size();
    } catch (const std::exception &) {
        secure_wipe(e, sizeof e);
        return KCIPHER_ERR_NO_MEMORY;
    }
    secure_wipe(e, sizeof e);
    return KCIPHER_OK;
}

kcipher_status Multi::generate_cpu(uint8_t *out, size_t len, bool pr, const Reseeds &plan)
{
    const size_t n = states_.size(), req = lim_.max_request_bytes;
    const unsigned threads =
        n < 2 || n * len < parallel_min_bytes ? 1u : (unsigned)std::min<size_t>(resolve_threads(threads_), n);
    kcipher_status st = ensure_workers(threads);
    if (st != KCIPHER_OK)
        return st;
    return for_parts(n, threads, [&](size_t a, size_t b, unsigned w) {
        Drbg &d = *workers_[w];
        for (size_t i = a; i < b; i++) {
            if (!d.load_state(states_[i]))
                return KCIPHER_ERR_NO_MEMORY;
            for (size_t r = 0, done = 0; done < len; r++, done += req) {
                if (pr || d.reseed_counter() > interval_) {
                    const Reseeds::Rec *rec = plan.find(i, r);
                    if (rec == nullptr)
                        return KCIPHER_ERR_INTERNAL;
                    Span e{plan.bytes.data() + rec->at, rec->n};
                    kcipher_status s = d.reseed(&e, {});
                    if (s != KCIPHER_OK)
                        return s;
                }
                kcipher_status s = d.generate(out + i * len + done, std::min(req, len - done), {}, false);
                if (s != KCIPHER_OK)
                    return s;
            }
            d.save_state(states_[i]);
        }
        return KCIPHER_OK;
    });
}

kcipher_status Multi::generate(uint8_t *out, size_t len, bool pr, bool on_device, void *stream, int device)
{
    if (!inst_)
        return KCIPHER_ERR_DRBG_NOT_INSTANTIATED;
    if (len == 0)
        return KCIPHER_OK; // no request
    if (kcipher_status st = reseed_if_forked(); st != KCIPHER_OK)
        return st;
    const size_t rounds = (len + lim_.max_request_bytes - 1) / lim_.max_request_bytes;
    Reseeds plan;
    kcipher_status st = plan_reseeds(rounds, pr, plan);
    if (st != KCIPHER_OK)
        return st; // nothing changed
    if (gpu_ == nullptr) {
        st = generate_cpu(out, len, pr, plan);
    } else {
        const unsigned workers = gpu_key_threads(threads_);
        st = ensure_workers(workers);
        if (st == KCIPHER_OK) {
            MultiJob job{states_.data(), states_.size(), len, lim_, workers, nullptr};
            job.before = [&](size_t i, size_t round, unsigned w) {
                Drbg::State &s = states_[i];
                if (!pr && s.counter <= interval_)
                    return KCIPHER_OK;
                const Reseeds::Rec *rec = plan.find(i, round);
                if (rec == nullptr)
                    return KCIPHER_ERR_INTERNAL;
                Drbg &d = *workers_[w];
                if (!d.load_state(s))
                    return KCIPHER_ERR_NO_MEMORY;
                Span e{plan.bytes.data() + rec->at, rec->n};
                kcipher_status r = d.reseed(&e, {});
                if (r == KCIPHER_OK)
                    d.save_state(s);
                return r; // the worker's copy is wiped at the end of the call
            };
            GpuOutput o{out, on_device, stream, on_device ? device : (gpu_device_ < 0 ? 0 : gpu_device_), threads_};
            st = multi_generate_gpu(*gpu_, c_, ws_, o, job);
        }
    }
    release_workers();
    if (st != KCIPHER_OK)
        uninstantiate(); // states may have moved without their output: start afresh
    return st;
}

} // namespace kc::drbg
