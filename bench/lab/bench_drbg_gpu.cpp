// `kcipher-lab --drbg --gpu`: the CTR_DRBG on the GPU (issue 6, item 5), per cipher with
// its default GPU kernel, beside the rates that bound it, all measured in the same run:
//
//   device     kcipher_drbg_generate_device: `bytes` into device memory (the call returns
//              when they are written: wall clock around it)
//   host       kcipher_drbg_generate_large with the GPU kernel: into pageable host memory
//              (through pinned staging and the CPU's copy threads)
//   h-pin      the same into page-locked host memory (cudaHostAlloc): the GPU copies
//              straight into it
//   keystream  the same GPU kernel's CTR keystream into device memory (CUDA events, as
//              `kcipher-lab --gpu` times it)
//   chain      the sequential (Key, V) chain on one CPU thread: us per max-size request,
//              and the output rate it allows (max request / cost), timed alone for the
//              same requests right before and right after each device call (the mean of
//              the two times)
//   pcie-d2h   cudaMemcpy device to pinned host memory
//   cpu        our CPU DRBG (kcipher_drbg_generate_large, every core)
//   multi      N instances (kcipher_drbg_multi) x bytes per instance, into device memory,
//              and into host memory for as many instances as fit in `bytes`
//
//   in-call    the chain as it walked inside the device calls (us per request, from the
//              library's own clock around the walk, waits excluded), and dev/ic, the device
//              rate against min(keystream, the rate of that walk): below dev/bd when the chain
//              ran slower in the call than alone, so the two tell the pipeline's own cost
//              from the host's
//
// and the ratios the issue asks for: device / min(keystream, chain), host / pcie-d2h and
// h-pin / pcie-d2h (the 128-bit block ciphers' target), and GPU / CPU as the ARX paper reports
// its DRBG: one DRBG (device) / CPU, and many instances (multi into device memory) / CPU.
// Every timed row is the median of `runs` calls after one warm-up; Gbps = 10^9 bits/s.
// device / bound is the median over the runs of each device call against the chain timed
// around it: the host's CPU clock drifts between measurements (2.0-2.8 GHz read on one
// day), and a chain timed minutes apart from the device call moved the ratio by 1.3x. On the
// H100 host the chain alone took 0.08-0.23 us per LEA-128 request from one run to the next,
// so one timing after the call, not the mean of one before and one after, can stand for
// another moment than the call's.
#include "bench_drbg.hpp"
#include "bench_json.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <vector>

#include "kcipher/kcipher.hpp"

#if defined(KCIPHER_HAVE_CUDA)
#include <cuda_runtime.h>

#include "bench_clock.hpp"
#include "bench_gpu.hpp"
#include "cuda/devices.hpp"
#include "dispatch/registry.hpp"
#include "drbg/drbg_gpu.hpp"
#include "../tools/drbg_gpu_trace.hpp"
#endif

namespace lab {

#if !defined(KCIPHER_HAVE_CUDA)

int run_drbg_gpu_bench(const DrbgGpuBenchOptions &)
{
    fmt::print(stderr, "kcipher-lab: this build has no CUDA support (configure with nvcc present)\n");
    return 1;
}

#else

// From the CLI's benchmark kit (tools/kcipher/bench_*.hpp).
using cli::cpu_model_name;
using cli::write_json_file;

namespace {

void ck(cudaError_t e, const char *what) { check_cuda(e, what); }

struct DeviceBuffer {
    void *p = nullptr;
    explicit DeviceBuffer(size_t n) { ck(cudaMalloc(&p, n), "cudaMalloc"); }
    ~DeviceBuffer() { cudaFree(p); }
};

struct PinnedBuffer {
    void *p = nullptr;
    explicit PinnedBuffer(size_t n) { ck(cudaHostAlloc(&p, n, cudaHostAllocDefault), "cudaHostAlloc"); }
    ~PinnedBuffer() { cudaFreeHost(p); }
};

// Median wall-clock seconds of `runs` calls after one warm-up, the GPU idle at each start.
double wall(const std::function<void()> &call, int runs)
{
    std::vector<double> t;
    for (int r = -1; r < runs; r++) {
        ck(cudaDeviceSynchronize(), "sync");
        auto t0 = std::chrono::steady_clock::now();
        call();
        ck(cudaDeviceSynchronize(), "sync");
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (r >= 0)
            t.push_back(s);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

double gbps(size_t bytes, double seconds) { return seconds > 0 ? bytes * 8.0 / seconds / 1e9 : 0; }

struct Row {
    std::string cipher, gpu_kernel;
    size_t max_request = 0;
    double device = 0, host = 0, keystream = 0, chain_us = 0, chain = 0, pcie = 0, cpu = 0; // Gbps (chain_us: us)
    double host_pinned = 0; // into page-locked host memory: the GPU copies straight into it
    double device_over_bound = 0; // median of the runs' device / min(keystream, chain of the run)
    // The chain as it walked inside each device call (kc::drbg::gpu_last_chain_walk): us per
    // request, and the call's rate against the rate that walk allowed (the pipeline's own
    // share of a shortfall; the chain's slowing inside the call is the rest).
    double walk_us = 0, device_over_walk = 0;
    std::vector<double> run_device, run_chain_us, run_walk_us, run_ratio; // per run, in order
    size_t multi_instances = 0, multi_bytes = 0, multi_host_instances = 0;
    double multi_device = 0, multi_host = 0, multi_instantiate_s = 0;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The device rate and the chain's, in alternation: the chain alone for the same number of
// requests, a device call, the chain alone again; medians of each, and of the runs' device /
// bound. walk: the chain's walk inside the call just made.
void paired_device_and_chain(Row &r, const std::function<void()> &device,
                             const std::function<double(size_t)> &chain_seconds,
                             const std::function<kc::drbg::ChainWalk()> &walk, size_t bytes, int runs)
{
    const size_t requests = (bytes + r.max_request - 1) / r.max_request;
    std::vector<double> chain, over_walk; // per run: the chain's Gbps, device / the in-call walk's bound
    for (int run = -1; run < runs; run++) {
        const double before = chain_seconds(requests);
        ck(cudaDeviceSynchronize(), "sync");
        auto t0 = std::chrono::steady_clock::now();
        device();
        ck(cudaDeviceSynchronize(), "sync");
        const double td = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const kc::drbg::ChainWalk w = walk();
        const double tc = (before + chain_seconds(requests)) / 2;
        if (run < 0)
            continue; // warm-up
        const double dev = gbps(bytes, td);
        chain.push_back(gbps(bytes, tc));
        r.run_device.push_back(dev);
        r.run_chain_us.push_back(tc * 1e6 / (double)requests);
        r.run_ratio.push_back(dev / std::min(r.keystream, chain.back()));
        if (w.requests != 0) {
            r.run_walk_us.push_back(w.seconds * 1e6 / (double)w.requests);
            const double walk_gbps = gbps(bytes, w.seconds * (double)requests / (double)w.requests);
            over_walk.push_back(dev / std::min(r.keystream, walk_gbps));
        }
    }
    r.device = median(r.run_device);
    r.chain = median(chain);
    r.chain_us = r.max_request * 8.0 / (r.chain * 1e9) * 1e6;
    r.device_over_bound = median(r.run_ratio);
    r.walk_us = r.run_walk_us.empty() ? 0 : median(r.run_walk_us);
    r.device_over_walk = over_walk.empty() ? 0 : median(over_walk);
}

nlohmann::json to_json(const Row &r, const kc::GpuInfo &g, const std::string &cpu_name, size_t bytes, int runs)
{
    const auto over = [](double a, double b) { return b > 0 ? a / b : 0.0; }; // 0 where b was not measured
    nlohmann::json j = {{"benchmark", "ctr_drbg_gpu"}, {"cipher", r.cipher}, {"gpu_kernel", r.gpu_kernel},
                        {"gpu", g.name}, {"cpu", cpu_name}, {"bytes", bytes}, {"runs", runs}};
    // One DRBG into device memory, against its bound min(keystream, chain) and the chain's walk inside the call.
    j.update({{"device_gbps", r.device}, {"keystream_gbps", r.keystream}, {"chain_gbps", r.chain},
              {"max_request_bytes", r.max_request}, {"chain_us_per_request", r.chain_us},
              {"device_over_bound", r.device_over_bound},
              {"device_over_bound_of_medians", over(r.device, std::min(r.keystream, r.chain))},
              {"chain_in_call_us_per_request", r.walk_us}, {"device_over_chain_in_call", r.device_over_walk}});
    // The same per run, in order.
    j.update({{"runs_device_gbps", r.run_device}, {"runs_chain_us_per_request", r.run_chain_us},
              {"runs_chain_in_call_us_per_request", r.run_walk_us}, {"runs_device_over_bound", r.run_ratio}});
    // Into host memory (pageable, page-locked) against PCIe, and the CPU DRBG.
    j.update({{"host_gbps", r.host}, {"host_pinned_gbps", r.host_pinned}, {"pcie_d2h_gbps", r.pcie},
              {"host_over_pcie", over(r.host, r.pcie)}, {"host_pinned_over_pcie", over(r.host_pinned, r.pcie)},
              {"cpu_drbg_gbps", r.cpu}, {"gpu_over_cpu", over(r.device, r.cpu)}});
    // Many instances (kcipher_drbg_multi).
    j.update({{"multi_instances", r.multi_instances}, {"multi_bytes_per_instance", r.multi_bytes},
              {"multi_device_gbps", r.multi_device}, {"multi_device_over_cpu", over(r.multi_device, r.cpu)},
              {"multi_host_instances", r.multi_host_instances}, {"multi_host_gbps", r.multi_host},
              {"multi_instantiate_seconds", r.multi_instantiate_s}});
    return j;
}

} // namespace

int run_drbg_gpu_bench(const DrbgGpuBenchOptions &o)
{
    const std::optional<kc::GpuInfo> gp = select_gpu(o.device);
    if (!gp)
        return 1;
    const kc::GpuInfo &g = *gp;
    const size_t bytes = std::max<size_t>(o.bytes / 16 * 16, 16);
    const int runs = std::max(1, o.runs);
    std::vector<std::string> names = o.ciphers;
    if (names.empty())
        for (int i = 0; i < kc::cipher_count; i++)
            names.push_back(kc::cipher_by_index(i)->name);
    const std::string cpu_name = cpu_model_name();

    const double pcie = gbps(std::min(bytes, size_t(512) << 20), pcie_d2h_seconds(std::min(bytes, size_t(512) << 20), runs));
    fmt::print("# CTR_DRBG on {} ({} SMs), {}; CPU {}\n", g.name, g.multiprocessors, kc::cuda_runtime_status(),
               cpu_name);
    fmt::print("# {} MiB per call, median of {} calls; Gbps = 10^9 bit/s; device-to-host PCIe {:.1f} Gbps\n",
               bytes >> 20, runs, pcie);
    fmt::print("# bound = min(keystream, chain); in-call: the chain's walk inside the device calls (us/rq) and the\n"
               "# device rate against min(keystream, that walk's rate); multi: instances x bytes each, device memory\n"
               "# (host: as many as fit)\n");
    fmt::print("{:<13} {:<24} {:>8} {:>8} {:>9} {:>7} {:>8} {:>6} {:>7} {:>6} {:>6} {:>8} {:>6} {:>8} {:>7} {:>15} {:>8} "
               "{:>7} {:>8}\n",
               "cipher", "gpu kernel", "device", "host", "keystrm", "us/rq", "chain", "dev/bd", "in-call", "dev/ic",
               "h/pcie", "h-pin", "hp/pc", "cpu", "gpu/cpu", "multi", "m-dev", "m/cpu", "m-host");

    DeviceBuffer dbuf(bytes);
    std::vector<uint8_t> hbuf(bytes, 0); // faulted in
    PinnedBuffer pbuf(bytes);
    std::vector<Row> rows;
    nlohmann::json list = nlohmann::json::array();
    for (const std::string &name : names) {
        const kc::CipherDesc *desc = kc::cipher_by_name(name);
        if (desc == nullptr)
            throw std::runtime_error("--cipher '" + name + "': unknown cipher");
        const kc::Kernel *gk = kc::best_gpu_kernel(desc->id);
        if (gk == nullptr) {
            fmt::print("{:<13} no GPU kernel\n", name);
            continue;
        }
        Row r;
        r.cipher = name;
        r.gpu_kernel = gk->name;
        r.pcie = pcie;
        r.keystream = gbps(bytes, gpu_keystream_seconds(gk->name, name, bytes, runs));

        kcipher::Drbg d(name, 0, gk->name);
        static kc::drbg::TracePrinter trace; // outlives every handle that prints through it
        if (o.trace)
            kc::drbg::set_gpu_observer(d.get(), &trace);
        d.set_gpu(o.device);
        if (o.threads != 0)
            d.set_threads(o.threads);
        d.instantiate();
        r.max_request = d.max_request();
        paired_device_and_chain(
            r, [&] { d.generate_device(dbuf.p, bytes); }, drbg_chain_timer(name),
            [&] { return kc::drbg::gpu_last_chain_walk(kc::drbg::gpu_workspace_of(d.get())); }, bytes, runs);
        r.host = gbps(bytes, wall([&] { d.generate_large(hbuf.data(), bytes); }, runs));
        r.host_pinned = gbps(bytes, wall([&] { d.generate_large(static_cast<uint8_t *>(pbuf.p), bytes); }, runs));
        r.cpu = drbg_cpu_bytes_per_second(name, 0, std::min(bytes, size_t(256) << 20), 0.3) * 8 / 1e9;

        // Many instances.
        r.multi_bytes = o.instance_bytes != 0 ? o.instance_bytes : desc->block_bytes == 16 ? 65536 : 1024;
        r.multi_instances = o.instances;
        if (r.multi_instances != 0 && r.multi_bytes != 0) {
            const size_t total = r.multi_instances * r.multi_bytes;
            DeviceBuffer mbuf(total);
            kcipher::DrbgMulti m(name, r.multi_instances, 0, gk->name);
            m.set_gpu(o.device);
            auto t0 = std::chrono::steady_clock::now();
            m.instantiate();
            r.multi_instantiate_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            r.multi_device = gbps(total, wall([&] { m.generate_device(mbuf.p, r.multi_bytes); }, runs));
            r.multi_host_instances = std::min(r.multi_instances, std::max<size_t>(1, bytes / r.multi_bytes));
            kcipher::DrbgMulti mh(name, r.multi_host_instances, 0, gk->name);
            mh.set_gpu(o.device);
            mh.instantiate();
            std::vector<uint8_t> out(r.multi_host_instances * r.multi_bytes, 0);
            r.multi_host =
                gbps(out.size(), wall([&] { mh.generate(out.data(), r.multi_bytes); }, runs));
        }
        fmt::print("{:<13} {:<24} {:>8.1f} {:>8.1f} {:>9.1f} {:>7.2f} {:>8.1f} {:>6.2f} {:>7.3f} {:>6.2f} {:>6.2f} "
                   "{:>8.1f} {:>6.2f} {:>8.1f} {:>7.1f} {:>15} {:>8.1f} {:>7.1f} {:>8.1f}\n",
                   r.cipher, r.gpu_kernel, r.device, r.host, r.keystream, r.chain_us, r.chain,
                   r.device_over_bound, r.walk_us, r.device_over_walk, r.pcie > 0 ? r.host / r.pcie : 0, r.host_pinned,
                   r.pcie > 0 ? r.host_pinned / r.pcie : 0, r.cpu,
                   r.cpu > 0 ? r.device / r.cpu : 0, fmt::format("{}x{}", r.multi_instances, r.multi_bytes),
                   r.multi_device, r.cpu > 0 ? r.multi_device / r.cpu : 0, r.multi_host);
        std::fflush(stdout);
        list.push_back(to_json(r, g, cpu_name, bytes, runs));
        rows.push_back(r);
    }
    if (!o.json.empty()) {
        write_json_file(o.json, list);
    }
    return 0;
}

#endif

} // namespace lab
