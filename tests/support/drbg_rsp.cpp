#include "support/drbg_rsp.hpp"

#include <fstream>
#include <stdexcept>

#include "support/vectors.hpp"

namespace kct {
namespace {

std::string trim(const std::string &s)
{
    size_t b = s.find_first_not_of(" \t\r");
    size_t e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

} // namespace

const std::string &DrbgCase::get(const std::string &key, int n) const
{
    for (const auto &kv : fields)
        if (kv.first == key && n-- == 0)
            return kv.second;
    throw std::runtime_error(where() + ": no field " + key);
}

bool DrbgCase::has(const std::string &key) const
{
    for (const auto &kv : fields)
        if (kv.first == key)
            return true;
    return false;
}

std::vector<uint8_t> DrbgCase::bytes(const std::string &key, int n) const { return unhex(get(key, n)); }

std::string DrbgCase::where() const
{
    return file + " [" + section + "] line " + std::to_string(line);
}

std::vector<DrbgCase> load_drbg_rsp(std::string_view file)
{
    std::ifstream in(vector_path(file));
    if (!in)
        throw std::runtime_error("cannot open vector file " + vector_path(file));
    std::vector<DrbgCase> out;
    std::string section;
    std::map<std::string, std::string> params;
    bool in_case = false;
    std::string l;
    for (int n = 1; std::getline(in, l); n++) {
        l = trim(l);
        if (l.empty() || l[0] == '#')
            continue;
        size_t eq = l.find('=');
        if (l[0] == '[') {
            std::string body = l.substr(1, l.size() - 2);
            size_t e = body.find('=');
            if (e == std::string::npos) {
                section = trim(body), params.clear();
            } else {
                params[trim(body.substr(0, e))] = trim(body.substr(e + 1));
            }
            in_case = false;
            continue;
        }
        if (eq == std::string::npos)
            continue;
        std::string key = trim(l.substr(0, eq)), value = trim(l.substr(eq + 1));
        if (key == "COUNT") {
            DrbgCase c;
            c.section = section, c.params = params, c.line = n, c.file = std::string(file);
            out.push_back(c);
            in_case = true;
        } else if (in_case) {
            out.back().fields.emplace_back(key, value);
        }
    }
    return out;
}

} // namespace kct
