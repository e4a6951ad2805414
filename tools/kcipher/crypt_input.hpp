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

    // A regular file (standard input too, when it is one) can be read through a read-only
    // mapping instead: no copy into a buffer, so a file goes through at the speed of the
    // cipher and the writer alone. map() tries, from the current read position; false leaves
    // read() as it was (a pipe, an empty file, a file system that cannot map). After it,
    // map_next() hands out the input in order (fewer bytes than asked only at the end), its
    // pages already in memory, and map_release() drops pages before a pointer from the
    // process (not from the page cache), so that memory stays bounded. A file cut shorter
    // while mapped ends the run with SIGBUS, which removes the output (atomic_output.hpp).
    bool map();
    const uint8_t *map_next(size_t n, size_t &got);
    void map_release(const uint8_t *before);

    const std::string &name() const { return name_; } // "standard input" or "'path'"
    bool sized() const { return sized_; }              // a regular file (or spooled): size() is exact
    uint64_t size() const { return size_; }            // 0 when not sized

  private:
    FILE *f_ = stdin;
    bool owned_ = false;
    bool sized_ = false;
    uint64_t size_ = 0;
    std::string name_ = "standard input";
    uint8_t *map_ = nullptr; // the whole file, from offset 0
    uint64_t map_pos_ = 0, map_released_ = 0;
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
