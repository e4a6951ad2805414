// GPU key search benchmark: each row is the median of `runs` searches of 2^log2_keys
// candidates (a 40-bit scattered mask, a fresh random template and pair per run, no key in
// the range), timed by the wall clock around gpu_search_first_pair after one untimed
// warm-up. The paper's shape covers exactly 2^35 candidates; the default shape lets the
// searcher choose (1024 threads for ARIA, one CUDA block per SM).
#include "bench_keysearch_gpu.hpp"
#include "bench_json.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <random>
#include <stdexcept>

#include "core/cipher.hpp"
#include "cuda/devices.hpp"
#include "kcipher/kcipher.h"
#include "keysearch/search_gpu.hpp"

namespace lab {

// From the CLI's benchmark kit (tools/kcipher/bench_*.hpp).
using cli::write_json_file;

namespace {

using kc::keysearch::GpuSearchShape;
using kc::keysearch::Problem;

Problem random_problem(kc::Cipher c, std::mt19937_64 &rng)
{
    const kc::CipherDesc &d = kc::cipher_desc(c);
    Problem p{};
    p.cipher = c;
    p.unknown_bits = 40;
    for (size_t i = 0; i < d.key_bytes; i++)
        p.key[i] = (uint8_t)rng();
    for (int set = 0; set < p.unknown_bits;) {
        const size_t byte = rng() % d.key_bytes;
        const uint8_t bit = (uint8_t)(1u << (rng() % 8));
        if (!(p.mask[byte] & bit)) {
            p.mask[byte] |= bit;
            set++;
        }
    }
    kc::keysearch::Pair pair{};
    for (size_t i = 0; i < d.block_bytes; i++) {
        pair.pt[i] = (uint8_t)rng();
        pair.ct[i] = (uint8_t)rng();
    }
    p.pairs.push_back(pair);
    return p;
}

double one_run(const Problem &p, uint64_t count, int device, const GpuSearchShape &shape)
{
    std::vector<uint64_t> hits;
    const auto t0 = std::chrono::steady_clock::now();
    const kcipher_status s = kc::keysearch::gpu_search_first_pair(p, 0, count, device, hits, shape);
    const auto t1 = std::chrono::steady_clock::now();
    if (s != KCIPHER_OK)
        throw std::runtime_error(std::string("GPU key search: ") + kcipher_strerror(s) + " " +
                                 kcipher_gpu_last_error());
    return std::chrono::duration<double>(t1 - t0).count();
}

} // namespace

int run_keysearch_gpu_bench(const KeysearchGpuBenchOptions &o)
{
    const std::vector<kc::GpuInfo> gpus = kc::cuda_devices();
    if (o.device < 0 || o.device >= (int)gpus.size()) {
        fmt::print(stderr, "kcipher-lab: no GPU {} here ({})\n", o.device, kc::cuda_runtime_status());
        return 1;
    }
    std::vector<kc::Cipher> ciphers;
    for (std::string n : o.ciphers) {
        for (const char *mode : {"-ecb", "-cbc", "-ctr"}) // bench's -c takes a mode suffix
            if (n.size() > 4 && n.compare(n.size() - 4, 4, mode) == 0)
                n.resize(n.size() - 4);
        const kc::CipherDesc *d = kc::cipher_by_name(n);
        if (d == nullptr)
            throw std::runtime_error("unknown cipher '" + n + "'");
        ciphers.push_back(d->id);
    }
    if (ciphers.empty())
        for (int i = 0; i < kc::cipher_count; i++)
            ciphers.push_back(kc::cipher_by_index(i)->id);

    const uint64_t count = 1ull << o.log2_keys;
    struct Shape {
        const char *name;
        GpuSearchShape s;
    };
    // The paper's shape covers 2^35 candidates per launch; for other counts, launches repeat.
    const Shape shapes[] = {{"paper-1024x512x65536", {512, 1024, 65536}}, {"default", {}}};
    std::mt19937_64 rng(std::random_device{}());
    nlohmann::json rows = nlohmann::json::array();
    fmt::print("# GPU key search on {} ({} SMs), 2^{} candidates per run, median of {}\n", gpus[o.device].name,
               gpus[o.device].multiprocessors, o.log2_keys, o.runs);
    fmt::print("{:<14} {:<22} {:>12} {:>14}\n", "cipher", "shape", "seconds", "keys/s");
    for (kc::Cipher c : ciphers) {
        for (const Shape &sh : shapes) {
            one_run(random_problem(c, rng), count >> 4, o.device, sh.s); // warm-up
            std::vector<double> t;
            for (int r = 0; r < o.runs; r++)
                t.push_back(one_run(random_problem(c, rng), count, o.device, sh.s));
            std::sort(t.begin(), t.end());
            const double med = t[t.size() / 2], rate = (double)count / med;
            fmt::print("{:<14} {:<22} {:>12.4f} {:>14.4g}\n", kc::cipher_desc(c).name, sh.name, med, rate);
            rows.push_back({{"bench", "keysearch-gpu"},
                            {"cipher", kc::cipher_desc(c).name},
                            {"shape", sh.name},
                            {"candidates", count},
                            {"runs", o.runs},
                            {"seconds_median", med},
                            {"keys_per_second", rate},
                            {"gpu", gpus[o.device].name}});
        }
    }
    if (!o.json.empty())
        write_json_file(o.json, rows);
    return 0;
}

} // namespace lab
