// `kcipher bench`: how fast this machine runs each cipher, in MB/s and cycles per byte,
// beside OpenSSL's ARIA and SEED and Crypto++'s ARIA, LEA, HIGHT, CHAM and SEED where they
// were found when kcipher was built (bench_table.hpp says how the rows are measured);
// `--gpu`: host-to-host GPU rates; `--keysearch`: keys per second. The experiments (constant-time check, scaling, GPU and DRBG
// harnesses, the ARIA paper's preset) are bench/lab's `kcipher-lab`.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "bench_gpu_host.hpp"
#include "bench_keysearch.hpp"
#include "bench_table.hpp"
#include "commands.hpp"
#include "kcipher/kcipher.h"
#include "numbers.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

struct BenchOptions {
    CpuBenchOptions table;
    bool keysearch = false;
    std::string keysearch_device = "cpu";
    bool seconds_given = false;
    bool rounds_given = false;
    bool gpu = false;
    GpuHostBenchOptions g;
};

// A misspelt --kernel would otherwise be skipped for every cipher, and the default kernel
// measured under the user's eyes as if it were the one asked for.
void check_kernels(const std::vector<std::string> &names)
{
    for (const std::string &name : names) {
        if (name == "all")
            continue;
        bool known = false;
        for (size_t i = 0; i < kcipher_kernel_count() && !known; i++) {
            kcipher_kernel_info ki;
            known = kcipher_kernel_get(i, &ki) == KCIPHER_OK && name == ki.name;
        }
        if (!known)
            throw UsageError("--kernel '" + name + "': " + kcipher_strerror(KCIPHER_ERR_UNKNOWN_KERNEL));
    }
}

// The JSON is written after minutes of measuring: a path that cannot be written must say so
// before them. The file is written as PATH.tmp then renamed (bench_json.cpp), so that is what
// is tried here.
void check_json_path(const std::string &path)
{
    if (path.empty())
        return;
    const std::string tmp = path + ".tmp";
    FILE *f = std::fopen(tmp.c_str(), "w");
    if (f == nullptr)
        throw std::runtime_error("--json '" + path + "': cannot write: " + std::strerror(errno));
    std::fclose(f);
    std::remove(tmp.c_str());
}

int run_bench(const BenchOptions &o)
{
    check_kernels(o.table.kernels);
    check_json_path(o.table.json);
    if (o.keysearch)
        return run_keysearch_bench({o.table.ciphers, o.table.kernels, o.table.threads, o.keysearch_device,
                                    o.seconds_given ? o.table.seconds : 2.0, o.table.json});
    if (o.gpu) {
        GpuHostBenchOptions g = o.g;
        g.ciphers = o.table.ciphers;
        g.rounds = o.rounds_given ? o.table.rounds : g.rounds;
        g.json = o.table.json;
        return run_gpu_host_bench(g);
    }
    return run_cpu_bench(o.table);
}

} // namespace

Runner add_bench_command(CLI::App &app)
{
    auto o = std::make_shared<BenchOptions>();
    CpuBenchOptions &t = o->table;
    CLI::App *sub = app.add_subcommand(
        "bench", "measure each cipher's speed on this CPU (MB/s, cycles/byte) beside OpenSSL and Crypto++");
    sub->footer("With no options: every cipher in CTR on 16 KiB messages, one thread, dispatch's kernel, beside the "
                "peers' rows (about 15 s).\nExperiments (constant-time check, scaling over cores, the DRBG, GPU kernels "
                "on device memory, the ARIA paper's preset): bench/lab's kcipher-lab.");
    sub->add_option("-c,--cipher", t.ciphers,
                    "cipher and mode, repeatable (default: every cipher, CTR); -gcm and -ccm seal (16-byte tag), "
                    "-cmac and -gmac give the tag, beside OpenSSL's ARIA (and AES-GCM)");
    sub->add_option("--kernel", t.kernels, "kernel name, repeatable; 'all' = every kernel this machine runs");
    sub->add_option("-s,--size", t.sizes,
                    "message size in bytes, repeatable (default 16384; e.g. 64, 4k, 1M, 1MiB; at most 1 GiB)")
        ->transform(number({1, uint64_t(1) << 30}));
    sub->add_option("-t,--threads", t.threads,
                    "thread count, repeatable; 0 = every hardware thread (default 1; at most 1024)")
        ->transform(number({0, max_threads}));
    sub->add_flag("--all", t.all,
                  "the full table: sizes 64 B to 1 MiB, 1 thread and all, OpenSSL's Camellia and AES beside ARIA "
                  "(minutes)");
    sub->add_option("--seconds", t.seconds, "length of one timing slice (default 0.1)")
        ->check(CLI::Range(0.001, 60.0))
        ->each([o](const std::string &) { o->seconds_given = true; });
    sub->add_option("--rounds", t.rounds,
                    "interleaved rounds per row (--gpu: calls), the median is reported (default 5; at most 1000)")
        ->transform(number({1, 1000}))
        ->each([o](const std::string &) { o->rounds_given = true; });
    sub->add_option("--json", t.json, "write the records as a JSON list to this file");
    sub->add_flag("--decrypt", t.decrypt,
                  "time the inverse call: ECB/CBC/CFB/CFB8 decryption, GCM/CCM open with the tag verified (our rows "
                  "only)");
    sub->add_flag("--stream", t.stream,
                  "CMAC and GMAC: every call one update of a single stream, so the row times the hash alone (GMAC: "
                  "GHASH) without a message's setup and tag (our rows only)");
    sub->add_flag("!--no-openssl", t.openssl, "skip OpenSSL's rows");
    sub->add_flag("!--no-cryptopp", t.cryptopp, "skip Crypto++'s rows");
    sub->add_flag("--gpu", o->gpu,
                  "each cipher's default GPU kernel instead, host memory to host memory (CTR, ECB; --gpu-device, "
                  "--gpu-bytes)");
    sub->add_option("--gpu-device", o->g.device, "--gpu: one GPU's index (default: every GPU)")
        ->transform(number({0, max_gpu_device}));
    sub->add_option("--gpu-bytes", o->g.bytes, "--gpu: bytes per call (default 256M; 4 KiB to 64 GiB, e.g. 1G)")
        ->transform(number({uint64_t(1) << 12, uint64_t(1) << 36}));
    sub->add_flag("--keysearch", o->keysearch,
                  "key search keys/s per cipher instead (--device, --threads, --kernel; --seconds per row, default 2)");
    sub->add_option("--device", o->keysearch_device, "--keysearch: cpu (default), gpu or all");
    return [o] { return run_bench(*o); };
}

} // namespace cli
