"""python -m kcipher [selftest [-v] | info]: the CLI's self-test (the default) or info."""
import argparse
import sys
from typing import List, Optional

from ._info import format_info, selftest


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kcipher", description="kcipher's self-test and machine report")
    p.add_argument("command", nargs="?", default="selftest", choices=["selftest", "info"])
    p.add_argument("-v", "--verbose", action="store_true", help="selftest: list every check, not only failures")
    a = p.parse_args(argv)
    if a.command == "info":
        print(format_info())
        return 0
    r = selftest()
    for kernel, check, ok in r.checks:
        if not ok or a.verbose:
            print(f"{'pass' if ok else 'FAIL'} {kernel:<14} {check}")
    print(f"selftest: {r.passed} passed, {r.failed} failed")
    return 0 if r.ok else 1


if __name__ == "__main__":
    sys.exit(main())
