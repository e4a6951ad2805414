#include "atomic_output.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <unistd.h>
#include <sys/stat.h>

namespace cli {

// The temporary file's name for the signal handler: a fixed buffer, since the handler may
// only call async-signal-safe functions (unlink, signal, raise).
static char g_tmp_path[4096];
static volatile sig_atomic_t g_tmp_live = 0;

static void on_signal(int sig)
{
    if (g_tmp_live)
        unlink(g_tmp_path);
    g_tmp_live = 0;
    signal(sig, SIG_DFL);
    // The signal is blocked while its handler runs; unblocked, the re-raised one is delivered
    // at once with the default action (end, or end with a core dump).
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    raise(sig);
    sigprocmask(SIG_UNBLOCK, &only, nullptr);
}

// Every signal whose default action ends the process and that a handler may catch: the
// interrupts (INT, TERM, HUP, QUIT), the timers and limits a shell or batch system sends
// (ALRM, VTALRM, PROF, XCPU, XFSZ: a 500 MB half-written file of plaintext must not stay
// behind), the user signals, a closed pipe, I/O readiness, and the faults. Those that dump
// core by default (QUIT, XCPU, XFSZ, SYS, the faults) still do: the handler re-raises with the
// default action, so the process ends exactly as it would have, minus the temporary file.
static void remove_temporary_on_fatal_signals()
{
    static const int fatal[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGILL,    SIGTRAP, SIGABRT, SIGBUS,  SIGFPE,
                                SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE,   SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ,
                                SIGVTALRM, SIGPROF, SIGIO, SIGSYS,
#ifdef SIGSTKFLT
                                SIGSTKFLT,
#endif
#ifdef SIGPWR
                                SIGPWR,
#endif
    };
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask); // one handler at a time: a second signal waits, then finds nothing to remove
    for (int sig : fatal)
        sigaction(sig, &sa, nullptr);
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++) // real-time signals terminate by default too
        sigaction(sig, &sa, nullptr);
}

static std::string errno_text() { return std::strerror(errno); }

// A symbolic link is followed, as `openssl enc -out` does: the file it points to is what
// gets replaced, not the link.
static std::string resolve_link(const std::string &path)
{
    struct stat st;
    if (lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
        return path;
    char *real = realpath(path.c_str(), nullptr);
    if (real == nullptr)
        return path; // dangling: the link itself is replaced by the new file
    std::string r(real);
    std::free(real);
    return r;
}

FILE *open_unlinked_temporary(const std::string &what)
{
    const char *t = std::getenv("TMPDIR");
    std::string path = std::string(t != nullptr && *t != '\0' ? t : "/tmp") + "/.kcipher-XXXXXX";
    int fd = mkstemp(path.data()); // mode 0600
    if (fd < 0)
        throw std::runtime_error("cannot create a temporary file for " + what + " in " +
                                 path.substr(0, path.rfind('/')) + ": " + errno_text());
    unlink(path.c_str());
    FILE *f = fdopen(fd, "w+b");
    if (f == nullptr) {
        close(fd);
        throw std::runtime_error("cannot open a temporary file for " + what + ": " + errno_text());
    }
    return f;
}

AtomicOutput::AtomicOutput(const std::string &path, bool hold) : path_(path)
{
    if (path.empty() || path == "-") {
        is_stdout_ = true;
        f_ = stdout;
        if (hold) {
            held_for_ = stdout;
            f_ = open_unlinked_temporary("the output held until it is verified");
        }
        return;
    }
    std::string target = resolve_link(path);
    struct stat st;
    bool exists = stat(target.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        throw std::runtime_error("output path '" + path + "' is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
        // A device, FIFO or socket (/dev/null, a named pipe): written through, as standard
        // output is. Renaming a temporary file over it would replace the device itself.
        is_stdout_ = true;
        f_ = std::fopen(target.c_str(), "wb");
        if (f_ == nullptr)
            throw std::runtime_error("cannot open output '" + path + "': " + errno_text());
        if (hold) {
            try {
                FILE *held = open_unlinked_temporary("the output held until it is verified");
                held_for_ = f_;
                f_ = held;
            } catch (...) {
                std::fclose(f_);
                throw;
            }
        }
        return;
    }
    open_temporary(target, exists ? &st : nullptr);
}

// Creates the temporary file beside `target`. A replaced file keeps its mode and, where
// allowed, its owner: decrypting over a private file must not make it world-readable.
void AtomicOutput::open_temporary(const std::string &target, const struct stat *existing)
{
    size_t slash = target.rfind('/');
    std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
    std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
    if (base.empty())
        throw std::runtime_error("output path '" + path_ + "' names a directory");
    tmp_ = dir + "." + base + ".kcipher-XXXXXX";
    if (tmp_.size() >= sizeof g_tmp_path)
        throw std::runtime_error("output path too long: " + path_);
    int fd = mkstemp(tmp_.data());
    if (fd < 0)
        throw std::runtime_error("cannot create output file '" + path_ + "': " + errno_text());
    std::memcpy(g_tmp_path, tmp_.c_str(), tmp_.size() + 1);
    g_tmp_live = 1;
    remove_temporary_on_fatal_signals();
    target_ = target;
    if (existing != nullptr) {
        if (fchown(fd, existing->st_uid, existing->st_gid) != 0) {
            // not allowed (another owner): the new file is ours, with the old mode
        }
        fchmod(fd, existing->st_mode & 07777);
    } else {
        mode_t mask = umask(0); // mkstemp makes 0600; a plain create would give 0666 & ~umask
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    f_ = fdopen(fd, "wb");
    if (f_ == nullptr) {
        close(fd);
        discard();
        throw std::runtime_error("cannot open output file '" + path_ + "': " + errno_text());
    }
}

AtomicOutput::~AtomicOutput()
{
    if (!done_)
        discard();
}

void AtomicOutput::discard()
{
    release_held();
    if (is_stdout_) {
        if (f_ != nullptr && f_ != stdout)
            std::fclose(f_);
        f_ = nullptr;
        return;
    }
    if (f_ != nullptr)
        std::fclose(f_);
    f_ = nullptr;
    if (!tmp_.empty())
        unlink(tmp_.c_str());
    g_tmp_live = 0;
}

// Drops the held bytes (closing the unlinked file frees them) and makes the stream the
// output again, so that commit and discard treat it as a written-through stream.
void AtomicOutput::release_held()
{
    if (held_for_ == nullptr)
        return;
    if (f_ != nullptr)
        std::fclose(f_);
    f_ = held_for_;
    held_for_ = nullptr;
}

std::string AtomicOutput::display_name() const
{
    return path_.empty() || path_ == "-" ? std::string("standard output") : "'" + path_ + "'";
}

void AtomicOutput::write(const void *p, size_t n)
{
    if (n != 0 && std::fwrite(p, 1, n, f_) != n)
        throw std::runtime_error("cannot write " + display_name() + ": " + errno_text());
}

void AtomicOutput::commit()
{
    if (std::fflush(f_) != 0)
        throw std::runtime_error("cannot write " + display_name() + ": " + errno_text());
    if (held_for_ != nullptr) {
        // The held bytes are released only now, copied into the stream.
        if (std::fseek(f_, 0, SEEK_SET) != 0)
            throw std::runtime_error("cannot read back the held output: " + errno_text());
        static char buf[1 << 20];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f_)) != 0)
            if (std::fwrite(buf, 1, n, held_for_) != n)
                throw std::runtime_error("cannot write " + display_name() + ": " + errno_text());
        if (std::ferror(f_))
            throw std::runtime_error("cannot read back the held output: " + errno_text());
        release_held();
        if (std::fflush(f_) != 0)
            throw std::runtime_error("cannot write " + display_name() + ": " + errno_text());
    }
    if (is_stdout_) {
        if (f_ != stdout) {
            FILE *f = f_;
            f_ = nullptr;
            if (std::fclose(f) != 0)
                throw std::runtime_error("cannot write " + display_name() + ": " + errno_text());
        }
        done_ = true;
        return;
    }
    if (fsync(fileno(f_)) != 0)
        throw std::runtime_error("cannot write " + display_name() + ": " + errno_text());
    FILE *f = f_;
    f_ = nullptr;
    if (std::fclose(f) != 0)
        throw std::runtime_error("cannot write " + display_name() + ": " + errno_text());
    if (std::rename(tmp_.c_str(), target_.c_str()) != 0)
        throw std::runtime_error("cannot rename the output into " + display_name() + ": " + errno_text());
    g_tmp_live = 0;
    done_ = true;
}

} // namespace cli
