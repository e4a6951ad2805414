// `kcipher rand` as a separate process: KISA vectors replayed from the command line, the
// N-byte output against the C API's request-by-request generation, --hex and --out, and
// argument errors (exit 2 with a message, exit 1 for failures while running, no output).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "kcipher/kcipher.hpp"
#include "support/drbg_rsp.hpp"
#include "support/run_process.hpp"
#include "support/vectors.hpp"

namespace {

const std::string kCli = [] {
    const char *e = std::getenv("KCIPHER_TEST_CLI");
    return std::string(e != nullptr && *e != '\0' ? e : KC_CLI_PATH);
}();

kct::ProcessResult rand_cli(std::vector<std::string> args)
{
    args.insert(args.begin(), {kCli, "rand"});
    return kct::run_process(args);
}

// The first output of every KISA case without prediction resistance, personalization
// string or additional input is what `rand --bytes <its length>` prints for its inputs.
TEST(DrbgCli, KisaVectors)
{
    std::vector<kct::DrbgCase> cases = kct::load_drbg_rsp("kisa_ttak_ko_12_0189_ctr_drbg.rsp");
    ASSERT_GT(cases.size(), 0u);
    int checked = 0;
    for (const kct::DrbgCase &v : cases) {
        if (v.params.at("PredictionResistance") == "True" ||
            !v.get("PersonalizationString").empty() || !v.get("AdditionalInput1").empty())
            continue;
        std::string name = v.section.substr(0, v.section.find(' '));
        for (char &c : name)
            c = char(std::tolower((unsigned char)c));
        if (name == "hight-128")
            name = "hight";
        bool df = v.section.find("use df") != std::string::npos;
        std::string want = v.get("ReturnedBits1");
        std::vector<std::string> args = {"--cipher", name, "--bytes", std::to_string(want.size() / 2), "--hex",
                                         "--entropy", v.get("EntropyInput")};
        if (df)
            args.insert(args.end(), {"--nonce", v.get("Nonce")});
        else
            args.push_back("--no-df");
        auto r = rand_cli(args);
        ASSERT_EQ(r.exit_code, 0) << v.where() << ": " << r.err;
        EXPECT_EQ(r.out, want + "\n") << v.where();
        checked++;
    }
    // 8 ciphers x (df, no df) x (interval 1, interval 2) with neither input.
    EXPECT_EQ(checked, 32);
}

// Many requests, binary to a file: the same bytes as kcipher_drbg_generate request by request.
TEST(DrbgCli, LargeOutputEqualsRequestByRequest)
{
    char dir[] = "/tmp/kc_drbg_cli_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::string path = std::string(dir) + "/out.bin";
    for (const char *name : {"lea-192", "cham-64-128"}) {
        kcipher::Drbg d(name);
        size_t seed = d.max_request() == 1024 ? 16 : 24;
        std::vector<uint8_t> e = kct::random_bytes(seed + 8, 5), ps = kct::random_bytes(5, 6);
        size_t len = 70 * d.max_request() + 33;
        auto r = rand_cli({"-c", name, "-n", std::to_string(len), "--out", path, "--entropy", kct::tohex(e),
                           "--personalization", kct::tohex(ps)});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_TRUE(r.out.empty());
        std::ifstream f(path, std::ios::binary);
        std::string got((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        d.set_entropy_source(nullptr, nullptr);
        d.instantiate(e, {}, ps);
        std::string want;
        for (size_t done = 0; done < len; done += d.max_request()) {
            auto part = d.generate(std::min(d.max_request(), len - done));
            want.append(part.begin(), part.end());
        }
        EXPECT_TRUE(got == want) << name;
    }
    std::remove(path.c_str());
    rmdir(dir);
}

// The GPU serves the same bytes as the CPU: the KISA first outputs, then 40 MiB + 7 that span
// several batches of requests.
TEST(DrbgCli, GpuEqualsCpu)
{
    if (kcipher_gpu_count() == 0)
        GTEST_SKIP() << "no GPU on this machine: rand --device gpu runs on the GPU machine";
    for (const char *name : {"aria-128", "lea-256", "hight", "cham-64-128", "cham-128-128"}) {
        kcipher::Drbg d(name);
        size_t seed = d.max_request() == 1024 ? 16 : (std::string(name) == "lea-256" ? 32 : 16);
        std::vector<std::string> args = {"-c", name, "-n", std::to_string((40u << 20) + 7), "--entropy",
                                         kct::tohex(kct::random_bytes(seed, 11)), "--nonce",
                                         kct::tohex(kct::random_bytes(8, 12))};
        auto cpu = rand_cli(args);
        args.insert(args.end(), {"--device", "gpu"});
        auto gpu = rand_cli(args);
        ASSERT_EQ(cpu.exit_code, 0) << name << cpu.err;
        ASSERT_EQ(gpu.exit_code, 0) << name << gpu.err;
        EXPECT_EQ(gpu.out.size(), (40u << 20) + 7) << name;
        EXPECT_TRUE(gpu.out == cpu.out) << name;
    }
}

TEST(DrbgCli, OsEntropyToStdout)
{
    auto a = rand_cli({"-c", "aria-256", "-n", "100k"}), b = rand_cli({"-c", "aria-256", "-n", "100k"});
    ASSERT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(a.out.size(), 102400u);
    EXPECT_NE(a.out, b.out);
    auto h = rand_cli({"-c", "hight", "-n", "3", "--hex"});
    ASSERT_EQ(h.exit_code, 0);
    EXPECT_EQ(h.out.size(), 7u);
}

TEST(DrbgCli, BadArguments)
{
    struct Case {
        std::vector<std::string> args;
        int rc;
        const char *message;
    } cases[] = {
        {{"-c", "aes-128", "-n", "16"}, 2, "unknown cipher"},
        {{"-c", "aria-128-ctr", "-n", "16"}, 2, "bare cipher name"},
        {{"-c", "aria-128", "-n", "0"}, 2, "at least 1"},
        {{"-c", "aria-128", "-n", "99999999999999999999"}, 2, "--bytes: '99999999999999999999' is too large"},
        {{"-c", "aria-128", "-n", "2048G"}, 2, "at most 1099511627776 (1T)"},
        {{"-c", "aria-128", "-n", "12x"}, 2, "--bytes: '12x' is not a number"},
        {{"-c", "aria-128", "-n", "16", "--entropy", "zz"}, 2, "not valid hex"},
        {{"-c", "aria-128", "-n", "16", "--entropy", "abc"}, 2, "not valid hex"},
        {{"-c", "aria-128", "-n", "16", "--entropy", "0011"}, 2, "entropy input length"},
        {{"-c", "aria-128", "-n", "16", "--no-df", "--entropy", "00112233445566778899aabbccddeeff"}, 2,
         "entropy input length"},
        {{"-c", "aria-128", "-n", "16", "--nonce", "00"}, 2, "--nonce needs --entropy"},
        {{"-c", "aria-128", "-n", "16", "--device", "tpu"}, 2, "device"},
        {{"-c", "aria-128", "-n", "16", "--out", "/nonexistent-dir/x"}, 1, "nonexistent-dir"},
        {{"-c", "aria-128", "-n", "16", "--device", "gpu"}, 1, "GPU"}, // last: only without a GPU
    };
    for (const Case &c : cases) {
        if (c.args.back() == "gpu" && kcipher_gpu_count() > 0)
            continue; // a GPU is here: --device gpu works (DrbgCli GPU tests cover it)
        auto r = rand_cli(c.args);
        std::string cmd;
        for (const auto &a : c.args)
            cmd += a + " ";
        EXPECT_EQ(r.exit_code, c.rc) << cmd << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << cmd << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << cmd;
    }
}

} // namespace
