#include "support/run_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace kct {

namespace {

struct Fd {
    int fd = -1;
    Fd() = default;
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd() { reset(); }
    void reset()
    {
        if (fd >= 0)
            ::close(fd);
        fd = -1;
    }
};

bool make_pipe(Fd &r, Fd &w, std::string &err)
{
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) {
        err = std::string("pipe2: ") + std::strerror(errno);
        return false;
    }
    r.fd = p[0];
    w.fd = p[1];
    return true;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

std::vector<std::string> build_env(const ProcessOptions &opt)
{
    std::vector<std::string> env;
    auto removed = [&](const std::string &entry) {
        std::string name = entry.substr(0, entry.find('='));
        for (const auto &u : opt.env_unset)
            if (u == name)
                return true;
        for (const auto &kv : opt.env_set)
            if (kv.first == name)
                return true;
        return false;
    };
    for (char **e = environ; e != nullptr && *e != nullptr; e++)
        if (!removed(*e))
            env.emplace_back(*e);
    for (const auto &kv : opt.env_set)
        env.push_back(kv.first + "=" + kv.second);
    return env;
}

std::vector<char *> c_strings(std::vector<std::string> &v)
{
    std::vector<char *> p;
    for (auto &s : v)
        p.push_back(s.data());
    p.push_back(nullptr);
    return p;
}

// Reads what is available; false at end of file or on an error other than EAGAIN.
bool drain(int fd, std::string &into)
{
    char buf[65536];
    for (;;) {
        ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            into.append(buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        return false; // EOF or error
    }
}

} // namespace

std::string ProcessResult::describe() const
{
    if (!spawned)
        return "spawn failed: " + spawn_error;
    std::string s = exited ? "exit " + std::to_string(exit_code) : "signal " + std::to_string(term_signal);
    if (timed_out)
        s += " (timed out)";
    return s;
}

ProcessResult run_process(const std::vector<std::string> &argv_in, const ProcessOptions &opt)
{
    using clock = std::chrono::steady_clock;
    ProcessResult r;
    if (argv_in.empty()) {
        r.spawn_error = "empty argv";
        return r;
    }
    // The parent must survive writing to a child that stopped reading; the child gets the
    // default disposition back through POSIX_SPAWN_SETSIGDEF below.
    static const bool sigpipe_ignored = [] {
        std::signal(SIGPIPE, SIG_IGN);
        return true;
    }();
    (void)sigpipe_ignored;

    Fd out_r, out_w, err_r, err_w, in_r, in_w;
    if (!make_pipe(err_r, err_w, r.spawn_error))
        return r;
    if (!opt.stdout_path && !make_pipe(out_r, out_w, r.spawn_error))
        return r;
    if (opt.stdin_bytes && !make_pipe(in_r, in_w, r.spawn_error))
        return r;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (opt.stdin_path)
        posix_spawn_file_actions_addopen(&fa, 0, opt.stdin_path->c_str(), O_RDONLY, 0);
    else if (opt.stdin_bytes)
        posix_spawn_file_actions_adddup2(&fa, in_r.fd, 0);
    else
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (opt.stdout_path)
        posix_spawn_file_actions_addopen(&fa, 1, opt.stdout_path->c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    else
        posix_spawn_file_actions_adddup2(&fa, out_w.fd, 1);
    posix_spawn_file_actions_adddup2(&fa, err_w.fd, 2);

    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

    std::vector<std::string> args = argv_in, env = build_env(opt);
    std::vector<char *> argv = c_strings(args), envp = c_strings(env);
    pid_t pid = -1;
    auto t0 = clock::now();
    int rc = posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        r.spawn_error = args[0] + ": " + std::strerror(rc);
        return r;
    }
    r.spawned = true;
    // The child's ends belong to the child now.
    out_w.reset();
    err_w.reset();
    in_r.reset();

    if (out_r.fd >= 0)
        set_nonblocking(out_r.fd);
    set_nonblocking(err_r.fd);
    size_t in_pos = 0;
    const std::string empty;
    const std::string &in_data = opt.stdin_bytes ? *opt.stdin_bytes : empty;
    if (in_w.fd >= 0)
        set_nonblocking(in_w.fd);
    bool stdin_done = !opt.stdin_bytes;
    if (in_w.fd >= 0 && in_data.empty()) {
        stdin_done = true;
        if (!opt.keep_stdin_open)
            in_w.reset();
    }

    bool reaped = false, killed = false;
    int status = 0;
    for (;;) {
        double elapsed = std::chrono::duration<double>(clock::now() - t0).count();
        if (!killed && elapsed > opt.timeout_seconds) {
            if (!reaped)
                ::kill(pid, SIGKILL);
            killed = true;
            r.timed_out = true;
            in_w.reset();
        }
        if (!reaped) {
            struct rusage ru {};
            pid_t w = ::wait4(pid, &status, WNOHANG, &ru);
            if (w == pid) {
                reaped = true;
                r.max_rss_kib = (size_t)ru.ru_maxrss;
                in_w.reset(); // nobody will read the rest
            }
        }
        if (reaped && out_r.fd < 0 && err_r.fd < 0)
            break;
        if (killed && reaped) {
            // Timed out and gone: take what the pipes hold and stop, even if some other
            // process still keeps them open.
            if (out_r.fd >= 0)
                drain(out_r.fd, r.out);
            drain(err_r.fd, r.err);
            break;
        }
        if (!reaped && opt.on_tick)
            opt.on_tick(pid, elapsed, stdin_done);

        struct pollfd p[3];
        int np = 0, i_out = -1, i_err = -1, i_in = -1;
        if (out_r.fd >= 0) {
            i_out = np;
            p[np++] = {out_r.fd, POLLIN, 0};
        }
        if (err_r.fd >= 0) {
            i_err = np;
            p[np++] = {err_r.fd, POLLIN, 0};
        }
        if (in_w.fd >= 0 && !stdin_done) {
            i_in = np;
            p[np++] = {in_w.fd, POLLOUT, 0};
        }
        int pr = np > 0 ? ::poll(p, (nfds_t)np, 20) : ::poll(nullptr, 0, 20);
        if (pr < 0 && errno != EINTR)
            break;
        if (pr <= 0)
            continue;
        if (i_out >= 0 && p[i_out].revents != 0 && !drain(out_r.fd, r.out))
            out_r.reset();
        if (i_err >= 0 && p[i_err].revents != 0 && !drain(err_r.fd, r.err))
            err_r.reset();
        if (i_in >= 0 && p[i_in].revents != 0) {
            while (in_pos < in_data.size()) {
                size_t want = std::min<size_t>(in_data.size() - in_pos, 1 << 16);
                ssize_t n = ::write(in_w.fd, in_data.data() + in_pos, want);
                if (n > 0) {
                    in_pos += (size_t)n;
                    continue;
                }
                if (n < 0 && errno == EINTR)
                    continue;
                if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                    break;
                in_pos = in_data.size(); // EPIPE: the child stopped reading
                in_w.reset();
                break;
            }
            if (in_pos >= in_data.size()) {
                stdin_done = true;
                if (!opt.keep_stdin_open)
                    in_w.reset();
            }
        }
    }
    if (!reaped) { // the loop broke on a poll error
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    }
    r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    if (WIFEXITED(status)) {
        r.exited = true;
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.term_signal = WTERMSIG(status);
    }
    return r;
}

std::optional<std::string> find_on_path(const std::string &name)
{
    if (name.find('/') != std::string::npos)
        return ::access(name.c_str(), X_OK) == 0 ? std::optional<std::string>(name) : std::nullopt;
    const char *path = std::getenv("PATH");
    std::string p = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    for (;;) {
        size_t end = p.find(':', start);
        std::string dir = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (dir.empty())
            dir = ".";
        std::string cand = dir + "/" + name;
        struct stat st;
        if (::stat(cand.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(cand.c_str(), X_OK) == 0)
            return cand;
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return std::nullopt;
}

} // namespace kct
