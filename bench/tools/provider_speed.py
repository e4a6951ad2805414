#!/usr/bin/env python3
"""kcipher.so (the OpenSSL provider) against OpenSSL's own providers, the way OpenSSL users
measure: `openssl speed -evp` on one pinned core, and a TLS 1.2 bulk transfer over loopback
with s_server and s_client pinned to one core each. The provider preferred by -propquery
alternates round by round; ratios are reported as ranges.

    python3 bench/tools/provider_speed.py --modules build/ossl-modules [--cores 2,3] [--rounds 3] \\
        [--seconds 3] [--tls-mib 1024] [--json FILE] [--markdown FILE]

Rows: ARIA-128-GCM, ARIA-128-CTR and ARIA-128-CBC decryption at 16 KiB, kcipher.so against the
default provider; LEA-128-GCM (kcipher.so only: OpenSSL has no LEA) beside AES-128-GCM (the
default provider, AES-NI); and TLS: ECDHE-ARIA128-GCM-SHA256 moving --tls-mib MiB, the rate
measured by the client's wall time, both sides preferring the same provider. `openssl speed`
re-initialises with the same key before every GCM message (the provider keeps the schedule).
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time

SPEED = [  # (row, algorithm, provider preferred, decrypt)
    ("ARIA-128-GCM", "ARIA-128-GCM", ("kcipher", "default"), False),
    ("ARIA-128-CTR", "ARIA-128-CTR", ("kcipher", "default"), False),
    ("ARIA-128-CBC decrypt", "ARIA-128-CBC", ("kcipher", "default"), True),
    ("LEA-128-GCM", "LEA-128-GCM", ("kcipher",), False),
    ("AES-128-GCM", "AES-128-GCM", ("default",), False),
]


def provider_args(modules, prefer):
    # A preference (?), not a requirement: openssl speed also fetches OpenSSL's own DRBG.
    return ["-provider-path", modules, "-provider", "kcipher", "-provider", "default", "-propquery",
            f"?provider={prefer}"]


def speed(modules, core, alg, prefer, decrypt, seconds):
    """MB/s of `openssl speed -evp alg` at 16 KiB (machine-readable +F line: bytes/s)."""
    cmd = ["taskset", "-c", str(core), "openssl", "speed"] + provider_args(modules, prefer) + [
        "-evp", alg, "-bytes", "16384", "-seconds", str(seconds), "-mr"] + (["-decrypt"] if decrypt else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("+F:"):
            return float(line.split(":")[3]) / 1e6
    raise RuntimeError(f"no result from {' '.join(cmd)}")


def tls(modules, cores, prefer, mib, work):
    """MB/s of a TLS 1.2 ECDHE-ARIA128-GCM-SHA256 transfer of mib MiB, client wall time."""
    data = os.path.join(work, "data")
    if not os.path.exists(data):
        with open(data, "wb") as f:
            for _ in range(mib):
                f.write(os.urandom(1 << 20))
    tls.port = getattr(tls, "port", 20000 + os.getpid() % 20000) + 1
    port = tls.port
    suite = "ECDHE-ARIA128-GCM-SHA256"
    prov = ["-provider-path", modules, "-provider", "kcipher", "-provider", "default", "-propquery", f"?provider={prefer}"]
    fifo = os.path.join(work, "stdin")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    hold = os.open(fifo, os.O_RDWR)  # s_server ends at the end of its input: keep it open
    received = open(os.path.join(work, "received"), "wb")
    server = subprocess.Popen(["taskset", "-c", str(cores[0]), "openssl", "s_server"] + prov + [
        "-accept", f"127.0.0.1:{port}", "-cert", os.path.join(work, "cert.pem"), "-key", os.path.join(work, "key.pem"),
        "-tls1_2", "-cipher", suite, "-naccept", "1", "-quiet"], stdin=hold, stdout=received,
        stderr=subprocess.DEVNULL)
    for _ in range(100):  # until it listens (iproute2's ss; without it, a second's wait)
        try:
            if subprocess.run(["ss", "-Hltn", f"sport = :{port}"], capture_output=True, text=True).stdout.strip():
                break
        except FileNotFoundError:
            time.sleep(1)
            break
        time.sleep(0.1)
    start = time.monotonic()
    with open(data, "rb") as src:
        subprocess.run(["taskset", "-c", str(cores[1]), "openssl", "s_client"] + prov + [
            "-connect", f"127.0.0.1:{port}", "-tls1_2", "-cipher", suite, "-brief", "-nocommands", "-no_ign_eof"], stdin=src,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server.wait(timeout=600)
    elapsed = time.monotonic() - start
    os.close(hold)
    received.close()
    got = os.path.getsize(os.path.join(work, "received"))
    if got != mib << 20:
        raise RuntimeError(f"TLS preferring {prefer}: the server received {got} bytes of {mib << 20}")
    return (mib << 20) / elapsed / 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modules", required=True, help="the directory holding kcipher.so")
    ap.add_argument("--cores", default="2,3", help="speed runs on the first; TLS: server, client")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--tls-mib", type=int, default=1024)
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    modules = os.path.abspath(a.modules)
    cores = [int(c) for c in a.cores.split(",")]
    rates = {}
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                        os.path.join(work, "key.pem"), "-out", os.path.join(work, "cert.pem"), "-days", "2", "-subj",
                        "/CN=localhost"], check=True, capture_output=True)
        for _ in range(a.rounds):
            for row, alg, provs, decrypt in SPEED:
                for prefer in provs:
                    rates.setdefault((row, prefer), []).append(speed(modules, cores[0], alg, prefer, decrypt, a.seconds))
            if a.tls_mib > 0:
                for prefer in ("kcipher", "default"):
                    rates.setdefault(("TLS 1.2 ECDHE-ARIA128-GCM-SHA256", prefer), []).append(
                        tls(modules, cores, prefer, a.tls_mib, work))
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
    result = {"cpu": cpu, "openssl": subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip(),
              "rounds": a.rounds, "seconds": a.seconds, "tls_mib": a.tls_mib, "cores": cores,
              "rows": [{"row": r, "provider": p, "MBps": v} for (r, p), v in rates.items()]}
    lines = [f"`openssl speed -evp` at 16 KiB on one core, TLS {a.tls_mib} MiB over loopback ({cpu}, {result['openssl']},"
             f" {a.rounds} rounds alternated)", "",
             "| row | kcipher.so MB/s | OpenSSL default MB/s | kcipher.so / default |", "|---|---|---|---|"]
    rows = []
    for r, _, _, _ in SPEED + [("TLS 1.2 ECDHE-ARIA128-GCM-SHA256", None, None, None)]:
        if r in rows:
            continue
        rows.append(r)
        k, d = rates.get((r, "kcipher")), rates.get((r, "default"))
        rng = lambda v: f"{min(v):.0f}-{max(v):.0f}" if v else "-"
        ratio = f"{min(x / y for x, y in zip(k, d)):.1f}-{max(x / y for x, y in zip(k, d)):.1f}x" if k and d else "-"
        lines.append(f"| {r} | {rng(k)} | {rng(d)} | {ratio} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
