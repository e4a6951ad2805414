// What the machine can run, detected once at run time (CPUID and XGETBV on x86-64,
// getauxval on aarch64, the CUDA runtime for GPUs). Kernels name what they require
// as a mask of these bits; dispatch never picks one the machine lacks.
#pragma once

#include <cstdint>
#include <string>

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
    feat_neon = 1u << 16,
    feat_arm_aes = 1u << 17,
    feat_cuda_gpu = 1u << 24,
};

uint32_t machine_features();                // detected once, cached
std::string feature_names(uint32_t mask);   // "avx2 gfni", in a fixed order

} // namespace kc
