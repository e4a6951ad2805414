// One table of exit codes for every command (tools/kcipher/exit_codes.hpp): 2 for bad usage
// wherever it is found, 1 for an operation that failed; the table is in `kcipher --help`.
// bench checks its --kernel and --json before measuring anything.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/cli_kit.hpp"

namespace {

using namespace kct;

const std::string k16 = "000102030405060708090a0b0c0d0e0f";

TEST(CliExitCodes, TableInHelp)
{
    auto r = kc({"--help"});
    EXPECT_EQ(r.exit_code, 0);
    for (const char *line : {"Exit status", "0    success", "1    the operation failed", "2    bad usage",
                             "3    keysearch only", "130"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << " in:\n" << r.out;
}

TEST(CliExitCodes, BadUsageIsTwoInEveryCommand)
{
    const std::vector<std::vector<std::string>> cases = {
        {"enc", "-c", "aria-999-ctr", "-k", k16, "--iv", k16},
        {"dec", "-c", "aria-128-ctr", "-k", "zz", "--iv", k16},
        {"mac", "-c", "aria-128-ctr", "-k", k16},
        {"rand", "-c", "nosuch", "-n", "16"},
        {"bench", "-c", "nosuch-ctr"},
        {"keysearch", "-c", "hight", "--plaintext", "00", "--ciphertext", "00", "-k", k16, "--mask", k16},
    };
    for (const auto &args : cases) {
        auto r = kc(args);
        EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.describe() << " " << r.err;
        EXPECT_EQ(r.out, "") << args[0];
    }
}

TEST(CliExitCodes, FailureToRunIsOne)
{
    TempDir dir;
    auto r = kc({"mac", "-c", "aria-128-cmac", "-k", k16, "-i", dir / "missing"});
    EXPECT_TRUE(FailedWith(r, 1, "cannot open input"));
    r = kc({"enc", "-c", "aria-128-ctr", "-k", k16, "--iv", k16, "-i", dir / "missing"});
    EXPECT_TRUE(FailedWith(r, 1, "cannot open input"));
}

TEST(CliExitCodes, BenchRefusesUnknownKernelBeforeRunning)
{
    auto r = kc({"bench", "-c", "hight-ctr", "--kernel", "nosuch", "--seconds", "0.001", "--rounds", "1"});
    EXPECT_TRUE(FailedWith(r, 2, "--kernel 'nosuch': unknown kernel"));
    EXPECT_EQ(r.out, "") << "measured although the kernel is unknown";
}

TEST(CliExitCodes, BenchRefusesUnwritableJsonBeforeRunning)
{
    TempDir dir;
    const std::string path = dir / "missing-dir/x.json";
    auto r = kc({"bench", "-c", "hight-ctr", "--json", path, "--seconds", "0.001", "--rounds", "1"});
    EXPECT_TRUE(FailedWith(r, 1, "--json '" + path + "': cannot write"));
    EXPECT_EQ(r.out, "") << "measured before finding that the JSON cannot be written";
    EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{});
}

} // namespace
