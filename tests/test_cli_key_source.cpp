// Keys off the command line: --key-file FILE and --key-env NAME give the same bytes as -k for
// enc, dec, mac and keysearch (a final newline allowed), exactly one of the three is taken,
// and each mistake has its own message: a missing file (exit 1, as any unreadable input), an
// unset variable, bad hex or a wrong length (exit 2).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kcipher/kcipher.hpp"
#include "support/cli_kit.hpp"

namespace {

using namespace kct;

const std::string k16 = "000102030405060708090a0b0c0d0e0f";
const std::string iv16 = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

class CliKeySource : public ::testing::Test {
  protected:
    void SetUp() override
    {
        write_file(dir_ / "plain", random_str(100, 77));
        write_file(dir_ / "key", k16 + "\n");
    }
    ProcessResult run(std::vector<std::string> args, const std::string &key_env = "")
    {
        ProcessOptions o;
        o.stdin_path = dir_ / "plain";
        if (!key_env.empty())
            o.env_set = {{"KC_TEST_KEY", key_env}};
        else
            o.env_unset = {"KC_TEST_KEY"};
        return kc(args, o);
    }
    TempDir dir_;
};

TEST_F(CliKeySource, EncDecMacTakeFileAndEnvironment)
{
    const std::vector<std::string> enc = {"enc", "-c", "aria-128-cbc", "--iv", iv16};
    auto by_arg = run(enc + std::vector<std::string>{"-k", k16});
    ASSERT_TRUE(Succeeded(by_arg));
    auto by_file = run(enc + std::vector<std::string>{"--key-file", dir_ / "key"});
    ASSERT_TRUE(Succeeded(by_file));
    EXPECT_TRUE(SameBytes(by_file.out, by_arg.out));
    auto by_env = run(enc + std::vector<std::string>{"--key-env", "KC_TEST_KEY"}, k16);
    ASSERT_TRUE(Succeeded(by_env));
    EXPECT_TRUE(SameBytes(by_env.out, by_arg.out));
    by_env = run(enc + std::vector<std::string>{"--key-env", "KC_TEST_KEY"}, k16 + "\r\n");
    ASSERT_TRUE(Succeeded(by_env));
    EXPECT_TRUE(SameBytes(by_env.out, by_arg.out));

    write_file(dir_ / "ct", by_arg.out);
    auto dec = kc({"dec", "-c", "aria-128-cbc", "--iv", iv16, "--key-file", dir_ / "key", "-i", dir_ / "ct"});
    ASSERT_TRUE(Succeeded(dec));
    EXPECT_TRUE(SameBytes(dec.out, read_file(dir_ / "plain")));

    auto mac_arg = run({"mac", "-c", "aria-128-cmac", "-k", k16});
    ASSERT_TRUE(Succeeded(mac_arg));
    auto mac_file = run({"mac", "-c", "aria-128-cmac", "--key-file", dir_ / "key"});
    ASSERT_TRUE(Succeeded(mac_file));
    EXPECT_EQ(mac_file.out, mac_arg.out);
}

TEST_F(CliKeySource, KeysearchTemplateFromFile)
{
    std::vector<uint8_t> key = kct::random_bytes(16, 43), tmpl = key, mask(16, 0);
    tmpl[15] = 0;
    mask[15] = 0xff;
    kcipher::Cipher c("hight", key);
    auto pt = kct::random_bytes(8, 44);
    write_file(dir_ / "template", kct::tohex(tmpl) + "\n");
    auto r = kc({"keysearch", "-c", "hight", "--plaintext", kct::tohex(pt), "--ciphertext",
                 kct::tohex(c.ecb_encrypt(pt)), "--mask", kct::tohex(mask), "--threads", "1", "--no-progress",
                 "--key-file", dir_ / "template"});
    EXPECT_EQ(r.exit_code, 0) << r.describe() << r.err;
    EXPECT_NE(r.out.find("found key " + kct::tohex(key)), std::string::npos) << r.out;
}

TEST_F(CliKeySource, Mistakes)
{
    const std::vector<std::string> enc = {"enc", "-c", "aria-128-ctr", "--iv", iv16};
    auto r = run(enc + std::vector<std::string>{"--key-file", dir_ / "missing"});
    EXPECT_TRUE(FailedWith(r, 1, "--key-file '" + (dir_ / "missing") + "': cannot open: No such file"));
    r = run(enc + std::vector<std::string>{"--key-env", "KC_TEST_KEY"});
    EXPECT_TRUE(FailedWith(r, 2, "--key-env KC_TEST_KEY: the environment variable is not set"));
    r = run(enc + std::vector<std::string>{"--key-env", "KC_TEST_KEY"}, "00zz");
    EXPECT_TRUE(FailedWith(r, 2, "--key-env KC_TEST_KEY is not valid hex"));
    write_file(dir_ / "short", k16.substr(0, 30) + "\n");
    r = run(enc + std::vector<std::string>{"--key-file", dir_ / "short"});
    EXPECT_TRUE(FailedWith(r, 2, "must be 16 bytes (32 hex digits) for aria-128, got 15 bytes"));
    write_file(dir_ / "two-lines", k16 + "\n\n");
    r = run(enc + std::vector<std::string>{"--key-file", dir_ / "two-lines"});
    EXPECT_TRUE(FailedWith(r, 2, "is not valid hex"));
    write_file(dir_ / "empty", "");
    r = run(enc + std::vector<std::string>{"--key-file", dir_ / "empty"});
    EXPECT_TRUE(FailedWith(r, 2, "is empty"));
    r = run(enc + std::vector<std::string>{"-k", k16, "--key-file", dir_ / "key"});
    EXPECT_TRUE(FailedWith(r, 2, "excludes"));
    r = run({"mac", "-c", "aria-128-cmac", "--key-env", "KC_TEST_KEY"});
    EXPECT_TRUE(FailedWith(r, 2, "not set"));
    r = run({"mac", "-c", "aria-128-cmac"});
    EXPECT_TRUE(FailedWith(r, 2, "--key, --key-file or --key-env is required"));
}

// -k puts the key where every local user can read it; the help says so and offers the others.
TEST_F(CliKeySource, HelpWarnsAboutKeyOnTheCommandLine)
{
    for (const char *cmd : {"enc", "dec", "mac", "keysearch"}) {
        auto r = kc({cmd, "--help"});
        EXPECT_EQ(r.exit_code, 0) << cmd;
        EXPECT_NE(r.out.find("--key-file"), std::string::npos) << cmd;
        EXPECT_NE(r.out.find("--key-env"), std::string::npos) << cmd;
        EXPECT_NE(r.out.find("(ps)"), std::string::npos) << cmd << ": " << r.out;
    }
}

} // namespace
