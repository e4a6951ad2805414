"""kcipher.XTS: the disk-encryption mode (IEEE 1619) over bytes, numpy and GPU arrays."""
from typing import Any, Optional

from . import _kcipher
from ._typing import BytesLike, Data, StreamLike
from ._keyed import Keyed
from ._arrays import (ARRAY, describe, describe_out, empty_like, is_ndarray, is_torch, kind, record_stream,
                      stream_handle)


class XTS(_kcipher.Context, Keyed):
    """XTS over a 128-bit-block cipher: ``XTS("lea-128", key)`` with a key of twice the cipher's
    length, data key first, then tweak key (the two halves must differ).

    ``encrypt(data, tweak, data_unit=0)``: tweak is 16 bytes; with data_unit=0 the whole input
    is one data unit, otherwise the input is cut into units of data_unit bytes and unit i takes
    tweak + i (a 128-bit little-endian integer: dm-crypt's plain64 sector numbers). A unit that is
    not whole blocks (at least one block) uses ciphertext stealing. Inputs and results are as for
    :class:`kcipher.Cipher`: bytes, buffers, numpy arrays and GPU arrays (processed on their
    GPU), ``out=`` for a destination of the same size (possibly the input: in place).

    kernel, threads and gpu_device as for :class:`kcipher.Cipher`.
    """

    def __init__(self, name: str, key: BytesLike, kernel: Optional[str] = None, *, threads: Optional[int] = None,
                 gpu_device: Optional[int] = None) -> None:
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, got {type(name).__name__}")
        super().__init__(name if name.endswith("-xts") else name + "-xts", key, kernel, threads, gpu_device)

    def _describe(self) -> str:
        return f"{self.name}-xts "

    def encrypt(self, data: Data, tweak: BytesLike, data_unit: int = 0, *, out: Optional[Data] = None,
                stream: StreamLike = None) -> Any:
        """XTS encryption of data (at least one block per data unit)."""
        return self._xts_any(False, data, tweak, data_unit, out, stream)

    def decrypt(self, data: Data, tweak: BytesLike, data_unit: int = 0, *, out: Optional[Data] = None,
                stream: StreamLike = None) -> Any:
        """XTS decryption: the inverse of :meth:`encrypt` with the same tweak and data_unit."""
        return self._xts_any(True, data, tweak, data_unit, out, stream)

    def _xts_any(self, decrypt: bool, data: Any, tweak: Any, data_unit: int, out: Any, stream: Any) -> Any:
        if data_unit < 0:
            raise ValueError(f"data_unit must be 0 (one unit) or a unit size in bytes, got {data_unit}")
        if kind(type(data)) != ARRAY and (out is None or kind(type(out)) != ARRAY):
            if out is None and is_ndarray(data):
                out = empty_like(data)
            try:
                return self._xts(decrypt, data, tweak, data_unit, out)
            except TypeError:
                if not (is_ndarray(data) or is_ndarray(out)):
                    raise
        return self._array_call(decrypt, data, tweak, data_unit, out, stream)

    def _array_call(self, decrypt: bool, data: Any, tweak: Any, data_unit: int, out: Any, stream: Any) -> Any:
        s = stream_handle(stream)
        src = describe(data, "data", s)
        out, dst = describe_out(data, src, out)
        n = src.nbytes
        if src.gpu:
            st = src.stream or 0
            self._gpu_xts(decrypt, tweak, data_unit, src.ptr, dst.ptr, n, st)
            if n and (s is not None or not is_torch(data)):
                record_stream(data, st, stream)
                if out is not data:
                    record_stream(out, st, stream)
        else:
            self._xts_ptr(decrypt, tweak, data_unit, src.ptr, dst.ptr, n)
        return out
