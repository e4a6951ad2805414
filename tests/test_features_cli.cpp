// KCIPHER_CPU_FEATURES through the CLI, where it can be set before the process starts: with a
// feature removed, dispatch falls back to the best kernel that does without it, the output
// bytes stay the same, the self-test passes, and a malformed mask is an error.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dispatch/registry.hpp"
#include "support/run_process.hpp"

namespace {

const std::string kCli = [] {
    const char *e = std::getenv("KCIPHER_TEST_CLI");
    return std::string(e != nullptr && *e != '\0' ? e : KC_CLI_PATH);
}();

kct::ProcessResult kc_with_mask(const std::string &mask, std::vector<std::string> args, std::string stdin_bytes = {})
{
    args.insert(args.begin(), kCli);
    kct::ProcessOptions o;
    o.env_set = {{"KCIPHER_CPU_FEATURES", mask}};
    o.env_unset = {"KCIPHER_KERNEL"};
    o.stdin_bytes = stdin_bytes;
    o.timeout_seconds = 120;
    return kct::run_process(args, o);
}

// `kcipher info`'s cipher rows: cipher name -> default kernel.
std::map<std::string, std::string> default_kernels(const std::string &info)
{
    std::map<std::string, std::string> m;
    std::istringstream s(info);
    for (std::string line; std::getline(s, line);) {
        std::istringstream w(line);
        std::vector<std::string> t;
        for (std::string x; w >> x;)
            t.push_back(x);
        if (t.size() == 4 && kc::cipher_by_name(t[0]) != nullptr)
            m[t[0]] = t[3];
    }
    return m;
}

std::string line_after(const std::string &text, const std::string &prefix)
{
    size_t at = text.find(prefix);
    if (at == std::string::npos)
        return "<no '" + prefix + "' line>";
    at += prefix.size();
    return text.substr(at, text.find('\n', at) - at);
}

// What dispatch must choose with `features`: the highest-ranked CPU kernel that needs no
// more, as the registry ranks them.
const kc::Kernel *expected_kernel(kc::Cipher c, uint32_t features)
{
    const kc::Kernel *best = nullptr;
    for (const kc::Kernel *k : kc::all_kernels())
        if (k->gpu == nullptr && k->supports(c) && (k->requires & ~features) == 0 &&
            (best == nullptr || k->rank > best->rank))
            best = k;
    return best;
}

class CliCpuFeatures : public ::testing::TestWithParam<const char *> {};

TEST_P(CliCpuFeatures, DispatchFallsBackToTheBestKernelLeft)
{
    uint32_t removed = 0;
    std::string error;
    ASSERT_TRUE(kc::parse_feature_mask(GetParam(), &removed, &error)) << error;
    const uint32_t have = kc::remove_features(kc::detected_features(), removed);
    auto r = kc_with_mask(GetParam(), {"info"});
    ASSERT_EQ(0, r.exit_code) << r.describe() << " " << r.err;
    EXPECT_EQ("", r.err);
    EXPECT_EQ(" " + kc::feature_names(have & kc::cpu_feature_bits), line_after(r.out, "CPU features:"));
    EXPECT_EQ(" " + kc::feature_names(kc::detected_features() & kc::cpu_feature_bits), line_after(r.out, "detected:"));
    auto chosen = default_kernels(r.out);
    ASSERT_EQ(size_t(kc::cipher_count), chosen.size()) << r.out;
    for (int i = 0; i < kc::cipher_count; i++) {
        const kc::CipherDesc &d = *kc::cipher_by_index(i);
        const kc::Kernel *want = expected_kernel(d.id, have);
        ASSERT_NE(nullptr, want);
        EXPECT_EQ(want->name, chosen[d.name]) << d.name << " with KCIPHER_CPU_FEATURES=" << GetParam();
        const kc::Kernel *got = kc::find_kernel(chosen[d.name]);
        ASSERT_NE(nullptr, got);
        EXPECT_EQ(0u, got->requires & ~have) << got->name << " needs a removed feature";
    }
}

// The same bytes whichever kernel the mask leaves, and the self-test passes on those kernels.
TEST_P(CliCpuFeatures, SameBytesAndSelftestPasses)
{
    const std::string key = "000102030405060708090a0b0c0d0e0f", iv = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    std::string data(4096 + 13, '\0');
    for (size_t i = 0; i < data.size(); i++)
        data[i] = char(i * 131 + 7);
    for (const char *cipher : {"aria-128-ctr", "lea-128-cbc", "hight-ctr", "cham-128-128-cbc", "cham-64-128-ctr"}) {
        const std::string name = cipher;
        std::string in = name.find("ctr") != std::string::npos ? data : data.substr(0, 4096);
        const bool small = name.rfind("hight", 0) == 0 || name.rfind("cham-64", 0) == 0; // 8-byte blocks
        std::vector<std::string> args = {"enc", "-c", cipher, "-k", key, "--iv", small ? iv.substr(0, 16) : iv};
        auto want = kc_with_mask("", args, in);
        auto got = kc_with_mask(GetParam(), args, in);
        ASSERT_EQ(0, want.exit_code) << want.err;
        ASSERT_EQ(0, got.exit_code) << got.err;
        EXPECT_TRUE(want.out == got.out) << cipher << " differs with KCIPHER_CPU_FEATURES=" << GetParam();
    }
    auto st = kc_with_mask(GetParam(), {"selftest"});
    EXPECT_EQ(0, st.exit_code) << st.out << st.err;
    EXPECT_NE(std::string::npos, st.out.find(" passed, 0 failed")) << st.out;
}

INSTANTIATE_TEST_SUITE_P(Masks, CliCpuFeatures,
                         ::testing::Values("-avx512f", "-gfni", "-avx512f,-gfni", "-vaes", "-avx2", "-avx", "-aesni",
                                           "-ssse3", "-all"),
                         [](const ::testing::TestParamInfo<const char *> &i) {
                             std::string s = i.param;
                             for (char &ch : s)
                                 if (!std::isalnum((unsigned char)ch))
                                     ch = '_';
                             return s;
                         });

// Where the machine has any feature a kernel uses, -all must change some default: the
// masks above cannot pass by never moving dispatch.
TEST(CliCpuFeaturesAll, RemovingEveryFeatureChangesADefault)
{
    bool any_uses_features = false;
    for (int i = 0; i < kc::cipher_count; i++)
        any_uses_features = any_uses_features ||
                            expected_kernel(kc::cipher_by_index(i)->id, kc::detected_features())->requires != 0;
    if (!any_uses_features)
        GTEST_SKIP() << "no kernel here uses a CPU feature this machine has";
    auto plain = kc_with_mask("", {"info"}), none = kc_with_mask("-all", {"info"});
    ASSERT_EQ(0, plain.exit_code);
    ASSERT_EQ(0, none.exit_code);
    EXPECT_NE(default_kernels(plain.out), default_kernels(none.out));
    for (const auto &[cipher, kernel] : default_kernels(none.out))
        EXPECT_EQ(0u, kc::find_kernel(kernel)->requires) << cipher << ": " << kernel;
}

TEST(CliCpuFeaturesAll, MalformedMaskIsAnError)
{
    for (const char *bad : {"-avx513", "avx2", "-gfni,+avx2"}) {
        auto r = kc_with_mask(bad, {"enc", "-c", "aria-128-ctr", "-k", "000102030405060708090a0b0c0d0e0f", "--iv",
                                    "000102030405060708090a0b0c0d0e0f"},
                              std::string(32, 'a'));
        EXPECT_EQ(2, r.exit_code) << bad << ": " << r.describe(); // a bad setting is bad usage
        EXPECT_NE(std::string::npos, r.err.find("KCIPHER_CPU_FEATURES")) << bad << ": " << r.err;
        EXPECT_EQ("", r.out) << bad << ": nothing may be written";
        auto info = kc_with_mask(bad, {"info"});
        EXPECT_EQ(1, info.exit_code) << bad;
        EXPECT_NE(std::string::npos, info.out.find("KCIPHER_CPU_FEATURES error:")) << info.out;
    }
    auto r = kc_with_mask("-avx513", {"selftest"});
    EXPECT_EQ(2, r.exit_code);
    EXPECT_NE(std::string::npos, r.err.find("unknown CPU feature 'avx513'")) << r.err;
}

} // namespace
