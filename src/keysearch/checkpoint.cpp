#include "keysearch/checkpoint.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kc::keysearch {

namespace {

constexpr const char *magic = "kcipher keysearch checkpoint v1";

std::string hex(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; i++) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

bool unhex(const std::string &s, std::vector<uint8_t> &out)
{
    auto nib = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
    if (s.size() % 2 != 0)
        return false;
    out.clear();
    for (size_t i = 0; i < s.size(); i += 2) {
        int h = nib(s[i]), l = nib(s[i + 1]);
        if (h < 0 || l < 0)
            return false;
        out.push_back(uint8_t(h << 4 | l));
    }
    return true;
}

std::string body(const std::string &fingerprint, const CheckpointState &st)
{
    std::ostringstream o;
    o << magic << "\n" << fingerprint;
    for (const Range &r : st.finished.ranges())
        o << "finished " << r.first << " " << r.last << "\n";
    for (const Found &f : st.found)
        o << "found " << f.index << " " << hex(f.key.data(), f.key.size()) << "\n";
    o << "end\n";
    return o.str();
}

// Parses the lines after the fingerprint. A fingerprint line here means the file's search
// had more pairs than this one: another search, not a damaged file.
kcipher_status parse_state(std::istream &in, CheckpointState *out)
{
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream l(line);
        std::string word;
        l >> word;
        if (word == "end")
            return KCIPHER_OK;
        if (word == "finished") {
            Range r;
            if (!(l >> r.first >> r.last) || r.first > r.last)
                return KCIPHER_ERR_CHECKPOINT;
            out->finished.add(r);
        } else if (word == "found") {
            Found f;
            std::string k;
            if (!(l >> f.index >> k) || !unhex(k, f.key) || f.key.empty())
                return KCIPHER_ERR_CHECKPOINT;
            out->found.push_back(f);
        } else if (word == "pair" || word == "key" || word == "mask" || word == "range") {
            return KCIPHER_ERR_CHECKPOINT_MISMATCH;
        } else {
            return KCIPHER_ERR_CHECKPOINT;
        }
    }
    return KCIPHER_ERR_CHECKPOINT; // no "end": cut short
}

bool write_all(int fd, const std::string &s)
{
    size_t off = 0;
    while (off < s.size()) {
        ssize_t w = ::write(fd, s.data() + off, s.size() - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        off += size_t(w);
    }
    return true;
}

// The rename is durable only once the directory entry is on disk too.
void sync_directory_of(const std::string &path)
{
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

std::string checkpoint_fingerprint(const Problem &p, Range range)
{
    const CipherDesc &d = cipher_desc(p.cipher);
    uint8_t tmpl[32];
    for (size_t i = 0; i < d.key_bytes; i++)
        tmpl[i] = uint8_t(p.key[i] & ~p.mask[i]);
    std::ostringstream o;
    o << "cipher " << d.name << "\n";
    for (const Pair &pr : p.pairs)
        o << "pair " << hex(pr.pt, d.block_bytes) << " " << hex(pr.ct, d.block_bytes) << "\n";
    o << "key " << hex(tmpl, d.key_bytes) << "\n";
    o << "mask " << hex(p.mask, d.key_bytes) << "\n";
    o << "range " << range.first << " " << range.last << "\n";
    return o.str();
}

kcipher_status load_checkpoint(const std::string &path, const std::string &fingerprint, bool *exists,
                               CheckpointState *out)
{
    *exists = false;
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        if (errno == ENOENT)
            return KCIPHER_OK;
        return KCIPHER_ERR_CHECKPOINT;
    }
    *exists = true;
    std::string line;
    if (!std::getline(f, line) || line != magic)
        return KCIPHER_ERR_CHECKPOINT;
    std::istringstream want(fingerprint);
    std::string expected;
    while (std::getline(want, expected)) {
        if (!std::getline(f, line))
            return KCIPHER_ERR_CHECKPOINT;
        if (line != expected)
            return KCIPHER_ERR_CHECKPOINT_MISMATCH;
    }
    return parse_state(f, out);
}

kcipher_status save_checkpoint(const std::string &path, const std::string &fingerprint,
                               const CheckpointState &st)
{
    std::string tmp = path + ".tmp-XXXXXX";
    int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        return KCIPHER_ERR_CHECKPOINT;
    bool ok = write_all(fd, body(fingerprint, st)) && ::fsync(fd) == 0;
    ok = ::close(fd) == 0 && ok;
    if (ok && std::rename(tmp.c_str(), path.c_str()) == 0) {
        sync_directory_of(path);
        return KCIPHER_OK;
    }
    ::unlink(tmp.c_str());
    return KCIPHER_ERR_CHECKPOINT;
}

} // namespace kc::keysearch
