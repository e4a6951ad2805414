"""What the library has and what this machine runs: kcipher.ciphers(), kernels(), info(),
selftest(); the same facts as ``kcipher info`` and ``kcipher selftest``."""
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from . import _kcipher


class CipherInfo(NamedTuple):
    name: str                          # "aria-128"
    family: str                        # "aria"
    block_bytes: int
    key_bytes: int
    default_kernel: Optional[str]      # what Cipher(name, key) uses for host memory
    default_gpu_kernel: Optional[str]  # what it uses for GPU arrays (None: no GPU here)


class KernelInfo(NamedTuple):
    name: str            # "aria/avx512-gfni"
    family: str
    block_bytes: int
    batch_blocks: int    # blocks computed together at full speed
    constant_time: bool  # no secret-dependent branch or memory address
    available: bool      # this machine can run it
    requires: str        # CPU features or "cuda-gpu", space separated ("" for none)


class GpuInfo(NamedTuple):
    index: int  # type: ignore[assignment]  # the CUDA device number (shadows tuple.index)
    name: str
    sm_major: int
    sm_minor: int
    multiprocessors: int
    memory_bytes: int
    clock_khz: int


def ciphers() -> List[CipherInfo]:
    return [CipherInfo(*c) for c in _kcipher.ciphers()]


def cipher_info(name: str) -> CipherInfo:
    for c in _kcipher.ciphers():
        if c[0] == name:
            return CipherInfo(*c)
    from ._errors import UnknownCipherError

    raise UnknownCipherError(f"{_kcipher.strerror(2)}: '{name}' (a bare name such as 'aria-128')", 2)


def kernels(cipher: Optional[str] = None, available: Optional[bool] = None) -> List[KernelInfo]:
    """Every kernel, or those of one cipher's family, or only those this machine runs."""
    family = cipher_info(cipher).family if cipher is not None else None
    out = [KernelInfo(*k) for k in _kcipher.kernels()]
    return [k for k in out if (family is None or k.family == family) and (available is None or k.available == available)]


def info() -> Dict[str, Any]:
    """Version, CPU features, GPUs, ciphers and kernels (``kcipher info`` as a dict)."""
    return {
        "version": _kcipher.version(),
        "cpu_features": _kcipher.cpu_features().split(),
        "gpu_runtime": _kcipher.gpu_runtime(),
        "gpus": [GpuInfo(*g)._asdict() for g in _kcipher.gpus()],
        "ciphers": [c._asdict() for c in ciphers()],
        "kernels": [k._asdict() for k in kernels()],
    }


def format_info() -> str:
    """The text of ``kcipher info``."""
    i = info()
    lines = [f"kcipher {i['version']} (Python {__import__('sys').version.split()[0]})", "",
             f"CPU features: {' '.join(i['cpu_features'])}", f"GPUs: {i['gpu_runtime']}"]
    for g in i["gpus"]:
        lines.append(f"  [{g['index']}] {g['name']} (sm_{g['sm_major']}{g['sm_minor']}, {g['multiprocessors']} SMs, "
                     f"{g['memory_bytes'] / 1073741824:.1f} GiB, {g['clock_khz'] / 1e6:.2f} GHz)")
    lines += ["", "Ciphers (block, key bytes; default kernel; GPU kernel):"]
    for c in i["ciphers"]:
        lines.append(f"  {c['name']:<14} {c['block_bytes']:>2} {c['key_bytes']:>2}  {c['default_kernel']}"
                     + (f"; {c['default_gpu_kernel']}" if c["default_gpu_kernel"] else ""))
    lines += ["  modes: ecb_encrypt/ecb_decrypt, cbc_encrypt/cbc_decrypt, ctr", "", "Kernels:",
              f"  {'name':<24} {'family':<6} {'block':>5} {'batch':>5}  {'constant-time':<13} {'available':<9} requires"]
    for k in i["kernels"]:
        lines.append(f"  {k['name']:<24} {k['family']:<6} {k['block_bytes']:>5} {k['batch_blocks']:>5}  "
                     f"{'yes' if k['constant_time'] else 'no':<13} {'yes' if k['available'] else 'no':<9} "
                     f"{k['requires'] or '-'}")
    return "\n".join(lines)


class SelftestResult(NamedTuple):
    ok: bool
    passed: int
    failed: int
    checks: List[Tuple[str, str, bool]]  # (kernel, check, passed)


def selftest() -> SelftestResult:
    """The library's built-in known-answer tests on every kernel this machine runs, and every
    kernel against its reference (``kcipher selftest``)."""
    status, checks = _kcipher.selftest()
    passed = sum(1 for c in checks if c[2])
    failed = len(checks) - passed
    return SelftestResult(status == 0 and failed == 0 and passed > 0, passed, failed, list(checks))
