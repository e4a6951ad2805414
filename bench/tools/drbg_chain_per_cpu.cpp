// The DRBG chain's speed (plan_segments, 32 batches of 512 max-size requests, median of 5-7)
// on the calling thread, on a new thread, pinned to each CPU in turn, and pinned beside a
// spinning CPU: where the chain runs changes its speed on shared cloud hosts, which is why the
// GPU DRBG walks it on the calling thread (src/drbg/drbg_gpu.cu, ChainAhead). Not part of the
// build; on the GPU machine, after scripts/gpu-check OUT build:
//   g++ -O2 -std=c++17 -Isrc -Iinclude bench/tools/drbg_chain_per_cpu.cpp build-gpu/src/libkcipher.a \
//       -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -o /tmp/chain_per_cpu
#include <pthread.h>
#include <sched.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>
#include "core/cipher.hpp"
#include "dispatch/registry.hpp"
#include "drbg/chain.hpp"
#include "drbg/kernel_cipher.hpp"
using namespace kc;
using Clock = std::chrono::steady_clock;
static void pin(int cpu) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s); pthread_setaffinity_np(pthread_self(), sizeof s, &s); }
static double chain_us(const char* name, int reps) {
  const CipherDesc& d = *cipher_by_name(name);
  const drbg::Accelerations fast = drbg::accelerations_for(*best_cpu_kernel(d.id), d.id);
  drbg::Drbg g(std::make_unique<drbg::KernelCipher>(fast), true);
  g.instantiate(nullptr, {}, {});
  std::vector<drbg::Segment> segs; std::vector<double> r;
  for (int i = 0; i < reps; i++) {
    auto t0 = Clock::now();
    for (int b = 0; b < 32; b++) { drbg::plan_segments(g, fast, 512 * g.limits().max_request_bytes, false, segs); drbg::wipe_segments(segs); }
    r.push_back(std::chrono::duration<double>(Clock::now() - t0).count() * 1e6 / 16384);
  }
  std::sort(r.begin(), r.end()); return r[r.size() / 2];
}
int main() {
  int n = std::thread::hardware_concurrency();
  for (const char* c : {"lea-128", "aria-128", "cham-128-128"}) {
    printf("%s main thread: %.3f us\n", c, chain_us(c, 7));
    double t; std::thread([&] { t = chain_us(c, 7); }).join();
    printf("%s new thread: %.3f us\n", c, t);
    printf("%s pinned per cpu:", c);
    for (int cpu = 0; cpu < n; cpu++) { std::thread([&] { pin(cpu); t = chain_us(c, 5); }).join(); printf(" %.3f", t); }
    printf("\n");
  }
  // Siblings: chain pinned on cpu a while cpu b spins.
  printf("lea-128 on cpu a while cpu b spins (a=0,1,2,3):\n");
  for (int a = 0; a < 4; a++) {
    printf(" a=%d:", a);
    for (int b = 0; b < n; b++) {
      if (b == a) { printf("   -  "); continue; }
      std::atomic<bool> stop{false};
      std::thread spin([&] { pin(b); volatile unsigned long x = 0; while (!stop.load(std::memory_order_relaxed)) x = x + 1; });
      double t; std::thread([&] { pin(a); t = chain_us("lea-128", 5); }).join();
      stop = true; spin.join();
      printf(" %.3f", t);
    }
    printf("\n");
  }
}
