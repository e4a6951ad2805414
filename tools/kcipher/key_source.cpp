#include "key_source.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/core.h>

#include "hex.hpp"
#include "usage_error.hpp"

namespace cli {
namespace {

// A key file is a few dozen bytes; anything much larger is not a key file.
constexpr size_t max_key_file = 4096;

std::string read_key_file(const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
        throw std::runtime_error(fmt::format("--key-file '{}': cannot open: {}", path, std::strerror(errno)));
    std::string text(max_key_file + 1, '\0');
    const size_t n = std::fread(text.data(), 1, text.size(), f);
    const bool failed = std::ferror(f) != 0;
    const int err = errno;
    std::fclose(f);
    text.resize(n); // shrinking keeps the bytes in place, so the wipe below reaches them
    if (failed) {
        wipe(text);
        throw std::runtime_error(fmt::format("--key-file '{}': cannot read: {}", path, std::strerror(err)));
    }
    if (n > max_key_file) {
        wipe(text);
        throw UsageError(fmt::format("--key-file '{}' is over {} bytes: not a key in hex", path, max_key_file));
    }
    return text;
}

// The one newline an editor or `echo` leaves (CRLF too) is not part of the key.
void drop_final_newline(std::string &s)
{
    if (!s.empty() && s.back() == '\n')
        s.pop_back();
    if (!s.empty() && s.back() == '\r')
        s.pop_back();
}

} // namespace

void wipe(void *p, size_t n)
{
    volatile unsigned char *b = static_cast<volatile unsigned char *>(p);
    for (size_t i = 0; i < n; i++)
        b[i] = 0;
}

void wipe(std::string &s) { wipe(s.data(), s.capacity()); }
void wipe(std::vector<uint8_t> &v) { wipe(v.data(), v.capacity()); }

void add_key_options(CLI::App *sub, KeySource &k, const std::string &what)
{
    CLI::Option *hex = sub->add_option("-k,--key", k.hex,
                                       what + " in hex; visible to every local user (ps) while the command runs: "
                                              "prefer --key-file or --key-env");
    CLI::Option *file = sub->add_option("--key-file", k.file, what + " in hex from this file (one newline allowed)");
    CLI::Option *env = sub->add_option("--key-env", k.env, what + " in hex from this environment variable");
    hex->excludes(file)->excludes(env);
    file->excludes(env);
}

std::vector<uint8_t> read_key(const KeySource &k, size_t want, const std::string &cipher)
{
    std::string text, from;
    if (!k.file.empty()) {
        text = read_key_file(k.file);
        from = fmt::format("--key-file '{}'", k.file);
    } else if (!k.env.empty()) {
        const char *v = std::getenv(k.env.c_str());
        if (v == nullptr)
            throw UsageError(fmt::format("--key-env {}: the environment variable is not set", k.env));
        text = v;
        from = "--key-env " + k.env;
    } else {
        text = k.hex;
        from = "--key";
    }
    drop_final_newline(text);
    if (text.empty()) {
        wipe(text);
        throw UsageError(k.given() ? from + " is empty" : "--key, --key-file or --key-env is required");
    }
    auto bytes = parse_hex(text);
    wipe(text);
    if (!bytes)
        throw UsageError(from + " is not valid hex (an even number of 0-9a-f digits)");
    if (want != SIZE_MAX && bytes->size() != want) {
        const size_t got = bytes->size();
        wipe(*bytes);
        throw UsageError(fmt::format("{} must be {} bytes ({} hex digits) for {}, got {} bytes", from, want, 2 * want,
                                     cipher, got));
    }
    return std::move(*bytes);
}

} // namespace cli
