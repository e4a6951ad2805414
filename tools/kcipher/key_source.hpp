// Where a key comes from: --key HEX on the command line, or --key-file FILE / --key-env NAME,
// which keep it out of the process list. Every local user can read another process's
// arguments (`ps -ef`, /proc/PID/cmdline), so -k exposes the key for as long as the command
// runs; a file with mode 0600 or an environment variable (/proc/PID/environ is readable by the
// owner only) does not. The file and variable hold the same hex as -k, optionally followed by
// one newline (what `echo` and editors leave).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace cli {

struct KeySource {
    std::string hex, file, env;
    bool given() const { return !hex.empty() || !file.empty() || !env.empty(); }
};

// Registers -k/--key, --key-file and --key-env; `what` says what the key is ("key",
// "key template"). At most one of the three may be given (CLI11 refuses two).
void add_key_options(CLI::App *sub, KeySource &k, const std::string &what);

// The key's bytes, exactly `want` of them for `cipher` (SIZE_MAX: any length). Throws
// UsageError when none was given (`required`), the variable is unset, or the hex is bad or of
// the wrong length, naming the option; std::runtime_error when the file cannot be read.
std::vector<uint8_t> read_key(const KeySource &k, size_t want, const std::string &cipher);

// Overwrites a buffer that held key material, in a way the compiler may not drop.
void wipe(void *p, size_t n);
void wipe(std::string &s);
void wipe(std::vector<uint8_t> &v);

// Wipes a key's bytes when the scope ends, by return or by exception: the keyed context holds
// its own round keys, and the raw key need not outlive it in freed heap memory.
class WipeOnExit {
  public:
    explicit WipeOnExit(std::vector<uint8_t> &v) : v_(v) {}
    WipeOnExit(const WipeOnExit &) = delete;
    WipeOnExit &operator=(const WipeOnExit &) = delete;
    ~WipeOnExit() { wipe(v_); }

  private:
    std::vector<uint8_t> &v_;
};

} // namespace cli
