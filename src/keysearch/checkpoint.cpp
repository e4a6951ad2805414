#include "keysearch/checkpoint.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <unistd.h>

namespace kc::keysearch {

namespace {

// v2 added the checksum line; a v1 file (none) is refused as damaged rather than trusted.
constexpr const char *magic = "kcipher keysearch checkpoint v2";
constexpr const char *checksum_prefix = "checksum fnv1a64 ";

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

// FNV-1a: each step is a bijection of the state for a given byte, so any change of one byte
// (a digit typed over) always changes the sum. A damage detector, not a MAC.
uint64_t fnv1a64(const std::string &s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

std::string checksum_line(const std::string &text)
{
    const uint64_t h = fnv1a64(text);
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = uint8_t(h >> (56 - 8 * i));
    return checksum_prefix + hex(b, 8) + "\n";
}

// Decimal digits only: istream would read "-1" as 2^64 - 1 and accept "+5" or "5x".
bool parse_u64(const std::string &s, uint64_t *out)
{
    if (s.empty() || s.size() > 20)
        return false;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return false;
        const uint64_t d = uint64_t(c - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

std::vector<std::string> words(const std::string &line)
{
    std::vector<std::string> w;
    std::istringstream l(line);
    for (std::string s; l >> s;)
        w.push_back(s);
    return w;
}

// A finished range must lie inside the search's range and after the one before it: the
// writer saves them sorted and disjoint, so anything else is damage.
bool add_finished(const std::vector<std::string> &w, Range whole, CheckpointState *out)
{
    Range r;
    if (w.size() != 3 || !parse_u64(w[1], &r.first) || !parse_u64(w[2], &r.last))
        return false;
    if (r.first > r.last || r.first < whole.first || r.last > whole.last)
        return false;
    const auto &have = out->finished.ranges();
    if (!have.empty() && r.first <= have.back().last)
        return false;
    out->finished.add(r);
    return true;
}

bool add_found(const std::vector<std::string> &w, Range whole, CheckpointState *out)
{
    Found f;
    if (w.size() != 3 || !parse_u64(w[1], &f.index) || !unhex(w[2], f.key) || f.key.empty())
        return false;
    if (f.index < whole.first || f.index > whole.last)
        return false;
    for (const Found &g : out->found)
        if (g.index == f.index)
            return false;
    out->found.push_back(std::move(f));
    return true;
}

// Parses the lines after the fingerprint. A fingerprint line here means the file's search
// had more pairs than this one: another search, not a damaged file.
kcipher_status parse_state(std::istream &in, Range whole, CheckpointState *out)
{
    std::string line;
    while (std::getline(in, line)) {
        const std::vector<std::string> w = words(line);
        const std::string first = w.empty() ? "" : w[0];
        if (first == "end" && w.size() == 1)
            return KCIPHER_OK;
        bool ok;
        if (first == "finished")
            ok = add_finished(w, whole, out);
        else if (first == "found")
            ok = add_found(w, whole, out);
        else if (first == "pair" || first == "key" || first == "mask" || first == "range")
            return KCIPHER_ERR_CHECKPOINT_MISMATCH;
        else
            ok = false;
        if (!ok)
            return KCIPHER_ERR_CHECKPOINT_DAMAGED;
    }
    return KCIPHER_ERR_CHECKPOINT_DAMAGED; // no "end": cut short
}

// The text above a valid checksum line, or false when the line is missing or does not match.
bool strip_checksum(const std::string &text, std::string *body)
{
    if (text.empty() || text.back() != '\n')
        return false;
    const size_t start = text.rfind('\n', text.size() - 2);
    const size_t line = start == std::string::npos ? 0 : start + 1;
    *body = text.substr(0, line);
    return text.compare(line, std::string::npos, checksum_line(*body)) == 0;
}

bool read_file(const std::string &path, std::string *text)
{
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
        return false;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        text->append(buf, n);
    const bool ok = !std::ferror(f);
    const int err = errno;
    std::fclose(f);
    errno = ok ? 0 : err;
    return ok;
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

std::string checkpoint_text(const std::string &fingerprint, const CheckpointState &st)
{
    std::ostringstream o;
    o << magic << "\n" << fingerprint;
    for (const Range &r : st.finished.ranges())
        o << "finished " << r.first << " " << r.last << "\n";
    for (const Found &f : st.found)
        o << "found " << f.index << " " << hex(f.key.data(), f.key.size()) << "\n";
    o << "end\n";
    const std::string body = o.str();
    return body + checksum_line(body);
}

kcipher_status load_checkpoint(const std::string &path, const std::string &fingerprint, Range range, bool *exists,
                               CheckpointState *out)
{
    *exists = false;
    std::string text, body;
    if (!read_file(path, &text))
        return errno == ENOENT ? KCIPHER_OK : KCIPHER_ERR_CHECKPOINT;
    *exists = true;
    if (!strip_checksum(text, &body))
        return KCIPHER_ERR_CHECKPOINT_DAMAGED;
    std::istringstream f(body);
    std::string line;
    if (!std::getline(f, line) || line != magic)
        return KCIPHER_ERR_CHECKPOINT_DAMAGED;
    std::istringstream want(fingerprint);
    std::string expected;
    while (std::getline(want, expected)) {
        if (!std::getline(f, line))
            return KCIPHER_ERR_CHECKPOINT_DAMAGED;
        if (line != expected)
            return KCIPHER_ERR_CHECKPOINT_MISMATCH;
    }
    return parse_state(f, range, out);
}

kcipher_status save_checkpoint(const std::string &path, const std::string &fingerprint,
                               const CheckpointState &st)
{
    std::string tmp = path + ".tmp-XXXXXX";
    int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        return KCIPHER_ERR_CHECKPOINT;
    bool ok = write_all(fd, checkpoint_text(fingerprint, st)) && ::fsync(fd) == 0;
    int err = ok ? 0 : errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok) {
        if (std::rename(tmp.c_str(), path.c_str()) == 0) {
            sync_directory_of(path);
            return KCIPHER_OK;
        }
        err = errno;
    }
    ::unlink(tmp.c_str());
    errno = err;
    return KCIPHER_ERR_CHECKPOINT;
}

} // namespace kc::keysearch
