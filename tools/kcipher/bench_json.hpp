// The benches' JSON results: written whole or not at all (a temporary file beside the
// target, renamed over it), so that an interrupted run never leaves a truncated file in
// bench/results that looks like a result.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace cli {

// Writes j (pretty-printed) to path and prints "# wrote N records to path"; throws on failure.
void write_json_file(const std::string &path, const nlohmann::json &j);

} // namespace cli
