// What slows the DRBG chain inside the GPU pipeline (src/drbg/drbg_gpu.cu)? The chain alone on
// the calling thread (plan_segments, 32 batches of 512 max-size requests, median of 5), in
// rounds that alternate what runs beside it on a second thread:
//   none     nothing
//   spin     a pause loop (the submitter's spin_until)
//   submit   the submitter's CUDA work at its pace: every 50 us, 24 KiB up from pinned memory,
//            a keystream-sized kernel (32 MiB written), an event, a spin on the event 6 back
//   sleep    the same CUDA work, sleeping between batches instead of spinning
// and, for the sink, a vector (what kcipher-lab --drbg --gpu times) against a pinned ring that takes
// each request's Key and counter (what the pipeline's RingSink writes). Not part of the build;
// `sweep CIPHER A ROUNDS` pins the chain to cpu A and the second thread to each other cpu in
// turn. On the GPU machine, after scripts/gpu-check OUT build:
//   nvcc -O2 -std=c++17 -Isrc -Iinclude bench/tools/drbg_chain_interference.cu \
//       build-gpu/src/libkcipher.a -ldl -lrt -lpthread -o /tmp/chain_interference
#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/cipher.hpp"
#include "dispatch/registry.hpp"
#include "drbg/chain.hpp"
#include "drbg/kernel_cipher.hpp"

using namespace kc;
using Clock = std::chrono::steady_clock;

namespace {

__global__ void fill(uint4 *out, size_t n, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = make_uint4(seed ^ (uint32_t)i, seed, (uint32_t)i, 0);
}

struct PinnedSink final : drbg::SegmentSink {
    uint8_t *base = nullptr;
    size_t n = 0, cap = 0, kb = 16, bs = 16;
    void put(const drbg::Segment &s) override
    {
        const size_t i = n++ % cap;
        std::memcpy(base + i * 32, s.key, kb);
        std::memcpy(base + cap * 32 + i * 16, s.counter, bs);
    }
};

double chain_us(drbg::Drbg &g, const drbg::Accelerations &fast, bool pinned, PinnedSink &ps)
{
    std::vector<drbg::Segment> segs;
    std::vector<double> r;
    const size_t batch = 512 * g.limits().max_request_bytes;
    for (int rep = 0; rep < 5; rep++) {
        const auto t0 = Clock::now();
        for (int b = 0; b < 32; b++) {
            if (pinned) {
                ps.kb = g.limits().key_bytes, ps.bs = g.limits().block_bytes;
                drbg::plan_segments(g, fast, batch, false, ps);
            } else {
                drbg::plan_segments(g, fast, batch, false, segs);
                drbg::wipe_segments(segs);
            }
        }
        r.push_back(std::chrono::duration<double>(Clock::now() - t0).count() * 1e6 / (32 * 512));
    }
    std::sort(r.begin(), r.end());
    return r[r.size() / 2];
}

enum class Beside { none, spin, submit, sleep };
const char *name(Beside b)
{
    return b == Beside::none ? "none" : b == Beside::spin ? "spin" : b == Beside::submit ? "submit" : "sleep";
}

// The second thread: runs until stop.
void beside(Beside mode, std::atomic<bool> &stop, std::atomic<bool> &started)
{
    if (mode == Beside::none) {
        started = true;
        return;
    }
    if (mode == Beside::spin) {
        started = true;
        while (!stop.load(std::memory_order_relaxed))
            __builtin_ia32_pause();
        return;
    }
    cudaSetDevice(0);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    uint8_t *host = nullptr, *dkeys = nullptr;
    uint4 *dout = nullptr;
    cudaHostAlloc((void **)&host, 24576, cudaHostAllocDefault);
    cudaMalloc((void **)&dkeys, 24576);
    cudaMalloc((void **)&dout, size_t(32) << 20);
    cudaEvent_t ev[8];
    for (cudaEvent_t &e : ev)
        cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    started = true;
    for (unsigned i = 0; !stop.load(std::memory_order_relaxed); i++) {
        const auto next = Clock::now() + std::chrono::microseconds(50);
        if (i >= 6)
            while (cudaEventQuery(ev[(i - 6) % 8]) == cudaErrorNotReady)
                __builtin_ia32_pause();
        cudaMemcpyAsync(dkeys, host, 24576, cudaMemcpyHostToDevice, s);
        fill<<<264, 256, 0, s>>>(dout, (size_t(32) << 20) / 16, i);
        cudaEventRecord(ev[i % 8], s);
        if (mode == Beside::sleep)
            std::this_thread::sleep_until(next);
        else
            while (Clock::now() < next)
                __builtin_ia32_pause();
    }
    cudaStreamSynchronize(s);
    for (cudaEvent_t &e : ev)
        cudaEventDestroy(e);
    cudaFree(dout);
    cudaFree(dkeys);
    cudaFreeHost(host);
    cudaStreamDestroy(s);
}

} // namespace

void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

// The chain pinned to cpu `a`, the second thread pinned to each other cpu in turn, every mode
// alternated in each of `rounds` rounds: which cpu and which activity slow the chain.
int sweep(const char *cipher, int a, int rounds)
{
    const int n = (int)std::thread::hardware_concurrency();
    PinnedSink ps;
    ps.cap = 4096;
    cudaHostAlloc((void **)&ps.base, ps.cap * 48, cudaHostAllocDefault);
    const CipherDesc &d = *cipher_by_name(cipher);
    const drbg::Accelerations fast = drbg::accelerations_for(*best_cpu_kernel(d.id), d.id);
    drbg::Drbg g(std::make_unique<drbg::KernelCipher>(fast), true);
    g.instantiate(nullptr, {}, {});
    pin(a);
    std::printf("%s chain pinned to cpu %d; per cpu b: median us/request with b idle / spinning / submitting / "
                "sleeping between CUDA batches, over %d rounds\n", cipher, a, rounds);
    for (int b = 0; b < n; b++) {
        if (b == a)
            continue;
        std::vector<double> res[4];
        for (int r = 0; r < rounds; r++)
            for (int m = 0; m < 4; m++) {
                std::atomic<bool> stop{false}, started{false};
                std::thread t([&, m] {
                    pin(b);
                    beside((Beside)m, stop, started);
                });
                while (!started)
                    std::this_thread::yield();
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
                res[m].push_back(chain_us(g, fast, false, ps));
                stop = true;
                t.join();
            }
        std::printf("  b=%2d:", b);
        for (int m = 0; m < 4; m++) {
            std::sort(res[m].begin(), res[m].end());
            std::printf(" %s %.3f", name((Beside)m), res[m][res[m].size() / 2]);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    cudaFreeHost(ps.base);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "sweep") == 0)
        return sweep(argc > 2 ? argv[2] : "lea-128", argc > 3 ? std::atoi(argv[3]) : 0, argc > 4 ? std::atoi(argv[4]) : 3);
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 6;
    cudaSetDevice(0);
    cudaFree(nullptr); // the context, before any timing
    PinnedSink ps;
    ps.cap = 4096;
    if (cudaHostAlloc((void **)&ps.base, ps.cap * 48, cudaHostAllocDefault) != cudaSuccess) {
        std::printf("no GPU: cudaHostAlloc failed\n");
        return 1;
    }
    const Beside modes[] = {Beside::none, Beside::spin, Beside::submit, Beside::sleep};
    for (const char *c : {"lea-128", "cham-128-256", "aria-128"}) {
        const CipherDesc &d = *cipher_by_name(c);
        const drbg::Accelerations fast = drbg::accelerations_for(*best_cpu_kernel(d.id), d.id);
    drbg::Drbg g(std::make_unique<drbg::KernelCipher>(fast), true);
        g.instantiate(nullptr, {}, {});
        // results[mode][sink] over rounds
        std::vector<double> res[4][2];
        for (int r = 0; r < rounds; r++)
            for (int m = 0; m < 4; m++)
                for (int pinned = 0; pinned < 2; pinned++) {
                    std::atomic<bool> stop{false}, started{false};
                    std::thread t(beside, modes[m], std::ref(stop), std::ref(started));
                    while (!started)
                        std::this_thread::yield();
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    res[m][pinned].push_back(chain_us(g, fast, pinned, ps));
                    stop = true;
                    t.join();
                }
        std::printf("%s: chain us/request, median over %d rounds (min-max)\n", c, rounds);
        for (int m = 0; m < 4; m++)
            for (int pinned = 0; pinned < 2; pinned++) {
                std::vector<double> v = res[m][pinned];
                std::sort(v.begin(), v.end());
                std::printf("  beside %-6s sink %-6s %.3f (%.3f-%.3f) :", name(modes[m]), pinned ? "pinned" : "vector",
                            v[v.size() / 2], v.front(), v.back());
                for (double x : res[m][pinned])
                    std::printf(" %.3f", x);
                std::printf("\n");
            }
    }
    cudaFreeHost(ps.base);
    return 0;
}
