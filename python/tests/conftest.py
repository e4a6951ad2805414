"""Readers for the C tests' vector files (tests/vectors/), shared by the Python tests."""
import os
import pathlib
import re

import pytest

VECTORS = pathlib.Path(os.environ.get("KCIPHER_VECTORS", pathlib.Path(__file__).resolve().parents[2] / "tests" / "vectors"))


def vector_path(name):
    p = VECTORS / name
    if not p.exists():
        pytest.skip(f"{p} not found (set KCIPHER_VECTORS to the repository's tests/vectors)")
    return p


def unhex(s):
    return bytes.fromhex(re.sub(r"[^0-9a-fA-F]", "", re.sub(r"0[xX]", "", s)))


def load_kv_lines(name):
    """`cipher=ARIA-128, mode=ECB, key=.., pt=.., ct=..` lines."""
    out = []
    for line in vector_path(name).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rec = {}
        for item in line.split(","):
            if "=" in item:
                k, v = item.split("=", 1)
                rec[k.strip().lower()] = v.strip()
        if rec:
            out.append(rec)
    return out


def load_cryptopp(name):
    """Crypto++ TestVectors: `Key: ..` lines (with `\\` continuations), a record per `Test:`."""
    out, cur, pending = [], {}, None
    for raw in vector_path(name).read_text().splitlines():
        line = raw.rstrip("\r")
        if pending:
            more = line.endswith("\\")
            cur[pending] += " " + line.rstrip("\\").strip()
            if not more:
                pending = None
            continue
        if not line or line.startswith("#") or ":" not in line:
            continue
        k, v = line.split(":", 1)
        k, v = k.strip().lower(), v.strip()
        if v.endswith("\\"):
            v, pending = v[:-1], k
        cur[k] = v
        if k == "test":
            out.append(dict(cur))
    return out


def load_openssl_evp(name):
    out, cur = [], {}
    for line in vector_path(name).read_text().splitlines() + [""]:
        if not line.strip():
            if cur:
                out.append(cur)
            cur = {}
            continue
        if line.startswith("#") or "=" not in line:
            continue
        k, v = line.split("=", 1)
        cur[k.strip().lower()] = v.strip()
    return out


def load_drbg_rsp(name):
    """CAVP-style response file: `[..]` section lines, `COUNT = n` starts a case."""
    cases, section, params, cur = [], None, {}, None
    for line in vector_path(name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            body = line[1:-1]
            if " = " in body:
                k, v = body.split(" = ", 1)
                params[k.strip()] = v.strip()
            else:
                section, params, cur = body, {}, None  # a section without COUNT lines adds to no case
            continue
        k, _, v = line.partition("=")
        k, v = k.strip(), v.strip()
        if k == "COUNT":
            cur = {"section": section, "params": dict(params), "COUNT": v}
            cases.append(cur)
        elif cur is not None:
            cur.setdefault(k, v)  # the first value, as the C reader's bytes(key) takes
    return cases


def optional_module(name):
    try:
        return __import__(name)
    except Exception:
        return None


def seed_of(*parts):
    """A deterministic seed from a test's parameters (hash() of a str changes every run)."""
    import zlib

    return zlib.crc32(repr(parts).encode())


def gpu_array_modules():
    """(torch or None, cupy or None): the GPU array libraries usable here. torch only with CUDA."""
    torch = optional_module("torch")
    if torch is not None:
        try:
            if not torch.cuda.is_available():
                torch = None
        except Exception:
            torch = None
    cupy = optional_module("cupy")
    if cupy is not None:
        try:
            if cupy.cuda.runtime.getDeviceCount() == 0:
                cupy = None
        except Exception:
            cupy = None
    return torch, cupy


def a_gpu_array(nbytes=64):
    """A zero-filled uint8 array on the GPU (PyTorch, else CuPy), or None without either."""
    torch, cupy = gpu_array_modules()
    if torch is not None:
        return torch.zeros(nbytes, dtype=torch.uint8, device="cuda")
    if cupy is not None:
        return cupy.zeros(nbytes, dtype=cupy.uint8)
    return None


def to_host_bytes(a):
    """The bytes of a torch tensor or CuPy array (on the GPU or not), synchronising."""
    top = type(a).__module__.partition(".")[0]
    if top == "torch":
        import torch

        return a.detach().contiguous().view(-1).view(torch.uint8).cpu().numpy().tobytes()
    if top == "cupy":
        import cupy

        return cupy.asnumpy(a).tobytes()
    return bytes(memoryview(a).cast("B"))
