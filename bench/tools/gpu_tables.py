#!/usr/bin/env python3
"""Markdown tables and a plot from `kcipher-lab --gpu` JSON (docs/performance.md, GPU part).

usage: gpu_tables.py BENCH.json SWEEP.json [OUT.png]
  e.g. gpu_tables.py bench/results/gpu-h100-kernels.json bench/results/gpu-h100-sweep.json \
           docs/img/gpu-sweep-h100.png
Prints: every kernel's keystream / CTR / ECB rates; the host-memory rows beside the PCIe
rates of the same run; the best and worst launch shapes of the sweep. With OUT.png, draws
the keystream rate of each kernel against threads per block x blocks per SM (needs matplotlib).
"""
import json
import sys
from collections import defaultdict


def main():
    bench = json.load(open(sys.argv[1]))
    sweep = json.load(open(sys.argv[2]))
    gpu = bench[0]["gpu"]
    k0 = next(r for r in bench if r["what"] == "keystream")
    print(f"Device rates on {gpu}, Gbps, median of {k0['runs']} runs of {k0['bytes'] >> 20} MiB:\n")
    rows = defaultdict(dict)
    for r in bench:
        if r["what"] in ("keystream", "ctr", "ecb-enc", "ecb-dec"):
            rows[(r["kernel"], r["cipher"])][r["what"]] = r["gbps"]
    print("| kernel | cipher | keystream | CTR in place | ECB enc | ECB dec |")
    print("|---|---|--:|--:|--:|--:|")
    for (k, c), v in rows.items():
        print(f"| {k} | {c} | {v.get('keystream', 0):.0f} | {v.get('ctr', 0):.0f} | {v.get('ecb-enc', 0):.0f} |"
              f" {v.get('ecb-dec', 0):.0f} |")
    pcie = {r["what"]: r["gbps"] for r in bench if r["what"].startswith("pcie")}
    print(f"\nHost memory to host memory (same run; PCIe: H2D {pcie['pcie-h2d'] / 8:.1f} GB/s, D2H "
          f"{pcie['pcie-d2h'] / 8:.1f} GB/s, both at once {pcie['pcie-both'] / 8:.1f} GB/s each way):\n")
    print("| kernel | cipher | mode | GB/s | of concurrent PCIe |")
    print("|---|---|---|--:|--:|")
    for r in bench:
        if r["what"].startswith("host"):
            print(f"| {r['kernel']} | {r['cipher']} | {r['what'][5:].upper()} | {r['gbps'] / 8:.1f} |"
                  f" {r['gbps'] / pcie['pcie-both']:.0%} |")
    sm = sweep[0]["sms"] if sweep else 1
    by = defaultdict(list)
    for r in sweep:
        if r["what"] == "keystream" and r["threads_per_block"]:
            by[(r["kernel"], r["cipher"])].append(r)
    print("\nLaunch-shape sweep (keystream, 256 MiB, median of 5): best and worst shape per kernel:\n")
    print("| kernel | cipher | best (threads x blocks/SM) | Gbps | worst | Gbps | default shape Gbps |")
    print("|---|---|---|--:|---|--:|--:|")
    for (k, c), rs in by.items():
        best = max(rs, key=lambda r: r["gbps"])
        worst = min(rs, key=lambda r: r["gbps"])
        dflt = [r for r in sweep if r["kernel"] == k and r["cipher"] == c and not r["threads_per_block"]
                and r["what"] == "keystream"]
        d = f"{dflt[0]['gbps']:.0f}" if dflt else "-"
        print(f"| {k} | {c} | {best['threads_per_block']} x {best['blocks'] // sm} | {best['gbps']:.0f} |"
              f" {worst['threads_per_block']} x {worst['blocks'] // sm} | {worst['gbps']:.0f} | {d} |")
    if len(sys.argv) > 3:
        plot_sweep(by, sm, gpu, sys.argv[3])


def plot_sweep(by, sm, gpu, out):
    """One panel per kernel: keystream Gbps against CUDA blocks per SM, a line per threads per
    block. One legend for the figure, beside the panels (off the data); plain tick labels."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    n = len(by)
    cols = 4
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(16, 3.3 * rows), squeeze=False)
    handles = {}
    for ax, ((k, c), rs) in zip(axes.flat, by.items()):
        lines = defaultdict(list)
        for r in sorted(rs, key=lambda r: r["blocks"]):
            lines[r["threads_per_block"]].append((r["blocks"] // sm, r["gbps"]))
        xs = sorted({x for pts in lines.values() for x, _ in pts})
        for th, pts in sorted(lines.items()):
            h, = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3)
            handles.setdefault(th, h)
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(FixedLocator(xs))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: "%d" % round(v)))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: "%d" % round(v)))
        ax.set_ylim(bottom=0)
        ax.set_title(f"{k} ({c})", fontsize=9)
        ax.set_xlabel("CUDA blocks per SM")
        ax.set_ylabel("keystream Gbps")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.legend([handles[t] for t in sorted(handles)], [f"{t} threads per block" for t in sorted(handles)],
               loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    fig.suptitle(f"Keystream rate against launch shape, {gpu}")
    fig.tight_layout()
    fig.savefig(out, dpi=90, bbox_inches="tight")

if __name__ == "__main__":
    main()
