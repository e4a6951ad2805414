// A mistake in how the command was called (a bad option value, an unknown name, options that
// do not go together), as opposed to an operation that failed. Every command's runner lets it
// reach main, which prints it and exits 2; any other exception exits 1 (exit_codes.hpp).
#pragma once

#include <stdexcept>

namespace cli {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

} // namespace cli
