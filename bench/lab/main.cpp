// kcipher-lab: the experiment harnesses that measure kcipher's internals, apart from the
// `kcipher` tool that users run. They reach into src/ (kernels directly, the DRBG's chain, the
// GPU modes), which the tool, on the public API only, cannot.
//
//   --preset aria-paper   every ARIA kernel against the table kernel, beside OpenSSL's ARIA,
//                         Camellia and AES (the AVX ARIA paper's comparison)
//   --ct-check KERNEL...  dudect-style timing test (bench_ct.hpp)
//   --scaling             all cores against each core alone, with register-only yardsticks
//                         (bench_scaling.hpp)
//   --drbg [--gpu]        CTR_DRBG against CTR and its chain, on the CPU or the GPU
//                         (bench_drbg.hpp)
//   --gpu                 GPU kernels: keystream, CTR, ECB, host-to-host, PCIe (bench_gpu.hpp)
//   --keysearch-gpu       the GPU key search alone (bench_keysearch_gpu.hpp)
#include <cstdio>
#include <memory>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "bench_cpu.hpp"
#include "bench_ct.hpp"
#include "bench_drbg.hpp"
#include "bench_gpu.hpp"
#include "bench_json.hpp"
#include "bench_keysearch_gpu.hpp"
#include "bench_scaling.hpp"
#include "bench_table.hpp"
#include "kcipher/kcipher.hpp"

namespace lab {
namespace {

struct Options {
    std::vector<std::string> ciphers, kernels;
    std::vector<size_t> sizes;
    std::vector<unsigned> threads;
    std::string json;
    double seconds = 0.1;
    bool openssl = true;
    bool cryptopp = true;
    std::string baseline;
    std::string preset;
    std::vector<std::string> ct_kernels;
    size_t ct_samples = 200000;
    bool gpu = false;
    bool drbg = false;
    bool keysearch_gpu = false;
    bool scaling = false;
    bool pairs = false;
    int rounds = 3;
    bool rounds_given = false;
    int keysearch_log2 = 35;
    size_t drbg_instances = 65536;
    size_t drbg_instance_bytes = 0;
    bool drbg_trace = false;
    GpuBenchOptions g;
};

std::vector<std::string> bare_names(const std::vector<std::string> &names)
{
    std::vector<std::string> out;
    for (const std::string &c : names)
        out.push_back(cli::parse_cipher_arg(c).cipher);
    return out;
}

// --preset aria-paper: the AVX ARIA paper's comparison (Yoo, Kivilinna, Cho, IEEE Access
// 2023): every ARIA kernel's speed-up over the generic table code at 1 KiB, 4 KiB and a large
// buffer, 128- and 256-bit keys, ECB and CTR, one core; OpenSSL's ARIA and Camellia in the
// same run give the ARIA-versus-Camellia comparison.
int run_preset(const Options &o)
{
    if (o.preset != "aria-paper")
        throw std::runtime_error("unknown --preset '" + o.preset + "' (known: aria-paper)");
    cli::CpuBenchOptions t;
    t.ciphers = o.ciphers.empty() ? std::vector<std::string>{"aria-128-ecb", "aria-128-ctr", "aria-256-ecb", "aria-256-ctr"}
                                  : o.ciphers;
    t.sizes = o.sizes.empty() ? std::vector<size_t>{1024, 4096, 1 << 20} : o.sizes;
    t.kernels = o.kernels.empty() ? std::vector<std::string>{"all"} : o.kernels;
    t.threads = o.threads.empty() ? std::vector<unsigned>{1} : o.threads;
    t.baseline = o.baseline.empty() ? "aria/table" : o.baseline;
    t.all = true; // OpenSSL's Camellia and AES beside its ARIA
    t.seconds = o.seconds;
    t.rounds = o.rounds_given ? o.rounds : 5;
    t.openssl = o.openssl;
    t.cryptopp = o.cryptopp;
    t.json = o.json;
    return cli::run_cpu_bench(t);
}

int run_ct(const Options &o)
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
        cli::write_json_file(o.json, list);
    return 0;
}

int run(const Options &o)
{
    const int modes = !o.preset.empty() + !o.ct_kernels.empty() + o.scaling + o.drbg + o.keysearch_gpu +
                      (o.gpu && !o.drbg);
    if (modes != 1)
        throw std::runtime_error("give exactly one of --preset, --ct-check, --scaling, --drbg [--gpu], --gpu, "
                                 "--keysearch-gpu (--help lists them)");
    if (!o.preset.empty())
        return run_preset(o);
    if (!o.ct_kernels.empty())
        return run_ct(o);
    if (o.drbg && o.gpu) {
        DrbgGpuBenchOptions d;
        d.ciphers = bare_names(o.ciphers);
        d.bytes = o.g.bytes;
        d.runs = o.g.runs == 20 ? 11 : o.g.runs; // 20 is --runs' default for --gpu
        d.device = o.g.device;
        d.instances = o.drbg_instances;
        d.instance_bytes = o.drbg_instance_bytes;
        d.threads = o.threads.size() == 1 ? o.threads[0] : 0;
        d.json = o.json;
        d.trace = o.drbg_trace;
        return run_drbg_gpu_bench(d);
    }
    if (o.scaling)
        return run_scaling_bench({o.ciphers, o.kernels, o.sizes.empty() ? size_t(16384) : o.sizes[0], o.seconds,
                                  o.rounds, o.pairs, o.json});
    if (o.drbg)
        return run_drbg_bench({o.ciphers, o.threads, o.sizes.empty() ? size_t(64) << 20 : o.sizes[0],
                               std::max(o.seconds, 0.2), o.json});
    if (o.keysearch_gpu)
        return run_keysearch_gpu_bench({o.ciphers, o.g.device, o.g.runs == 20 ? 5 : o.g.runs, o.keysearch_log2,
                                        o.json});
    GpuBenchOptions g = o.g;
    g.ciphers = bare_names(o.ciphers);
    g.kernels = o.kernels;
    g.json = o.json;
    return run_gpu_bench(g);
}

} // namespace
} // namespace lab

int main(int argc, char **argv)
{
    CLI::App app{"kcipher-lab: kcipher's experiment harnesses (constant-time check, scaling, GPU and DRBG "
                 "benchmarks, the ARIA paper's preset); `kcipher bench` is the users' benchmark"};
    auto o = std::make_shared<lab::Options>();
    app.add_option("--preset", o->preset,
                   "aria-paper: the AVX ARIA paper's six-version and ARIA-vs-Camellia comparison");
    app.add_option("--ct-check", o->ct_kernels,
                   "dudect-style timing test of these kernels ('all' = every runnable one; 'drbg/fused' = the "
                   "CTR_DRBG chain's fused block functions)");
    app.add_option("--ct-samples", o->ct_samples, "timing samples per row for --ct-check")
        ->check(CLI::Range(1000, 100000000));
    app.add_flag("--scaling", o->scaling,
                 "all cores at once against each core alone, threads pinned, alternating over --rounds "
                 "(--size default 16 KiB; --pairs: every pair of cores too)");
    app.add_option("--rounds", o->rounds,
                   "--scaling: alternations of single-core and all-core runs (default 3); --preset: interleaved "
                   "rounds per row (default 5)")
        ->check(CLI::Range(1, 100))
        ->each([o](const std::string &) { o->rounds_given = true; });
    app.add_flag("--pairs", o->pairs, "--scaling: also every pair of cores, to find cores that share ports");
    app.add_flag("--drbg", o->drbg,
                 "CTR_DRBG for large outputs vs CTR, per cipher (--size: bytes per call, default 64 MiB); with --gpu: "
                 "the GPU DRBG into device and host memory vs keystream, chain, PCIe and the CPU DRBG, and many "
                 "instances (--gpu-bytes, --runs default 11, --instances, --instance-bytes)");
    app.add_option("--instances", o->drbg_instances, "--drbg --gpu: DRBG instances of the many-instance rows (default 65536)")
        ->check(CLI::Range(size_t(0), size_t(1) << 24));
    app.add_option("--instance-bytes", o->drbg_instance_bytes,
                   "--drbg --gpu: bytes per instance and call (default 64 KiB, 1 KiB for 64-bit blocks)");
    app.add_flag("--trace", o->drbg_trace,
                 "--drbg --gpu: print where each single-DRBG GPU call's time goes, to stderr (the library's "
                 "GPU observer, bench/tools/drbg_gpu_trace.hpp)");
    app.add_flag("--gpu", o->gpu, "the GPU kernels (keystream, CTR, ECB, host-to-host, PCIe)");
    app.add_option("--gpu-device", o->g.device, "GPU index (default 0)");
    app.add_option("--gpu-bytes", o->g.bytes, "--gpu: bytes per timed run (default 1 GiB)");
    app.add_option("--runs", o->g.runs, "--gpu: timed runs per row, median reported (default 20)")
        ->check(CLI::Range(1, 10000));
    app.add_flag("--sweep", o->g.sweep, "--gpu: also sweep threads per block x blocks for the keystream");
    app.add_flag("!--no-host", o->g.host, "--gpu: skip the host-to-host rows");
    app.add_flag("--keysearch-gpu", o->keysearch_gpu,
                 "the GPU key search alone, paper's and default shapes (--gpu-device, --runs, --log2-keys)");
    app.add_option("--log2-keys", o->keysearch_log2, "--keysearch-gpu: 2^N candidates per run (default 35)")
        ->check(CLI::Range(10, 44));
    app.add_option("-c,--cipher", o->ciphers, "cipher (and mode where it matters), repeatable");
    app.add_option("--kernel", o->kernels, "kernel name, repeatable; 'all' = every kernel this machine runs");
    app.add_option("-s,--size", o->sizes, "message size in bytes, repeatable");
    app.add_option("-t,--threads", o->threads, "thread count, repeatable; 0 = all cores");
    app.add_option("--seconds", o->seconds, "length of one timing slice")->check(CLI::Range(0.001, 60.0));
    app.add_option("--json", o->json, "write the records as a JSON list to this file");
    app.add_flag("!--no-openssl", o->openssl, "--preset: skip OpenSSL's rows");
    app.add_flag("!--no-cryptopp", o->cryptopp, "--preset: skip Crypto++'s rows");
    app.add_option("--baseline", o->baseline, "--preset: the kernel the vs-base column divides by (default aria/table)");
    CLI11_PARSE(app, argc, argv);
    try {
        const char *detail = "";
        if (kcipher_cpu_features_status(&detail) != KCIPHER_OK)
            throw std::runtime_error(detail);
        int rc = lab::run(*o);
        std::fflush(stdout);
        return rc;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "kcipher-lab: %s\n", e.what());
        return 1;
    }
}
