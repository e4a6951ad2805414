#include "support/vectors.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <random>
#include <stdexcept>

namespace kct {

std::string vector_path(std::string_view file) { return std::string(KC_VECTORS_DIR) + "/" + std::string(file); }

static std::vector<std::string> read_lines(std::string_view file)
{
    std::ifstream in(vector_path(file));
    if (!in)
        throw std::runtime_error("cannot open vector file " + vector_path(file));
    std::vector<std::string> lines;
    std::string l;
    while (std::getline(in, l)) {
        if (!l.empty() && l.back() == '\r')
            l.pop_back();
        lines.push_back(l);
    }
    return lines;
}

static std::string trim(std::string s)
{
    size_t b = s.find_first_not_of(" \t");
    size_t e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

static std::string lower(std::string s)
{
    for (char &c : s)
        c = (char)std::tolower((unsigned char)c);
    return s;
}

std::vector<Record> load_kv_lines(std::string_view file)
{
    std::vector<Record> out;
    int n = 0;
    for (const std::string &l : read_lines(file)) {
        n++;
        if (l.empty() || l[0] == '#')
            continue;
        Record r;
        r.line = n;
        size_t pos = 0;
        while (pos < l.size()) {
            size_t comma = l.find(',', pos);
            std::string item = l.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
            size_t eq = item.find('=');
            if (eq != std::string::npos)
                r.f[lower(trim(item.substr(0, eq)))] = trim(item.substr(eq + 1));
            if (comma == std::string::npos)
                break;
            pos = comma + 1;
        }
        if (!r.f.empty())
            out.push_back(r);
    }
    return out;
}

std::vector<Record> load_cryptopp(std::string_view file)
{
    std::vector<Record> out;
    Record cur;
    std::string pending_key;
    int n = 0;
    for (const std::string &raw : read_lines(file)) {
        n++;
        std::string l = raw;
        if (!pending_key.empty()) { // continuation of the previous value
            bool more = !l.empty() && l.back() == '\\';
            if (more)
                l.pop_back();
            cur.f[pending_key] += " " + trim(l);
            if (!more)
                pending_key.clear();
            continue;
        }
        if (l.empty() || l[0] == '#')
            continue;
        size_t colon = l.find(':');
        if (colon == std::string::npos)
            continue;
        std::string key = lower(trim(l.substr(0, colon)));
        std::string val = trim(l.substr(colon + 1));
        if (!val.empty() && val.back() == '\\') {
            val.pop_back();
            pending_key = key;
        }
        cur.f[key] = val;
        cur.line = n;
        if (key == "test")
            out.push_back(cur);
    }
    return out;
}

std::vector<Record> load_openssl_evp(std::string_view file)
{
    std::vector<Record> out;
    Record cur;
    int n = 0;
    auto flush = [&] {
        if (!cur.f.empty())
            out.push_back(cur);
        cur = Record();
    };
    for (const std::string &l : read_lines(file)) {
        n++;
        if (trim(l).empty()) {
            flush();
            continue;
        }
        if (l[0] == '#')
            continue;
        size_t eq = l.find('=');
        if (eq == std::string::npos)
            continue;
        cur.f[lower(trim(l.substr(0, eq)))] = trim(l.substr(eq + 1));
        cur.line = n;
    }
    flush();
    return out;
}

std::vector<uint8_t> unhex(std::string_view s)
{
    std::string digits;
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
            i++;
            continue;
        }
        if (std::isxdigit((unsigned char)s[i]))
            digits += s[i];
    }
    if (digits.size() % 2 != 0)
        throw std::runtime_error("odd number of hex digits: " + std::string(s));
    std::vector<uint8_t> v(digits.size() / 2);
    for (size_t i = 0; i < v.size(); i++)
        v[i] = (uint8_t)std::stoul(digits.substr(2 * i, 2), nullptr, 16);
    return v;
}

std::string tohex(const uint8_t *p, size_t n)
{
    static const char d[] = "0123456789abcdef";
    std::string s;
    s.reserve(2 * n);
    for (size_t i = 0; i < n; i++) {
        s += d[p[i] >> 4];
        s += d[p[i] & 15];
    }
    return s;
}

std::vector<uint8_t> random_bytes(size_t n, uint64_t seed)
{
    std::mt19937_64 g(seed);
    std::vector<uint8_t> v(n);
    for (auto &b : v)
        b = (uint8_t)g();
    return v;
}

std::vector<uint8_t> edge_iv(int round, uint64_t seed)
{
    std::vector<uint8_t> iv = random_bytes(16, seed);
    const size_t ones_from[] = {16, 0, 8, 12};
    if (round >= 1 && round <= 3)
        std::fill(iv.begin() + ones_from[round], iv.end(), 0xff);
    return iv;
}

} // namespace kct

