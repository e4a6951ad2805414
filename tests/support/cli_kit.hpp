// What the CLI tests share (tests/test_cli*.cpp): the tool's path, running it as a child
// process, temporary directories, file helpers, and gtest assertions on what it did.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/run_process.hpp"
#include "support/vectors.hpp"

namespace kct {

// KCIPHER_TEST_CLI overrides the built tool's path (to test an installed kcipher).
inline const std::string kCli = [] {
    const char *e = std::getenv("KCIPHER_TEST_CLI");
    return std::string(e != nullptr && *e != '\0' ? e : KC_CLI_PATH);
}();
// ---- files and directories -----------------------------------------------------------------

inline std::string bytes_str(const std::vector<uint8_t> &v) { return std::string(v.begin(), v.end()); }
inline std::vector<uint8_t> str_bytes(const std::string &s) { return std::vector<uint8_t>(s.begin(), s.end()); }
inline std::string hex(const std::vector<uint8_t> &v) { return kct::tohex(v); }
inline std::string random_str(size_t n, uint64_t seed) { return bytes_str(kct::random_bytes(n, seed)); }

inline std::string read_file(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

inline void write_file(const std::string &path, const std::string &data)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(data.data(), (std::streamsize)data.size());
    if (!f)
        throw std::runtime_error("cannot write " + path);
}

inline bool exists(const std::string &path)
{
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0;
}

// Every entry of a directory but . and .., hidden ones included, sorted.
inline std::vector<std::string> list_dir(const std::string &path)
{
    std::vector<std::string> names;
    DIR *d = ::opendir(path.c_str());
    if (d == nullptr)
        throw std::runtime_error("cannot list " + path + ": " + std::strerror(errno));
    while (dirent *e = ::readdir(d)) {
        std::string n = e->d_name;
        if (n != "." && n != "..")
            names.push_back(n);
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
}

inline std::string join(const std::vector<std::string> &v)
{
    std::string s = "{";
    for (size_t i = 0; i < v.size(); i++)
        s += (i ? ", " : "") + v[i];
    return s + "}";
}

inline int chmod_dir_writable(const char *p, const struct stat *st, int type, struct FTW *)
{
    if (type == FTW_D || type == FTW_DNR)
        ::chmod(p, 0700);
    (void)st;
    return 0;
}
inline int remove_entry(const char *p, const struct stat *, int, struct FTW *)
{
    ::remove(p);
    return 0;
}

// A fresh directory (mkdtemp under $TMPDIR or /tmp), removed with its contents at the end.
class TempDir {
  public:
    TempDir()
    {
        const char *t = std::getenv("TMPDIR");
        std::string tmpl = std::string(t != nullptr && *t != '\0' ? t : "/tmp") + "/kcipher-cli-XXXXXX";
        if (::mkdtemp(tmpl.data()) == nullptr)
            throw std::runtime_error("mkdtemp(" + tmpl + "): " + std::strerror(errno));
        path_ = tmpl;
    }
    ~TempDir()
    {
        ::nftw(path_.c_str(), chmod_dir_writable, 16, FTW_PHYS);
        ::nftw(path_.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::string &path() const { return path_; }
    std::string operator/(const std::string &name) const { return path_ + "/" + name; }
    std::string mkdir(const std::string &name) const
    {
        std::string p = *this / name;
        if (::mkdir(p.c_str(), 0700) != 0)
            throw std::runtime_error("mkdir " + p + ": " + std::strerror(errno));
        return p;
    }

  private:
    std::string path_;
};

// ---- running the CLI and checking what it did -----------------------------------------------

inline kct::ProcessResult kc(std::vector<std::string> args, kct::ProcessOptions opt = {})
{
    args.insert(args.begin(), kCli);
    if (opt.timeout_seconds > 60)
        opt.timeout_seconds = 60;
    return kct::run_process(args, opt);
}

inline std::string preview(const std::string &s, size_t max = 600) { return s.size() <= max ? s : s.substr(0, max) + "..."; }

// Exit status 0 and nothing on stderr (no progress bar into a pipe, no warnings).
inline ::testing::AssertionResult Succeeded(const kct::ProcessResult &r)
{
    if (r.spawned && r.exited && r.exit_code == 0 && !r.timed_out && r.err.empty())
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "expected exit 0 and an empty stderr; got " << r.describe()
                                         << ", stderr: \"" << preview(r.err) << "\"";
}

// Exited (not killed, not timed out) with exactly `code`, and stderr holds `message`.
inline ::testing::AssertionResult FailedWith(const kct::ProcessResult &r, int code, const std::string &message)
{
    if (!r.spawned || r.timed_out || !r.exited || r.exit_code != code)
        return ::testing::AssertionFailure() << "expected exit " << code << "; got " << r.describe()
                                             << ", stderr: \"" << preview(r.err) << "\"";
    if (r.err.find(message) == std::string::npos)
        return ::testing::AssertionFailure() << "stderr lacks \"" << message << "\": \"" << preview(r.err) << "\"";
    return ::testing::AssertionSuccess();
}

// Byte equality without printing megabytes: sizes and the first difference.
inline ::testing::AssertionResult SameBytes(const std::string &actual, const std::string &expected)
{
    if (actual == expected)
        return ::testing::AssertionSuccess();
    size_t i = 0;
    while (i < actual.size() && i < expected.size() && actual[i] == expected[i])
        i++;
    auto around = [i](const std::string &s) {
        size_t n = i < s.size() ? std::min<size_t>(16, s.size() - i) : 0;
        return kct::tohex(reinterpret_cast<const uint8_t *>(s.data()) + i, n);
    };
    return ::testing::AssertionFailure() << actual.size() << " bytes, expected " << expected.size()
                                         << "; first difference at offset " << i << ": got " << around(actual)
                                         << ", expected " << around(expected);
}

inline std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string> &b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace kct
