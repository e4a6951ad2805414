"""Python-call overhead and large-buffer throughput of kcipher.Cipher, beside `kcipher bench`.

    python python/bench/overhead.py [--cli build/tools/kcipher/kcipher] [--cipher aria-128]
    python python/bench/overhead.py --gpu [--cipher aria-128] [--kernel NAME] [--json FILE]

CPU (the default). Small buffers (16 B, 1 KiB): the time of one call from Python (best of
several rounds of many calls), and how much of it is the call itself (a 0-byte call costs only
the binding). Large buffers (64 MiB): GB/s of ctr() and ecb_encrypt(), all cores, next to the
CLI's `kcipher bench` MB/s for the same cipher and size when --cli is given.

GPU (--gpu): PyTorch uint8 tensors on the GPU, 64 B to 256 MiB. For each size:
  host us    the median time a call takes in Python (it returns once the work is queued):
             ctr(t, iv, out=o), ctr(t, iv) (a new result tensor), ecb_encrypt(t, out=o), and the
             extension's own entry point with raw pointers (no array handling: the binding alone);
  loop us    the time per call of back-to-back calls, CUDA events around the batch: the host's
             per-call cost where that is the bottleneck (small sizes), the GPU's time otherwise;
  GB/s       size / loop time: the rate the Python call reaches (10^9 bytes/s).
"""
import argparse
import json
import os
import statistics
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


GPU_SIZES = [64 << (2 * i) for i in range(12)]  # 64 B, 256 B, 1 KiB, ..., 256 MiB


def fmt_size(n):
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def host_us(fn, calls):
    """Median wall time of one call, in microseconds (calls timed one by one)."""
    pc = time.perf_counter_ns
    ts = []
    for _ in range(calls):
        t = pc()
        fn()
        ts.append(pc() - t)
    return statistics.median(ts) / 1000


def loop_us(torch, fn, calls, rounds=3):
    """Per-call time of `calls` back-to-back calls, CUDA events around them (best round)."""
    best = float("inf")
    for _ in range(rounds):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) * 1000 / calls)
    return best


def gpu_main(a):
    import torch

    if not torch.cuda.is_available() or kcipher.gpu_count() == 0:
        raise SystemExit("--gpu: no GPU usable by PyTorch and kcipher here")
    info = next(c for c in kcipher.ciphers() if c.name == a.cipher)
    key = os.urandom(info.key_bytes)
    iv = os.urandom(info.block_bytes)
    c = kcipher.Cipher(a.cipher, key, a.kernel)
    dev = torch.cuda.get_device_name()
    print(f"kcipher {kcipher.__version__}, {a.cipher}, GPU kernel {c.gpu_kernel}, {dev}, torch {torch.__version__}")
    print(f"\n{'size':>8} | {'host us: ctr(out=)':>18} {'ctr()':>7} {'ecb(out=)':>9} {'binding':>8} | "
          f"{'loop us: ctr':>12} {'ecb':>9} | {'GB/s: ctr':>9} {'ecb':>8}")
    rows = []
    stream = torch.cuda.current_stream().cuda_stream
    for size in GPU_SIZES:
        bs = info.block_bytes
        x = torch.randint(0, 256, (size,), dtype=torch.uint8, device="cuda")
        o = torch.empty_like(x)
        n_ecb = size - size % bs
        xe, oe = x[:n_ecb], o[:n_ecb]
        calls = max(5, min(1000, (1 << 30) // size))
        f_ctr = lambda: c.ctr(x, iv, out=o)  # noqa: E731
        f_new = lambda: c.ctr(x, iv)  # noqa: E731
        f_ecb = lambda: c.ecb_encrypt(xe, out=oe)  # noqa: E731
        f_raw = lambda: c._gpu_ctr(iv, 0, x.data_ptr(), o.data_ptr(), size, stream)  # noqa: E731
        for f in (f_ctr, f_new, f_ecb, f_raw):  # warm-up: contexts, kernels, the allocator
            f()
        torch.cuda.synchronize()
        m = min(calls, 200)
        row = {"bytes": size, "calls": calls,
               "host_us_ctr_out": host_us(f_ctr, m), "host_us_ctr_new": host_us(f_new, m),
               "host_us_ecb_out": host_us(f_ecb, m), "host_us_binding": host_us(f_raw, m)}
        torch.cuda.synchronize()
        row["loop_us_ctr"] = loop_us(torch, f_ctr, calls)
        row["loop_us_ecb"] = loop_us(torch, f_ecb, calls)
        row["gbs_ctr"] = size / row["loop_us_ctr"] / 1e3
        row["gbs_ecb"] = n_ecb / row["loop_us_ecb"] / 1e3
        rows.append(row)
        print(f"{fmt_size(size):>8} | {row['host_us_ctr_out']:>18.2f} {row['host_us_ctr_new']:>7.2f} "
              f"{row['host_us_ecb_out']:>9.2f} {row['host_us_binding']:>8.2f} | {row['loop_us_ctr']:>12.2f} "
              f"{row['loop_us_ecb']:>9.2f} | {row['gbs_ctr']:>9.2f} {row['gbs_ecb']:>8.2f}")
        del x, o, xe, oe
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"cipher": a.cipher, "gpu_kernel": c.gpu_kernel, "device": dev, "torch": torch.__version__,
                       "kcipher": kcipher.__version__, "rows": rows}, f, indent=1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cipher", default="aria-128")
    p.add_argument("--cli", help="the kcipher CLI, for its bench numbers")
    p.add_argument("--gpu", action="store_true", help="PyTorch tensors on the GPU instead (64 B to 256 MiB)")
    p.add_argument("--kernel", help="--gpu: the Cipher's kernel= (default None: the fastest GPU kernel)")
    p.add_argument("--json", help="--gpu: also write the rows to this file")
    a = p.parse_args()
    if a.gpu:
        return gpu_main(a)
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
