// Reads a family's known-answer text (kit/known_answer.hpp has the format).
#include "kit/known_answer.hpp"

#include <cctype>
#include <sstream>

namespace kc {
namespace {

std::string trim(const std::string &s)
{
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

bool is_hex(const std::string &s)
{
    for (char ch : s)
        if (!std::isxdigit((unsigned char)ch))
            return false;
    return s.size() % 2 == 0;
}

// The field a name stands for, or nullptr.
std::string *field(KnownAnswer &r, const std::string &name)
{
    if (name == "source") return &r.source;
    if (name == "cipher") return &r.cipher;
    if (name == "mode") return &r.mode;
    if (name == "key") return &r.key;
    if (name == "iv") return &r.iv;
    if (name == "pt") return &r.pt;
    if (name == "ct") return &r.ct;
    return nullptr;
}

bool known_mode(const std::string &m)
{
    for (const char *k : {"ecb", "cbc", "ctr", "cfb", "cfb8", "ofb"})
        if (m == k)
            return true;
    return false;
}

// Whether a finished record has every field it needs, in hex where hex belongs.
void check(KnownAnswer &r)
{
    if (!r.error.empty())
        return;
    if (r.cipher.empty() || r.key.empty() || r.pt.empty() || r.ct.empty() || r.source.empty())
        r.error = "a record lacks source, cipher, key, pt or ct";
    else if (!known_mode(r.mode))
        r.error = "mode '" + r.mode + "' is not ecb, cbc, ctr, cfb, cfb8 or ofb";
    else if ((r.mode == "ecb") != r.iv.empty())
        r.error = "iv is for the modes other than ecb, and they need one";
    else if (!is_hex(r.key) || !is_hex(r.iv) || !is_hex(r.pt) || !is_hex(r.ct) || r.pt.size() != r.ct.size())
        r.error = "key, iv, pt and ct must be hex, pt and ct of one length";
}

} // namespace

std::vector<KnownAnswer> read_known_answers(const char *text)
{
    std::vector<KnownAnswer> out;
    KnownAnswer r;
    std::string *last = nullptr; // the field an indented line continues
    bool open = false;
    auto close = [&] {
        if (open) {
            check(r);
            out.push_back(r);
        }
        r = KnownAnswer();
        last = nullptr;
        open = false;
    };
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        number++;
        std::string t = trim(line);
        if (t.empty()) {
            close();
            continue;
        }
        if (t[0] == '#')
            continue;
        open = true;
        if (line[0] == ' ' || line[0] == '\t') {
            if (last == nullptr)
                r.error = "line " + std::to_string(number) + ": an indented line continues no field";
            else
                *last += t;
            continue;
        }
        size_t eq = t.find('=');
        std::string *f = eq == std::string::npos ? nullptr : field(r, trim(t.substr(0, eq)));
        if (f == nullptr) {
            r.error = "line " + std::to_string(number) + ": not 'field = value' with a known field";
            continue;
        }
        *f = trim(t.substr(eq + 1));
        last = f;
    }
    close();
    return out;
}

} // namespace kc
