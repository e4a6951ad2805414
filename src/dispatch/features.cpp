#include "dispatch/features.hpp"

#include "cuda/devices.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace kc {

#if defined(__x86_64__) || defined(__i386__)
static uint64_t read_xcr0()
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

// A vector ISA counts only if the OS also saves its registers (XCR0): CPUID alone would
// report AVX-512 under a kernel that does not context-switch ZMM state.
static uint32_t detect_cpu()
{
    unsigned a, b, c, d;
    uint32_t f = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    if (d & (1u << 26))
        f |= feat_sse2;
    if (c & (1u << 9))
        f |= feat_ssse3;
    if (c & (1u << 25))
        f |= feat_aesni;
    bool osxsave = c & (1u << 27);
    bool avx_cpu = c & (1u << 28);
    uint64_t xcr0 = osxsave ? read_xcr0() : 0;
    bool ymm_os = (xcr0 & 0x6) == 0x6;
    bool zmm_os = (xcr0 & 0xe6) == 0xe6;
    if (avx_cpu && ymm_os)
        f |= feat_avx;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        if ((b & (1u << 5)) && ymm_os)
            f |= feat_avx2;
        if (b & (1u << 8))
            f |= feat_bmi2;
        if (zmm_os) {
            if (b & (1u << 16))
                f |= feat_avx512f;
            if (b & (1u << 30))
                f |= feat_avx512bw;
            if (b & (1u << 31))
                f |= feat_avx512vl;
            if (c & (1u << 6))
                f |= feat_avx512vbmi2;
        }
        if (c & (1u << 8))
            f |= feat_gfni;
        if ((c & (1u << 9)) && ymm_os)
            f |= feat_vaes;
    }
    return f;
}
#elif defined(__aarch64__) && defined(__linux__)
static uint32_t detect_cpu()
{
    unsigned long hw = getauxval(AT_HWCAP);
    uint32_t f = 0;
    if (hw & HWCAP_ASIMD)
        f |= feat_neon;
    if (hw & HWCAP_AES)
        f |= feat_arm_aes;
    return f;
}
#else
static uint32_t detect_cpu() { return 0; }
#endif

uint32_t machine_features()
{
    static const uint32_t cached = [] {
        uint32_t f = detect_cpu();
        if (cuda_device_count() > 0)
            f |= feat_cuda_gpu;
        return f;
    }();
    return cached;
}

std::string feature_names(uint32_t mask)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {
        {feat_sse2, "sse2"},         {feat_ssse3, "ssse3"},         {feat_aesni, "aesni"},
        {feat_avx, "avx"},           {feat_avx2, "avx2"},           {feat_bmi2, "bmi2"},
        {feat_avx512f, "avx512f"},   {feat_avx512bw, "avx512bw"},   {feat_avx512vl, "avx512vl"},
        {feat_avx512vbmi2, "avx512vbmi2"}, {feat_gfni, "gfni"},     {feat_vaes, "vaes"},
        {feat_neon, "neon"},         {feat_arm_aes, "arm-aes"},     {feat_cuda_gpu, "cuda-gpu"},
    };
    std::string s;
    for (const auto &n : names) {
        if (mask & n.bit) {
            if (!s.empty())
                s += ' ';
            s += n.name;
        }
    }
    return s;
}

} // namespace kc
