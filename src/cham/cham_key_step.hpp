// The two round keys each CHAM key word gives (Koo et al., ICISC 2017, "key schedule"),
// shared by the host key schedule (cham_key.cpp) and the GPU key search, which derives a
// candidate's round keys on the fly (cham_cuda_keysearch.cu). W is uint16_t (CHAM-64/128)
// or uint32_t.
//   RK_i             = K_i ^ ROL1(K_i) ^ ROL8(K_i)
//   RK_{(i+k/w) ^ 1} = K_i ^ ROL1(K_i) ^ ROL11(K_i)
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define KC_CHAM_HD __host__ __device__ __forceinline__
#else
#define KC_CHAM_HD inline
#endif

namespace kc::cham_key {

template <typename W> KC_CHAM_HD constexpr W rol(W x, unsigned r)
{
    return (W)((x << r) | (x >> (8 * sizeof(W) - r)));
}

// rk_first and rk_second on T, a word or a vector of W lanes (a GCC vector type: <<, >>, |
// and ^ act lane by lane), for the CPU key search's one key per SIMD lane
// (cham_x86_keysearch_avx512.cpp); rk_first and rk_second are their T = W forms.
template <typename W, typename T> KC_CHAM_HD constexpr T rol_lanes(T x, unsigned r)
{
    return (T)((x << r) | (x >> (8 * sizeof(W) - r)));
}
template <typename W, typename T> KC_CHAM_HD constexpr T rk_first_lanes(T k)
{
    return (T)(k ^ rol_lanes<W, T>(k, 1) ^ rol_lanes<W, T>(k, 8));
}
template <typename W, typename T> KC_CHAM_HD constexpr T rk_second_lanes(T k)
{
    return (T)(k ^ rol_lanes<W, T>(k, 1) ^ rol_lanes<W, T>(k, 11));
}
template <typename W> KC_CHAM_HD constexpr W rk_first(W k) { return rk_first_lanes<W, W>(k); }
template <typename W> KC_CHAM_HD constexpr W rk_second(W k) { return rk_second_lanes<W, W>(k); }

// Where K_i's second round key goes, for a key of key_words words.
KC_CHAM_HD constexpr int second_index(int i, int key_words) { return (i + key_words) ^ 1; }

} // namespace kc::cham_key
