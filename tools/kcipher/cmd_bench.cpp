// `kcipher bench`: throughput of CPU kernels in GB/s and cycles per byte over message
// sizes and thread counts, with OpenSSL's ARIA, Camellia and AES and (where installed)
// Crypto++'s ARIA, LEA, HIGHT and CHAM measured in the same run.
//
// Method: one buffer per worker thread, reused (it stays in cache for small sizes, as a
// server's packet buffers do); calls are repeated until a timing slice of `--seconds`
// has passed; 5 slices, the median rate is reported. With N threads, N workers each
// encrypt their own messages on one shared keyed context (a server's view: aggregate
// throughput), and cycles per byte counts the cycles of all N cores.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "bench_clock.hpp"
#include "bench_json.hpp"
#include "bench_cpu.hpp"
#include "bench_ct.hpp"
#include "bench_drbg.hpp"
#include "bench_cryptopp.hpp"
#include "bench_gpu.hpp"
#include "bench_keysearch.hpp"
#include "bench_keysearch_gpu.hpp"
#include "bench_scaling.hpp"
#include "bench_openssl.hpp"
#include "commands.hpp"
#include "kcipher/kcipher.hpp"

namespace cli {
namespace {

struct BenchOptions {
    std::vector<std::string> ciphers, kernels;
    std::vector<size_t> sizes;
    std::vector<unsigned> threads;
    std::string json;
    double seconds = 0.1;
    bool openssl = true;
    bool cryptopp = true;
    std::string baseline;                // kernel that the vs-base column divides by
    std::string preset;
    std::vector<std::string> ct_kernels; // --ct-check: timing test instead of throughput
    size_t ct_samples = 200000;
    bool gpu = false;                    // --gpu: the GPU benchmark (bench_gpu.cpp)
    bool drbg = false;                   // --drbg: CTR_DRBG vs CTR (bench_drbg.cpp)
    bool keysearch = false;              // --keysearch: keys/s (bench_keysearch.cpp)
    bool keysearch_gpu = false;          // --keysearch-gpu: the GPU search alone (bench_keysearch_gpu.cpp)
    bool scaling = false;                // --scaling: all cores against each alone (bench_scaling.cpp)
    bool pairs = false;
    int rounds = 3;
    int keysearch_log2 = 35;
    size_t drbg_instances = 65536;       // --drbg --gpu: the many-instance rows
    size_t drbg_instance_bytes = 0;
    std::string keysearch_device = "cpu";
    GpuBenchOptions g;
};

struct Result {
    const Target *t;
    size_t bytes;
    unsigned threads;
    double bytes_per_second;
    double probe_ghz; // the clock right after the work, median over threads and slices
    double pmu_ghz;   // core cycles per second during the work (CPU counters), 0 if none
};

Result measure(const Target &t, size_t size, unsigned threads, double seconds)
{
    std::vector<double> slices, probes, pmus;
    std::vector<std::vector<uint8_t>> bufs(threads);
    std::vector<Work> works(threads);
    for (unsigned i = 0; i < threads; i++) {
        bufs[i] = random_bytes(size + 64);
        works[i] = t.make_worker();
    }
    for (unsigned i = 0; i < threads; i++) // warm-up
        run_slice(works[i], bufs[i].data(), size, seconds / 4);
    for (int r = 0; r < 5; r++) {
        std::vector<Slice> out(threads);
        std::vector<std::thread> pool;
        for (unsigned i = 1; i < threads; i++)
            pool.emplace_back([&, i] { out[i] = run_slice(works[i], bufs[i].data(), size, seconds); });
        out[0] = run_slice(works[0], bufs[0].data(), size, seconds);
        for (auto &th : pool)
            th.join();
        double sum = 0;
        for (const Slice &x : out) {
            sum += x.rate;
            probes.push_back(x.probe_ghz);
            if (x.pmu_ghz > 0)
                pmus.push_back(x.pmu_ghz);
        }
        slices.push_back(sum);
    }
    return {&t, size, threads, median(slices), median(probes), median(pmus)};
}

// nullopt-like: impl empty when OpenSSL lacks the cipher.
Target openssl_target(const std::string &evp_name, const std::string &cipher, const std::string &mode, size_t key_bytes)
{
    auto key = std::make_shared<std::vector<uint8_t>>(random_bytes(key_bytes));
    auto probe = OpensslCipher::make(evp_name, key->data(), random_bytes(16).data());
    if (!probe)
        return {};
    Target t{"openssl", cipher, mode, "libcrypto EVP", probe->library_version(), nullptr};
    t.make_worker = [evp_name, key]() -> Work {
        std::shared_ptr<OpensslCipher> o = OpensslCipher::make(evp_name, key->data(), random_bytes(16).data());
        return [o](const uint8_t *in, uint8_t *out, size_t n) { o->encrypt(in, out, n); };
    };
    return t;
}

Target cryptopp_target(const std::string &cipher, const std::string &mode, size_t key_bytes, size_t block_bytes)
{
    auto key = std::make_shared<std::vector<uint8_t>>(random_bytes(key_bytes));
    std::string label;
    if (!cryptopp_worker(cipher, mode, key->data(), key->size(), random_bytes(block_bytes).data(), &label))
        return {};
    Target t{"cryptopp", cipher, mode, label, cryptopp_version(), nullptr};
    t.make_worker = [cipher, mode, key, block_bytes]() -> Work {
        std::string unused;
        return cryptopp_worker(cipher, mode, key->data(), key->size(), random_bytes(block_bytes).data(), &unused);
    };
    return t;
}

std::vector<std::string> kernels_for(const std::string &cipher, const BenchOptions &o)
{
    kcipher_cipher_info info;
    kcipher::check(kcipher_cipher_find(cipher.c_str(), &info));
    std::vector<std::string> out;
    for (const std::string &k : o.kernels) {
        if (k == "all") {
            for (size_t i = 0; i < kcipher_kernel_count(); i++) {
                kcipher_kernel_info ki;
                kcipher_kernel_get(i, &ki);
                bool gpu = std::string(ki.requires).find("cuda-gpu") != std::string::npos;
                if (ki.available && !gpu && std::string(ki.family) == info.family) // GPUs: --gpu
                    out.push_back(ki.name);
            }
        } else if (k.rfind(std::string(info.family) + "/", 0) == 0) {
            out.push_back(k);
        }
    }
    if (out.empty())
        out.push_back(""); // dispatch's choice
    return out;
}

std::vector<Target> build_targets(const BenchOptions &o)
{
    std::vector<Target> ts;
    std::vector<std::string> compared;
    for (const std::string &name : o.ciphers) {
        char cipher[32];
        kcipher_mode mode;
        kcipher_status st = kcipher_parse_name(name.c_str(), cipher, sizeof cipher, &mode);
        if (st != KCIPHER_OK)
            throw std::runtime_error(fmt::format("--cipher '{}': {}", name, kcipher_strerror(st)));
        if (mode == KCIPHER_MODE_NONE)
            mode = KCIPHER_MODE_CTR;
        std::vector<Target> ours;
        for (const std::string &k : kernels_for(cipher, o))
            ours.push_back(kcipher_target(cipher, mode, k));
        // The baseline kernel is measured first, so that the others can show the ratio.
        std::stable_partition(ours.begin(), ours.end(), [&](const Target &t) { return t.kernel == o.baseline; });
        // OpenSSL has ARIA, and Camellia and AES are the yardsticks the ARIA papers use.
        // Its rows go first so that our rows can show the ratio as they are printed.
        std::string c(cipher), m = ours.back().mode;
        if (o.openssl && c.rfind("aria-", 0) == 0) {
            std::string bits = c.substr(5);
            for (const std::string &alg : {std::string("aria"), std::string("camellia"), std::string("aes")}) {
                std::string evp = alg + "-" + bits + "-" + m;
                if (std::find(compared.begin(), compared.end(), evp) != compared.end())
                    continue;
                compared.push_back(evp);
                Target t = openssl_target(evp, alg + "-" + bits, m, std::stoul(bits) / 8);
                if (!t.impl.empty())
                    ts.push_back(t);
            }
        }
        if (o.cryptopp && cryptopp_available()) {
            kcipher_cipher_info info;
            kcipher_cipher_find(cipher, &info);
            std::string evp = "cryptopp:" + c + "-" + m;
            if (std::find(compared.begin(), compared.end(), evp) == compared.end()) {
                compared.push_back(evp);
                Target t = cryptopp_target(c, m, info.key_bytes, info.block_bytes);
                if (!t.impl.empty())
                    ts.push_back(t);
            }
        }
        ts.insert(ts.end(), ours.begin(), ours.end());
    }
    return ts;
}

// --preset aria-paper: the AVX ARIA paper's comparison (Yoo, Kivilinna, Cho, IEEE Access
// 2023): every ARIA kernel's speed-up over the generic table code at 1 KiB, 4 KiB and a large
// buffer, 128- and 256-bit keys, ECB and CTR, one core; OpenSSL's ARIA and Camellia in the
// same run give the ARIA-versus-Camellia comparison.
void apply_preset(BenchOptions &o)
{
    if (o.preset.empty())
        return;
    if (o.preset != "aria-paper")
        throw std::runtime_error("unknown --preset '" + o.preset + "' (known: aria-paper)");
    if (o.ciphers.empty())
        o.ciphers = {"aria-128-ecb", "aria-128-ctr", "aria-256-ecb", "aria-256-ctr"};
    if (o.sizes.empty())
        o.sizes = {1024, 4096, 1 << 20};
    if (o.kernels.empty())
        o.kernels = {"all"};
    if (o.threads.empty())
        o.threads = {1};
    if (o.baseline.empty())
        o.baseline = "aria/table";
}

// Our rate over another implementation's for the same cipher, mode, size and threads.
std::string ratio_to(const std::vector<Result> &results, const char *impl, const Target &t, size_t size, unsigned th,
                     double rate)
{
    if (t.impl != "kcipher")
        return "";
    for (const Result &x : results)
        if (x.t->impl == impl && x.t->cipher == t.cipher && x.t->mode == t.mode && x.bytes == size && x.threads == th)
            return fmt::format("{:.2f}x", rate / x.bytes_per_second);
    return "";
}

// Rate over the --baseline kernel's for the same cipher, mode, size and threads.
std::string baseline_ratio(const std::vector<Result> &results, const std::string &baseline, const Target &t,
                           size_t size, unsigned th, double rate)
{
    if (baseline.empty() || t.impl != "kcipher")
        return "";
    for (const Result &x : results)
        if (x.t->impl == "kcipher" && x.t->kernel == baseline && x.t->cipher == t.cipher && x.t->mode == t.mode &&
            x.bytes == size && x.threads == th)
            return fmt::format("{:.2f}x", rate / x.bytes_per_second);
    return "";
}

int run_ct(const BenchOptions &o)
{
    fmt::print("# dudect-style fixed-vs-random timing test, {} samples per row; |t| > 4.5: timing depends on the\n"
               "# secret (a leak); below: no leak seen at this sample count (not a proof). Not a pass/fail test.\n",
               o.ct_samples);
    fmt::print("{:<22} {:<14} {:<6} {:>8}  {:<13} {}\n", "kernel", "cipher", "secret", "max|t|", "constant-time",
               "verdict");
    nlohmann::json list = nlohmann::json::array();
    for (const CtResult &r : run_ct_checks(o.ct_kernels, o.ct_samples)) {
        const char *verdict = r.max_abs_t > 4.5 ? "LEAK: timing depends on the secret" : "no leak seen";
        fmt::print("{:<22} {:<14} {:<6} {:>8.2f}  {:<13} {}\n", r.kernel, r.cipher, r.secret, r.max_abs_t,
                   r.claims_constant_time ? "claimed" : "not claimed", verdict);
        list.push_back({{"kernel", r.kernel},
                        {"cipher", r.cipher},
                        {"secret", r.secret},
                        {"samples", r.samples},
                        {"max_abs_t", r.max_abs_t},
                        {"claims_constant_time", r.claims_constant_time}});
    }
    if (!o.json.empty())
        write_json_file(o.json, list);
    return 0;
}

int run_bench(const BenchOptions &opt)
{
    if (!opt.ct_kernels.empty())
        return run_ct(opt);
    if (opt.drbg && opt.gpu) {
        DrbgGpuBenchOptions d;
        for (const std::string &c : opt.ciphers) {
            char bare[64];
            kcipher_mode m;
            kcipher::check(kcipher_parse_name(c.c_str(), bare, sizeof bare, &m));
            d.ciphers.push_back(bare);
        }
        d.bytes = opt.g.bytes;
        d.runs = opt.g.runs == 20 ? 11 : opt.g.runs; // 20 is --runs' default for --gpu
        d.device = opt.g.device;
        d.instances = opt.drbg_instances;
        d.instance_bytes = opt.drbg_instance_bytes;
        d.threads = opt.threads.size() == 1 ? opt.threads[0] : 0;
        d.json = opt.json;
        return run_drbg_gpu_bench(d);
    }
    if (opt.scaling)
        return run_scaling_bench({opt.ciphers, opt.kernels, opt.sizes.empty() ? size_t(16384) : opt.sizes[0],
                                  opt.seconds, opt.rounds, opt.pairs, opt.json});
    if (opt.drbg)
        return run_drbg_bench({opt.ciphers, opt.threads, opt.sizes.empty() ? size_t(64) << 20 : opt.sizes[0],
                               std::max(opt.seconds, 0.2), opt.json});
    if (opt.keysearch_gpu)
        return run_keysearch_gpu_bench({opt.ciphers, opt.g.device, opt.g.runs == 20 ? 5 : opt.g.runs,
                                        opt.keysearch_log2, opt.json});
    if (opt.keysearch)
        return run_keysearch_bench({opt.ciphers, opt.kernels, opt.threads, opt.keysearch_device,
                                    opt.seconds < 0.5 ? 2.0 : opt.seconds, opt.json});
    if (opt.gpu) {
        GpuBenchOptions g = opt.g;
        for (const std::string &c : opt.ciphers) {
            char bare[64];
            kcipher_mode m;
            kcipher::check(kcipher_parse_name(c.c_str(), bare, sizeof bare, &m));
            g.ciphers.push_back(bare);
        }
        g.kernels = opt.kernels;
        g.json = opt.json;
        return run_gpu_bench(g);
    }
    BenchOptions o = opt;
    apply_preset(o);
    unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    if (o.ciphers.empty())
        for (size_t i = 0; i < kcipher_cipher_count(); i++) {
            kcipher_cipher_info c;
            kcipher_cipher_get(i, &c);
            o.ciphers.push_back(std::string(c.name) + "-ctr");
        }
    if (o.sizes.empty())
        o.sizes = {64, 1024, 4096, 16384, 1 << 20};
    if (o.threads.empty())
        o.threads = hw > 1 ? std::vector<unsigned>{1, hw} : std::vector<unsigned>{1};
    for (unsigned &t : o.threads)
        if (t == 0)
            t = hw;
    for (size_t s : o.sizes)
        if (s == 0)
            throw std::runtime_error("--size must be at least 1 byte");

    CoreClock clock = measure_core_clock();
    std::map<unsigned, CoreClock> clocks; // per thread count: cores may slow down when all run
    for (unsigned t : o.threads)
        clocks[t] = t == 1 ? clock : measure_core_clock(t);
    std::string cpu = cpu_model_name();
    fmt::print("# {}; core clock {:.2f} GHz ({}); {} hardware threads\n", cpu, clock.ghz, clock.method, hw);
    for (const auto &[t, c] : clocks)
        if (t > 1)
            fmt::print("# core clock with {} threads busy: {:.2f} GHz\n", t, c.ghz);
    fmt::print("# cycles/byte = clock x threads / rate; vs-X = rate / X's rate for the same cipher\n");
    std::vector<Target> targets = build_targets(o);
    std::vector<Result> results;
    fmt::print("# run-GHz: the clock right after the kernel ran (add chain), and core cycles per second while "
               "it ran (CPU counters, where exposed)\n");
    fmt::print("{:<8} {:<14} {:<4} {:<18} {:>8} {:>3} {:>10} {:>8} {:>10} {:>11} {:>8} {:>11}\n", "impl", "cipher",
               "mode", "kernel", "bytes", "thr", "MB/s", "c/B", "vs-openssl", "vs-cryptopp", "vs-base", "run-GHz");
    for (size_t size : o.sizes)
        for (unsigned th : o.threads)
            for (const Target &t : targets) {
                results.push_back(measure(t, size, th, o.seconds));
                const double r = results.back().bytes_per_second;
                std::string vs_openssl = ratio_to(results, "openssl", t, size, th, r);
                std::string vs_cryptopp = ratio_to(results, "cryptopp", t, size, th, r);
                std::string vs_base = baseline_ratio(results, o.baseline, t, size, th, r);
                std::string kernel = t.kernel.size() > 18 ? t.kernel.substr(0, 18) : t.kernel;
                const Result &x = results.back();
                std::string run_ghz = fmt::format("{:.2f}", x.probe_ghz);
                if (x.pmu_ghz > 0)
                    run_ghz += fmt::format("/{:.2f}", x.pmu_ghz);
                fmt::print("{:<8} {:<14} {:<4} {:<18} {:>8} {:>3} {:>10.1f} {:>8.2f} {:>10} {:>11} {:>8} {:>11}\n",
                           t.impl, t.cipher, t.mode, kernel, size, th, r / 1e6, clocks[th].ghz * 1e9 * th / r,
                           vs_openssl, vs_cryptopp, vs_base, run_ghz);
                std::fflush(stdout);
            }
    if (!o.json.empty()) {
        nlohmann::json list = nlohmann::json::array();
        for (const Result &x : results)
            list.push_back({{"implementation", x.t->impl},
                            {"version", x.t->version},
                            {"cipher", x.t->cipher},
                            {"mode", x.t->mode},
                            {"kernel", x.t->kernel},
                            {"bytes", x.bytes},
                            {"threads", x.threads},
                            {"bytes_per_second", x.bytes_per_second},
                            {"gbytes_per_second", x.bytes_per_second / 1e9},
                            {"cycles_per_byte", clocks[x.threads].ghz * 1e9 * x.threads / x.bytes_per_second},
                            {"clock_ghz", clocks[x.threads].ghz},
                            {"clock_method", clocks[x.threads].method},
                            {"clock_after_kernel_ghz", x.probe_ghz},
                            {"clock_pmu_ghz", x.pmu_ghz > 0 ? nlohmann::json(x.pmu_ghz) : nlohmann::json()},
                            {"cpu", cpu},
                            {"hardware_threads", hw}});
        write_json_file(o.json, list);
    }
    return 0;
}

} // namespace

Runner add_bench_command(CLI::App &app)
{
    auto o = std::make_shared<BenchOptions>();
    CLI::App *sub = app.add_subcommand("bench", "measure CPU kernels beside OpenSSL (GB/s, cycles/byte)");
    sub->add_option("-c,--cipher", o->ciphers, "cipher and mode, repeatable (default: every cipher, CTR)");
    sub->add_option("--kernel", o->kernels, "kernel name, repeatable; 'all' = every kernel this machine runs");
    sub->add_option("-s,--size", o->sizes, "message size in bytes, repeatable (default 64 1024 4096 16384 1048576)");
    sub->add_option("-t,--threads", o->threads, "thread count, repeatable; 0 = all cores (default: 1 and all)");
    sub->add_option("--json", o->json, "write the records as a JSON list to this file");
    sub->add_option("--seconds", o->seconds, "length of one timing slice (5 slices per row)")->check(CLI::Range(0.001, 60.0));
    sub->add_flag("!--no-openssl", o->openssl, "skip the OpenSSL comparison rows");
    sub->add_flag("!--no-cryptopp", o->cryptopp, "skip the Crypto++ comparison rows");
    sub->add_option("--baseline", o->baseline, "kernel whose rate the vs-base column divides by (e.g. aria/table)");
    sub->add_flag("--drbg", o->drbg,
                  "CTR_DRBG for large outputs vs CTR, per cipher (--size: bytes per call, default 64 MiB); with --gpu: "
                  "the GPU DRBG into device and host memory vs keystream, chain, PCIe and the CPU DRBG, and many "
                  "instances (--gpu-bytes, --runs default 11, --instances, --instance-bytes)");
    sub->add_option("--instances", o->drbg_instances, "--drbg --gpu: DRBG instances of the many-instance rows (default 65536)")
        ->check(CLI::Range(size_t(0), size_t(1) << 24));
    sub->add_option("--instance-bytes", o->drbg_instance_bytes,
                    "--drbg --gpu: bytes per instance and call (default 64 KiB, 1 KiB for 64-bit blocks)");
    sub->add_flag("--gpu", o->gpu, "benchmark the GPU kernels instead (keystream, CTR, ECB, host-to-host, PCIe)");
    sub->add_option("--gpu-device", o->g.device, "GPU index for --gpu (default 0)");
    sub->add_option("--gpu-bytes", o->g.bytes, "--gpu: bytes per timed run (default 1 GiB)");
    sub->add_option("--runs", o->g.runs, "--gpu: timed runs per row, median reported (default 20)")->check(CLI::Range(1, 10000));
    sub->add_flag("--sweep", o->g.sweep, "--gpu: also sweep threads per block x blocks for the keystream");
    sub->add_flag("!--no-host", o->g.host, "--gpu: skip the host-to-host rows");
    sub->add_flag("--keysearch-gpu", o->keysearch_gpu,
                  "the GPU key search alone, paper's and default shapes (--gpu-device, --runs, --log2-keys)");
    sub->add_option("--log2-keys", o->keysearch_log2, "--keysearch-gpu: 2^N candidates per run (default 35)")
        ->check(CLI::Range(10, 44));
    sub->add_flag("--scaling", o->scaling,
                  "all cores at once against each core alone, threads pinned, alternating over --rounds "
                  "(--size default 16 KiB; --pairs: every pair of cores too)");
    sub->add_option("--rounds", o->rounds, "--scaling: alternations of single-core and all-core runs (default 3)")
        ->check(CLI::Range(1, 100));
    sub->add_flag("--pairs", o->pairs, "--scaling: also every pair of cores, to find cores that share ports");
    sub->add_flag("--keysearch", o->keysearch, "key search keys/s per cipher instead (--device, --threads, --kernel)");
    sub->add_option("--device", o->keysearch_device, "--keysearch: cpu (default), gpu or all");
    sub->add_option("--preset", o->preset,
                    "aria-paper: the AVX ARIA paper's six-version and ARIA-vs-Camellia comparison");
    sub->add_option("--ct-check", o->ct_kernels,
                    "instead of throughput: dudect-style timing test of these kernels ('all' = every runnable one; 'drbg/fused' = the CTR_DRBG chain's fused block functions)");
    sub->add_option("--ct-samples", o->ct_samples, "timing samples per row for --ct-check")->check(CLI::Range(1000, 100000000));
    return [o] { return run_bench(*o); };
}

} // namespace cli
