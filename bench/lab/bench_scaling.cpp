#include "bench_scaling.hpp"

#include <pthread.h>
#include <sched.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "bench_clock.hpp"
#include "bench_cpu.hpp"
#include "bench_json.hpp"
#include "kcipher/kcipher.hpp"

namespace lab {

// From the CLI's benchmark kit (tools/kcipher/bench_*.hpp).
using cli::Slice;
using cli::Target;
using cli::Work;
using cli::cpu_model_name;
using cli::kcipher_target;
using cli::median;
using cli::random_bytes;
using cli::run_slice;
using cli::write_json_file;

namespace {

std::vector<int> allowed_cpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        throw std::runtime_error("sched_getaffinity failed");
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            cpus.push_back(c);
    return cpus;
}

void pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0)
        throw std::runtime_error(fmt::format("cannot pin a thread to CPU {}", cpu));
}

struct Run {
    double rate = 0;  // bytes per second, all threads together: median of the slices
    double ghz = 0;   // the clock right after the work, median over threads and slices
};

// One worker per listed CPU, each pinned there, all at once: a warm-up slice, then 3 timed.
Run run_on(const Target &t, const std::vector<int> &cpus, size_t bytes, double seconds)
{
    const size_t n = cpus.size();
    std::vector<Work> works(n);
    std::vector<std::vector<uint8_t>> bufs(n);
    for (size_t i = 0; i < n; i++) {
        works[i] = t.make_worker();
        bufs[i] = random_bytes(bytes + 64);
    }
    std::vector<std::vector<Slice>> out(n);
    std::vector<std::thread> pool;
    std::exception_ptr err;
    for (size_t i = 0; i < n; i++)
        pool.emplace_back([&, i] {
            try {
                pin_to(cpus[i]);
                run_slice(works[i], bufs[i].data(), bytes, seconds / 2);
                for (int k = 0; k < 3; k++)
                    out[i].push_back(run_slice(works[i], bufs[i].data(), bytes, seconds));
            } catch (...) {
                err = std::current_exception();
            }
        });
    for (auto &th : pool)
        th.join();
    if (err)
        std::rethrow_exception(err);
    std::vector<double> sums, ghz;
    for (int k = 0; k < 3; k++) {
        double s = 0;
        for (size_t i = 0; i < n; i++) {
            s += out[i][k].rate;
            ghz.push_back(out[i][k].probe_ghz);
        }
        sums.push_back(s);
    }
    return {median(sums), median(ghz)};
}

struct Row {
    std::string cipher, mode, kernel;
    std::vector<double> single;     // per CPU, last round
    std::vector<double> ratio;      // all / sum(single), per round
    std::vector<double> ratio_flat; // all / (n x median single), per round
    double all = 0, single_ghz = 0, all_ghz = 0;
};

Row measure_scaling(const Target &t, const std::vector<int> &cpus, const ScalingBenchOptions &o)
{
    Row r{t.cipher, t.mode, t.kernel, {}, {}, {}, 0, 0, 0};
    std::vector<double> all, sghz, aghz;
    for (int round = 0; round < o.rounds; round++) {
        std::vector<double> single;
        double sum = 0;
        for (int c : cpus) {
            Run s = run_on(t, {c}, o.bytes, o.seconds);
            single.push_back(s.rate);
            sghz.push_back(s.ghz);
            sum += s.rate;
        }
        Run a = run_on(t, cpus, o.bytes, o.seconds);
        all.push_back(a.rate);
        aghz.push_back(a.ghz);
        r.ratio.push_back(a.rate / sum);
        r.ratio_flat.push_back(a.rate / (cpus.size() * median(single)));
        r.single = single;
    }
    r.all = median(all), r.single_ghz = median(sghz), r.all_ghz = median(aghz);
    return r;
}

// Every pair of CPUs at once against the two alone: returns pair ratios, row-major upper half.
std::vector<nlohmann::json> measure_pairs(const Target &t, const std::vector<int> &cpus, const std::vector<double> &single,
                                          const ScalingBenchOptions &o)
{
    std::vector<nlohmann::json> out;
    fmt::print("# pairs of CPUs, {}: both at once / the two alone (a shared physical core gives ~0.5-0.6 "
               "for a port-bound kernel)\n",
               t.cipher);
    for (size_t i = 0; i < cpus.size(); i++)
        for (size_t j = i + 1; j < cpus.size(); j++) {
            Run p = run_on(t, {cpus[i], cpus[j]}, o.bytes, o.seconds / 2);
            double ratio = p.rate / (single[i] + single[j]);
            out.push_back({{"cpus", {cpus[i], cpus[j]}}, {"ratio", ratio}});
            if (ratio < 0.8)
                fmt::print("cpus {:>2},{:>2}: {:.2f}\n", cpus[i], cpus[j], ratio);
        }
    return out;
}

// The machine's own scaling, as a yardstick for the kernels': code that shares nothing and
// touches no memory, only registers. 'alu512': eight independent chains of 512-bit adds and
// XORs (keeps both 512-bit ports busy, as the port-bound kernels do); 'alu64': the same on
// general registers. A row's "bytes" are 64 per chain step, a nominal unit.
#if defined(__x86_64__)
__attribute__((target("avx512f"))) void alu512(size_t steps)
{
    __m512i a[8], k = _mm512_set1_epi32(0x9e3779b9);
    for (int i = 0; i < 8; i++)
        a[i] = _mm512_set1_epi32(i);
    for (size_t n = 0; n < steps; n += 8)
        for (int i = 0; i < 8; i++) {
            a[i] = _mm512_xor_si512(_mm512_add_epi32(a[i], k), k);
            __asm__ volatile("" : "+v"(a[i]));
        }
}
#endif

#if defined(__x86_64__)
// 'cham-round': CHAM-128's round as the AVX-512 kernels compute it for a group of 16 blocks
// (x = ROTB((x ^ i) + (ROTA(y) ^ RK)): two rotations, VPROLD and VPSHUFB, two XORs and an add)
// on 16 independent groups, registers only, written in asm so that the count is exact: the
// rate this core sustains for the round's operation mix. Counted in CHAM-128/128's bytes
// (112 rounds of a group per 256 bytes), it is the rate CHAM-128/128 CTR would reach if
// nothing but its rounds cost anything: the kernel's ceiling on this core, measured.
#define KC_YS_ROL1(s, d) "vprold $1, " s ", " d "\n\t"
#define KC_YS_ROL8(s, d) "vpshufb %%zmm31, " s ", " d "\n\t"
#define KC_YS_ROUND(x, y, t, ra, rb)                                                                    \
    ra(y, t) "vpxord %%zmm30, " t ", " t "\n\t" "vpxord %%zmm29, " x ", " x "\n\t"                 \
    "vpaddd " t ", " x ", " x "\n\t" rb(x, x)
__attribute__((target("avx512f,avx512bw"))) void cham_round(size_t units)
{
    for (size_t n = 0; n < units; n += 16)
        __asm__ volatile(
            KC_YS_ROUND("%%zmm0", "%%zmm16", "%%zmm24", KC_YS_ROL1, KC_YS_ROL8)
            KC_YS_ROUND("%%zmm1", "%%zmm17", "%%zmm25", KC_YS_ROL1, KC_YS_ROL8)
            KC_YS_ROUND("%%zmm2", "%%zmm18", "%%zmm26", KC_YS_ROL1, KC_YS_ROL8)
            KC_YS_ROUND("%%zmm3", "%%zmm19", "%%zmm27", KC_YS_ROL1, KC_YS_ROL8)
            KC_YS_ROUND("%%zmm4", "%%zmm16", "%%zmm24", KC_YS_ROL8, KC_YS_ROL1)
            KC_YS_ROUND("%%zmm5", "%%zmm17", "%%zmm25", KC_YS_ROL8, KC_YS_ROL1)
            KC_YS_ROUND("%%zmm6", "%%zmm18", "%%zmm26", KC_YS_ROL8, KC_YS_ROL1)
            KC_YS_ROUND("%%zmm7", "%%zmm19", "%%zmm27", KC_YS_ROL8, KC_YS_ROL1)
            KC_YS_ROUND("%%zmm8", "%%zmm16", "%%zmm24", KC_YS_ROL1, KC_YS_ROL8)
            KC_YS_ROUND("%%zmm9", "%%zmm17", "%%zmm25", KC_YS_ROL1, KC_YS_ROL8)
            KC_YS_ROUND("%%zmm10", "%%zmm18", "%%zmm26", KC_YS_ROL1, KC_YS_ROL8)
            KC_YS_ROUND("%%zmm11", "%%zmm19", "%%zmm27", KC_YS_ROL1, KC_YS_ROL8)
            KC_YS_ROUND("%%zmm12", "%%zmm16", "%%zmm24", KC_YS_ROL8, KC_YS_ROL1)
            KC_YS_ROUND("%%zmm13", "%%zmm17", "%%zmm25", KC_YS_ROL8, KC_YS_ROL1)
            KC_YS_ROUND("%%zmm14", "%%zmm18", "%%zmm26", KC_YS_ROL8, KC_YS_ROL1)
            KC_YS_ROUND("%%zmm15", "%%zmm19", "%%zmm27", KC_YS_ROL8, KC_YS_ROL1)
            :
            :
            : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
              "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm24", "xmm25", "xmm26",
              "xmm27", "xmm29", "xmm30", "xmm31");
}
#undef KC_YS_ROUND
#undef KC_YS_ROL8
#undef KC_YS_ROL1

// 'gfni512': HIGHT's byte-sliced operation mix (an F-function as one GF2P8AFFINEQB, a byte
// addition and an XOR) on eight independent chains, registers only: does the machine's
// all-core clock hold under 512-bit GFNI work as it does under alu512's adds and XORs?
// A row's "bytes" are 64 per chain step, as for alu512.
__attribute__((target("avx512f,avx512bw,gfni"))) void gfni512(size_t steps)
{
    __m512i a[8];
    const __m512i m = _mm512_set1_epi64(0x0102040810204080), k = _mm512_set1_epi32(0x9e3779b9);
    for (int i = 0; i < 8; i++)
        a[i] = _mm512_set1_epi32(i);
    for (size_t n = 0; n < steps; n += 8)
        for (int i = 0; i < 8; i++) {
            a[i] = _mm512_xor_si512(_mm512_add_epi8(_mm512_gf2p8affine_epi64_epi8(a[i], m, 0), k), k);
            __asm__ volatile("" : "+v"(a[i]));
        }
}
#endif

void alu64(size_t steps)
{
    uint64_t a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const uint64_t k = 0x9e3779b97f4a7c15;
    for (size_t n = 0; n < steps; n += 8)
        for (int i = 0; i < 8; i++) {
            a[i] = (a[i] + k) ^ k;
            __asm__ volatile("" : "+r"(a[i]));
        }
}

// Whether dispatch may use a CPU feature (as kcipher_cpu_features lists them, so that
// KCIPHER_CPU_FEATURES holds for the yardsticks too).
bool cpu_has(const std::string &feature)
{
    std::istringstream s(kcipher_cpu_features());
    for (std::string f; s >> f;)
        if (f == feature)
            return true;
    return false;
}

Target machine_target(const std::string &name)
{
    void (*f)(size_t) = nullptr;
    size_t per_256 = 32; // steps of f per 256 "bytes": a nominal 64 bytes per chain step
    if (name == "alu64")
        f = alu64;
#if defined(__x86_64__)
    if (name == "alu512" && cpu_has("avx512f"))
        f = alu512;
    if (name == "cham-round" && cpu_has("avx512f") && cpu_has("avx512bw"))
        f = cham_round, per_256 = 112; // 112 rounds of a 16-block group: 256 bytes of CHAM-128/128
    if (name == "gfni512" && cpu_has("avx512f") && cpu_has("avx512bw") && cpu_has("gfni"))
        f = gfni512;
#endif
    if (f == nullptr)
        return {};
    Target t{"machine", name, "-", "machine/" + name, "", false, false, nullptr};
    t.make_worker = [f, per_256]() -> Work {
        return [f, per_256](const uint8_t *, uint8_t *, size_t n) { f(n / 256 * per_256); };
    };
    return t;
}

Target target_for(const std::string &name, const std::string &kernel)
{
    if (name.rfind("machine/", 0) == 0) {
        Target t = machine_target(name.substr(8));
        if (t.impl.empty())
            throw std::runtime_error("unknown or unsupported yardstick '" + name +
                                     "' (machine/alu64, machine/alu512, machine/gfni512, machine/cham-round)");
        return t;
    }
    char cipher[32];
    kcipher_mode mode;
    kcipher_status st = kcipher_parse_name(name.c_str(), cipher, sizeof cipher, &mode);
    if (st != KCIPHER_OK)
        throw std::runtime_error(fmt::format("--cipher '{}': {}", name, kcipher_strerror(st)));
    return kcipher_target(cipher, mode == KCIPHER_MODE_NONE ? KCIPHER_MODE_CTR : mode, kernel);
}

} // namespace

int run_scaling_bench(const ScalingBenchOptions &o)
{
    std::vector<std::string> names = o.ciphers;
    if (names.empty())
        names = {"machine/alu512", "aria-128-ctr", "lea-128-ctr", "hight-ctr", "cham-64-128-ctr", "cham-128-128-ctr",
                 "machine/cham-round", "machine/gfni512", "machine/alu64"};
    std::vector<std::string> kernels = o.kernels.empty() ? std::vector<std::string>{""} : o.kernels;
    const std::vector<int> cpus = allowed_cpus();
    const std::string cpu = cpu_model_name();
    fmt::print("# {}; {} CPUs; {} B messages, {} rounds of (each CPU alone, then all at once), {} s slices\n", cpu,
               cpus.size(), o.bytes, o.rounds, o.seconds);
    fmt::print("# scaling = all-core rate / sum of the single-core rates (flat: / (CPUs x median single)); "
               "median over rounds [min-max]\n");
    fmt::print("{:<14} {:<4} {:<18} {:>10} {:>10} {:>18} {:>18} {:>11}\n", "cipher", "mode", "kernel", "1-core MB/s",
               "all MB/s", "scaling", "flat", "GHz 1/all");
    nlohmann::json rows = nlohmann::json::array();
    for (const std::string &name : names)
        for (const std::string &k : kernels) {
            const bool machine = name.rfind("machine/", 0) == 0;
            if (machine && &k != &kernels.front())
                continue;
            Target t = target_for(name, machine ? "" : k);
            if (!machine && !k.empty() && t.kernel != k)
                continue;
            Row r = measure_scaling(t, cpus, o);
            auto mm = [](const std::vector<double> &v) {
                return fmt::format("{:.1f}% [{:.0f}-{:.0f}]", 100 * median(v), 100 * *std::min_element(v.begin(), v.end()),
                                   100 * *std::max_element(v.begin(), v.end()));
            };
            fmt::print("{:<14} {:<4} {:<18} {:>10.0f} {:>10.0f} {:>18} {:>18} {:>5.2f}/{:.2f}\n", r.cipher, r.mode,
                       r.kernel, median(r.single) / 1e6, r.all / 1e6, mm(r.ratio), mm(r.ratio_flat), r.single_ghz,
                       r.all_ghz);
            std::fflush(stdout);
            nlohmann::json j{{"benchmark", "cpu_scaling"}, {"cpu", cpu},          {"cpus", cpus.size()},
                             {"cipher", r.cipher},         {"mode", r.mode},      {"kernel", r.kernel},
                             {"bytes", o.bytes},           {"rounds", o.rounds},  {"seconds", o.seconds},
                             {"single_bytes_per_second", r.single}, {"all_bytes_per_second", r.all},
                             {"scaling", median(r.ratio)}, {"scaling_per_round", r.ratio},
                             {"scaling_flat", median(r.ratio_flat)}, {"clock_single_ghz", r.single_ghz},
                             {"clock_all_ghz", r.all_ghz}};
            if (o.pairs && rows.empty())
                j["pairs"] = measure_pairs(t, cpus, r.single, o);
            rows.push_back(j);
        }
    if (!o.json.empty())
        write_json_file(o.json, rows);
    return 0;
}

} // namespace lab
