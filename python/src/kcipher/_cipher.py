"""kcipher.Cipher: a keyed cipher in ECB, CBC and CTR over bytes, numpy and GPU arrays."""
import operator
from typing import Any, Optional, overload

from . import _kcipher
from ._typing import ArrayT, Buffer, BytesLike, Data, OutT, StreamLike
from ._keyed import Keyed
from ._arrays import ARRAY, describe, empty_like, is_ndarray, is_torch, kind, record_stream, stream_handle

_U64_MAX = (1 << 64) - 1


def _offset(offset: Any) -> int:
    o = operator.index(offset)
    if not 0 <= o <= _U64_MAX:
        raise ValueError(f"offset must be between 0 and 2**64 - 1 (a block index), got {o}")
    return o


class Cipher(_kcipher.Context, Keyed):
    """A keyed cipher: ``Cipher("aria-256", key)``.

    name: one of :func:`kcipher.ciphers` ("aria-128", "lea-256", "hight", "cham-64-128", ...);
    a mode suffix ("aria-256-ctr") is accepted and ignored.

    kernel: None (the default) lets the library choose the fastest CPU kernel for host memory
    and, on the first GPU array, the fastest GPU kernel (for that, a copy of the key is kept in
    the extension's memory and wiped on close); "cpu" is the same without GPU arrays (and
    without the key copy); "gpu" the fastest GPU kernel for everything (host memory then goes
    through the GPU too, CBC excepted); any name of :func:`kcipher.kernels` forces that kernel.

    threads: CPU threads for large host inputs (0 = one per core, the default; 1 = the calling
    thread). gpu_device: with a GPU kernel, the GPU for host memory (-1 = all).

    Every method takes bytes, bytearray, memoryview, any C-contiguous buffer-protocol array
    (numpy, any dtype and shape: its bytes are processed) or a GPU array (PyTorch, CuPy, anything
    with ``__cuda_array_interface__`` or DLPack), and returns the same kind: bytes for bytes,
    memoryview and other buffers, bytearray for bytearray, a new array of the same type, shape and
    dtype for arrays. ``out=`` writes into a buffer or array of the same byte size instead (it may
    be the input itself: in place) and returns it. GPU arrays are processed on their GPU, queued
    on their stream (or ``stream=``), without a copy to the host.

    The round keys are wiped by :meth:`close`, at the end of a ``with`` block, or when the object
    is collected.
    """

    def __init__(self, name: str, key: BytesLike, kernel: Optional[str] = None, *, threads: Optional[int] = None,
                 gpu_device: Optional[int] = None) -> None:
        super().__init__(name, key, kernel, threads, gpu_device)

    def _describe(self) -> str:
        return f"{self.name} "

    # The overloads say what comes back: a bytearray for a bytearray, an array of the same type
    # for an array (numpy, torch, CuPy, ...), bytes for any other buffer, out= when given.

    # ---- ECB ----
    @overload
    def ecb_encrypt(self, data: bytearray, *, out: None = None, stream: StreamLike = None) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def ecb_encrypt(self, data: ArrayT, *, out: None = None, stream: StreamLike = None) -> ArrayT: ...
    @overload
    def ecb_encrypt(self, data: Buffer, *, out: None = None, stream: StreamLike = None) -> bytes: ...
    @overload
    def ecb_encrypt(self, data: Data, *, out: OutT, stream: StreamLike = None) -> OutT: ...

    def ecb_encrypt(self, data: Data, *, out: Optional[Data] = None, stream: StreamLike = None) -> Any:
        """ECB encryption of whole blocks (no padding)."""
        return self._ecb_any(False, data, out, stream)

    @overload
    def ecb_decrypt(self, data: bytearray, *, out: None = None, stream: StreamLike = None) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def ecb_decrypt(self, data: ArrayT, *, out: None = None, stream: StreamLike = None) -> ArrayT: ...
    @overload
    def ecb_decrypt(self, data: Buffer, *, out: None = None, stream: StreamLike = None) -> bytes: ...
    @overload
    def ecb_decrypt(self, data: Data, *, out: OutT, stream: StreamLike = None) -> OutT: ...

    def ecb_decrypt(self, data: Data, *, out: Optional[Data] = None, stream: StreamLike = None) -> Any:
        """ECB decryption of whole blocks."""
        return self._ecb_any(True, data, out, stream)

    # ---- CBC (host memory: CBC encryption is a chain) ----
    @overload
    def cbc_encrypt(self, data: bytearray, iv: BytesLike, *, out: None = None) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def cbc_encrypt(self, data: ArrayT, iv: BytesLike, *, out: None = None) -> ArrayT: ...
    @overload
    def cbc_encrypt(self, data: Buffer, iv: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def cbc_encrypt(self, data: Data, iv: BytesLike, *, out: OutT) -> OutT: ...

    def cbc_encrypt(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None) -> Any:
        """CBC encryption of whole blocks (no padding). The iv is not modified; to go on with the
        same chain, pass the last ciphertext block as the next iv."""
        return self._cbc_any(False, data, iv, out)

    @overload
    def cbc_decrypt(self, data: bytearray, iv: BytesLike, *, out: None = None) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def cbc_decrypt(self, data: ArrayT, iv: BytesLike, *, out: None = None) -> ArrayT: ...
    @overload
    def cbc_decrypt(self, data: Buffer, iv: BytesLike, *, out: None = None) -> bytes: ...
    @overload
    def cbc_decrypt(self, data: Data, iv: BytesLike, *, out: OutT) -> OutT: ...

    def cbc_decrypt(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None) -> Any:
        """CBC decryption; the next iv of a chain is the last block of this ciphertext."""
        return self._cbc_any(True, data, iv, out)

    # ---- CTR ----
    @overload
    def ctr(self, data: bytearray, iv: BytesLike, offset: int = 0, *,  # type: ignore[overload-overlap]
            out: None = None, stream: StreamLike = None) -> bytearray: ...
    @overload
    def ctr(self, data: ArrayT, iv: BytesLike, offset: int = 0, *, out: None = None,
            stream: StreamLike = None) -> ArrayT: ...
    @overload
    def ctr(self, data: Buffer, iv: BytesLike, offset: int = 0, *, out: None = None,
            stream: StreamLike = None) -> bytes: ...
    @overload
    def ctr(self, data: Data, iv: BytesLike, offset: int = 0, *, out: OutT, stream: StreamLike = None) -> OutT: ...

    def ctr(self, data: Data, iv: BytesLike, offset: int = 0, *, out: Optional[Data] = None,
            stream: StreamLike = None) -> Any:
        """XORs data with the CTR keystream (encryption and decryption alike): the whole iv block
        is a big-endian counter (OpenSSL's CTR), and the data starts at block ``offset`` of the
        stream, so any slice of a stream can be processed on its own. Any length."""
        if offset:
            offset = _offset(offset)
        if kind(type(data)) != ARRAY and (out is None or kind(type(out)) != ARRAY):
            if out is None and is_ndarray(data):
                out = empty_like(data)
            try:
                return self._ctr(data, iv, offset, out)
            except TypeError:
                if not (is_ndarray(data) or is_ndarray(out)):
                    raise
        return self._array_call("ctr", data, out, stream, iv, offset)

    # ---- dispatch ----
    def _ecb_any(self, decrypt: bool, data: Any, out: Any, stream: Any) -> Any:
        if kind(type(data)) != ARRAY and (out is None or kind(type(out)) != ARRAY):
            if out is None and is_ndarray(data):
                out = empty_like(data)
            try:
                return self._ecb(decrypt, data, out)
            except TypeError:  # e.g. a numpy dtype the buffer protocol cannot describe
                if not (is_ndarray(data) or is_ndarray(out)):
                    raise
        return self._array_call("ecb_decrypt" if decrypt else "ecb_encrypt", data, out, stream)

    def _cbc_any(self, decrypt: bool, data: Any, iv: Any, out: Any) -> Any:
        if kind(type(data)) != ARRAY and (out is None or kind(type(out)) != ARRAY):
            if out is None and is_ndarray(data):
                out = empty_like(data)
            try:
                return self._cbc(decrypt, data, iv, out)
            except TypeError:
                if not (is_ndarray(data) or is_ndarray(out)):
                    raise
        return self._array_call("cbc_decrypt" if decrypt else "cbc_encrypt", data, out, None, iv)

    def _array_call(self, op: str, data: Any, out: Any, stream: Any, iv: Any = None, offset: int = 0) -> Any:
        s = stream_handle(stream)
        src = describe(data, "data", s)
        if src.gpu and op.startswith("cbc"):
            raise TypeError(f"{op} takes host memory only (CBC encryption is a chain; the library runs CBC on "
                            "the CPU): copy the array to the host, or use ctr()")
        if out is None:
            out = empty_like(data)
        dst = describe(out, "out", src.stream if src.gpu else None)
        if dst.gpu != src.gpu:
            raise TypeError("data and out must both be in host memory or both on the GPU")
        if dst.readonly:
            raise TypeError("out is read-only")
        if dst.nbytes != src.nbytes:
            raise ValueError(f"out has {dst.nbytes} bytes, data {src.nbytes}: they must be the same size")
        n = src.nbytes
        if src.gpu:
            st = src.stream or 0
            if op == "ctr":
                self._gpu_ctr(iv, offset, src.ptr, dst.ptr, n, st)
            else:
                self._gpu_ecb(op == "ecb_decrypt", src.ptr, dst.ptr, n, st)
            # Torch tensors used on a stream other than torch's current one (stream=, or a torch
            # out= for another library's array) are recorded there: see record_stream.
            if n and (s is not None or not is_torch(data)):
                record_stream(data, st, stream)
                if out is not data:
                    record_stream(out, st, stream)
        elif op == "ctr":
            self._ctr_ptr(iv, offset, src.ptr, dst.ptr, n)
        elif op.startswith("cbc"):
            self._cbc_ptr(op == "cbc_decrypt", iv, src.ptr, dst.ptr, n)
        else:
            self._ecb_ptr(op == "ecb_decrypt", src.ptr, dst.ptr, n)
        return out
