#include "bench_ct.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>

#include <fmt/core.h>

#include "core/key_state.hpp"
#include "dispatch/registry.hpp"

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace lab {

namespace {

uint64_t ticks()
{
#if defined(__x86_64__)
    unsigned aux;
    return __rdtscp(&aux);
#else
    return (uint64_t)std::chrono::steady_clock::now().time_since_epoch().count();
#endif
}

// Welch's t statistic of two samples.
double welch_t(const std::vector<double> &a, const std::vector<double> &b)
{
    auto moments = [](const std::vector<double> &v, double *mean, double *var) {
        double m = 0, s = 0;
        for (double x : v)
            m += x;
        m /= (double)v.size();
        for (double x : v)
            s += (x - m) * (x - m);
        *mean = m;
        *var = s / (double)(v.size() - 1);
    };
    if (a.size() < 2 || b.size() < 2)
        return 0;
    double ma, va, mb, vb;
    moments(a, &ma, &va);
    moments(b, &mb, &vb);
    double den = std::sqrt(va / (double)a.size() + vb / (double)b.size());
    return den > 0 ? (ma - mb) / den : 0;
}

// The largest |t| over the uncropped samples and the samples cropped at several
// percentiles of the pooled distribution (cropping removes interrupts and other noise
// that hides small differences, as dudect does).
double max_abs_t(const std::vector<double> &t0, const std::vector<double> &t1)
{
    std::vector<double> all(t0);
    all.insert(all.end(), t1.begin(), t1.end());
    std::sort(all.begin(), all.end());
    double best = 0;
    for (double pct : {1.0, 0.99, 0.95, 0.9, 0.75, 0.5}) {
        double cut = all[std::min(all.size() - 1, (size_t)(pct * (double)(all.size() - 1)))];
        std::vector<double> a, b;
        for (double x : t0)
            if (x <= cut)
                a.push_back(x);
        for (double x : t1)
            if (x <= cut)
                b.push_back(x);
        best = std::max(best, std::fabs(welch_t(a, b)));
    }
    return best;
}

// Times `samples` encryptions of one batch, the class of each (fixed or random data, or
// fixed or random key) drawn at random. As in dudect, every input of a round is prepared
// before the round is timed, so that preparing a random input (which touches caches and
// predictors) is not itself measured as a difference between the classes.
double measure(const kc::Kernel &k, const kc::CipherDesc &d, bool secret_is_key, size_t samples)
{
    std::mt19937_64 g(12345);
    const size_t len = std::max<size_t>(k.batch_blocks, 1) * d.block_bytes, round = 512;
    std::vector<uint8_t> data(round * len), keys(round * d.key_bytes), out(len);
    std::vector<int> cls(round);
    kc::KeyState ks;
    if (!ks.init(k, d.id, keys.data()))
        throw std::runtime_error("out of memory");
    void *state = const_cast<void *>(ks.get());
    std::vector<double> t0, t1;
    for (size_t done = 0, warm = samples / 10; done < samples + warm; done += round) {
        for (size_t i = 0; i < round; i++) {
            cls[i] = (int)(g() & 1);
            bool random_secret = cls[i] == 1;
            for (size_t j = 0; j < len; j++)
                data[i * len + j] = (!secret_is_key && !random_secret) ? 0 : (uint8_t)g();
            for (size_t j = 0; j < d.key_bytes; j++)
                keys[i * d.key_bytes + j] = (secret_is_key && !random_secret) ? 0 : (uint8_t)g();
        }
        if (!secret_is_key)
            k.set_key(state, d.id, keys.data());
        for (size_t i = 0; i < round; i++) {
            uint64_t t = ticks();
            if (secret_is_key)
                k.set_key(state, d.id, keys.data() + i * d.key_bytes);
            k.encrypt_blocks(state, data.data() + i * len, out.data(), len / d.block_bytes);
            uint64_t dt = ticks() - t;
            if (done >= warm)
                (cls[i] ? t1 : t0).push_back((double)dt);
        }
    }
    return max_abs_t(t0, t1);
}

// The same for one of the CTR_DRBG chain's fused block functions (src/kit/fused_ecb.hpp),
// on an Update's worth of blocks: they take the raw key, so a key class costs no set_key.
double measure_fused(kc::FusedEcb f, const kc::CipherDesc &d, bool secret_is_key, size_t samples)
{
    std::mt19937_64 g(54321);
    const size_t n = (d.key_bytes + 2 * d.block_bytes - 1) / d.block_bytes, len = n * d.block_bytes, round = 512;
    std::vector<uint8_t> data(round * len), keys(round * d.key_bytes), out(len);
    std::vector<int> cls(round);
    std::vector<double> t0, t1;
    for (size_t done = 0, warm = samples / 10; done < samples + warm; done += round) {
        for (size_t i = 0; i < round; i++) {
            cls[i] = (int)(g() & 1);
            const bool random_secret = cls[i] == 1;
            for (size_t j = 0; j < len; j++)
                data[i * len + j] = (!secret_is_key && !random_secret) ? 0 : (uint8_t)g();
            for (size_t j = 0; j < d.key_bytes; j++)
                keys[i * d.key_bytes + j] = (secret_is_key && !random_secret) ? 0 : (uint8_t)g();
        }
        for (size_t i = 0; i < round; i++) {
            const uint8_t *key = secret_is_key ? keys.data() + i * d.key_bytes : keys.data();
            uint64_t t = ticks();
            f(d.id, key, data.data() + i * len, out.data(), n);
            uint64_t dt = ticks() - t;
            if (done >= warm)
                (cls[i] ? t1 : t0).push_back((double)dt);
        }
    }
    return max_abs_t(t0, t1);
}

} // namespace

std::vector<CtResult> run_ct_checks(const std::vector<std::string> &kernels, size_t samples)
{
    std::vector<CtResult> out;
    bool all = kernels.size() == 1 && kernels[0] == "all";
    for (const kc::Kernel *k : kc::all_kernels()) {
        if (!all && std::find(kernels.begin(), kernels.end(), k->name) == kernels.end())
            continue;
        if (k->gpu != nullptr) // GPU kernels: not a CPU timing question
            continue;
        if (!kc::kernel_runnable(*k)) {
            if (!all) // asked for by name: say why it is missing from the report
                fmt::print(stderr, "kcipher-lab --ct-check: skipped {} (needs {}, which this machine lacks)\n", k->name,
                           kc::feature_names(k->requires));
            continue;
        }
        for (int i = 0; i < kc::cipher_count; i++) {
            const kc::CipherDesc &d = *kc::cipher_by_index(i);
            if (!k->supports(d.id))
                continue;
            for (bool key : {false, true})
                out.push_back({k->name, d.name, key ? "key" : "data", samples, measure(*k, d, key, samples),
                               k->constant_time});
        }
    }
    // The DRBG chain's fused functions, every one this machine runs ("drbg/fused#0" is the one
    // the chain picks), with "all" or "drbg/fused".
    const bool fused = all || std::find(kernels.begin(), kernels.end(), "drbg/fused") != kernels.end();
    for (int i = 0; fused && i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        const std::vector<kc::FusedEcb> fs = kc::fused_ecb_candidates(d.id);
        for (size_t j = 0; j < fs.size(); j++)
            for (bool key : {false, true})
                out.push_back({"drbg/fused#" + std::to_string(j), d.name, key ? "key" : "data", samples,
                               measure_fused(fs[j], d, key, samples), true});
    }
    return out;
}

} // namespace lab
