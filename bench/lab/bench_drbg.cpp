// Both rates write `bytes` of output into the same reused buffer: the DRBG its random bytes
// (kcipher_drbg_generate_large), CTR its ciphertext in place (kcipher_ctr_xor), each on the
// same number of threads, in alternating slices; DRBG/CTR is the median of the slice pairs'
// ratios. The chain's cost is timed alone, on one thread, through the
// internal plan_segments that the GPU path also calls.
#include "bench_drbg.hpp"
#include "bench_json.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "bench_clock.hpp"
#include "core/cipher.hpp"
#include "dispatch/registry.hpp"
#include "drbg/chain.hpp"
#include "drbg/kernel_cipher.hpp"
#include "kcipher/kcipher.hpp"

namespace lab {

// From the CLI's benchmark kit (tools/kcipher/bench_*.hpp).
using cli::cpu_model_name;
using cli::write_json_file;
namespace {

using Clock = std::chrono::steady_clock;

// Bytes per second of calls repeated for `seconds`.
double slice_rate(const std::function<void()> &call, size_t bytes, double seconds)
{
    size_t calls = 0;
    auto t0 = Clock::now();
    double el = 0;
    do {
        call();
        calls++;
        el = std::chrono::duration<double>(Clock::now() - t0).count();
    } while (el < seconds);
    return double(bytes) * double(calls) / el;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Median over 5 slices of calls repeated for `seconds`; bytes per second.
double rate(const std::function<void()> &call, size_t bytes, double seconds)
{
    call(); // warm-up: pages faulted in, threads and caches warm
    std::vector<double> r;
    for (int s = 0; s < 5; s++)
        r.push_back(slice_rate(call, bytes, seconds));
    return median(r);
}

// Two rates measured in alternating slices (a, b, a, b, ...: both see the machine in the
// same state, whose speed drifts by 10% and more on the VMs we measure on): the medians of
// each, and the median of the ratios of the slice pairs.
struct PairedRates {
    double a, b, a_over_b;
};

PairedRates paired_rates(const std::function<void()> &a, const std::function<void()> &b, size_t bytes,
                         double seconds)
{
    a();
    b();
    std::vector<double> ra, rb, q;
    for (int s = 0; s < 5; s++) {
        ra.push_back(slice_rate(a, bytes, seconds));
        rb.push_back(slice_rate(b, bytes, seconds));
        q.push_back(ra.back() / rb.back());
    }
    return {median(ra), median(rb), median(q)};
}

} // namespace

std::function<double(size_t)> drbg_chain_timer(const std::string &cipher)
{
    const kc::CipherDesc *desc = kc::cipher_by_name(cipher);
    if (desc == nullptr)
        throw std::runtime_error("unknown cipher " + cipher);
    const kc::Cipher c = desc->id;
    const kc::drbg::Accelerations fast = kc::drbg::accelerations_for(*kc::best_cpu_kernel(c), c);
    auto d = std::make_shared<kc::drbg::Drbg>(std::make_unique<kc::drbg::KernelCipher>(fast), true);
    if (d->instantiate(nullptr, {}, {}) != KCIPHER_OK)
        throw std::runtime_error("cannot instantiate the DRBG");
    auto segs = std::make_shared<std::vector<kc::drbg::Segment>>();
    return [d, fast, segs](size_t requests) {
        const size_t per_call = 4096; // bounded memory for the segments
        auto t0 = Clock::now();
        for (size_t done = 0; done < requests; done += per_call) {
            const size_t n = std::min(per_call, requests - done);
            kc::drbg::plan_segments(*d, fast, n * d->limits().max_request_bytes, false, *segs);
            kc::drbg::wipe_segments(*segs);
        }
        return std::chrono::duration<double>(Clock::now() - t0).count();
    };
}

// Microseconds per request of the chain alone (reseed checks, Update, key schedule): the best
// of 5 slices of `seconds`, each of whole calls of 4096 requests.
double drbg_chain_us_per_request(const std::string &cipher, double seconds)
{
    const std::function<double(size_t)> chain = drbg_chain_timer(cipher);
    const size_t requests = 4096;
    double best = 1e30;
    for (int s = 0; s < 5; s++) {
        double el = 0;
        size_t done = 0;
        do {
            el += chain(requests);
            done += requests;
        } while (el < seconds);
        best = std::min(best, el * 1e6 / double(done));
    }
    return best;
}

double drbg_cpu_bytes_per_second(const std::string &cipher, unsigned threads, size_t bytes, double seconds)
{
    kcipher::Drbg d(cipher);
    d.set_threads(threads);
    d.instantiate();
    std::vector<uint8_t> buf(bytes);
    return rate([&] { d.generate_large(buf.data(), buf.size()); }, buf.size(), seconds);
}

namespace {

struct Row {
    std::string cipher, kernel;
    unsigned threads;
    double drbg, ctr, ratio, chain_us; // ratio: the median of the paired slices' DRBG / CTR
};

Row measure(const std::string &name, unsigned threads, const DrbgBenchOptions &o, std::vector<uint8_t> &buf)
{
    kcipher::Drbg d(name);
    d.set_threads(threads);
    d.instantiate();
    kcipher_cipher_info info;
    kcipher::check(kcipher_cipher_find(name.c_str(), &info));
    std::vector<uint8_t> key(info.key_bytes, 0x42), iv(info.block_bytes, 0);
    kcipher::Cipher ctr(name, key);
    ctr.set_threads(threads);
    const PairedRates p = paired_rates([&] { d.generate_large(buf.data(), buf.size()); },
                                       [&] { ctr.ctr_xor(iv.data(), 0, buf.data(), buf.data(), buf.size()); },
                                       buf.size(), o.seconds);
    return {name, d.kernel(), threads, p.a, p.b, p.a_over_b, 0};
}

void write_json(const std::string &path, const std::vector<Row> &rows, const std::string &cpu)
{
    nlohmann::json list = nlohmann::json::array();
    for (const Row &r : rows)
        list.push_back({{"benchmark", "ctr_drbg"}, {"cipher", r.cipher}, {"kernel", r.kernel},
                        {"threads", r.threads}, {"drbg_bytes_per_second", r.drbg},
                        {"ctr_bytes_per_second", r.ctr}, {"drbg_over_ctr", r.ratio},
                        {"chain_us_per_request", r.chain_us}, {"cpu", cpu}});
    write_json_file(path, list);
}

} // namespace

int run_drbg_bench(const DrbgBenchOptions &opt)
{
    DrbgBenchOptions o = opt;
    unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    if (o.ciphers.empty())
        for (int i = 0; i < kc::cipher_count; i++)
            o.ciphers.push_back(kc::cipher_by_index(i)->name);
    if (o.threads.empty())
        o.threads = hw > 1 ? std::vector<unsigned>{1, hw} : std::vector<unsigned>{1};
    std::vector<uint8_t> buf(o.bytes);
    std::string cpu = cpu_model_name();
    fmt::print("# CTR_DRBG (SP 800-90A) for large outputs vs the same kernel's CTR; {}; {} MiB per call\n", cpu,
               o.bytes >> 20);
    fmt::print("# chain = the sequential Update per request (max-size requests), one thread\n");
    fmt::print("{:<13} {:<20} {:>3} {:>10} {:>10} {:>8} {:>11}\n", "cipher", "kernel", "thr", "DRBG MB/s",
               "CTR MB/s", "DRBG/CTR", "chain us/rq");
    std::vector<Row> rows;
    for (const std::string &c : o.ciphers) {
        const kc::CipherDesc *d = kc::cipher_by_name(c);
        if (d == nullptr)
            throw std::runtime_error("--cipher '" + c + "': unknown cipher");
        double chain = drbg_chain_us_per_request(d->name, o.seconds / 5);
        for (unsigned t : o.threads) {
            Row r = measure(c, t == 0 ? hw : t, o, buf);
            r.chain_us = chain;
            rows.push_back(r);
            fmt::print("{:<13} {:<20} {:>3} {:>10.1f} {:>10.1f} {:>8.2f} {:>11.2f}\n", r.cipher, r.kernel, r.threads,
                       r.drbg / 1e6, r.ctr / 1e6, r.ratio, r.chain_us);
            std::fflush(stdout);
        }
    }
    if (!o.json.empty())
        write_json(o.json, rows, cpu);
    return 0;
}

} // namespace lab
