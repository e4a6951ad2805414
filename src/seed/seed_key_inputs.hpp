// The inputs of the key schedule's 32 G evaluations (RFC 4269 section 2.3): for round i,
//   K_i,0 = G(Key0 + Key2 - KC_i),   K_i,1 = G(Key1 - Key3 + KC_i),
// then Key0||Key1 rotates right by 8 bits (odd i) or Key2||Key3 left by 8 (even i). The
// inputs depend on the key words and constants alone, never on an earlier G, so a kernel can
// evaluate all 32 G at once (the SIMD kernels do, in vectors and without tables).
#pragma once

#include <cstdint>

#include "seed/seed.hpp"

#if defined(__CUDACC__)
#define KC_SEED_HD __host__ __device__ __forceinline__
#else
#define KC_SEED_HD inline
#endif

namespace kc {

// The schedule one round at a time: next(i) gives round i + 1's two G inputs and moves the
// key words on (the GPU key search runs it beside the rounds, holding no table of inputs).
struct SeedKeyStep {
    uint32_t k[4];                // Key0..Key3, big-endian words, rotated as the rounds go
    uint32_t kc = 0x9e3779b9u;    // KC_(i+1); KC_(i+1) = KC_i <<< 1 (seed_spec::kc)

    KC_SEED_HD void next(int i, uint32_t &in0, uint32_t &in1)
    {
        in0 = k[0] + k[2] - kc;
        in1 = k[1] - k[3] + kc;
        kc = (kc << 1) | (kc >> 31);
        if (i % 2 == 0) { // Key0||Key1 >>> 8
            const uint32_t t = k[0];
            k[0] = (k[0] >> 8) | (k[1] << 24);
            k[1] = (k[1] >> 8) | (t << 24);
        } else { // Key2||Key3 <<< 8
            const uint32_t t = k[2];
            k[2] = (k[2] << 8) | (k[3] >> 24);
            k[3] = (k[3] << 8) | (t >> 24);
        }
    }

    KC_SEED_HD void wipe()
    {
#if !defined(__CUDA_ARCH__) // host stacks outlive the call; device registers do not
        for (uint32_t &w : k)
            *(volatile uint32_t *)&w = 0;
#endif
    }
};

// in[2i], in[2i + 1]: the G inputs of round i + 1's two round-key words; key holds 16 bytes.
// (Host and device: the GPU's key schedule runs it too.)
KC_SEED_HD void seed_key_schedule_inputs(const uint8_t *key, uint32_t in[2 * seed_rounds])
{
    SeedKeyStep s;
    for (int j = 0; j < 4; j++)
        s.k[j] = (uint32_t)key[4 * j] << 24 | (uint32_t)key[4 * j + 1] << 16 |
                 (uint32_t)key[4 * j + 2] << 8 | key[4 * j + 3];
    for (int i = 0; i < seed_rounds; i++)
        s.next(i, in[2 * i], in[2 * i + 1]);
    s.wipe();
}

} // namespace kc
