#include "crypt_input.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <sys/stat.h>

#include <fmt/core.h>

#include "atomic_output.hpp"
#include "hex.hpp"
#include "usage_error.hpp"

namespace cli {

Input::Input(const std::string &path)
{
    if (path.empty() || path == "-")
        return;
    name_ = "'" + path + "'";
    f_ = std::fopen(path.c_str(), "rb");
    if (f_ == nullptr)
        throw std::runtime_error("cannot open input " + name_ + ": " + std::strerror(errno));
    owned_ = true;
    struct stat st;
    if (fstat(fileno(f_), &st) == 0 && S_ISDIR(st.st_mode)) {
        std::fclose(f_);
        throw std::runtime_error("input " + name_ + " is a directory");
    }
    if (fstat(fileno(f_), &st) == 0 && S_ISREG(st.st_mode)) {
        sized_ = true;
        size_ = (uint64_t)st.st_size;
    }
}

Input::~Input()
{
    if (owned_)
        std::fclose(f_);
}

size_t Input::read(uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        size_t r = std::fread(buf + got, 1, n - got, f_);
        got += r;
        if (r == 0)
            break;
    }
    if (std::ferror(f_))
        throw std::runtime_error("cannot read " + name_ + ": " + std::strerror(errno));
    return got;
}

void Input::spool()
{
    if (sized_)
        return;
    FILE *tmp = open_unlinked_temporary(name_ + " (its length must be known first)");
    constexpr size_t chunk = 1 << 20;
    std::unique_ptr<uint8_t[]> buf(new uint8_t[chunk]);
    uint64_t total = 0;
    for (;;) {
        size_t n = read(buf.get(), chunk);
        if (n != 0 && std::fwrite(buf.get(), 1, n, tmp) != n) {
            std::fclose(tmp);
            throw std::runtime_error("cannot hold " + name_ + " in a temporary file: " + std::strerror(errno));
        }
        total += n;
        if (n < chunk)
            break;
    }
    if (std::fflush(tmp) != 0 || std::fseek(tmp, 0, SEEK_SET) != 0) {
        std::fclose(tmp);
        throw std::runtime_error("cannot hold " + name_ + " in a temporary file: " + std::strerror(errno));
    }
    if (owned_)
        std::fclose(f_);
    f_ = tmp;
    owned_ = true;
    sized_ = true;
    size_ = total;
}

std::vector<uint8_t> parse_hex_option(const std::string &what, const std::string &hex, size_t want,
                                      const std::string &cipher)
{
    auto v = parse_hex(hex);
    if (!v)
        throw UsageError(fmt::format("--{} is not valid hex (an even number of 0-9a-f digits)", what));
    if (want != SIZE_MAX && v->size() != want)
        throw UsageError(fmt::format("--{} must be {} bytes ({} hex digits) for {}, got {} bytes", what,
                                     want, 2 * want, cipher, v->size()));
    return *v;
}

kcipher::Cipher make_cipher(const char *cipher, const std::vector<uint8_t> &key, const std::string &kernel)
{
    try {
        return kcipher::Cipher(cipher, key.data(), key.size(), kernel.empty() ? nullptr : kernel.c_str());
    } catch (const kcipher::Error &e) {
        kcipher_status st = e.status();
        if (st == KCIPHER_ERR_XTS_KEY || st == KCIPHER_ERR_KEY_LENGTH) // a key that cannot be right
            throw UsageError(fmt::format("--key for {}: {}", cipher, e.what()));
        if (st != KCIPHER_ERR_UNKNOWN_KERNEL && st != KCIPHER_ERR_KERNEL_UNAVAILABLE &&
            st != KCIPHER_ERR_KERNEL_MISMATCH)
            throw;
        const char *env = std::getenv("KCIPHER_KERNEL");
        std::string from = !kernel.empty() ? "--kernel " + kernel
                                           : std::string("KCIPHER_KERNEL=") + (env ? env : "");
        const std::string what = fmt::format("{} for {}: {}", from, cipher, e.what());
        // A name that is no kernel, or one of another cipher, is a usage mistake; a real kernel
        // this machine cannot run (no GPU, no AVX-512) is a failure to run, as a missing GPU is.
        if (st == KCIPHER_ERR_KERNEL_UNAVAILABLE)
            throw std::runtime_error(what);
        throw UsageError(what);
    }
}

CipherArgument parse_cipher_option(const std::string &name, const std::string &no_mode_hint)
{
    char cipher[32];
    CipherArgument a;
    kcipher_status st = kcipher_parse_name(name.c_str(), cipher, sizeof cipher, &a.mode);
    if (st != KCIPHER_OK)
        throw UsageError(fmt::format("--cipher '{}': {}", name, kcipher_strerror(st)));
    if (a.mode == KCIPHER_MODE_NONE)
        throw UsageError(fmt::format("--cipher '{}' names no {}", name, no_mode_hint));
    a.cipher = cipher;
    kcipher::check(kcipher_cipher_find(cipher, &a.info)); // parse_name knew it; checked all the same
    return a;
}

} // namespace cli
