#!/usr/bin/env python3
"""kcipher's x86 ARIA kernels against libgcrypt 1.12.2, per instruction-set tier: the two
programs alternated on one pinned core, the same run, ratios reported as ranges.

    python3 bench/tools/aria_vs_libgcrypt.py --kcipher build/tools/kcipher/kcipher \\
        [--bench-slope ../shared/tools/libgcrypt-1.12.2-bench-slope] [--core 3] [--rounds 3] \\
        [--repetitions 16] [--json FILE] [--markdown FILE]

A tier is a kcipher kernel and the libgcrypt configuration with the same instructions:
`aria/avx512-gfni` against libgcrypt's default (AVX-512 + GFNI), `aria/avx2-gfni` against
`--disable-hwf intel-avx512`, `aria/avx2-vaes` against `--disable-hwf intel-avx512
--disable-hwf intel-gfni`. Tiers whose kernel this CPU cannot run are left out (on a CPU
without AVX-512 and GFNI, such as Zen 3, the one left is avx2-vaes, and libgcrypt's default
is then its own best: the issue's "against libgcrypt's default on a Zen 3").

Each round runs, per tier, bench-slope once (ECB and CTR, both directions: its slope, the
per-byte cost of long messages) and then `kcipher bench` for ARIA-128 ECB and CTR, encrypt
and decrypt, at 16 KiB and at 1 KiB (the issue's 1 KiB check: kcipher's 1 KiB rate against
its own 16 KiB rate). bench-slope prints MiB/s (2^20); it is converted to MB/s (10^6) here.
"""
import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile

TIERS = [  # (kcipher kernel, bench-slope flags, what the CPU must have)
    ("aria/avx512-gfni", [], {"avx512bw", "gfni"}),
    ("aria/avx2-gfni", ["--disable-hwf", "intel-avx512"], {"avx2", "gfni"}),
    ("aria/avx2-vaes", ["--disable-hwf", "intel-avx512", "--disable-hwf", "intel-gfni"], {"avx2", "vaes"}),
]
ROWS = [("ecb", "enc"), ("ecb", "dec"), ("ctr", "enc"), ("ctr", "dec")]


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def bench_slope(exe, core, flags, repetitions):
    """{(mode, op): MB/s} from one bench-slope run over aria128 (every mode it has: about 90 s at
    its default 64 repetitions, so fewer are asked for)."""
    cmd = ["taskset", "-c", str(core), exe, "--cpu-mhz", "auto", "--repetitions", str(repetitions)] + flags + [
        "cipher", "aria128"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rates = {}
    for line in out.splitlines():
        m = re.match(r"\s*(ECB|CTR) (enc|dec)\s*\|\s*[\d.]+ ns/B\s+([\d.]+) MiB/s", line)
        if m:
            rates[(m.group(1).lower(), m.group(2))] = float(m.group(3)) * (1 << 20) / 1e6
    return rates


def kcipher_rates(exe, core, kernel):
    """{(mode, op, size): MB/s} from kcipher bench (one thread, median of its own rounds)."""
    rates = {}
    for op in ("enc", "dec"):
        with tempfile.NamedTemporaryFile(suffix=".json") as j:
            cmd = ["taskset", "-c", str(core), exe, "bench", "-c", "aria-128-ecb", "-c", "aria-128-ctr", "-s", "16384",
                   "-s", "1024", "-t", "1", "--kernel", kernel, "--no-openssl", "--no-cryptopp", "--rounds", "5",
                   "--json", j.name] + (["--decrypt"] if op == "dec" else [])
            subprocess.run(cmd, check=True, capture_output=True)
            for r in json.load(open(j.name)):
                rates[(r["mode"], op, r["bytes"])] = r["bytes_per_second"] / 1e6
    # CTR is its own inverse: kcipher bench times the same call for --decrypt
    return rates


def span(xs, fmt="{:.2f}"):
    lo, hi = fmt.format(min(xs)), fmt.format(max(xs))
    return lo if lo == hi else f"{lo}-{hi}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kcipher", required=True)
    ap.add_argument("--bench-slope", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "tools",
                                                          "libgcrypt-1.12.2-bench-slope"))
    ap.add_argument("--core", type=int, default=min(3, os.cpu_count() - 1))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repetitions", type=int, default=16, help="bench-slope's --repetitions (its default: 64)")
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    have = cpu_flags()
    tiers = [t for t in TIERS if t[2] <= have]
    if not tiers:
        print("no x86 ARIA kernel of a compared tier runs on this CPU", file=sys.stderr)
        return 1
    best = tiers[0][0]
    samples = {}  # (kernel, mode, op) -> {"gcrypt": [...], "kcipher16k": [...], "kcipher1k": [...]}
    for r in range(a.rounds):
        for kernel, flags, _ in tiers:
            # On a CPU without AVX-512 the best tier's libgcrypt is its default (no flags needed).
            g = bench_slope(a.bench_slope, a.core, flags if kernel != best else [], a.repetitions)
            k = kcipher_rates(a.kcipher, a.core, kernel)
            for mode, op in ROWS:
                s = samples.setdefault((kernel, mode, op), {"gcrypt": [], "kcipher16k": [], "kcipher1k": []})
                s["gcrypt"].append(g[(mode, op)])
                s["kcipher16k"].append(k[(mode, op, 16384)])
                s["kcipher1k"].append(k[(mode, op, 1024)])
    rows = []
    for (kernel, mode, op), s in samples.items():
        ratios = [k / g for k, g in zip(s["kcipher16k"], s["gcrypt"])]
        small = [k1 / k16 for k1, k16 in zip(s["kcipher1k"], s["kcipher16k"])]
        rows.append({"kernel": kernel, "mode": mode, "op": op, "gcrypt_mb_s": s["gcrypt"],
                     "kcipher_16k_mb_s": s["kcipher16k"], "kcipher_1k_mb_s": s["kcipher1k"],
                     "ratio": ratios, "ratio_median": statistics.median(ratios), "small_to_16k": small})
    head = (f"ARIA-128, one core (taskset -c {a.core}), {a.rounds} rounds alternated; {platform.node()}, "
            f"{platform.processor() or platform.machine()}")
    lines = [head, "", "| kernel | mode | libgcrypt MB/s | kcipher 16 KiB MB/s | kcipher / libgcrypt | 1 KiB / 16 KiB |",
             "|---|---|--:|--:|--:|--:|"]
    for r in rows:
        lines.append(f"| `{r['kernel']}` | {r['mode'].upper()} {r['op']} | {span(r['gcrypt_mb_s'], '{:.0f}')} | "
                     f"{span(r['kcipher_16k_mb_s'], '{:.0f}')} | {span(r['ratio'])} | {span(r['small_to_16k'])} |")
    print("\n".join(lines))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"host": platform.node(), "core": a.core, "rounds": a.rounds, "cpu_flags": sorted(have & {
                "avx2", "avx512bw", "gfni", "vaes", "aes"}), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
