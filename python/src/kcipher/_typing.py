"""The types of the public API's arguments, for annotations (kcipher ships py.typed).

``Buffer`` is the buffer protocol (PEP 688: bytes, bytearray, memoryview, numpy arrays,
array.array, ...); type checkers take it from typing_extensions, which they always know.
GPU and other arrays are described by the protocols they speak: ``__cuda_array_interface__``
(CuPy, Numba, PyTorch), DLPack (PyTorch, CuPy, JAX, ...) and ``__array_interface__``.
"""
import sys
from typing import TYPE_CHECKING, Any, Dict, Optional, Protocol, Tuple, TypedDict, TypeVar, Union

if TYPE_CHECKING:
    from typing_extensions import Buffer
elif sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    Buffer = Any  # at run time annotations are documentation only


class CudaArray(Protocol):
    """An array with ``__cuda_array_interface__`` (CuPy, Numba, PyTorch)."""

    @property
    def __cuda_array_interface__(self) -> Dict[str, Any]: ...


class DLPackArray(Protocol):
    """An array that exports DLPack (PyTorch, CuPy, JAX, numpy, ...)."""

    def __dlpack__(self, *, stream: Any = ...) -> Any: ...

    def __dlpack_device__(self) -> Tuple[Any, int]: ...


class HostArray(Protocol):
    """An array with ``__array_interface__`` (numpy and friends)."""

    @property
    def __array_interface__(self) -> Dict[str, Any]: ...


class TorchStream(Protocol):
    """A ``torch.cuda.Stream`` (its ``cuda_stream`` handle)."""

    @property
    def cuda_stream(self) -> int: ...


class CupyStream(Protocol):
    """A ``cupy.cuda.Stream`` (its ``ptr`` handle)."""

    @property
    def ptr(self) -> int: ...


#: Key, IV, nonce, personalization or additional input: any bytes-like object.
BytesLike = Buffer
#: An array that is not a plain buffer: the result of a call is a new array of its own type.
Array = Union[CudaArray, DLPackArray, HostArray]
#: What the cipher methods take: bytes-like objects and arrays, in host memory or on a GPU.
Data = Union[Buffer, CudaArray, DLPackArray, HostArray]
#: A CUDA stream: a ``cudaStream_t`` as an int (0: the legacy default stream), a torch or a CuPy
#: stream; None: the array's own stream.
StreamLike = Union[None, int, TorchStream, CupyStream]

ArrayT = TypeVar("ArrayT", bound=Array)
OutT = TypeVar("OutT", bound=Data)


class ProgressInfo(TypedDict):
    """What :func:`kcipher.keysearch` passes to its ``progress`` callback."""

    done: int              # candidates of the range finished, earlier runs included
    total: int             # candidates in the range
    tested: int            # candidates tested by this call
    found: int             # keys found so far
    keys_per_second: float
    elapsed_seconds: float
    eta_seconds: Optional[float]  # None while unknown


__all__ = ["Buffer", "BytesLike", "CudaArray", "DLPackArray", "HostArray", "TorchStream", "CupyStream", "Array",
           "Data", "StreamLike", "ArrayT", "OutT", "ProgressInfo"]
