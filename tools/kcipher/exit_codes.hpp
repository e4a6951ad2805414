// The exit status of every command, one table, printed under `kcipher --help` and kept in
// docs/usage.md. A script tells "fix the command line" (2) from "it ran and failed" (1)
// without parsing messages; keysearch alone needs more outcomes than that.
#pragma once

namespace cli {

constexpr int exit_ok = 0;     // success; keysearch: a key was found
constexpr int exit_failed = 1; // the operation failed: I/O, authentication, no GPU; keysearch: no key in the range
constexpr int exit_usage = 2;  // bad usage: an option, number, name, key or combination that cannot be right
constexpr int exit_keysearch_error = 3; // keysearch: it started and failed (I/O, a GPU error)

constexpr const char *exit_code_table =
    "Exit status (every command):\n"
    "  0    success (keysearch: a key was found)\n"
    "  1    the operation failed: I/O, authentication (dec, mac --verify), no GPU\n"
    "       (keysearch: the range was searched and holds no key)\n"
    "  2    bad usage: an unknown or bad option, number, cipher or kernel name, key hex or length\n"
    "  3    keysearch only: a runtime error (I/O, checkpoint, GPU)\n"
    "  130  interrupted by Ctrl-C (SIGINT); 143 terminated (SIGTERM)\n"
    "Keys given with -k are visible to every local user (ps) while the command runs:\n"
    "prefer --key-file FILE or --key-env NAME.";

} // namespace cli
