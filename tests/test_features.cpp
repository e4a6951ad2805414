// KCIPHER_CPU_FEATURES, the user's feature mask: its parser and the rule that removing a
// feature removes those that need it. What dispatch then chooses is checked through the CLI
// (test_cli.cpp, CliCpuFeatures), where the variable can be set before the process starts.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dispatch/features.hpp"
#include "kcipher/kcipher.h"

namespace {

using namespace kc;

uint32_t parsed(const char *spec)
{
    uint32_t removed = 0xdeadbeef;
    std::string error;
    EXPECT_TRUE(parse_feature_mask(spec, &removed, &error)) << spec << ": " << error;
    return removed;
}

std::string parse_error(const char *spec)
{
    uint32_t removed = 0;
    std::string error;
    EXPECT_FALSE(parse_feature_mask(spec, &removed, &error)) << spec;
    return error;
}

TEST(CpuFeatureMask, ParsesRemovals)
{
    EXPECT_EQ(uint32_t(feat_avx512f | feat_gfni), parsed("-avx512f,-gfni"));
    EXPECT_EQ(uint32_t(feat_avx512f | feat_gfni), parsed(" -avx512f  -gfni, "));
    EXPECT_EQ(uint32_t(feat_arm_aes), parsed("-arm-aes"));
    EXPECT_EQ(cpu_feature_bits, parsed("-all"));
    EXPECT_EQ(0u, parsed(""));
    EXPECT_EQ(0u, parsed(",,"));
}

TEST(CpuFeatureMask, RefusesWhatItCannotHonour)
{
    EXPECT_NE(std::string::npos, parse_error("avx2").find("-FEATURE")); // adding is not possible
    EXPECT_NE(std::string::npos, parse_error("+avx2").find("-FEATURE"));
    EXPECT_NE(std::string::npos, parse_error("-").find("-FEATURE"));
    EXPECT_NE(std::string::npos, parse_error("-avx513").find("unknown CPU feature 'avx513'"));
    EXPECT_NE(std::string::npos, parse_error("-gfni,-AVX2").find("'AVX2'"));
    EXPECT_NE(std::string::npos, parse_error("-cuda-gpu").find("unknown CPU feature"));
}

TEST(CpuFeatureMask, RemovingAFeatureRemovesThoseThatNeedIt)
{
    const uint32_t x86 = feat_sse2 | feat_ssse3 | feat_aesni | feat_avx | feat_avx2 | feat_bmi2 | feat_avx512f |
                         feat_avx512bw | feat_avx512vl | feat_avx512vbmi2 | feat_gfni | feat_vaes;
    EXPECT_EQ(x86, remove_features(x86, 0));
    EXPECT_EQ(uint32_t(feat_sse2 | feat_ssse3 | feat_aesni | feat_bmi2 | feat_gfni), remove_features(x86, feat_avx));
    EXPECT_EQ(uint32_t(feat_sse2 | feat_ssse3 | feat_aesni | feat_avx | feat_avx2 | feat_bmi2 | feat_gfni | feat_vaes),
              remove_features(x86, feat_avx512f));
    EXPECT_EQ(x86 & ~uint32_t(feat_avx512bw | feat_avx512vbmi2), remove_features(x86, feat_avx512bw));
    EXPECT_EQ(x86 & ~uint32_t(feat_aesni | feat_vaes), remove_features(x86, feat_aesni));
    EXPECT_EQ(x86 & ~uint32_t(feat_gfni), remove_features(x86, feat_gfni));
    EXPECT_EQ(uint32_t(feat_bmi2), remove_features(x86, feat_sse2)); // BMI2 is scalar
    EXPECT_EQ(0u, remove_features(feat_neon | feat_arm_aes, feat_neon));
    // GPUs are not CPU features: -all keeps them.
    EXPECT_EQ(uint32_t(feat_cuda_gpu), remove_features(x86 | feat_cuda_gpu, cpu_feature_bits));
    // A feature the CPU lacks takes the ones that need it, whatever CPUID said of them.
    EXPECT_EQ(uint32_t(feat_sse2 | feat_ssse3), remove_features(feat_sse2 | feat_ssse3 | feat_avx2, 0));
}

TEST(CpuFeatureMask, DispatchUsesTheDetectedFeaturesLessTheMask)
{
    uint32_t removed = 0;
    std::string error;
    const char *env = std::getenv("KCIPHER_CPU_FEATURES");
    ASSERT_TRUE(parse_feature_mask(env ? env : "", &removed, &error)) << error;
    EXPECT_EQ(remove_features(detected_features(), removed), machine_features());
    const char *detail = nullptr;
    EXPECT_EQ(KCIPHER_OK, kcipher_cpu_features_status(&detail));
    EXPECT_STREQ("", detail);
    EXPECT_EQ(feature_names(machine_features() & cpu_feature_bits), kcipher_cpu_features());
    EXPECT_EQ(feature_names(detected_features() & cpu_feature_bits), kcipher_cpu_features_detected());
}

} // namespace
