#!/usr/bin/env python3
"""Markdown tables and a plot from `kcipher bench --gpu` JSON (docs/performance.md, GPU part).

usage: gpu_tables.py BENCH.json SWEEP.json [OUT.png]
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
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        n = len(by)
        cols = 4
        fig, axes = plt.subplots((n + cols - 1) // cols, cols, figsize=(16, 3.2 * ((n + cols - 1) // cols)),
                                 squeeze=False)
        for ax, ((k, c), rs) in zip(axes.flat, by.items()):
            lines = defaultdict(list)
            for r in sorted(rs, key=lambda r: r["blocks"]):
                lines[r["threads_per_block"]].append((r["blocks"] // sm, r["gbps"]))
            for th, pts in sorted(lines.items()):
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"{th} thr")
            ax.set_xscale("log", base=2)
            ax.set_title(f"{k} {c}", fontsize=9)
            ax.set_xlabel("CUDA blocks per SM")
            ax.set_ylabel("Gbps")
            ax.grid(alpha=0.3)
        for ax in list(axes.flat)[n:]:
            ax.axis("off")
        axes.flat[0].legend(fontsize=7)
        fig.suptitle(f"Keystream rate against launch shape, {gpu}")
        fig.tight_layout()
        fig.savefig(sys.argv[3], dpi=80)


if __name__ == "__main__":
    main()
