#!/usr/bin/env python3
"""Markdown tables from `kcipher bench --json` files, for docs/performance.md.

usage: tables.py RESULTS.json [--threads N] [--pivot BYTES [--mode ctr]]
Prints, per cipher and mode, MB/s and cycles/byte for every implementation and kernel over
the message sizes, and kcipher's ratio to OpenSSL's same cipher where OpenSSL has it.
With --pivot BYTES: one table per cipher family, a row per kernel (and peer library), a column
per cipher of the family, cycles/byte at that message size; where a file holds several runs of
a row, the median. docs/performance.md's x86 tables are printed this way, e.g.
  tables.py bench/results/cpu-xeon-h200host-ctr-kernels.json --pivot 16384
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
    if "--pivot" in sys.argv:
        mode = sys.argv[sys.argv.index("--mode") + 1] if "--mode" in sys.argv else "ctr"
        return pivot(recs, int(sys.argv[sys.argv.index("--pivot") + 1]), mode)
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


def pivot(recs, size, mode):
    import statistics
    peers = {"openssl": "OpenSSL", "cryptopp": "Crypto++"}
    cells = defaultdict(list)  # (family, row label, variant) -> cycles/byte of each run
    for r in recs:
        if r["bytes"] != size or r["mode"] != mode:
            continue
        fam, _, variant = r["cipher"].partition("-")
        row = r["kernel"]
        if r["implementation"] != "kcipher":
            row = "%s %s" % (peers.get(r["implementation"], r["implementation"]), fam.upper())
            if "80 rounds" in r["kernel"]:
                row += " (80-round original)"
        if fam in ("camellia", "aes"):
            fam = "aria"  # OpenSSL's Camellia and AES beside ARIA, as the AVX ARIA paper compares
        cells[(fam, row, variant or fam)].append(r["cycles_per_byte"])
    r0 = recs[0]
    print("%s, %.2f GHz, one thread, %s, %s, cycles/byte (lower is better; median of the runs)\n" % (
        r0["cpu"], r0["clock_ghz"], mode.upper(), fmt_size(size)))
    for fam in [f for f in ("aria", "lea", "hight", "cham") if any(k[0] == f for k in cells)]:
        variants = sorted({v for (f, _, v) in cells if f == fam}, key=lambda v: [int(x) if x.isdigit() else 0
                                                                                   for x in v.split("-")])
        rows = sorted({w for (f, w, _) in cells if f == fam}, key=lambda w: ("/" not in w, w))
        print("| %s | " % fam.upper() + " | ".join(variants) + " |")
        print("|---|" + "--:|" * len(variants))
        for w in rows:
            print("| %s | %s |" % (w, " | ".join("%.2f" % statistics.median(cells[(fam, w, v)])
                                                 if (fam, w, v) in cells else "" for v in variants)))
        print()


def fmt_size(s):
    return "%d MiB" % (s >> 20) if s >= 1 << 20 else ("%d KiB" % (s >> 10) if s >= 1024 else "%d B" % s)


if __name__ == "__main__":
    main()
