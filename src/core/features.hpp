// The CPU and GPU features a kernel, searcher or acceleration may require, as bits of a mask.
// Only the registry (src/dispatch) reads which of them the machine has; the families only
// state what they need.
#pragma once

#include <cstdint>

namespace kc {

enum Feature : uint32_t {
    feat_sse2 = 1u << 0,
    feat_ssse3 = 1u << 1,
    feat_aesni = 1u << 2,
    feat_avx = 1u << 3,
    feat_avx2 = 1u << 4,
    feat_avx512f = 1u << 5,
    feat_avx512bw = 1u << 6,
    feat_avx512vl = 1u << 7,
    feat_avx512vbmi2 = 1u << 8,
    feat_gfni = 1u << 9,
    feat_vaes = 1u << 10,
    feat_bmi2 = 1u << 11,
    feat_pclmul = 1u << 12,  // PCLMULQDQ: carry-less multiply of 64-bit halves (GHASH)
    feat_vpclmul = 1u << 13, // VPCLMULQDQ: the same on every 128-bit lane of a ymm/zmm register
    feat_neon = 1u << 16,
    feat_arm_aes = 1u << 17,
    feat_arm_pmull = 1u << 18, // PMULL/PMULL2 on 64-bit halves (GHASH)
    feat_cuda_gpu = 1u << 24,
};

// Every feature kcipher can use on the CPU (KCIPHER_CPU_FEATURES may remove any of them).
constexpr uint32_t cpu_feature_bits = 0x73fffu;

} // namespace kc
