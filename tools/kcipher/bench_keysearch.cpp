#include "bench_keysearch.hpp"

#include <chrono>
#include <fstream>
#include <random>
#include <stdexcept>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "bench_clock.hpp"
#include "bench_json.hpp"
#include "kcipher/kcipher.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

struct Row {
    std::string cipher, kernel, device;
    unsigned threads;
    double keys_per_second;
};

std::vector<uint8_t> random_bytes(size_t n, std::mt19937_64 &g)
{
    std::vector<uint8_t> v(n);
    for (auto &b : v)
        b = uint8_t(g());
    return v;
}

// One timed search of a range that cannot finish within `seconds` and holds no key
// (the pair is random): stopped by the progress callback, the driver's own rate is the
// result, chunking and thread start-up included.
double time_search(const std::string &cipher, const char *kernel, kcipher_device dev, unsigned threads,
                   double seconds)
{
    std::mt19937_64 g(std::random_device{}());
    kcipher_cipher_info info;
    kcipher::check(kcipher_cipher_find(cipher.c_str(), &info));
    auto key = random_bytes(info.key_bytes, g), pt = random_bytes(info.block_bytes, g),
         ct = random_bytes(info.block_bytes, g);
    std::vector<uint8_t> mask(info.key_bytes, 0);
    for (size_t i = info.key_bytes - 6; i < info.key_bytes; i++)
        mask[i] = 0xff; // 48 unknown bits: more than any run here can finish
    kcipher_keysearch_params p;
    kcipher_keysearch_init(&p);
    p.cipher = info.name;
    p.plaintexts = pt.data();
    p.ciphertexts = ct.data();
    p.block_len = info.block_bytes;
    p.pair_count = 1;
    p.key = key.data();
    p.key_len = key.size();
    p.mask = mask.data();
    p.mask_len = mask.size();
    p.device = dev;
    p.threads = threads;
    p.kernel = kernel;
    kcipher_keysearch_progress_info last;
    kcipher::keysearch(p, {}, [&](const kcipher_keysearch_progress_info &i) { return i.elapsed_seconds < seconds; },
                       &last);
    return last.keys_per_second;
}

kcipher_device device_of(const std::string &d)
{
    if (d == "cpu")
        return KCIPHER_DEVICE_CPU;
    if (d == "gpu")
        return KCIPHER_DEVICE_GPU;
    if (d == "all")
        return KCIPHER_DEVICE_ALL;
    throw UsageError("--device must be cpu, gpu or all");
}

std::vector<std::string> kernels_of(const std::string &cipher, const KeysearchBenchOptions &o)
{
    kcipher_cipher_info info;
    kcipher::check(kcipher_cipher_find(cipher.c_str(), &info));
    std::vector<std::string> out;
    for (const std::string &k : o.kernels) {
        for (size_t i = 0; k == "all" && i < kcipher_kernel_count(); i++) {
            kcipher_kernel_info ki;
            kcipher_kernel_get(i, &ki);
            bool gpu = std::string(ki.requires).find("cuda-gpu") != std::string::npos;
            if (ki.available && !gpu && std::string(ki.family) == info.family)
                out.push_back(ki.name);
        }
        if (k != "all" && k.rfind(std::string(info.family) + "/", 0) == 0)
            out.push_back(k);
    }
    if (out.empty())
        out.push_back(""); // the search's own pick: the fastest measured per key
    return out;
}

std::vector<std::string> cipher_names(const KeysearchBenchOptions &o)
{
    std::vector<std::string> out;
    for (const std::string &c : o.ciphers) {
        char bare[32];
        kcipher_mode m;
        kcipher::check(kcipher_parse_name(c.c_str(), bare, sizeof bare, &m));
        out.push_back(bare);
    }
    bool every = out.empty();
    for (size_t i = 0; every && i < kcipher_cipher_count(); i++) {
        kcipher_cipher_info c;
        kcipher_cipher_get(i, &c);
        out.push_back(c.name);
    }
    return out;
}

void write_json(const std::string &path, const std::vector<Row> &rows)
{
    nlohmann::json list = nlohmann::json::array();
    for (const Row &r : rows)
        list.push_back({{"cipher", r.cipher}, {"kernel", r.kernel}, {"device", r.device}, {"threads", r.threads},
                        {"keys_per_second", r.keys_per_second},
                        {"keys_per_second_per_thread", r.keys_per_second / r.threads}, {"cpu", cpu_model_name()}});
    write_json_file(path, list);
}

} // namespace

int run_keysearch_bench(const KeysearchBenchOptions &o)
{
    kcipher_device dev = device_of(o.device);
    std::vector<unsigned> threads = o.threads.empty() ? std::vector<unsigned>{1} : o.threads;
    fmt::print("# key search: keys tested per second (early reject on one pair), {:.1f} s per row; {}\n", o.seconds,
               cpu_model_name());
    fmt::print("{:<14} {:<20} {:<6} {:>4} {:>14} {:>16}\n", "cipher", "kernel", "device", "thr", "keys/s",
               "keys/s/thread");
    std::vector<Row> rows;
    for (const std::string &c : cipher_names(o))
        for (const std::string &k : kernels_of(c, o))
            for (unsigned t : threads) {
                double r = time_search(c, k.empty() ? nullptr : k.c_str(), dev, t, o.seconds);
                unsigned per = dev == KCIPHER_DEVICE_GPU || t == 0 ? 1 : t;
                rows.push_back({c, k.empty() ? "(fastest)" : k, o.device, per, r});
                fmt::print("{:<14} {:<20} {:<6} {:>4} {:>14.4g} {:>16.4g}\n", c, rows.back().kernel, o.device, t, r,
                           r / per);
                std::fflush(stdout);
            }
    if (!o.json.empty())
        write_json(o.json, rows);
    return 0;
}

} // namespace cli
