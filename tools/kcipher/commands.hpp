// The subcommands of the `kcipher` tool. Each registers its options on the CLI11 app and
// returns the process exit status when run.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace cli {

using Runner = std::function<int()>;

Runner add_crypt_commands(CLI::App &app, Runner *dec_runner); // enc (returned) and dec
Runner add_info_command(CLI::App &app);
Runner add_selftest_command(CLI::App &app);
Runner add_bench_command(CLI::App &app);
Runner add_keysearch_command(CLI::App &app);
Runner add_rand_command(CLI::App &app);
Runner add_mac_command(CLI::App &app);

} // namespace cli
