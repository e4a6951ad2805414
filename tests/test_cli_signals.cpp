// A signal that ends `kcipher enc` or `dec` part-way through must not leave its temporary
// output file behind (for dec it holds plaintext) nor create the output: every signal whose
// default action terminates and that can be caught, the core-dumping ones (QUIT, XCPU, XFSZ)
// included, which must still end the process by that signal.
#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <vector>

#include "support/cli_kit.hpp"

namespace {

using namespace kct;

constexpr size_t kChunk = 4u << 20; // the CLI's streaming chunk (tools/kcipher/crypt_stream.cpp)
const std::string k16 = "000102030405060708090a0b0c0d0e0f";

// No core files from the core-dumping signals: the limit is inherited by the child.
class NoCoreDumps {
  public:
    NoCoreDumps()
    {
        getrlimit(RLIMIT_CORE, &saved_);
        struct rlimit none = {0, saved_.rlim_max};
        setrlimit(RLIMIT_CORE, &none);
    }
    ~NoCoreDumps() { setrlimit(RLIMIT_CORE, &saved_); }

  private:
    struct rlimit saved_ {};
};

// Runs `cmd` writing to DIR/G with more than a chunk on a stdin that stays open, waits until
// the temporary file holds the first chunk, sends `sig`, and checks what remains.
void expect_clean_death(const std::string &cmd, int sig)
{
    SCOPED_TRACE(cmd + " " + strsignal(sig));
    TempDir dir;
    const std::string out = dir / "G";
    ProcessOptions o;
    o.stdin_bytes = random_str(kChunk + 16, 18);
    o.keep_stdin_open = true;
    o.timeout_seconds = 30;
    bool sent = false;
    o.on_tick = [&](pid_t pid, double, bool stdin_done) {
        if (sent || !stdin_done)
            return;
        for (const std::string &n : list_dir(dir.path())) {
            struct stat st;
            if (n.rfind(".G.kcipher-", 0) == 0 && ::stat((dir / n).c_str(), &st) == 0 && st.st_size > 0) {
                ::kill(pid, sig);
                sent = true;
            }
        }
    };
    auto r = kc({cmd, "-c", "aria-128-ctr", "-k", k16, "--iv", k16, "--no-progress", "-o", out}, o);
    ASSERT_TRUE(sent) << "the temporary file never appeared; " << r.describe() << ", stderr: " << r.err;
    EXPECT_FALSE(r.timed_out);
    EXPECT_FALSE(r.exited) << "exit " << r.exit_code << ": the signal must end the process";
    EXPECT_EQ(r.term_signal, sig);
    EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{}) << "temporary file or output left behind";
}

class CliSignals : public ::testing::TestWithParam<int> {};

TEST_P(CliSignals, EncLeavesNothing)
{
    NoCoreDumps no_cores;
    expect_clean_death("enc", GetParam());
}

TEST_P(CliSignals, DecLeavesNothing)
{
    NoCoreDumps no_cores;
    expect_clean_death("dec", GetParam());
}

INSTANTIATE_TEST_SUITE_P(FatalSignals, CliSignals,
                         ::testing::Values(SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU,
                                           SIGXFSZ, SIGVTALRM, SIGPROF, SIGPIPE, SIGIO, SIGRTMIN + 1),
                         [](const ::testing::TestParamInfo<int> &i) {
                             std::string n = sigabbrev_np(i.param) ? sigabbrev_np(i.param) : "RT";
                             return n + std::to_string(i.param);
                         });

} // namespace
