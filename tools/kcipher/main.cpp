// kcipher: encrypt and decrypt files, authenticate them (GCM, CCM, CMAC, GMAC), inspect the machine's kernels, self-test, benchmark.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <stdexcept>
#include <system_error>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "kcipher/kcipher.h"
#include "usage_error.hpp"

// A report that could not be written (stdout on a full disk) is a failure too.
static bool stdout_ok()
{
    if (std::fflush(stdout) == 0 && !std::ferror(stdout))
        return true;
    std::fprintf(stderr, "kcipher: cannot write standard output: %s\n", std::strerror(errno));
    return false;
}

int main(int argc, char **argv)
{
    CLI::App app{"kcipher: ARIA, LEA, HIGHT and CHAM at the speed of the hardware"};
    app.set_version_flag("--version", std::string("kcipher ") + kcipher_version());
    app.require_subcommand(1);
    app.footer(cli::exit_code_table);

    cli::Runner dec;
    std::map<std::string, cli::Runner> runners;
    runners["enc"] = cli::add_crypt_commands(app, &dec);
    runners["dec"] = dec;
    runners["info"] = cli::add_info_command(app);
    runners["selftest"] = cli::add_selftest_command(app);
    runners["bench"] = cli::add_bench_command(app);
    runners["keysearch"] = cli::add_keysearch_command(app);
    runners["rand"] = cli::add_rand_command(app);
    runners["mac"] = cli::add_mac_command(app);

    // CLI11 would only say that a subcommand is required.
    if (argc > 1 && argv[1][0] != '-' && runners.count(argv[1]) == 0) {
        std::fprintf(stderr, "kcipher: unknown command '%s' (expected enc, dec, mac, info, selftest, bench, keysearch or rand)\n", argv[1]);
        return cli::exit_usage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        int rc = app.exit(e) == 0 ? cli::exit_ok : cli::exit_usage; // --help and --version arrive here too
        return stdout_ok() ? rc : cli::exit_failed;
    }
    int rc = cli::exit_usage;
    try {
        for (CLI::App *sub : app.get_subcommands()) {
            // A typo in the feature mask stops every command but `info`, which shows it.
            const char *detail = "";
            if (sub->get_name() != "info" && kcipher_cpu_features_status(&detail) != KCIPHER_OK)
                throw cli::UsageError(detail);
            rc = runners.at(sub->get_name())();
        }
    } catch (const cli::UsageError &e) {
        std::fprintf(stderr, "kcipher: %s\n", e.what());
        return cli::exit_usage;
    } catch (const std::system_error &e) {
        // fmt throws when a report longer than stdout's buffer cannot be written (a full disk):
        // say which file, as stdout_ok() does for one lost at the final flush.
        if (std::ferror(stdout))
            std::fprintf(stderr, "kcipher: cannot write standard output: %s\n", e.code().message().c_str());
        else
            std::fprintf(stderr, "kcipher: %s\n", e.what());
        return cli::exit_failed;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "kcipher: %s\n", e.what());
        return cli::exit_failed;
    }
    return stdout_ok() ? rc : cli::exit_failed;
}
