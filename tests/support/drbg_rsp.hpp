// Reader for the CTR_DRBG response files (NIST CAVP and the KISA file in the same style):
// "[name]" and "[Key = value]" lines set the section, "COUNT = n" starts a case, and a case's
// "Key = value" lines are kept in order, since NIST repeats AdditionalInput and EntropyInputPR.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kct {

struct DrbgCase {
    std::string section;                            // "AES-128 use df"
    std::map<std::string, std::string> params;      // "PredictionResistance" -> "True"
    std::vector<std::pair<std::string, std::string>> fields;
    int line = 0;                                   // the COUNT line

    // The n-th (0-based) value of `key`; throws when absent.
    const std::string &get(const std::string &key, int n = 0) const;
    bool has(const std::string &key) const;
    std::vector<uint8_t> bytes(const std::string &key, int n = 0) const;
    std::string where() const; // "file section COUNT line" for messages
    std::string file;
};

std::vector<DrbgCase> load_drbg_rsp(std::string_view file);

} // namespace kct
