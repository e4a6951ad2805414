// kcipher: encrypt and decrypt files, inspect the machine's kernels, self-test, benchmark.
#include <cstdio>
#include <exception>
#include <map>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "kcipher/kcipher.h"

int main(int argc, char **argv)
{
    CLI::App app{"kcipher: ARIA, LEA, HIGHT and CHAM at the speed of the hardware"};
    app.set_version_flag("--version", std::string("kcipher ") + kcipher_version());
    app.require_subcommand(1);

    cli::Runner dec;
    std::map<std::string, cli::Runner> runners;
    runners["enc"] = cli::add_crypt_commands(app, &dec);
    runners["dec"] = dec;
    runners["info"] = cli::add_info_command(app);
    runners["selftest"] = cli::add_selftest_command(app);
    runners["bench"] = cli::add_bench_command(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e) == 0 ? 0 : 2;
    }
    try {
        for (CLI::App *sub : app.get_subcommands())
            return runners.at(sub->get_name())();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "kcipher: %s\n", e.what());
        return 1;
    }
    return 2;
}
