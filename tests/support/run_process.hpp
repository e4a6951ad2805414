// Runs a program with arguments (posix_spawn, no shell), optionally feeding its standard
// input from a file or from bytes, capturing standard output and standard error, with a
// time limit so that a hung child fails the test instead of hanging CI.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace kct {

struct ProcessOptions {
    // Standard input: at most one of these; neither gives the child an empty stdin
    // (/dev/null).
    std::optional<std::string> stdin_path;  // a file opened read-only as stdin
    std::optional<std::string> stdin_bytes; // bytes written to a pipe, which is then closed
    // Leave the stdin pipe open after stdin_bytes have been written (the child then waits
    // for more); it is closed when the child exits or is killed.
    bool keep_stdin_open = false;

    // Standard output: a file (opened O_WRONLY|O_CREAT|O_TRUNC, e.g. "/dev/full") instead of
    // capturing it into ProcessResult::out.
    std::optional<std::string> stdout_path;

    // Environment: the parent's, with these variables set (or replaced) and removed.
    std::vector<std::pair<std::string, std::string>> env_set;
    std::vector<std::string> env_unset;

    // Wall-clock limit; past it the child is sent SIGKILL and timed_out is set.
    double timeout_seconds = 60.0;

    // Called about every 20 ms while the child runs, with its pid, the seconds since it
    // started and whether all of stdin_bytes has been written; may send it a signal.
    std::function<void(pid_t pid, double elapsed, bool stdin_done)> on_tick;
};

struct ProcessResult {
    bool spawned = false;   // false: posix_spawn failed (spawn_error says why)
    std::string spawn_error;
    bool exited = false;    // true: exited normally with exit_code
    int exit_code = -1;
    int term_signal = 0;    // the signal that ended it, when !exited
    bool timed_out = false; // killed for running past timeout_seconds
    std::string out, err;   // captured bytes of stdout (unless redirected) and stderr
    double seconds = 0;     // wall-clock time it ran
    size_t max_rss_kib = 0; // its peak resident memory (getrusage's ru_maxrss), when reaped normally

    // "exit 1", "signal 9 (timed out)", "spawn failed: ..." for messages.
    std::string describe() const;
};

// argv[0] is the program: a path, or a name looked up on PATH.
ProcessResult run_process(const std::vector<std::string> &argv, const ProcessOptions &opt = {});

// The absolute path of an executable found on PATH, or nullopt.
std::optional<std::string> find_on_path(const std::string &name);

} // namespace kct
