// Does where the GPU DRBG's submitter thread lands decide how fast the chain walks beside it?
// Each kcipher::Drbg has its own workspace and so its own submitter thread, placed by the OS
// when it is made and kept for the workspace's life. For W fresh DRBGs in turn: a warm-up
// call, then 5 device calls of 1 GiB, each between two timings of the chain alone; printed:
// the chain's walk inside each call over the chain alone around it, and the CPUs the calling
// thread and the workspace's new threads last ran on (/proc/self/task/*/stat). Not part of
// the build; on the GPU machine, after scripts/gpu-check OUT build:
//   g++ -O2 -std=c++17 -Isrc -Iinclude -I/usr/local/cuda/include bench/tools/drbg_submitter_placement.cpp \
//       build-gpu/src/libkcipher.a -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -o /tmp/placement
#include <cuda_runtime.h>
#include <dirent.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/cipher.hpp"
#include "dispatch/registry.hpp"
#include "drbg/chain.hpp"
#include "drbg/drbg_gpu.hpp"
#include "drbg/kernel_cipher.hpp"
#include "kcipher/kcipher.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::set<int> thread_ids()
{
    std::set<int> ids;
    if (DIR *d = opendir("/proc/self/task")) {
        while (dirent *e = readdir(d))
            if (e->d_name[0] != '.')
                ids.insert(std::atoi(e->d_name));
        closedir(d);
    }
    return ids;
}

// Field 39 of /proc/self/task/TID/stat: the CPU the thread last ran on.
int last_cpu(int tid)
{
    std::ifstream f("/proc/self/task/" + std::to_string(tid) + "/stat");
    std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const size_t close = s.rfind(')');
    if (close == std::string::npos)
        return -1;
    std::istringstream in(s.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 39 && in >> field; i++)
        if (i == 39)
            return std::atoi(field.c_str());
    return -1;
}

// Seconds of the chain alone for `requests` max-size requests, as kcipher-lab --drbg --gpu
// times it (tools/kcipher/bench_drbg.cpp, drbg_chain_timer).
struct ChainAlone {
    kc::drbg::Accelerations fast;
    kc::drbg::Drbg d;
    std::vector<kc::drbg::Segment> segs;
    explicit ChainAlone(kc::Cipher c)
        : fast(kc::drbg::accelerations_for(*kc::best_cpu_kernel(c), c)), d(std::make_unique<kc::drbg::KernelCipher>(fast), true)
    {
        d.instantiate(nullptr, {}, {});
    }
    double operator()(size_t requests)
    {
        const auto t0 = Clock::now();
        for (size_t done = 0; done < requests; done += 4096) {
            kc::drbg::plan_segments(d, fast, std::min<size_t>(4096, requests - done) * d.limits().max_request_bytes, false, segs);
            kc::drbg::wipe_segments(segs);
        }
        return std::chrono::duration<double>(Clock::now() - t0).count();
    }
};

} // namespace

int main(int argc, char **argv)
{
    const char *cipher = argc > 1 ? argv[1] : "lea-128";
    const int workspaces = argc > 2 ? std::atoi(argv[2]) : 8;
    const size_t bytes = size_t(1) << 30;
    void *out = nullptr;
    if (cudaMalloc(&out, bytes) != cudaSuccess) {
        std::printf("no GPU\n");
        return 1;
    }
    ChainAlone chain(kc::cipher_by_name(cipher)->id);
    std::printf("%s, 1 GiB calls; per DRBG: in-call walk / chain alone for 5 calls, then CPUs\n", cipher);
    for (int w = 0; w < workspaces; w++) {
        const std::set<int> before = thread_ids();
        kcipher::Drbg d(cipher, 0, kc::best_gpu_kernel(kc::cipher_by_name(cipher)->id)->name);
        d.set_gpu(0);
        d.instantiate();
        d.generate_device(out, bytes);
        cudaDeviceSynchronize();
        const size_t requests = bytes / d.max_request();
        std::vector<double> ratio;
        double alone_sum = 0, walk_sum = 0;
        for (int call = 0; call < 5; call++) {
            const double a0 = chain(requests);
            d.generate_device(out, bytes);
            cudaDeviceSynchronize();
            const kc::drbg::ChainWalk wk = kc::drbg::gpu_last_chain_walk(kc::drbg::gpu_workspace_of(d.get()));
            const double alone = (a0 + chain(requests)) / 2 / (double)requests * 1e6;
            const double walk = wk.requests ? wk.seconds / (double)wk.requests * 1e6 : 0;
            ratio.push_back(alone > 0 ? walk / alone : 0);
            alone_sum += alone, walk_sum += walk;
        }
        std::printf("  drbg %d: alone %.3f us, in call %.3f us, ratios", w, alone_sum / 5, walk_sum / 5);
        for (double r : ratio)
            std::printf(" %.2f", r);
        std::printf("; caller on cpu %d, new threads:", sched_getcpu());
        for (int tid : thread_ids())
            if (!before.count(tid))
                std::printf(" %d@cpu%d", tid, last_cpu(tid));
        std::printf("\n");
        std::fflush(stdout);
    }
    cudaFree(out);
    return 0;
}
