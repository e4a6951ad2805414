"""Where an argument's bytes are: found without copying.

Host buffers (bytes, bytearray, memoryview, numpy arrays, array.array: the buffer protocol) go
straight to the extension. Other arrays are asked where their memory is: PyTorch tensors
(``data_ptr``, on ``torch.cuda.current_stream``), anything with ``__cuda_array_interface__``
(CuPy, Numba: its ``stream`` entry), anything with DLPack (``__dlpack_device__`` and
``__dlpack__(stream=...)``), and host arrays with ``__array_interface__``.
"""
import sys
from typing import Any, Dict, NamedTuple, Optional, Sequence, Tuple

from . import _kcipher

BUFFER = 0  # the buffer protocol: handled in C++
ARRAY = 1   # asked through describe()

_kinds: Dict[type, int] = {bytes: BUFFER, bytearray: BUFFER, memoryview: BUFFER}

# DLPack device types
_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13


def kind(t: type) -> int:
    k = _kinds.get(t)
    if k is None:
        k = _kinds[t] = _classify(t)
    return k


_torch_types: Dict[type, bool] = {}


def _is_torch_type(t: type) -> bool:
    r = _torch_types.get(t)
    if r is None:
        r = _torch_types[t] = t.__module__.partition(".")[0] == "torch" and hasattr(t, "data_ptr")
    return r


_raw_stream: Any = None


def _torch_current_stream(device_index: int) -> int:
    """torch's current cudaStream_t on a GPU, as an int. torch._C._cuda_getCurrentRawStream
    gives it without making a torch.cuda.Stream object (a few microseconds a call)."""
    global _raw_stream
    if _raw_stream is None:
        import torch  # type: ignore[import-not-found, unused-ignore]

        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _raw_stream = raw if raw is not None else (lambda i: torch.cuda.current_stream(i).cuda_stream)
    return int(_raw_stream(device_index))


def is_torch(x: Any) -> bool:
    return _is_torch_type(type(x))


def is_ndarray(x: Any) -> bool:
    np = sys.modules.get("numpy")
    return np is not None and isinstance(x, np.ndarray)


def _classify(t: type) -> int:
    np = sys.modules.get("numpy")
    if np is not None and issubclass(t, np.ndarray):
        return BUFFER
    if _is_torch_type(t):
        return ARRAY
    for attr in ("__cuda_array_interface__", "__dlpack__", "__array_interface__"):
        if hasattr(t, attr):
            return ARRAY
    return BUFFER


class Memory(NamedTuple):
    ptr: int
    nbytes: int
    gpu: bool
    stream: Optional[int]  # GPU: the stream the work is to be queued on
    readonly: bool
    keep: Any  # what must stay alive while the work is queued (a DLPack capsule)


def stream_handle(stream: Any) -> Optional[int]:
    """A cudaStream_t as an int from an int, a torch.cuda.Stream or a cupy.cuda.Stream."""
    if stream is None or isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr", "handle"):
        h = getattr(stream, attr, None)
        if isinstance(h, int):
            return h
    raise TypeError(f"stream must be an int (a cudaStream_t) or a torch/cupy stream, not {type(stream).__name__}")


def record_stream(x: Any, handle: int, given: Any) -> None:
    """Tells PyTorch's caching allocator that tensor x is in use on the stream ``handle`` (the
    one the work was queued on) when that is not the current stream: without it, a tensor freed
    right after the call (a temporary input, or a result the caller drops) could be handed to
    other work on its allocation stream while the queued work still reads or writes it. On the
    current stream the work is ordered like any torch op, and nothing is needed. ``given``: the
    caller's ``stream=`` object (a torch stream is recorded as is)."""
    if not _is_torch_type(type(x)) or not x.is_cuda:
        return
    import torch  # type: ignore[import-not-found, unused-ignore]

    dev = x.device
    if handle == _torch_current_stream(x.get_device()):
        return
    if isinstance(given, torch.cuda.Stream):
        s = given
    elif handle in (0, 1):  # NULL and cudaStreamLegacy: the legacy default stream, torch's default
        s = torch.cuda.default_stream(dev)
    else:
        s = torch.cuda.ExternalStream(handle, device=dev)
    x.record_stream(s)


def _c_contiguous(shape: Sequence[int], strides: Optional[Sequence[int]], itemsize: int) -> bool:
    if strides is None:
        return True
    expect = itemsize
    for dim, st in zip(reversed(shape), reversed(strides)):
        if dim != 1 and st != expect:
            return False
        expect *= dim
    return True


def _typestr_itemsize(typestr: str) -> int:
    digits = ""  # "<f8" -> 8, "<M8[ns]" -> 8
    for ch in typestr[2:]:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits)


def _prod(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


_NOT_CONTIGUOUS = "{} is not C-contiguous: pass a contiguous array (x.contiguous(), cupy.ascontiguousarray(x), x.copy())"


def describe(x: Any, what: str, stream: Optional[int]) -> Memory:
    """Where x's bytes are. stream: the caller's choice (None: the array's own stream)."""
    t = type(x)
    if _is_torch_type(t):
        if not x.is_contiguous():
            raise ValueError(_NOT_CONTIGUOUS.format(what))
        nbytes = x.numel() * x.element_size()
        if x.is_cuda:
            if stream is None:
                stream = _torch_current_stream(x.get_device())
            return Memory(x.data_ptr(), nbytes, True, stream, False, None)
        if x.device.type == "cpu":
            return Memory(x.data_ptr(), nbytes, False, None, False, None)
        raise TypeError(f"{what}: a torch tensor on '{x.device}' (CPU and CUDA tensors are supported)")

    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        if cai.get("mask") is not None:
            raise TypeError(f"{what}: masked CUDA arrays are not supported")
        ptr, readonly = cai["data"]
        shape = tuple(cai["shape"])
        item = _typestr_itemsize(cai["typestr"])
        if not _c_contiguous(shape, cai.get("strides"), item):
            raise ValueError(_NOT_CONTIGUOUS.format(what))
        if stream is None:
            stream = cai.get("stream")  # None: "no synchronisation needed"; the default stream serves
        return Memory(ptr or 0, _prod(shape) * item, True, stream if stream is not None else 0, bool(readonly), None)

    ai = getattr(x, "__array_interface__", None)
    if ai is not None:
        ptr, readonly = ai["data"]
        shape = tuple(ai["shape"])
        item = _typestr_itemsize(ai["typestr"])
        if not _c_contiguous(shape, ai.get("strides"), item):
            raise ValueError(_NOT_CONTIGUOUS.format(what))
        return Memory(ptr or 0, _prod(shape) * item, False, None, bool(readonly), None)

    dl_device = getattr(x, "__dlpack_device__", None)
    if dl_device is not None:
        dev_type, _ = dl_device()
        if dev_type in (_DL_CUDA, _DL_CUDA_MANAGED):
            s = 1 if stream is None else stream  # DLPack's default: the legacy default stream
            try:
                cap = x.__dlpack__(stream=s)
            except TypeError:  # a producer older than the stream argument
                cap = x.__dlpack__()
            ptr, nbytes, _, _, contiguous, readonly = _kcipher.dlpack_view(cap)
            if not contiguous:
                raise ValueError(_NOT_CONTIGUOUS.format(what))
            return Memory(ptr, nbytes, True, s, readonly, cap)
        if dev_type in (_DL_CPU, _DL_CUDA_HOST):
            cap = x.__dlpack__()
            ptr, nbytes, _, _, contiguous, readonly = _kcipher.dlpack_view(cap)
            if not contiguous:
                raise ValueError(_NOT_CONTIGUOUS.format(what))
            return Memory(ptr, nbytes, False, None, readonly, cap)
        raise TypeError(f"{what}: DLPack device type {dev_type} is not supported (CPU and CUDA are)")

    try:  # a plain buffer (bytearray, memoryview, ...) beside an array: host memory
        mv = memoryview(x)
    except TypeError:
        mv = None
    if mv is not None:
        return _buffer_memory(mv, what)

    raise TypeError(f"{what} must be a bytes-like object or an array (numpy, CuPy, PyTorch, DLPack), "
                    f"not '{t.__name__}'")


def _buffer_memory(mv: memoryview, what: str) -> Memory:
    if not mv.c_contiguous:
        raise ValueError(_NOT_CONTIGUOUS.format(what))
    n = mv.nbytes
    if n == 0:
        return Memory(0, 0, False, None, mv.readonly, mv)
    if not mv.readonly:
        import ctypes

        view = (ctypes.c_char * n).from_buffer(mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv)
        return Memory(ctypes.addressof(view), n, False, None, False, view)  # view holds the export
    import numpy

    a = numpy.frombuffer(mv, dtype=numpy.uint8)
    return Memory(a.__array_interface__["data"][0], n, False, None, True, a)


def empty_like(x: Any) -> Any:
    """A new, C-contiguous array of x's type, shape, dtype and device, for a result."""
    t = type(x)
    if _is_torch_type(t):
        import torch  # type: ignore[import-not-found, unused-ignore]

        return torch.empty_like(x, memory_format=torch.contiguous_format)
    top = t.__module__.partition(".")[0]
    if top == "cupy":
        import cupy  # type: ignore[import-not-found, unused-ignore]

        return cupy.empty_like(x, order="C")
    if top == "numba":
        from numba import cuda  # type: ignore[import-not-found, unused-ignore]

        return cuda.device_array(x.shape, x.dtype)
    ns = getattr(x, "__array_namespace__", None)
    if ns is not None:
        return ns().empty_like(x)
    if is_ndarray(x) or hasattr(x, "__array_interface__"):
        import numpy

        return numpy.empty_like(x, order="C")
    raise TypeError(f"cannot make a result like a '{t.__name__}': pass out=")


def describe_out(data: Any, src: Memory, out: Any) -> Tuple[Any, Memory]:
    """The destination of an array call: out (or a new array like data) and its Memory, checked
    to be writable, of the same size and in the same place (host or GPU) as the source."""
    if out is None:
        out = empty_like(data)
    dst = describe(out, "out", src.stream if src.gpu else None)
    if dst.gpu != src.gpu:
        raise TypeError("data and out must both be in host memory or both on the GPU")
    if dst.readonly:
        raise TypeError("out is read-only")
    if dst.nbytes != src.nbytes:
        raise ValueError(f"out has {dst.nbytes} bytes, data {src.nbytes}: they must be the same size")
    return out, dst
