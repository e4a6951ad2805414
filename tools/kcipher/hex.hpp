// Strict hex for keys and IVs on the command line: even length, hex digits only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

std::optional<std::vector<uint8_t>> parse_hex(std::string_view s);
std::string to_hex(const uint8_t *p, size_t n);

} // namespace cli
