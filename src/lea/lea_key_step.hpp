// One update of the LEA key schedule (TTAK.KO-12.0223), shared by the host key schedule
// (lea_key.cpp) and the GPU key search, which derives each candidate's round keys on the
// fly (lea_cuda_keysearch.cu). Compiled by g++ and by nvcc (then for host and device).
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define KC_LEA_HD __host__ __device__ __forceinline__
#else
#define KC_LEA_HD inline
#endif

namespace kc::lea_key {

// δ[i]: the standard's key-schedule constants, the first 256 bits of the fractional part of
// sqrt(766965) in hexadecimal (76, 69, 65 = "LEA" in ASCII): nothing-up-my-sleeve numbers.
// A switch rather than an array so that device code folds it when i is a constant.
KC_LEA_HD constexpr uint32_t delta(int i)
{
    switch (i & 7) {
    case 0: return 0xc3efe9db;
    case 1: return 0x44626b02;
    case 2: return 0x79e27c8a;
    case 3: return 0x78df30ec;
    case 4: return 0x715ea49e;
    case 5: return 0xc785da0a;
    case 6: return 0xe04ef22a;
    default: return 0xe5c40957;
    }
}

// The rotation applied after each of the six additions of one key-schedule step.
KC_LEA_HD constexpr unsigned step_rot(int k)
{
    return k == 0 ? 1 : k == 1 ? 3 : k == 2 ? 6 : k == 3 ? 11 : k == 4 ? 13 : 17;
}

KC_LEA_HD constexpr uint32_t rol(uint32_t x, unsigned r)
{
    r &= 31;
    return r ? (x << r) | (x >> (32 - r)) : x;
}

// T[j] <- ROL_{rot}(T[j] + ROL_{i+k}(δ[i mod n])): the k-th update of step i, for a key of
// n words (4, 6 or 8).
// T is a 32-bit word, or a vector of 32-bit lanes (a GCC vector type: +, <<, >> and | act
// lane by lane) for the CPU key search's one key per SIMD lane (lea_x86_keysearch_avx512.cpp).
// step_rot(k) is 1..17, never 0, so the shift pair is the rotation.
template <typename T> KC_LEA_HD T update_lanes(T t, int n, int i, int k)
{
    const T s = t + rol(delta(i % n), (unsigned)(i + k));
    return (s << step_rot(k)) | (s >> (32 - step_rot(k)));
}
KC_LEA_HD uint32_t update(uint32_t t, int n, int i, int k) { return update_lanes<uint32_t>(t, n, i, k); }

// Which word of the 8-word state LEA-256 updates as the k-th of step i: 6i+k mod 8. (LEA-128
// updates words 0..3 and LEA-192 words 0..5, in order.)
KC_LEA_HD constexpr int word_256(int i, int k) { return (6 * i + k) % 8; }


// Round i's six round-key words from the key state t of KW words (4, 6, 8), updating t:
// LEA-128 RK_i = (T0, T1, T2, T1, T3, T1); LEA-192 (T0..T5); LEA-256 six of the eight words
// from 6i mod 8 (lea_key.cpp's schedule, one round at a time).
template <int KW, typename T> KC_LEA_HD void next_round_key(T *t, int i, T *rk)
{
    if constexpr (KW == 4) {
        for (int k = 0; k < 4; k++)
            t[k] = update_lanes(t[k], 4, i, k);
        rk[0] = t[0], rk[1] = t[1], rk[2] = t[2], rk[3] = t[1], rk[4] = t[3], rk[5] = t[1];
    } else {
        for (int k = 0; k < 6; k++) {
            const int j = KW == 6 ? k : word_256(i, k);
            t[j] = update_lanes(t[j], KW, i, k);
            rk[k] = t[j];
        }
    }
}

} // namespace kc::lea_key
