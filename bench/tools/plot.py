#!/usr/bin/env python3
"""Throughput against message size from a `kcipher bench --json` file (one thread, one mode).

usage: plot.py RESULTS.json OUT.png [--mode ctr] [--threads 1]
One panel per cipher family (the 128-bit-key variants); a line per implementation and kernel (kcipher's kernels, OpenSSL,
Crypto++). Needs matplotlib (pip install matplotlib); only the docs need it, not the build.
"""
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    src, out = sys.argv[1], sys.argv[2]
    mode, threads = arg("--mode", "ctr"), int(arg("--threads", "1"))
    shown = {"aria-128", "camellia-128", "aes-128", "lea-128", "hight", "cham-64-128", "cham-128-128"}
    recs = [r for r in json.load(open(src))
            if r["mode"] == mode and r["threads"] == threads and r["cipher"] in shown]
    families = ["aria", "lea", "hight", "cham"]
    lines = defaultdict(lambda: defaultdict(list))
    for r in recs:
        fam = r["cipher"].split("-")[0]
        if fam not in families:
            fam = "aria"  # OpenSSL's Camellia and AES are drawn beside ARIA
        label = "%s %s (%s)" % (r["cipher"], r["kernel"] if r["implementation"] == "kcipher" else "",
                                r["implementation"])
        lines[fam][label.replace("  ", " ")].append((r["bytes"], r["bytes_per_second"] / 1e9))
    fig, axes = plt.subplots(2, 2, figsize=(13, 9))
    for ax, fam in zip(axes.flat, families):
        for label, pts in sorted(lines[fam].items()):
            pts.sort()
            style = "-" if "(kcipher)" in label else "--"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", markersize=3, label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title("%s, %s, %d thread(s)" % (fam.upper(), mode.upper(), threads))
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("GB/s")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6)
    cpu = recs[0]["cpu"] if recs else ""
    fig.suptitle("kcipher bench: throughput against message size (%s)" % cpu)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
