"""Python-call overhead and large-buffer throughput of kcipher.Cipher, beside `kcipher bench`.

    python python/bench/overhead.py [--cli build/tools/kcipher/kcipher] [--cipher aria-128]

Small buffers (16 B, 1 KiB): the time of one call from Python (best of several rounds of many
calls), and how much of it is the call itself (a 0-byte call costs only the binding).
Large buffers (64 MiB): GB/s of ctr() and ecb_encrypt(), all cores, next to the CLI's
`kcipher bench` MB/s for the same cipher and size when --cli is given.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

import numpy as np

import kcipher


def per_call_ns(fn, calls=20000, rounds=7):
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter_ns()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter_ns() - t) / calls)
    return best


def throughput_gbs(fn, nbytes, rounds=5):
    fn()
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return nbytes / best / 1e9


def cli_mbs(cli, cipher, size, threads):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "b.json")
        subprocess.run([cli, "bench", "-c", cipher, "--size", str(size), "--threads", str(threads), "--seconds",
                        "0.5", "--no-openssl", "--json", out], check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            rows = json.load(f)
    for r in rows:
        if r.get("implementation") == "kcipher" and r.get("bytes") == size:
            return r["bytes_per_second"] / 1e6
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cipher", default="aria-128")
    p.add_argument("--cli", help="the kcipher CLI, for its bench numbers")
    a = p.parse_args()
    info = next(c for c in kcipher.ciphers() if c.name == a.cipher)
    c = kcipher.Cipher(a.cipher, bytes(info.key_bytes))
    iv = bytes(info.block_bytes)
    print(f"kcipher {kcipher.__version__}, {a.cipher}, kernel {c.kernel}")
    print("\nPer call (best of 7 x 20000):")
    print(f"  {'size':>8} {'ctr(bytes)':>12} {'ctr(out=bytearray)':>20} {'ctr(numpy)':>12} {'ecb(bytes)':>12}")
    for size in (0, 16, 1024):
        data = bytes(size)
        ba = bytearray(size)
        arr = np.zeros(size, np.uint8)
        row = [per_call_ns(lambda: c.ctr(data, iv)), per_call_ns(lambda: c.ctr(ba, iv, out=ba)),
               per_call_ns(lambda: c.ctr(arr, iv)), per_call_ns(lambda: c.ecb_encrypt(data))]
        print(f"  {size:>6} B " + " ".join(f"{v:>10.0f} ns" for v in row[:1]) + f" {row[1]:>18.0f} ns"
              + f" {row[2]:>10.0f} ns {row[3]:>10.0f} ns")
    n = 64 << 20
    big = np.random.default_rng(0).integers(0, 256, n, dtype=np.uint8)
    out = np.empty_like(big)
    ctr = throughput_gbs(lambda: c.ctr(big, iv, out=out), n)
    ecb = throughput_gbs(lambda: c.ecb_encrypt(big, out=out), n)
    print(f"\n64 MiB, all cores: ctr {ctr:.2f} GB/s, ecb_encrypt {ecb:.2f} GB/s")
    if a.cli:
        for mode, py in (("ctr", ctr), ("ecb", ecb)):
            mbs = cli_mbs(a.cli, f"{a.cipher}-{mode}", n, 0)
            if mbs:
                print(f"  kcipher bench {a.cipher}-{mode} 64 MiB: {mbs / 1000:.2f} GB/s (Python/CLI {py * 1000 / mbs:.2f})")
        for size in (16, 1024):
            mbs = cli_mbs(a.cli, f"{a.cipher}-ctr", size, 1)
            if mbs:
                print(f"  kcipher bench {a.cipher}-ctr {size} B, 1 thread: {size / mbs * 1000:.0f} ns per call")


if __name__ == "__main__":
    main()
