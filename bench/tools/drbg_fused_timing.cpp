// Every fused block function of the DRBG chain (src/kit/fused_ecb.hpp) this machine runs,
// timed as the chain uses it: each call's first output block keys the next call, so the time is
// the latency of one Update (ns per call, median of 7 runs of 200000 calls). Not part of the
// build; on a machine with a build in BUILD:
//   g++ -O2 -std=c++17 -Isrc -Iinclude bench/tools/drbg_fused_timing.cpp BUILD/src/libkcipher.a \
//       -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread -o /tmp/drbg_fused_timing
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/cipher.hpp"
#include "dispatch/registry.hpp"

int main()
{
    using Clock = std::chrono::steady_clock;
    for (int ci = 0; ci < kc::cipher_count; ci++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(ci);
        const size_t u = (d.key_bytes + 2 * d.block_bytes - 1) / d.block_bytes; // the Update's blocks
        int which = 0;
        for (kc::FusedEcb f : kc::fused_ecb_candidates(d.id)) {
            uint8_t key[32] = {1}, in[64] = {2}, out[64];
            std::vector<double> runs;
            for (int r = 0; r < 7; r++) {
                auto t0 = Clock::now();
                for (int i = 0; i < 200000; i++) {
                    f(d.id, key, in, out, u);
                    std::memcpy(key, out, d.key_bytes);
                }
                runs.push_back(std::chrono::duration<double>(Clock::now() - t0).count() * 1e9 / 200000);
            }
            std::sort(runs.begin(), runs.end());
            std::printf("%-13s candidate %d (%s): %6.1f ns per %zu-block Update\n", d.name, which,
                        which == 0 ? "chosen" : "fallback", runs[3], u);
            which++;
        }
    }
}
