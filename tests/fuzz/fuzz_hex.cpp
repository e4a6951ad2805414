// libFuzzer target: the CLI's strict hex parser (tools/kcipher/hex.cpp). It must accept
// exactly the strings of an even number of hex digits, and then agree with to_hex (which
// writes lower case); to_hex of any bytes must parse back to them.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_catalog.hpp"
#include "hex.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::string_view s(reinterpret_cast<const char *>(data), size);
    bool hex = s.size() % 2 == 0;
    for (char c : s)
        hex = hex && std::isxdigit(static_cast<unsigned char>(c));
    auto v = cli::parse_hex(s);
    KCFUZZ_CHECK(v.has_value() == hex, "accepts exactly even-length hex");
    if (v) {
        std::string lower(s);
        for (char &c : lower)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        KCFUZZ_CHECK(cli::to_hex(v->data(), v->size()) == lower, "to_hex(parse_hex(s))");
    }
    auto back = cli::parse_hex(cli::to_hex(data, size));
    KCFUZZ_CHECK(back && std::equal(back->begin(), back->end(), data, data + size), "parse_hex(to_hex(b))");
    return 0;
}
