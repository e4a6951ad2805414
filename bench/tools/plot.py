#!/usr/bin/env python3
"""Throughput against message size from a `kcipher bench --json` file (one thread, one mode).

usage: plot.py RESULTS.json OUT.png [--mode ctr] [--threads 1]
  e.g. plot.py bench/results/cpu-xeon-devvm-ctr-sizes.json docs/img/cpu-throughput-vs-size.png

One panel per cipher family (the 128-bit-key variants); a line per implementation and kernel
(kcipher's default kernel solid, OpenSSL and Crypto++ dashed). Each panel's legend sits
beside it, off the data; the axes are logarithmic with plain labels (64 B ... 1 MiB, GB/s as
decimals). Needs matplotlib (pip install matplotlib); only the docs need it, not the build.
"""
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, NullFormatter, NullLocator  # noqa: E402

SHOWN = {"aria-128", "camellia-128", "aes-128", "lea-128", "hight", "cham-64-128", "cham-128-128"}
FAMILIES = ["aria", "lea", "hight", "cham"]


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def size_label(b, _pos=None):
    b = int(round(b))
    if b >= 1 << 20:
        return "%d MiB" % (b >> 20)
    if b >= 1 << 10:
        return "%d KiB" % (b >> 10)
    return "%d B" % b


def rate_label(v, _pos=None):
    return "%g" % float("%.2g" % v)


def main():
    src, out = sys.argv[1], sys.argv[2]
    mode, threads = arg("--mode", "ctr"), int(arg("--threads", "1"))
    recs = [r for r in json.load(open(src))
            if r["mode"] == mode and r["threads"] == threads and r["cipher"] in SHOWN]
    if not recs:
        sys.exit("plot.py: no %s records for %d thread(s) in %s" % (mode, threads, src))
    lines = defaultdict(lambda: defaultdict(list))
    for r in recs:
        fam = r["cipher"].split("-")[0]
        if fam not in FAMILIES:
            fam = "aria"  # OpenSSL's Camellia and AES are drawn beside ARIA
        who = r["kernel"] if r["implementation"] == "kcipher" else r["implementation"]
        lines[fam]["%s, %s" % (r["cipher"], who)].append((r["bytes"], r["bytes_per_second"] / 1e9))
    sizes = sorted({r["bytes"] for r in recs})
    fig, axes = plt.subplots(2, 2, figsize=(14, 8.5))
    for ax, fam in zip(axes.flat, FAMILIES):
        for label, pts in sorted(lines[fam].items()):
            pts.sort()
            ours = any(r["implementation"] == "kcipher" and label.endswith(r["kernel"]) for r in recs)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "-" if ours else "--", marker="o", markersize=3,
                    label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(FixedLocator(sizes))
        ax.xaxis.set_major_formatter(FuncFormatter(size_label))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(rate_label))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_title("%s, %s, %d thread%s" % (fam.upper(), mode.upper(), threads, "" if threads == 1 else "s"))
        ax.set_xlabel("message size")
        ax.set_ylabel("GB/s")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, frameon=False)
    fig.suptitle("Throughput against message size, one core (%s)" % recs[0]["cpu"])
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
