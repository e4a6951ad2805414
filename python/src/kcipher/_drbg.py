"""kcipher.DRBG: the SP 800-90A rev. 1 CTR_DRBG (TTAK.KO-12.0189) over any of the ciphers."""
from typing import Any, Callable, Literal, Optional, Union, overload

from . import _kcipher
from ._arrays import ARRAY, describe, kind
from ._keyed import Keyed
from ._typing import BytesLike, OutT

#: ``source(min_len, max_len) -> bytes``: entropy input of min_len to max_len bytes.
EntropySource = Callable[[int, int], BytesLike]


class DRBG(_kcipher.Drbg, Keyed):
    """A CTR_DRBG: ``DRBG("lea-128")`` is instantiated from the OS (getrandom) and ready.

    df: with the derivation function (the default) or without it. kernel: None (the CPU's
    fastest), "gpu" (large outputs computed on the GPU; the state stays on the CPU) or a kernel
    name. entropy_source: None (getrandom), False (none: the caller seeds and reseeds, and a
    reseed that comes due is an error) or a callable ``source(min_len, max_len) -> bytes``.
    instantiate: False leaves it uninstantiated (call :meth:`instantiate` with your own
    entropy, e.g. to replay known-answer vectors). personalization is used when this
    constructor instantiates.

    One object may be shared between threads (calls are serialised inside). The state is
    wiped by :meth:`close`, at the end of a ``with`` block, or when the object is collected.
    """

    def __init__(self, cipher: str, *, df: bool = True, kernel: Optional[str] = None,
                 entropy_source: Union[None, bool, EntropySource] = None, reseed_interval: Optional[int] = None,
                 threads: Optional[int] = None, gpu_device: Optional[int] = None, instantiate: bool = True,
                 personalization: Optional[BytesLike] = None) -> None:
        super().__init__(cipher, df, kernel, entropy_source, reseed_interval, threads, gpu_device)
        if instantiate and entropy_source is not False:
            self._instantiate(None, None, personalization)

    def instantiate(self, entropy: Optional[BytesLike] = None, nonce: Optional[BytesLike] = None,
                    personalization: Optional[BytesLike] = None) -> None:
        """(Re)instantiates: entropy None takes it (and, with df, a nonce) from the source."""
        self._instantiate(entropy, nonce, personalization)

    def reseed(self, entropy: Optional[BytesLike] = None, additional: Optional[BytesLike] = None) -> None:
        """Reseeds: entropy None takes it from the source."""
        self._reseed(entropy, additional)

    @overload
    def generate(self, n: int, additional: Optional[BytesLike] = None, prediction_resistance: bool = False, *,
                 out: None = None, device: Optional[Literal["cpu"]] = None) -> bytes: ...
    @overload
    def generate(self, n: int, additional: Optional[BytesLike] = None, prediction_resistance: bool = False, *,
                 out: None = None, device: Literal["gpu", "cupy", "torch"]) -> Any: ...
    @overload
    def generate(self, n: int, additional: Optional[BytesLike] = None, prediction_resistance: bool = False, *,
                 out: OutT, device: None = None) -> OutT: ...

    def generate(self, n: int, additional: Optional[BytesLike] = None, prediction_resistance: bool = False, *,
                 out: Any = None, device: Optional[str] = None) -> Any:
        """n random bytes.

        Up to :attr:`max_request` bytes (64 KiB for 128-bit blocks, 1 KiB for HIGHT and CHAM-64)
        this is one SP 800-90A request. Longer outputs (without additional input) are served as
        consecutive maximum-size requests, computed in parallel (on the GPU with kernel="gpu"),
        the same bytes as asking request by request.

        out: a writable buffer or a GPU array to fill (n is then its size; pass n=-1 or its size).
        device: None/"cpu" returns bytes; "cupy", "torch" or "gpu" (CuPy if installed, else
        PyTorch) returns a uint8 GPU array. With a GPU kernel and neither additional input nor
        prediction resistance, GPU arrays are filled on the GPU, on the array's stream, with no
        copy through the host; otherwise the bytes are made in host memory and copied over.
        """
        on_gpu = additional is None and not prediction_resistance and "cuda" in self.kernel
        if out is not None and kind(type(out)) == ARRAY:
            m = describe(out, "out", None)
            if m.gpu and on_gpu:
                if m.readonly:
                    raise ValueError("out is read-only")
                if m.nbytes:
                    self._generate_device(m.ptr, m.nbytes, m.stream or 0)
                return out
            data = self.generate(m.nbytes, additional, prediction_resistance)
            return _copy_into(out, data, m.gpu)
        if out is None and device not in (None, "cpu"):
            if on_gpu and n >= 0:
                return self.generate(n, out=_empty_on_device(n, device))
            return _to_device(self.generate(n, additional, prediction_resistance), device)
        if out is None and n < 0:
            raise ValueError(f"n must be at least 0, got {n}")
        size = n if out is None else memoryview(out).nbytes
        large = additional is None and size > self.max_request
        return self._generate(size, additional, prediction_resistance, large, out)


def _empty_on_device(n: int, device: str) -> Any:
    if device in ("cupy", "gpu"):
        try:
            import cupy  # type: ignore[import-not-found, unused-ignore]

            return cupy.empty(n, dtype=cupy.uint8)
        except ImportError:
            if device == "cupy":
                raise
    if device in ("torch", "gpu"):
        import torch  # type: ignore[import-not-found, unused-ignore]

        return torch.empty(n, dtype=torch.uint8, device="cuda")
    raise ValueError(f"device must be None, 'cpu', 'gpu', 'cupy' or 'torch', not {device!r}")


def _to_device(data: bytes, device: str) -> Any:
    if device in ("cupy", "gpu"):
        try:
            import cupy  # type: ignore[import-not-found, unused-ignore]
            import numpy

            return cupy.asarray(numpy.frombuffer(data, dtype=numpy.uint8))
        except ImportError:
            if device == "cupy":
                raise
    if device in ("torch", "gpu"):
        import torch  # type: ignore[import-not-found, unused-ignore]

        return torch.frombuffer(bytearray(data), dtype=torch.uint8).to("cuda")
    raise ValueError(f"device must be None, 'cpu', 'gpu', 'cupy' or 'torch', not {device!r}")


def _copy_into(out: Any, data: bytes, gpu: bool) -> Any:
    import numpy

    src = numpy.frombuffer(data, dtype=numpy.uint8)
    top = type(out).__module__.partition(".")[0]
    if top == "torch":
        import torch  # type: ignore[import-not-found, unused-ignore]

        out.view(-1).view(torch.uint8).copy_(torch.from_numpy(src.copy()))
    elif top == "cupy":
        out.reshape(-1).view(numpy.uint8).set(src)
    else:
        raise TypeError(f"out: cannot fill a '{type(out).__name__}'; pass a buffer, a CuPy array or a torch tensor")
    return out
