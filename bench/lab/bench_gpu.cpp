// GPU benchmark. Every row is the median of `runs` timed runs over `bytes` of data (1 GiB by
// default, several times the 50 MiB L2), each run under a fresh random key and nonce, after
// one untimed warm-up. Kernel rows are timed with CUDA events around the launches; host rows
// with the wall clock around the library call. Rates are Gbps of plaintext (10^9 bits/s),
// as the papers report them.
//
//   keystream  CTR keystream written to device memory (what the papers measured)
//   ctr        CTR in place over a device buffer of random data
//   ecb-enc / ecb-dec  in place over a device buffer
//   host-ctr / host-ecb  host memory to host memory through the GPU (copies included)
//   pcie-h2d / pcie-d2h / pcie-both  cudaMemcpy of pinned memory, one way and both at once
//   gcm-seal / gcm-open  GCM on device memory through the public API: one message of
//              `bytes` (in place, 12-byte IV, 13-byte AAD), wall clock around the call
//   gcm-batch-seal / gcm-batch-open  the same bytes as 16 KiB messages in one batched call
//   host-gcm-seal / host-gcm-open  host memory through the GPU context (copies included)
//   xts-enc / xts-dec  XTS in place over the device buffer, 4 KiB data units (a disk's
//              sectors), timed with events like ecb-enc, which it is compared with
//   xts1-enc / xts1-dec  the same with the whole buffer one data unit
//   host-xts-enc  host memory through the GPU (4 KiB units; copies included), wall clock
#include "bench_gpu.hpp"
#include "bench_json.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>

#include "kcipher/kcipher.h"

#if defined(KCIPHER_HAVE_CUDA)
#include <cuda_runtime.h>

#include "core/key_state.hpp"
#include "cuda/devices.hpp"
#include "modes/gpu_modes.hpp"
#include "dispatch/registry.hpp"
#endif

namespace lab {

// From the CLI's benchmark kit (tools/kcipher/bench_*.hpp).
using cli::write_json_file;

#if !defined(KCIPHER_HAVE_CUDA)

int run_gpu_bench(const GpuBenchOptions &)
{
    fmt::print(stderr, "kcipher-lab: this build has no CUDA support (configure with nvcc present)\n");
    return 1;
}

#else

void check_cuda(int cuda_error, const char *what)
{
    if (cuda_error != cudaSuccess)
        throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(cudaError_t(cuda_error)));
}

namespace {

void ck(cudaError_t e, const char *what) { check_cuda(e, what); }

void ck(kcipher_status s, const char *what)
{
    if (s != KCIPHER_OK)
        throw std::runtime_error(std::string(what) + ": " + kcipher_strerror(s) + " " + kcipher_gpu_last_error());
}

std::mt19937_64 &rng()
{
    static std::mt19937_64 g(std::random_device{}());
    return g;
}

std::vector<uint8_t> random_bytes(size_t n)
{
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; i += 8) {
        uint64_t x = rng()();
        std::memcpy(v.data() + i, &x, std::min<size_t>(8, n - i));
    }
    return v;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

struct Row {
    std::string kernel, cipher, what;
    size_t bytes;
    unsigned threads, blocks; // 0 = the kernel's default launch shape
    double seconds;           // median
    int runs;
    double gbps() const { return bytes * 8.0 / seconds / 1e9; }
};

struct Device {
    uint8_t *buf = nullptr;
    cudaEvent_t a{}, b{};
    explicit Device(size_t n)
    {
        ck(cudaMalloc((void **)&buf, n), "cudaMalloc");
        ck(cudaEventCreate(&a), "event");
        ck(cudaEventCreate(&b), "event");
    }
    ~Device()
    {
        cudaFree(buf);
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
};

// Times fn(job) with events: one warm-up, then `runs` runs each under a fresh random key.
template <class Fn>
double time_kernel(const kc::Kernel &k, kc::Cipher c, Device &d, int runs, Fn fn)
{
    const kc::CipherDesc &desc = kc::cipher_desc(c);
    std::vector<double> t;
    for (int r = -1; r < runs; r++) {
        kc::KeyState ks;
        std::vector<uint8_t> key = random_bytes(desc.key_bytes);
        if (!ks.init(k, c, key.data()))
            throw std::runtime_error("out of memory");
        kc::GpuJob job{&k, ks.get(), desc.block_bytes};
        ck(cudaEventRecord(d.a), "record");
        ck(fn(job), k.name);
        ck(cudaEventRecord(d.b), "record");
        ck(cudaEventSynchronize(d.b), "kernel");
        float ms = 0;
        ck(cudaEventElapsedTime(&ms, d.a, d.b), "elapsed");
        if (r >= 0)
            t.push_back(ms / 1e3);
    }
    return median(t);
}

// A data key and a tweak key for kernel k, fresh random ones.
struct XtsKeys {
    kc::KeyState data, tweak;
    XtsKeys(const kc::Kernel &k, kc::Cipher c)
    {
        const size_t kb = kc::cipher_desc(c).key_bytes;
        std::vector<uint8_t> key = random_bytes(2 * kb);
        if (!data.init(k, c, key.data()) || !tweak.init(k, c, key.data() + kb))
            throw std::runtime_error("out of memory");
    }
};

// XTS over the device buffer in place, timed with events as time_kernel times ECB: one
// warm-up, then `runs` runs each under fresh keys and tweak. unit 0: one data unit.
double time_xts(const kc::Kernel &k, kc::Cipher c, Device &d, size_t bytes, int runs, bool decrypt, size_t unit)
{
    std::vector<double> t;
    for (int r = -1; r < runs; r++) {
        XtsKeys keys(k, c);
        const std::vector<uint8_t> tweak = random_bytes(16);
        kc::GpuJob job{&k, keys.data.get(), 16};
        ck(cudaEventRecord(d.a), "record");
        ck(kc::gpu_device_xts(job, keys.tweak.get(), decrypt, tweak.data(), unit, d.buf, d.buf, bytes, nullptr),
           k.name);
        ck(cudaEventRecord(d.b), "record");
        ck(cudaEventSynchronize(d.b), "kernel");
        float ms = 0;
        ck(cudaEventElapsedTime(&ms, d.a, d.b), "elapsed");
        if (r >= 0)
            t.push_back(ms / 1e3);
    }
    return median(t);
}

// Host memory to host memory through the GPU (the pinned pipeline), 4 KiB units, wall clock.
double time_host_xts(const kc::Kernel &k, kc::Cipher c, std::vector<uint8_t> &buf, int runs)
{
    std::vector<double> t;
    for (int r = -1; r < runs; r++) {
        XtsKeys keys(k, c);
        const std::vector<uint8_t> tweak = random_bytes(16);
        kc::GpuJob job{&k, keys.data.get(), 16};
        auto t0 = std::chrono::steady_clock::now();
        ck(kc::gpu_host_xts(job, keys.tweak.get(), false, tweak.data(), 4096, buf.data(), buf.data(), buf.size(), -1, 0),
           k.name);
        auto t1 = std::chrono::steady_clock::now();
        if (r >= 0)
            t.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    return median(t);
}

std::vector<const kc::Kernel *> gpu_kernels(const GpuBenchOptions &o)
{
    std::vector<const kc::Kernel *> out;
    for (const kc::Kernel *k : kc::all_kernels()) {
        if (k->gpu == nullptr)
            continue;
        if (!o.kernels.empty() && std::find(o.kernels.begin(), o.kernels.end(), k->name) == o.kernels.end())
            continue;
        out.push_back(k);
    }
    return out;
}

std::vector<kc::Cipher> ciphers(const GpuBenchOptions &o)
{
    std::vector<kc::Cipher> out;
    for (int i = 0; i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        if (o.ciphers.empty() || std::find(o.ciphers.begin(), o.ciphers.end(), d.name) != o.ciphers.end())
            out.push_back(d.id);
    }
    if (out.empty())
        throw std::runtime_error("--cipher names no cipher");
    return out;
}

void print(const Row &r)
{
    fmt::print("{:<26} {:<13} {:<10} {:>11} {:>5} {:>6} {:>10.3f} {:>9.1f}\n", r.kernel, r.cipher, r.what, r.bytes,
               r.threads, r.blocks, r.seconds * 1e3, r.gbps());
    std::fflush(stdout);
}

std::vector<Row> pcie(size_t bytes, int runs)
{
    std::vector<Row> rows;
    uint8_t *h1, *h2, *d1, *d2;
    ck(cudaHostAlloc((void **)&h1, bytes, 0), "cudaHostAlloc");
    ck(cudaHostAlloc((void **)&h2, bytes, 0), "cudaHostAlloc");
    ck(cudaMalloc((void **)&d1, bytes), "cudaMalloc");
    ck(cudaMalloc((void **)&d2, bytes), "cudaMalloc");
    std::memset(h1, 0x5a, bytes);
    std::memset(h2, 0xa5, bytes);
    cudaStream_t s1, s2;
    ck(cudaStreamCreate(&s1), "stream");
    ck(cudaStreamCreate(&s2), "stream");
    auto wall = [&](auto fn) {
        std::vector<double> t;
        for (int r = -1; r < runs; r++) {
            auto t0 = std::chrono::steady_clock::now();
            fn();
            ck(cudaStreamSynchronize(s1), "sync");
            ck(cudaStreamSynchronize(s2), "sync");
            if (r >= 0)
                t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        return median(t);
    };
    rows.push_back({"-", "-", "pcie-h2d", bytes, 0, 0,
                    wall([&] { cudaMemcpyAsync(d1, h1, bytes, cudaMemcpyHostToDevice, s1); }), runs});
    rows.push_back({"-", "-", "pcie-d2h", bytes, 0, 0,
                    wall([&] { cudaMemcpyAsync(h2, d2, bytes, cudaMemcpyDeviceToHost, s2); }), runs});
    // Both ways at once: the rate of each direction (bytes one way over the shared time).
    rows.push_back({"-", "-", "pcie-both", bytes, 0, 0, wall([&] {
                        cudaMemcpyAsync(d1, h1, bytes, cudaMemcpyHostToDevice, s1);
                        cudaMemcpyAsync(h2, d2, bytes, cudaMemcpyDeviceToHost, s2);
                    }),
                    runs});
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFreeHost(h1);
    cudaFreeHost(h2);
    cudaFree(d1);
    cudaFree(d2);
    return rows;
}

// Host memory to host memory through the library's API (the user's view).
Row host_row(const char *kernel, const kc::CipherDesc &d, bool ctr, std::vector<uint8_t> &buf, int runs)
{
    std::vector<double> t;
    for (int r = -1; r < runs; r++) {
        std::vector<uint8_t> key = random_bytes(d.key_bytes), iv = random_bytes(d.block_bytes);
        kcipher_ctx *c = nullptr;
        ck(kcipher_new(&c, d.name, key.data(), key.size(), kernel), "kcipher_new");
        auto t0 = std::chrono::steady_clock::now();
        kcipher_status st = ctr ? kcipher_ctr_xor(c, iv.data(), iv.size(), 0, buf.data(), buf.data(), buf.size())
                                : kcipher_ecb_encrypt(c, buf.data(), buf.data(), buf.size());
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        kcipher_free(c);
        ck(st, "host path");
        if (r >= 0)
            t.push_back(s);
    }
    return {kernel, d.name, ctr ? "host-ctr" : "host-ecb", buf.size(), 0, 0, median(t), runs};
}

// GCM through the public API (kcipher_gpu_aead_*, or host memory through a GPU context):
// per run a fresh key; seal, then open of what it sealed (which must verify), each timed
// with the wall clock around the call (the calls wait for their work). Rows for seal and open.
struct GcmCase {
    const char *seal_what, *open_what;
    std::function<kcipher_status(kcipher_ctx *, bool open)> call;
};

std::vector<Row> gcm_rows(const char *kernel, const kc::CipherDesc &d, size_t bytes, int runs, const GcmCase &gc)
{
    std::vector<double> ts, to;
    for (int r = -1; r < runs; r++) {
        std::vector<uint8_t> key = random_bytes(d.key_bytes);
        kcipher_ctx *c = nullptr;
        ck(kcipher_new(&c, d.name, key.data(), key.size(), kernel), "kcipher_new");
        auto t0 = std::chrono::steady_clock::now();
        kcipher_status st = gc.call(c, false);
        auto t1 = std::chrono::steady_clock::now();
        if (st == KCIPHER_OK)
            st = gc.call(c, true);
        auto t2 = std::chrono::steady_clock::now();
        kcipher_free(c);
        ck(st, gc.seal_what);
        if (r >= 0) {
            ts.push_back(std::chrono::duration<double>(t1 - t0).count());
            to.push_back(std::chrono::duration<double>(t2 - t1).count());
        }
    }
    return {{kernel, d.name, gc.seal_what, bytes, 0, 0, median(ts), runs},
            {kernel, d.name, gc.open_what, bytes, 0, 0, median(to), runs}};
}

// One message of `bytes` - 16 in place on d (the tag after it), and the batch of 16 KiB
// messages (ciphertext || tag each, 12-byte IVs and 13-byte AADs beside them).
std::vector<Row> gcm_device_rows(const kc::Kernel &k, const kc::CipherDesc &d, Device &dev, size_t bytes, int runs)
{
    std::vector<Row> rows;
    const size_t len = bytes - 16;
    const std::vector<uint8_t> iv = random_bytes(12), aad = random_bytes(13);
    rows = gcm_rows(k.name, d, len, runs, {"gcm-seal", "gcm-open", [&](kcipher_ctx *c, bool open) {
        return open ? kcipher_gpu_aead_open(c, KCIPHER_MODE_GCM, iv.data(), 12, aad.data(), 13, dev.buf, len + 16,
                                            dev.buf, 16, nullptr)
                    : kcipher_gpu_aead_seal(c, KCIPHER_MODE_GCM, iv.data(), 12, aad.data(), 13, dev.buf, len,
                                            dev.buf, 16, nullptr);
    }});
    const size_t msg = 16384, n = bytes / msg, stride = msg + 16;
    uint8_t *data = nullptr, *side = nullptr;
    kcipher_gpu_aead_msg *msgs = nullptr;
    ck(cudaMalloc((void **)&data, n * stride), "cudaMalloc");
    ck(cudaMalloc((void **)&side, n * 32), "cudaMalloc");
    ck(cudaMalloc((void **)&msgs, n * sizeof *msgs), "cudaMalloc");
    std::vector<uint8_t> fill = random_bytes(n * 32);
    ck(cudaMemcpy(side, fill.data(), fill.size(), cudaMemcpyHostToDevice), "fill");
    std::vector<kcipher_gpu_aead_msg> host(n);
    for (size_t i = 0; i < n; i++)
        host[i] = {side + 32 * i, side + 32 * i + 16, data + i * stride, data + i * stride, 12, 13, msg, 0, 0};
    ck(cudaMemcpy(msgs, host.data(), n * sizeof *msgs, cudaMemcpyHostToDevice), "descriptors");
    for (Row r : gcm_rows(k.name, d, n * msg, runs, {"gcm-batch-seal", "gcm-batch-open", [&](kcipher_ctx *c, bool open) {
             return open ? kcipher_gpu_aead_open_batch(c, KCIPHER_MODE_GCM, msgs, n, 16, nullptr)
                         : kcipher_gpu_aead_seal_batch(c, KCIPHER_MODE_GCM, msgs, n, 16, nullptr);
         }}))
        rows.push_back(r);
    cudaFree(data);
    cudaFree(side);
    cudaFree(msgs);
    return rows;
}

std::vector<Row> gcm_host_rows(const char *kernel, const kc::CipherDesc &d, std::vector<uint8_t> &buf, int runs)
{
    const size_t len = buf.size() - 16;
    const std::vector<uint8_t> iv = random_bytes(12), aad = random_bytes(13);
    return gcm_rows(kernel, d, len, runs, {"host-gcm-seal", "host-gcm-open", [&](kcipher_ctx *c, bool open) {
        return open ? kcipher_aead_open(c, KCIPHER_MODE_GCM, iv.data(), 12, aad.data(), 13, buf.data(), len + 16,
                                        buf.data(), 16)
                    : kcipher_aead_seal(c, KCIPHER_MODE_GCM, iv.data(), 12, aad.data(), 13, buf.data(), len,
                                        buf.data(), 16);
    }});
}

} // namespace

std::optional<kc::GpuInfo> select_gpu(int device)
{
    const std::vector<kc::GpuInfo> gpus = kc::cuda_devices();
    if (gpus.empty()) {
        fmt::print(stderr, "kcipher-lab: no GPU: {}\n", kc::cuda_runtime_status());
        return std::nullopt;
    }
    if (device < 0 || device >= (int)gpus.size())
        throw std::runtime_error("--gpu-device out of range");
    ck(cudaSetDevice(device), "cudaSetDevice");
    return gpus[(size_t)device];
}

int run_gpu_bench(const GpuBenchOptions &o)
{
    const std::optional<kc::GpuInfo> gp = select_gpu(o.device);
    if (!gp)
        return 1;
    const kc::GpuInfo &g = *gp;
    const size_t bytes = o.bytes / 16 * 16;
    fmt::print("# {} ({} SMs, {:.2f} GHz), {}; {} MiB per run, median of {} runs, fresh key per run\n", g.name,
               g.multiprocessors, g.clock_khz / 1e6, kc::cuda_runtime_status(), bytes >> 20, o.runs);
    fmt::print("{:<26} {:<13} {:<10} {:>11} {:>5} {:>6} {:>10} {:>9}\n", "kernel", "cipher", "what", "bytes", "thr",
               "blocks", "ms", "Gbps");
    std::vector<Row> rows;
    for (Row r : pcie(std::min<size_t>(bytes, size_t(512) << 20), o.runs)) {
        print(r);
        rows.push_back(r);
    }
    Device d(bytes);
    {
        std::vector<uint8_t> fill = random_bytes(bytes);
        ck(cudaMemcpy(d.buf, fill.data(), bytes, cudaMemcpyHostToDevice), "fill");
    }
    std::vector<kc::Cipher> cs = ciphers(o);
    for (const kc::Kernel *k : gpu_kernels(o))
        for (kc::Cipher c : cs) {
            if (!k->supports(c))
                continue;
            const std::string cname = kc::cipher_desc(c).name;
            const size_t bs = kc::cipher_desc(c).block_bytes;
            auto add = [&](const char *what, auto fn, unsigned th = 0, unsigned bl = 0) {
                Row r{k->name, cname, what, bytes, th, bl, time_kernel(*k, c, d, o.runs, fn), o.runs};
                print(r);
                rows.push_back(r);
            };
            std::vector<uint8_t> iv = random_bytes(bs);
            add("keystream", [&](const kc::GpuJob &j) { return kc::gpu_device_ctr(j, iv.data(), nullptr, d.buf, bytes, nullptr); });
            add("ctr", [&](const kc::GpuJob &j) { return kc::gpu_device_ctr(j, iv.data(), d.buf, d.buf, bytes, nullptr); });
            add("ecb-enc", [&](const kc::GpuJob &j) { return kc::gpu_device_ecb(j, false, d.buf, d.buf, bytes, nullptr); });
            add("ecb-dec", [&](const kc::GpuJob &j) { return kc::gpu_device_ecb(j, true, d.buf, d.buf, bytes, nullptr); });
            if (bs == 16 && k->gpu->xts != nullptr)
                for (size_t unit : {size_t(4096), size_t(0)})
                    for (bool dec : {false, true}) {
                        const char *what = unit ? (dec ? "xts-dec" : "xts-enc") : (dec ? "xts1-dec" : "xts1-enc");
                        Row r{k->name, cname, what, bytes, 0, 0, time_xts(*k, c, d, bytes, o.runs, dec, unit), o.runs};
                        print(r);
                        rows.push_back(r);
                    }
            if (bs == 16 && k->gpu->gcm != nullptr)
                for (const Row &r : gcm_device_rows(*k, kc::cipher_desc(c), d, bytes, o.runs)) {
                    print(r);
                    rows.push_back(r);
                }
            if (o.sweep) {
                const unsigned sms = (unsigned)g.multiprocessors;
                for (unsigned th : {64u, 128u, 256u, 512u, 1024u})
                    for (unsigned per_sm : {1u, 2u, 4u, 8u, 16u, 64u}) {
                        kc::GpuLaunch shape{th, sms * per_sm};
                        add("keystream", [&](const kc::GpuJob &j) {
                            return kc::gpu_device_ctr(j, iv.data(), nullptr, d.buf, bytes, nullptr, &shape);
                        }, th, sms * per_sm);
                    }
            }
        }
    if (o.host) {
        std::vector<uint8_t> buf = random_bytes(bytes);
        for (kc::Cipher c : cs) {
            const kc::Kernel *k = kc::best_gpu_kernel(c);
            if (k == nullptr || (!o.kernels.empty() && std::find(o.kernels.begin(), o.kernels.end(), k->name) == o.kernels.end()))
                continue;
            for (bool ctr : {true, false}) {
                Row r = host_row(k->name, kc::cipher_desc(c), ctr, buf, o.runs);
                print(r);
                rows.push_back(r);
            }
            if (kc::cipher_desc(c).block_bytes == 16 && k->gpu->xts != nullptr) {
                Row r{k->name, kc::cipher_desc(c).name, "host-xts-enc", buf.size(), 0, 0,
                      time_host_xts(*k, c, buf, o.runs), o.runs};
                print(r);
                rows.push_back(r);
            }
            if (kc::cipher_desc(c).block_bytes == 16 && k->gpu->gcm != nullptr)
                for (const Row &r : gcm_host_rows(k->name, kc::cipher_desc(c), buf, o.runs)) {
                    print(r);
                    rows.push_back(r);
                }
        }
    }
    if (!o.json.empty()) {
        nlohmann::json list = nlohmann::json::array();
        for (const Row &r : rows)
            list.push_back({{"implementation", "kcipher"}, {"kernel", r.kernel}, {"cipher", r.cipher}, {"what", r.what},
                            {"bytes", r.bytes}, {"threads_per_block", r.threads}, {"blocks", r.blocks},
                            {"seconds_median", r.seconds}, {"runs", r.runs}, {"gbps", r.gbps()},
                            {"gpu", g.name}, {"sms", g.multiprocessors}, {"gpu_clock_ghz", g.clock_khz / 1e6}});
        write_json_file(o.json, list);
    }
    return 0;
}

double gpu_keystream_seconds(const std::string &kernel, const std::string &cipher, size_t bytes, int runs)
{
    const kc::Kernel *k = kc::find_kernel(kernel);
    const kc::CipherDesc *d = kc::cipher_by_name(cipher);
    if (k == nullptr || k->gpu == nullptr || d == nullptr || !k->supports(d->id))
        throw std::runtime_error("no GPU kernel '" + kernel + "' for " + cipher);
    bytes = bytes / 16 * 16;
    Device dev(bytes);
    std::vector<uint8_t> iv = random_bytes(d->block_bytes);
    return time_kernel(*k, d->id, dev, runs, [&](const kc::GpuJob &j) {
        return kc::gpu_device_ctr(j, iv.data(), nullptr, dev.buf, bytes, nullptr);
    });
}

double pcie_d2h_seconds(size_t bytes, int runs) { return pcie(bytes, runs)[1].seconds; }

#endif

} // namespace lab
