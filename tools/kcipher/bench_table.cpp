#include "bench_table.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <stdexcept>
#include <thread>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "bench_clock.hpp"
#include "bench_cpu.hpp"
#include "bench_cryptopp.hpp"
#include "bench_json.hpp"
#include "bench_openssl.hpp"
#include "kcipher/kcipher.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

// One row of the table: a target at one size and thread count, and what each round gave.
struct Row {
    Target t;
    std::vector<Work> works; // one per thread
    std::vector<std::vector<uint8_t>> bufs;
    std::vector<double> rates, cpb, ghz; // per round, in round order
    bool counted = true;                 // every slice's cycles came from the CPU's counters
};

// Every thread of the row runs one slice at once; recorded as one round unless a warm-up.
void run_round(Row &r, size_t size, double seconds, bool record)
{
    const size_t n = r.works.size();
    std::vector<Slice> out(n);
    std::vector<std::thread> pool;
    std::exception_ptr err;
    auto one = [&](size_t i) {
        try {
            out[i] = run_slice(r.works[i], r.bufs[i].data(), size, seconds);
        } catch (...) {
            err = std::current_exception();
        }
    };
    for (size_t i = 1; i < n; i++)
        pool.emplace_back(one, i);
    one(0);
    for (auto &th : pool)
        th.join();
    if (err)
        std::rethrow_exception(err);
    if (!record)
        return;
    double rate = 0, bytes = 0, cycles = 0;
    std::vector<double> ghz;
    for (const Slice &s : out) {
        rate += s.rate;
        bytes += s.bytes;
        cycles += s.core_cycles();
        const bool counted = s.cycles > 0 && s.cpu_seconds > 0;
        ghz.push_back(counted ? s.cycles / s.cpu_seconds / 1e9 : s.probe_ghz);
        r.counted = r.counted && counted;
    }
    r.rates.push_back(rate);
    r.cpb.push_back(cycles / bytes);
    r.ghz.push_back(median(ghz));
}

// A cipher's rows at one size and thread count, interleaved: a warm-up slice each, then
// `rounds` rounds in which every row runs one slice, the order rotating by one per round so
// that no row always runs first (or right after the same neighbour).
std::vector<Row> measure_group(const std::vector<Target> &targets, size_t size, unsigned threads,
                               const CpuBenchOptions &o)
{
    std::vector<Row> rows;
    for (const Target &t : targets) {
        Row r{t, {}, {}, {}, {}, {}, true};
        for (unsigned i = 0; i < threads; i++) {
            r.works.push_back(t.make_worker());
            r.bufs.push_back(random_bytes(size + 64));
        }
        rows.push_back(std::move(r));
    }
    for (Row &r : rows)
        run_round(r, size, o.seconds / 4, false);
    for (int k = 0; k < o.rounds; k++)
        for (size_t j = 0; j < rows.size(); j++)
            run_round(rows[(j + k) % rows.size()], size, o.seconds, true);
    return rows;
}

Target openssl_target(const std::string &evp_name, const std::string &cipher, const std::string &mode,
                      size_t key_bytes)
{
    auto key = std::make_shared<std::vector<uint8_t>>(random_bytes(key_bytes));
    auto probe = OpensslCipher::make(evp_name, key->data(), random_bytes(16).data());
    if (!probe)
        return {};
    Target t{"openssl", cipher, mode, "libcrypto EVP", probe->library_version(), false, false, nullptr};
    t.make_worker = [evp_name, key]() -> Work {
        std::shared_ptr<OpensslCipher> c = OpensslCipher::make(evp_name, key->data(), random_bytes(16).data());
        return [c](const uint8_t *in, uint8_t *out, size_t n) { c->encrypt(in, out, n); };
    };
    return t;
}

Target cryptopp_target(const std::string &cipher, const std::string &mode, size_t key_bytes, size_t block_bytes)
{
    auto key = std::make_shared<std::vector<uint8_t>>(random_bytes(key_bytes));
    std::string label;
    if (!cryptopp_worker(cipher, mode, key->data(), key->size(), random_bytes(block_bytes).data(), &label))
        return {};
    Target t{"cryptopp", cipher, mode, label, cryptopp_version(), false, false, nullptr};
    t.make_worker = [cipher, mode, key, block_bytes]() -> Work {
        std::string unused;
        return cryptopp_worker(cipher, mode, key->data(), key->size(), random_bytes(block_bytes).data(), &unused);
    };
    return t;
}

std::vector<std::string> kernels_for(const kcipher_cipher_info &info, const CpuBenchOptions &o)
{
    std::vector<std::string> out;
    for (const std::string &k : o.kernels) {
        if (k == "all") {
            for (size_t i = 0; i < kcipher_kernel_count(); i++) {
                kcipher_kernel_info ki;
                kcipher_kernel_get(i, &ki);
                bool gpu = std::string(ki.requires).find("cuda-gpu") != std::string::npos;
                if (ki.available && !gpu && std::string(ki.family) == info.family)
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

// OpenSSL's rows for one of our ciphers: its ARIA (and, for the full table, Camellia and AES
// of the same key size, the yardsticks of the ARIA papers), and its SEED, which has no CTR in
// OpenSSL: beside our CTR its ECB runs, in a row of its own mode (so no ratio is drawn).
struct Peer {
    std::string evp, cipher, mode;
    size_t key_bytes;
};

// The authenticated modes: OpenSSL's ARIA in the same mode (GCM, CCM; CMAC over ARIA-CBC and
// GMAC over ARIA-GCM through EVP_MAC), and beside every GCM row AES-GCM of the same key size,
// the yardstick of GCM speed.
std::vector<Peer> openssl_aead_peers(const std::string &cipher, const std::string &mode, size_t key_bytes)
{
    std::vector<Peer> out;
    if (cipher.rfind("aria-", 0) == 0)
        out.push_back({cipher + "-" + mode, cipher, mode, key_bytes});
    const std::string aes = "aes-" + std::to_string(8 * key_bytes);
    if (mode == "gcm")
        out.push_back({aes + "-gcm", aes, mode, key_bytes});
    return out;
}

std::vector<Peer> openssl_peers(const std::string &cipher, const std::string &mode, bool all)
{
    std::vector<Peer> out;
    if (mode == "xts") // OpenSSL has no ARIA-, SEED- or Camellia-XTS to compare with
        return out;
    if (mode == "gcm" || mode == "ccm" || mode == "cmac" || mode == "gmac") {
        kcipher_cipher_info info;
        kcipher::check(kcipher_cipher_find(cipher.c_str(), &info));
        return openssl_aead_peers(cipher, mode, info.key_bytes);
    }
    if (cipher.rfind("aria-", 0) == 0) {
        const std::string bits = cipher.substr(5);
        std::vector<std::string> algs{"aria"};
        if (all)
            algs.insert(algs.end(), {"camellia", "aes"});
        for (const std::string &alg : algs)
            out.push_back({alg + "-" + bits + "-" + mode, alg + "-" + bits, mode, std::stoul(bits) / 8});
    } else if (cipher == "seed-128") {
        const std::string m = mode == "ctr" ? "ecb" : mode;
        out.push_back({"seed-" + m, cipher, m, 16});
    }
    return out;
}

// One group per requested cipher: our kernels, then the peers' rows of the same cipher
// (openssl_peers); a peer row that an earlier group already has is not measured twice.
std::vector<std::vector<Target>> build_groups(const CpuBenchOptions &o)
{
    std::vector<std::vector<Target>> groups;
    std::vector<std::string> compared;
    auto first_time = [&](const std::string &id) {
        if (std::find(compared.begin(), compared.end(), id) != compared.end())
            return false;
        compared.push_back(id);
        return true;
    };
    for (const std::string &name : o.ciphers) {
        const CipherArg arg = parse_cipher_arg(name);
        const char *cipher = arg.cipher.c_str();
        const kcipher_mode mode = arg.mode == KCIPHER_MODE_NONE ? KCIPHER_MODE_CTR : arg.mode;
        kcipher_cipher_info info;
        kcipher::check(kcipher_cipher_find(cipher, &info));
        std::vector<Target> g;
        for (const std::string &k : kernels_for(info, o))
            g.push_back(kcipher_target(cipher, mode, k, o.decrypt, o.stream));
        // The baseline kernel first, so that the others' rows follow it.
        std::stable_partition(g.begin(), g.end(), [&](const Target &t) { return t.kernel == o.baseline; });
        const std::string c(cipher), m = g.back().mode;
        if (o.openssl && !o.decrypt && !o.stream)
            for (const Peer &p : openssl_peers(c, m, o.all)) {
                if (!first_time(p.evp))
                    continue;
                Target t = openssl_target(p.evp, p.cipher, p.mode, p.key_bytes);
                if (t.make_worker)
                    g.push_back(t);
            }
        const bool cryptopp_mode = m == "ecb" || m == "cbc" || m == "ctr"; // not its GCM, CCM, CMAC (yet)
        if (o.cryptopp && !o.decrypt && !o.stream && cryptopp_mode && cryptopp_available() && first_time("cryptopp:" + c + "-" + m)) {
            Target t = cryptopp_target(c, m, info.key_bytes, info.block_bytes);
            if (t.make_worker)
                g.push_back(t);
        }
        groups.push_back(std::move(g));
    }
    return groups;
}

// Median over the rounds of a's rate / b's rate in the same round ("" unless both measured).
std::string paired_ratio(const Row &a, const Row *b)
{
    if (b == nullptr || b->rates.size() != a.rates.size() || a.rates.empty())
        return "";
    std::vector<double> q;
    for (size_t k = 0; k < a.rates.size(); k++)
        q.push_back(a.rates[k] / b->rates[k]);
    return fmt::format("{:.2f}x", median(q));
}

const Row *find_row(const std::vector<Row> &rows, const std::string &impl, const Target &t, const std::string &kernel = "")
{
    for (const Row &r : rows)
        if (r.t.impl == impl && r.t.cipher == t.cipher && r.t.mode == t.mode && (kernel.empty() || r.t.kernel == kernel))
            return &r;
    return nullptr;
}

// What the kernel column shows: our kernel's name, the peer's library, or the footnote mark
// for Crypto++'s CHAM (the original cipher, fewer rounds than the revised one we implement).
std::string kernel_label(const Target &t)
{
    std::string k = t.impl == "cryptopp" ? (t.kernel.find("original CHAM") != std::string::npos ? "Crypto++ (CHAM*)" : "Crypto++")
                                         : t.kernel;
    return k.size() > 20 ? k.substr(0, 20) : k;
}

// What a row's call does to its message: "encrypt" or "decrypt" (ECB, CBC, CTR), "seal" or "open" (GCM, CCM:
// ciphertext and a 16-byte tag), "mac" (CMAC, GMAC: the tag alone) or "update" (--stream: one update of a
// MAC's stream).
const char *operation_of(const std::string &mode, bool decrypt, bool stream)
{
    if (mode == "gcm" || mode == "ccm")
        return decrypt ? "open" : "seal";
    if (mode == "cmac" || mode == "gmac")
        return stream ? "update" : "mac";
    return decrypt && mode != "ctr" ? "decrypt" : "encrypt";
}

} // namespace

int run_cpu_bench(CpuBenchOptions o)
{
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    if (o.ciphers.empty())
        for (size_t i = 0; i < kcipher_cipher_count(); i++) {
            kcipher_cipher_info c;
            kcipher_cipher_get(i, &c);
            o.ciphers.push_back(std::string(c.name) + "-ctr");
        }
    if (o.sizes.empty())
        o.sizes = o.all ? std::vector<size_t>{64, 1024, 4096, 16384, 1 << 20} : std::vector<size_t>{16384};
    if (o.threads.empty())
        o.threads = o.all && hw > 1 ? std::vector<unsigned>{1, hw} : std::vector<unsigned>{1};
    for (unsigned &t : o.threads)
        if (t == 0)
            t = hw;
    for (size_t s : o.sizes)
        if (s == 0)
            throw UsageError("--size must be at least 1 byte");
    if (o.rounds < 1)
        throw UsageError("--rounds must be at least 1");

    const std::vector<std::vector<Target>> groups = build_groups(o);
    const bool counters = CycleCounter().ok();
    const std::string cpu = cpu_model_name();
    std::string peers;
    if (o.openssl && openssl_available())
        peers += ", OpenSSL";
    if (o.cryptopp && cryptopp_available())
        peers += ", " + cryptopp_version();
    if (!o.openssl && !o.cryptopp)
        peers = ", none asked for";
    else if (peers.empty())
        peers = ", none found when kcipher was built";
    fmt::print("# {}; {} hardware threads; kcipher {}; peers{}\n", cpu, hw, kcipher_version(), peers.replace(0, 1, ":"));
    fmt::print("# each row: median of {} rounds of {:g} s; a cipher's rows take turns in every round, so all see the "
               "same machine\n",
               o.rounds, o.seconds);
    fmt::print("# c/B: the row's own core cycles / bytes; GHz: that row's clock ({}); vs-X: our rate / X's, paired "
               "by round\n",
               counters ? "CPU cycle counters" : "an add chain after each slice; cycles = it x thread CPU time");
    if (o.stream)
        fmt::print("# --stream: a cmac or gmac row's every call is one update of a single stream: the hash alone "
                   "(gmac: GHASH), no message's setup or tag\n");
    const bool base = !o.baseline.empty();
    fmt::print("{:<8} {:<14} {:<4} {:<20} {:>7} {:>3} {:>9} {:>7} {:>5} {:>10} {:>11}{}\n", "impl", "cipher", "mode",
               "kernel", "bytes", "thr", "MB/s", "c/B", "GHz", "vs-openssl", "vs-cryptopp", base ? "  vs-base" : "");

    nlohmann::json records = nlohmann::json::array();
    bool old_cham = false;
    for (size_t size : o.sizes)
        for (unsigned th : o.threads)
            for (const std::vector<Target> &g : groups) {
                const std::vector<Row> rows = measure_group(g, size, th, o);
                for (const Row &r : rows) {
                    const Target &t = r.t;
                    const bool ours = t.impl == "kcipher";
                    const double rate = median(r.rates), cpb = median(r.cpb), ghz = median(r.ghz);
                    std::string vs_openssl = ours ? paired_ratio(r, find_row(rows, "openssl", t)) : "";
                    std::string vs_cryptopp = ours ? paired_ratio(r, find_row(rows, "cryptopp", t)) : "";
                    std::string vs_base = ours && base ? paired_ratio(r, find_row(rows, "kcipher", t, o.baseline)) : "";
                    old_cham = old_cham || kernel_label(t) == "Crypto++ (CHAM*)";
                    fmt::print("{:<8} {:<14} {:<4} {:<20} {:>7} {:>3} {:>9.1f} {:>7.2f} {:>5.2f} {:>10} {:>11}{}\n",
                               t.impl, t.cipher, t.mode, kernel_label(t), size, th, rate / 1e6, cpb, ghz, vs_openssl,
                               vs_cryptopp, base ? fmt::format(" {:>8}", vs_base) : "");
                    records.push_back({{"implementation", t.impl},
                                       {"version", t.version},
                                       {"cipher", t.cipher},
                                       {"mode", t.mode},
                                       {"operation", operation_of(t.mode, t.decrypt, t.stream)},
                                       {"kernel", t.kernel},
                                       {"bytes", size},
                                       {"threads", th},
                                       {"bytes_per_second", rate},
                                       {"gbytes_per_second", rate / 1e9},
                                       {"cycles_per_byte", cpb},
                                       {"clock_ghz", ghz},
                                       {"clock_method", r.counted ? "CPU cycle counters (perf_event_open)"
                                                                  : "add chain right after each slice"},
                                       {"rounds", o.rounds},
                                       {"slice_seconds", o.seconds},
                                       {"round_bytes_per_second", r.rates},
                                       {"cpu", cpu},
                                       {"hardware_threads", hw}});
                }
                std::fflush(stdout);
            }
    if (old_cham)
        fmt::print("# CHAM*: Crypto++ has the original CHAM (80/80/96 rounds), not the revised 88/112/120 that kcipher "
                   "implements\n");
    if (!o.json.empty())
        write_json_file(o.json, records);
    return 0;
}

} // namespace cli
