// What `kcipher enc`, `dec` and `mac` share: the input stream (a file or standard input, read
// in whole chunks), keys and IVs from hex with messages that name the option, and the keyed
// cipher with a kernel error that says where the kernel's name came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "kcipher/kcipher.hpp"

namespace cli {

class Input {
  public:
    // path empty or "-": standard input. Throws std::runtime_error with a message.
    explicit Input(const std::string &path);
    Input(const Input &) = delete;
    Input &operator=(const Input &) = delete;
    ~Input();

    // Fills buf as far as possible; fewer bytes only at the end of the input.
    size_t read(uint8_t *buf, size_t n);
    // A pipe's length is unknown until its end: copies it whole into an unlinked temporary
    // file (bounded memory, disk instead) and reads from there, so that size() is known. For
    // CCM, whose first block encodes the lengths. Does nothing for a regular file.
    void spool();

    const std::string &name() const { return name_; } // "standard input" or "'path'"
    bool sized() const { return sized_; }              // a regular file (or spooled): size() is exact
    uint64_t size() const { return size_; }            // 0 when not sized

  private:
    FILE *f_ = stdin;
    bool owned_ = false;
    bool sized_ = false;
    uint64_t size_ = 0;
    std::string name_ = "standard input";
};

// --what as hex: any length (want == SIZE_MAX) or exactly `want` bytes for `cipher`.
std::vector<uint8_t> parse_hex_option(const std::string &what, const std::string &hex, size_t want = SIZE_MAX,
                                      const std::string &cipher = "");

// --cipher NAME-MODE split into the cipher (with its sizes) and the mode; an unknown name, or
// a bare cipher name, is an error whose message ends with `no_mode_hint` for the latter.
struct CipherArgument {
    std::string cipher;
    kcipher_mode mode;
    kcipher_cipher_info info;
};
CipherArgument parse_cipher_option(const std::string &name, const std::string &no_mode_hint);

// A keyed cipher; a kernel error names the kernel and where it came from (--kernel or
// KCIPHER_KERNEL).
kcipher::Cipher make_cipher(const char *cipher, const std::vector<uint8_t> &key, const std::string &kernel);

} // namespace cli
