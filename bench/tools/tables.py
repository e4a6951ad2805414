#!/usr/bin/env python3
"""Markdown tables from `kcipher bench --json` files, for docs/performance.md.

usage: tables.py RESULTS.json [--threads N]
Prints, per cipher and mode, MB/s and cycles/byte for every implementation and kernel over
the message sizes, and kcipher's ratio to OpenSSL's same cipher where OpenSSL has it.
"""
import json
import sys
from collections import defaultdict


def main():
    path = sys.argv[1]
    threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
    recs = [r for r in json.load(open(path)) if r["threads"] == threads]
    if not recs:
        sys.exit("no records for %d thread(s)" % threads)
    sizes = sorted({r["bytes"] for r in recs})
    rows = defaultdict(dict)
    for r in recs:
        rows[(r["cipher"], r["mode"], r["implementation"], r["kernel"])][r["bytes"]] = r
    r0 = recs[0]
    print("%s, core clock %.2f GHz (%s), %d thread(s)\n" % (r0["cpu"], r0["clock_ghz"], r0["clock_method"], threads))
    head = "| cipher | mode | implementation | kernel | " + " | ".join(fmt_size(s) for s in sizes) + " |"
    print(head)
    print("|" + "---|" * (4 + len(sizes)))
    for key in sorted(rows, key=lambda k: (k[0].split("-")[0] != "aria", k[0], k[1], k[2] != "openssl", k[3])):
        cipher, mode, impl, kernel = key
        cells = []
        for s in sizes:
            r = rows[key].get(s)
            if r is None:
                cells.append("")
                continue
            cell = "%.0f MB/s, %.1f c/B" % (r["bytes_per_second"] / 1e6, r["cycles_per_byte"])
            ref = rows.get((cipher, mode, "openssl", "libcrypto EVP"), {}).get(s)
            if impl == "kcipher" and ref:
                cell += " (%.2fx)" % (r["bytes_per_second"] / ref["bytes_per_second"])
            cells.append(cell)
        print("| %s | %s | %s | %s | %s |" % (cipher, mode, impl, kernel, " | ".join(cells)))


def fmt_size(s):
    return "%d MiB" % (s >> 20) if s >= 1 << 20 else ("%d KiB" % (s >> 10) if s >= 1024 else "%d B" % s)


if __name__ == "__main__":
    main()
