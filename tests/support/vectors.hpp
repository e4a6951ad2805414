// Readers for the known-answer files in tests/vectors (copied from ../shared/vectors):
// each record is a map from lower-case field name to its raw text value.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kct {

struct Record {
    std::map<std::string, std::string> f; // field name (lower case) -> value
    int line = 0;                         // line of the record's last field, for messages

    bool has(const std::string &k) const { return f.count(k) != 0; }
    const std::string &at(const std::string &k) const { return f.at(k); }
};

std::string vector_path(std::string_view file); // tests/vectors/<file>

// "cipher=ARIA-128, mode=ECB, key=.., pt=.., ct=.." lines (the kcmvp_*, *_rfc*, cham files).
std::vector<Record> load_kv_lines(std::string_view file);
// Crypto++ TestVectors format: "Name: value" fields that persist until overwritten; a record
// is emitted at each "Test:" line; a trailing backslash continues a value.
std::vector<Record> load_cryptopp(std::string_view file);
// OpenSSL evp_test format: "Key = value" fields, records separated by blank lines.
std::vector<Record> load_openssl_evp(std::string_view file);

// Hex to bytes: drops "0x" prefixes and everything that is not a hex digit, so C-array
// notation, spaces and Crypto++'s stray braces all read correctly.
std::vector<uint8_t> unhex(std::string_view s);
std::string tohex(const uint8_t *p, size_t n);
inline std::string tohex(const std::vector<uint8_t> &v) { return tohex(v.data(), v.size()); }

// Deterministic random bytes for reproducible randomised tests.
std::vector<uint8_t> random_bytes(size_t n, uint64_t seed);

// A random 16-byte IV for round `round` of a randomized CTR test, except rounds 1-3, whose
// counter wraps at once (all ones), carries into the high 64 bits, or carries into the next
// 32-bit word.
std::vector<uint8_t> edge_iv(int round, uint64_t seed);

} // namespace kct
