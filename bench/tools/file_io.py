#!/usr/bin/env python3
"""The CLI's file path against `cat`: the same file, each command alternated with its own
`cat`, the median of the per-pair ratios.

    python3 bench/tools/file_io.py --kcipher build/tools/kcipher/kcipher \\
        [--dir /dev/shm] [--size 4G] [--rounds 5] [--gpu] [--json FILE]

Each round runs, in this order: `kcipher enc` file to file for ARIA-128-CTR and LEA-128-CTR,
`kcipher dec` of ARIA-128-CTR, the same with `--gpu` when asked, `kcipher enc` from standard
input to standard output (`< IN > OUT`), and `openssl enc -aes-128-ctr` (when openssl is on
PATH), each right after a `cat` of the same shape (`cat IN > OUT`, or `cat < IN > OUT` for the
standard-input one), and its ratio is to that `cat`: on a shared machine whose memory speed
drifts within seconds, the pair sees the same conditions. The output is removed (untimed)
before every command, so each writes a new file. Throughput is input bytes / wall time.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

KEY = "000102030405060708090a0b0c0d0e0f"


def size_arg(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(s[:-1]) * mult[s[-1].upper()] if s[-1].upper() in mult else int(s)


def commands(kc, src, dst, gpu):
    """(name, command, the cat it is paired with)"""
    enc = [kc, "enc", "-k", KEY, "--iv", KEY]
    cat, cat_stdin = ("cat", f"cat '{src}' > '{dst}'"), ("cat < in > out", f"cat < '{src}' > '{dst}'")
    files = ["-i", f"'{src}'", "-o", f"'{dst}'"]
    yield "kcipher enc aria-128-ctr", " ".join(enc + ["-c", "aria-128-ctr"] + files), cat
    yield "kcipher enc lea-128-ctr", " ".join(enc + ["-c", "lea-128-ctr"] + files), cat
    yield "kcipher dec aria-128-ctr", " ".join([kc, "dec"] + enc[2:] + ["-c", "aria-128-ctr"] + files), cat
    if gpu:
        yield "kcipher enc --gpu aria-128-ctr", " ".join(enc + ["--gpu", "-c", "aria-128-ctr"] + files), cat
        yield "kcipher enc --gpu lea-128-ctr", " ".join(enc + ["--gpu", "-c", "lea-128-ctr"] + files), cat
    yield "kcipher enc aria-128-ctr < in > out", " ".join(enc + ["-c", "aria-128-ctr", "<", f"'{src}'", ">",
                                                                  f"'{dst}'"]), cat_stdin
    if shutil.which("openssl"):
        yield "openssl enc -aes-128-ctr", (f"openssl enc -aes-128-ctr -K {KEY} -iv {KEY} -in '{src}' "
                                           f"-out '{dst}'"), cat


def timed(cmd, dst):
    if os.path.exists(dst):
        os.remove(dst)
    t = time.perf_counter()
    subprocess.run(cmd, shell=True, check=True)
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kcipher", required=True)
    ap.add_argument("--dir", default="/dev/shm")
    ap.add_argument("--size", type=size_arg, default=size_arg("4G"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    kc = os.path.abspath(a.kcipher)
    src, dst = os.path.join(a.dir, "kcipher-file-io.in"), os.path.join(a.dir, "kcipher-file-io.out")
    with open(src, "wb") as f:
        left = a.size
        while left:
            n = min(left, 64 << 20)
            f.write(os.urandom(n))
            left -= n
    try:
        times, ratios = {}, {}
        for r in range(a.rounds):
            for name, cmd, (cat_name, cat_cmd) in commands(kc, src, dst, a.gpu):
                base = timed(cat_cmd, dst)
                t = timed(cmd, dst)
                times.setdefault(cat_name, []).append(base)
                times.setdefault(name, []).append(t)
                ratios.setdefault(cat_name, []).append(1.0)
                ratios.setdefault(name, []).append(base / t)  # throughput relative to its own cat
    finally:
        for p in (src, dst):
            if os.path.exists(p):
                os.remove(p)
    gib = a.size / (1 << 30)
    rows = []
    for name, ts in times.items():
        rs = ratios[name]
        rows.append({"command": name, "gib_per_s": [round(gib / t, 3) for t in ts],
                     "median_gib_per_s": round(gib / statistics.median(ts), 3),
                     "ratio_to_cat": [round(x, 3) for x in rs], "median_ratio_to_cat": round(statistics.median(rs), 3)})
    width = max(len(r["command"]) for r in rows)
    print(f"{a.size} bytes in {a.dir}, {a.rounds} rounds, each command after its own cat; {platform.node()}, "
          f"{os.cpu_count()} CPUs")
    print(f"{'command':{width}}  median GiB/s  median ratio to its cat  (per round)")
    for r in rows:
        per = "" if r["command"].startswith("cat") else " ".join(f"{x:.2f}" for x in r["ratio_to_cat"])
        print(f"{r['command']:{width}}  {r['median_gib_per_s']:12.2f}  {r['median_ratio_to_cat']:22.2f}  {per}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"bytes": a.size, "dir": a.dir, "rounds": a.rounds, "pairing": "each command after its own cat",
                       "cpus": os.cpu_count(), "host": platform.node(), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
