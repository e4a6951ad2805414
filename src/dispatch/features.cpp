#include "dispatch/features.hpp"

#include <cstdlib>

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
    if (c & (1u << 1))
        f |= feat_pclmul;
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
        if ((c & (1u << 10)) && ymm_os)
            f |= feat_vpclmul;
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
    if (hw & HWCAP_PMULL)
        f |= feat_arm_pmull;
    return f;
}
#else
static uint32_t detect_cpu() { return 0; }
#endif

namespace {

struct FeatureName {
    uint32_t bit;
    const char *name;
};

constexpr FeatureName feature_table[] = {
    {feat_sse2, "sse2"},         {feat_ssse3, "ssse3"},         {feat_aesni, "aesni"},
    {feat_avx, "avx"},           {feat_avx2, "avx2"},           {feat_bmi2, "bmi2"},
    {feat_avx512f, "avx512f"},   {feat_avx512bw, "avx512bw"},   {feat_avx512vl, "avx512vl"},
    {feat_avx512vbmi2, "avx512vbmi2"}, {feat_gfni, "gfni"},     {feat_vaes, "vaes"},
    {feat_pclmul, "pclmul"},     {feat_vpclmul, "vpclmul"},
    {feat_neon, "neon"},         {feat_arm_aes, "arm-aes"},     {feat_arm_pmull, "arm-pmull"},
    {feat_cuda_gpu, "cuda-gpu"},
};

// What each feature needs besides itself: a feature stays only while all of these do.
constexpr struct {
    uint32_t bit, needs;
} feature_needs[] = {
    {feat_ssse3, feat_sse2},
    {feat_aesni, feat_sse2},
    {feat_gfni, feat_sse2},
    {feat_avx, feat_sse2 | feat_ssse3},
    {feat_avx2, feat_avx},
    {feat_vaes, feat_avx | feat_aesni},
    {feat_pclmul, feat_sse2},
    {feat_vpclmul, feat_avx | feat_pclmul},
    {feat_avx512f, feat_avx2},
    {feat_avx512bw, feat_avx512f},
    {feat_avx512vl, feat_avx512f},
    {feat_avx512vbmi2, feat_avx512bw},
    {feat_arm_aes, feat_neon},
    {feat_arm_pmull, feat_neon},
};

struct Mask {
    uint32_t removed = 0;
    std::string error;
};

const Mask &environment_mask()
{
    static const Mask m = [] {
        Mask r;
        const char *env = std::getenv("KCIPHER_CPU_FEATURES");
        if (env != nullptr && !parse_feature_mask(env, &r.removed, &r.error))
            r.error = "KCIPHER_CPU_FEATURES=\"" + std::string(env) + "\": " + r.error;
        return r;
    }();
    return m;
}

} // namespace

bool parse_feature_mask(std::string_view spec, uint32_t *removed, std::string *error)
{
    uint32_t bits = 0;
    size_t i = 0;
    while (i < spec.size()) {
        if (spec[i] == ',' || spec[i] == ' ') {
            i++;
            continue;
        }
        size_t end = spec.find_first_of(", ", i);
        std::string_view item = spec.substr(i, end == std::string_view::npos ? spec.size() - i : end - i);
        i += item.size();
        if (item.size() < 2 || item[0] != '-') {
            *error = "'" + std::string(item) + "' is not -FEATURE (features can only be removed)";
            return false;
        }
        std::string_view name = item.substr(1);
        uint32_t bit = 0;
        if (name == "all")
            bit = cpu_feature_bits;
        for (const FeatureName &f : feature_table)
            if (name == f.name && (f.bit & cpu_feature_bits) != 0)
                bit = f.bit;
        if (bit == 0) {
            *error = "unknown CPU feature '" + std::string(name) + "' (known: " + feature_names(cpu_feature_bits) +
                     ", all)";
            return false;
        }
        bits |= bit;
    }
    *removed = bits;
    return true;
}

uint32_t remove_features(uint32_t have, uint32_t removed)
{
    uint32_t f = have & ~removed;
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto &n : feature_needs)
            if ((f & n.bit) != 0 && (f & n.needs) != n.needs) {
                f &= ~n.bit;
                changed = true;
            }
    }
    return f;
}

const std::string &feature_mask_error() { return environment_mask().error; }

static uint32_t detected_cpu_features()
{
    static const uint32_t cached = detect_cpu();
    return cached;
}

uint32_t detected_features()
{
    static const uint32_t cached = detected_cpu_features() | (cuda_device_count() > 0 ? feat_cuda_gpu : 0u);
    return cached;
}

uint32_t machine_cpu_features()
{
    static const uint32_t cached = [] {
        const Mask &m = environment_mask();
        return remove_features(detected_cpu_features(), m.error.empty() ? m.removed : cpu_feature_bits);
    }();
    return cached;
}

uint32_t machine_features()
{
    // The mask removes CPU features only, and nothing depends on the GPU's bit.
    static const uint32_t cached = machine_cpu_features() | (detected_features() & feat_cuda_gpu);
    return cached;
}

std::string feature_names(uint32_t mask)
{
    std::string s;
    for (const FeatureName &n : feature_table) {
        if (mask & n.bit) {
            if (!s.empty())
                s += ' ';
            s += n.name;
        }
    }
    return s;
}

} // namespace kc
