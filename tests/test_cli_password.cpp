// `kcipher enc/dec --pass .. --pbkdf2` against the real `openssl enc -pbkdf2` both ways: ARIA
// CBC with padding, CTR, ECB, CFB, CFB8 and OFB, the default and other iteration counts and digests, passwords
// from pass:, env: and file:; the Salted__ header and a fresh salt each time; and the refusals
// (no --pbkdf2, --pass with --key or --iv, AEAD, a file without the header, a wrong password).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/cli_kit.hpp"
#include "support/vectors.hpp"

namespace {

using namespace kct;

class CliPassword : public ::testing::Test {
  protected:
    void SetUp() override
    {
        auto o = kct::find_on_path("openssl");
        if (!o)
            GTEST_SKIP() << "the openssl command is not on PATH";
        openssl_ = *o;
        write_file(dir_ / "pwfile", "correct horse\nsecond line is not the password\n");
    }

    // What openssl enc runs with; kdf: {"-iter", "1000"} and the like.
    kct::ProcessResult openssl(const std::string &cm, bool decrypt, const std::string &pass,
                               const std::vector<std::string> &kdf, const std::string &in, const std::string &out,
                               kct::ProcessOptions o = {})
    {
        std::vector<std::string> a = {openssl_, "enc", "-" + cm, "-pbkdf2", "-pass", pass, "-in", in, "-out", out};
        if (decrypt)
            a.push_back("-d");
        return kct::run_process(a + kdf, o);
    }

    // kcipher's spelling of the same options.
    static std::vector<std::string> ours(const std::string &verb, const std::string &cm, const std::string &pass,
                                         const std::vector<std::string> &kdf)
    {
        return std::vector<std::string>{verb, "-c", cm, "--pass", pass, "--pbkdf2"} + kdf;
    }

    void both_ways(const std::string &cm, const std::string &pass, const std::vector<std::string> &ossl_kdf,
                   const std::vector<std::string> &our_kdf, size_t len, kct::ProcessOptions env = {})
    {
        SCOPED_TRACE(cm + ", " + pass + ", " + std::to_string(len) + " bytes");
        const std::string plain = random_str(len, len * 7 + cm.size());
        write_file(dir_ / "plain", plain);
        // kcipher encrypts, openssl decrypts.
        auto r = kc(ours("enc", cm, pass, our_kdf) + std::vector<std::string>{"-i", dir_ / "plain", "-o", dir_ / "ours"},
                    env);
        ASSERT_TRUE(Succeeded(r));
        const std::string ct = read_file(dir_ / "ours");
        ASSERT_GE(ct.size(), 16u);
        EXPECT_EQ(ct.substr(0, 8), "Salted__");
        auto o = openssl(cm, true, pass, ossl_kdf, dir_ / "ours", dir_ / "theirs_back", env);
        ASSERT_TRUE(o.exited && o.exit_code == 0) << "openssl enc -d: " << o.err;
        EXPECT_TRUE(SameBytes(read_file(dir_ / "theirs_back"), plain)) << "openssl opens what kcipher wrote";
        // openssl encrypts, kcipher decrypts.
        o = openssl(cm, false, pass, ossl_kdf, dir_ / "plain", dir_ / "theirs", env);
        ASSERT_TRUE(o.exited && o.exit_code == 0) << "openssl enc: " << o.err;
        r = kc(ours("dec", cm, pass, our_kdf) + std::vector<std::string>{"-i", dir_ / "theirs"}, env);
        ASSERT_TRUE(Succeeded(r));
        EXPECT_TRUE(SameBytes(r.out, plain)) << "kcipher opens what openssl wrote";
    }

    TempDir dir_;
    std::string openssl_;
};

TEST_F(CliPassword, AriaCbcPaddedBothWays)
{
    for (size_t len : {size_t(0), size_t(15), size_t(16), size_t(1000)})
        both_ways("aria-256-cbc", "pass:s3cret words", {}, {}, len);
    both_ways("aria-128-cbc", "pass:x", {"-iter", "1234"}, {"--iter", "1234"}, 77);
    both_ways("aria-192-ecb", "pass:ecb has no iv", {}, {}, 33);
}

TEST_F(CliPassword, AriaCtrBothWays)
{
    for (size_t len : {size_t(1), size_t(4099)})
        both_ways("aria-128-ctr", "pass:counter", {}, {}, len);
    both_ways("aria-256-ctr", "pass:counter", {"-iter", "20000"}, {"--iter", "20000"}, 500);
}

TEST_F(CliPassword, AriaCfbCfb8OfbBothWays)
{
    both_ways("aria-128-cfb", "pass:feedback", {}, {}, 1001);
    both_ways("aria-192-cfb8", "pass:feedback", {"-iter", "50"}, {"--iter", "50"}, 77);
    both_ways("aria-256-ofb", "pass:feedback", {}, {}, 4099);
}

TEST_F(CliPassword, DigestsAndIterOnly)
{
    both_ways("aria-128-cbc", "pass:md", {"-md", "sha512"}, {"--md", "sha512"}, 40);
    both_ways("aria-128-cbc", "pass:md", {"-md", "sha1", "-iter", "3"}, {"--md", "sha1", "--iter", "3"}, 40);
    // openssl's -iter asks for PBKDF2 by itself; so does kcipher's.
    write_file(dir_ / "plain", "iter alone");
    auto r = kc({"enc", "-c", "aria-128-cbc", "--pass", "pass:p", "--iter", "5", "-i", dir_ / "plain", "-o", dir_ / "ct"});
    ASSERT_TRUE(Succeeded(r));
    auto o = openssl("aria-128-cbc", true, "pass:p", {"-iter", "5"}, dir_ / "ct", dir_ / "back");
    ASSERT_TRUE(o.exited && o.exit_code == 0) << o.err;
    EXPECT_EQ(read_file(dir_ / "back"), "iter alone");
}

TEST_F(CliPassword, EnvAndFileSources)
{
    kct::ProcessOptions env;
    env.env_set = {{"KC_TEST_PASSWORD", "from the environment"}};
    both_ways("aria-256-cbc", "env:KC_TEST_PASSWORD", {}, {}, 100, env);
    both_ways("aria-128-ctr", "file:" + dir_ / "pwfile", {}, {}, 100);
    // The file's first line is the password, as openssl reads it.
    write_file(dir_ / "plain", "first line only");
    auto r = kc(ours("enc", "aria-128-cbc", "file:" + dir_ / "pwfile", {}) +
                std::vector<std::string>{"-i", dir_ / "plain", "-o", dir_ / "ct"});
    ASSERT_TRUE(Succeeded(r));
    auto o = openssl("aria-128-cbc", true, "pass:correct horse", {}, dir_ / "ct", dir_ / "back");
    ASSERT_TRUE(o.exited && o.exit_code == 0) << o.err;
    EXPECT_EQ(read_file(dir_ / "back"), "first line only");
}

// A fresh salt each time; the other ciphers derive as well (openssl has no way to check them).
TEST(CliPasswordOwn, FreshSaltAndEveryCipher)
{
    const std::string plain = random_str(300, 61);
    for (const char *cm : {"lea-256-cbc", "hight-ctr", "cham-64-128-ecb", "seed-128-cbc"}) {
        SCOPED_TRACE(cm);
        kct::ProcessOptions o;
        o.stdin_bytes = plain;
        const std::vector<std::string> a = {"-c", cm, "--pass", "pass:pw", "--pbkdf2", "--iter", "10"};
        auto r1 = kc(std::vector<std::string>{"enc"} + a, o), r2 = kc(std::vector<std::string>{"enc"} + a, o);
        ASSERT_TRUE(Succeeded(r1));
        ASSERT_TRUE(Succeeded(r2));
        EXPECT_EQ(r1.out.substr(0, 8), "Salted__");
        EXPECT_NE(r1.out.substr(8, 8), r2.out.substr(8, 8)) << "the same salt twice";
        EXPECT_NE(r1.out.substr(16), r2.out.substr(16));
        o.stdin_bytes = r1.out;
        auto d = kc(std::vector<std::string>{"dec"} + a, o);
        ASSERT_TRUE(Succeeded(d));
        EXPECT_TRUE(SameBytes(d.out, plain));
    }
}

TEST(CliPasswordOwn, Refusals)
{
    const std::string k = "000102030405060708090a0b0c0d0e0f";
    const std::vector<std::string> e = {"enc", "-c", "aria-128-cbc"};
    EXPECT_TRUE(FailedWith(kc(e + std::vector<std::string>{"--pass", "pass:x"}), 2, "--pass needs --pbkdf2"));
    EXPECT_TRUE(FailedWith(kc(e + std::vector<std::string>{"--pass", "pass:x", "--pbkdf2", "-k", k}), 2,
                           "drop --key and --iv"));
    EXPECT_TRUE(FailedWith(kc(e + std::vector<std::string>{"--pass", "pass:x", "--pbkdf2", "--iv", k}), 2,
                           "drop --key and --iv"));
    EXPECT_TRUE(FailedWith(kc(e + std::vector<std::string>{"-k", k, "--iv", k, "--pbkdf2"}), 2, "go with --pass"));
    EXPECT_TRUE(FailedWith(kc({"enc", "-c", "aria-128-gcm", "--pass", "pass:x", "--pbkdf2"}), 2,
                           "--pass is for the modes `openssl enc` has"));
    EXPECT_TRUE(FailedWith(kc(e + std::vector<std::string>{"--pass", "x", "--pbkdf2"}), 2,
                           "expected pass:TEXT, env:VAR or file:PATH"));
    kct::ProcessOptions unset;
    unset.env_unset = {"KC_NO_SUCH_PASSWORD"};
    EXPECT_TRUE(FailedWith(kc(e + std::vector<std::string>{"--pass", "env:KC_NO_SUCH_PASSWORD", "--pbkdf2"}, unset), 2,
                           "not set"));
    EXPECT_TRUE(FailedWith(kc(e + std::vector<std::string>{"--pass", "file:/no/such/file", "--pbkdf2"}), 1,
                           "cannot open"));
    EXPECT_TRUE(FailedWith(kc(e + std::vector<std::string>{"--pass", "pass:x", "--pbkdf2", "--md", "nosuchmd"}), 2,
                           "not a digest"));

    // Decryption: no header, a wrong password.
    kct::ProcessOptions o;
    o.stdin_bytes = random_str(64, 62);
    EXPECT_TRUE(FailedWith(kc({"dec", "-c", "aria-128-cbc", "--pass", "pass:x", "--pbkdf2"}, o), 1,
                           "does not start with the \"Salted__\" header"));
    // A wrong key leaves a valid-looking pad once in about 256 tries (the salt is fresh each
    // run): three tries, each refused or at least not the plaintext, and one refused.
    int refused = 0;
    for (int i = 0; i < 3; i++) {
        o.stdin_bytes = "plaintext";
        auto r = kc({"enc", "-c", "aria-128-cbc", "--pass", "pass:right", "--pbkdf2"}, o);
        ASSERT_TRUE(Succeeded(r));
        o.stdin_bytes = r.out;
        r = kc({"dec", "-c", "aria-128-cbc", "--pass", "pass:wrong", "--pbkdf2"}, o);
        if (r.exited && r.exit_code == 1) {
            EXPECT_TRUE(FailedWith(r, 1, "bad decrypt"));
            EXPECT_EQ(r.out, "");
            refused++;
        } else {
            EXPECT_NE(r.out, "plaintext");
        }
    }
    EXPECT_GE(refused, 1);
}

} // namespace
