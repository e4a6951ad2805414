"""kcipher.Cipher: a keyed cipher in ECB, CBC, CTR, CFB, CFB8 and OFB over bytes, numpy and GPU arrays."""
import operator
from typing import Any, Optional, overload

from . import _kcipher
from ._typing import ArrayT, Buffer, BytesLike, Data, OutT, StreamLike
from ._keyed import Keyed
from ._arrays import (ARRAY, describe, describe_out, empty_like, is_ndarray, is_torch, kind, record_stream,
                      stream_handle)

_U64_MAX = (1 << 64) - 1


def _offset(offset: Any) -> int:
    o = operator.index(offset)
    if not 0 <= o <= _U64_MAX:
        raise ValueError(f"offset must be between 0 and 2**64 - 1 (a block index), got {o}")
    return o


def _padded(padding: Optional[str], out: Any) -> bool:
    """Whether a call pads: padding=None (none) or "pkcs7"; a padded result has its own size."""
    if padding is None:
        return False
    if padding != "pkcs7":
        raise ValueError(f'padding must be None or "pkcs7", got {padding!r}')
    if out is not None:
        raise TypeError("out= cannot be used with padding (the output's size differs from the input's)")
    return True


class Cipher(_kcipher.Context, Keyed):
    """A keyed cipher: ``Cipher("aria-256", key)``.

    name: one of :func:`kcipher.ciphers` ("aria-128", "lea-256", "hight", "cham-64-128", ...);
    a mode suffix ("aria-256-ctr") is accepted and ignored, except "-xts": XTS takes a key of
    twice the length, and :class:`kcipher.XTS` is its class.

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
        if isinstance(name, str) and name.endswith("-xts"):
            raise ValueError(f"{name}: XTS has its own class, kcipher.XTS({name[:-4]!r}, key) (a key of twice the "
                             "cipher's length)")
        super().__init__(name, key, kernel, threads, gpu_device)

    def _describe(self) -> str:
        return f"{self.name} "

    # The overloads say what comes back: a bytearray for a bytearray, an array of the same type
    # for an array (numpy, torch, CuPy, ...), bytes for any other buffer, out= when given.

    # ---- ECB ----
    @overload
    def ecb_encrypt(self, data: bytearray, *, padding: str) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def ecb_encrypt(self, data: Buffer, *, padding: str) -> bytes: ...
    @overload
    def ecb_encrypt(self, data: bytearray, *, out: None = None, stream: StreamLike = None,
                    padding: None = None) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def ecb_encrypt(self, data: ArrayT, *, out: None = None, stream: StreamLike = None,
                    padding: None = None) -> ArrayT: ...
    @overload
    def ecb_encrypt(self, data: Buffer, *, out: None = None, stream: StreamLike = None,
                    padding: None = None) -> bytes: ...
    @overload
    def ecb_encrypt(self, data: Data, *, out: OutT, stream: StreamLike = None, padding: None = None) -> OutT: ...

    def ecb_encrypt(self, data: Data, *, out: Optional[Data] = None, stream: StreamLike = None,
                    padding: Optional[str] = None) -> Any:
        """ECB encryption of whole blocks; with ``padding="pkcs7"``, of any length, padded as
        ``openssl enc`` pads (host memory; returns bytes, or a bytearray for a bytearray)."""
        if _padded(padding, out):
            return self._padded(False, False, data, None)
        return self._ecb_any(False, data, out, stream)

    @overload
    def ecb_decrypt(self, data: bytearray, *, padding: str) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def ecb_decrypt(self, data: Buffer, *, padding: str) -> bytes: ...
    @overload
    def ecb_decrypt(self, data: bytearray, *, out: None = None, stream: StreamLike = None,
                    padding: None = None) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def ecb_decrypt(self, data: ArrayT, *, out: None = None, stream: StreamLike = None,
                    padding: None = None) -> ArrayT: ...
    @overload
    def ecb_decrypt(self, data: Buffer, *, out: None = None, stream: StreamLike = None,
                    padding: None = None) -> bytes: ...
    @overload
    def ecb_decrypt(self, data: Data, *, out: OutT, stream: StreamLike = None, padding: None = None) -> OutT: ...

    def ecb_decrypt(self, data: Data, *, out: Optional[Data] = None, stream: StreamLike = None,
                    padding: Optional[str] = None) -> Any:
        """ECB decryption of whole blocks; ``padding="pkcs7"`` checks and strips the padding (a bad
        pad raises :class:`kcipher.PaddingError` and returns nothing)."""
        if _padded(padding, out):
            return self._padded(True, False, data, None)
        return self._ecb_any(True, data, out, stream)

    # ---- CBC (host memory: CBC encryption is a chain) ----
    @overload
    def cbc_encrypt(self, data: bytearray, iv: BytesLike, *, padding: str) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def cbc_encrypt(self, data: Buffer, iv: BytesLike, *, padding: str) -> bytes: ...
    @overload
    def cbc_encrypt(self, data: bytearray, iv: BytesLike, *, out: None = None,
                    padding: None = None) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def cbc_encrypt(self, data: ArrayT, iv: BytesLike, *, out: None = None, padding: None = None) -> ArrayT: ...
    @overload
    def cbc_encrypt(self, data: Buffer, iv: BytesLike, *, out: None = None, padding: None = None) -> bytes: ...
    @overload
    def cbc_encrypt(self, data: Data, iv: BytesLike, *, out: OutT, padding: None = None) -> OutT: ...

    def cbc_encrypt(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None, padding: Optional[str] = None) -> Any:
        """CBC encryption of whole blocks. The iv is not modified; to go on with the same chain,
        pass the last ciphertext block as the next iv. ``padding="pkcs7"``: any length, padded as
        ``openssl enc`` pads (host memory; returns bytes, or a bytearray for a bytearray)."""
        if _padded(padding, out):
            return self._padded(False, True, data, iv)
        return self._cbc_any(False, data, iv, out)

    @overload
    def cbc_decrypt(self, data: bytearray, iv: BytesLike, *, padding: str) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def cbc_decrypt(self, data: Buffer, iv: BytesLike, *, padding: str) -> bytes: ...
    @overload
    def cbc_decrypt(self, data: bytearray, iv: BytesLike, *, out: None = None,
                    padding: None = None) -> bytearray: ...  # type: ignore[overload-overlap]
    @overload
    def cbc_decrypt(self, data: ArrayT, iv: BytesLike, *, out: None = None, padding: None = None) -> ArrayT: ...
    @overload
    def cbc_decrypt(self, data: Buffer, iv: BytesLike, *, out: None = None, padding: None = None) -> bytes: ...
    @overload
    def cbc_decrypt(self, data: Data, iv: BytesLike, *, out: OutT, padding: None = None) -> OutT: ...

    def cbc_decrypt(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None, padding: Optional[str] = None) -> Any:
        """CBC decryption; the next iv of a chain is the last block of this ciphertext.
        ``padding="pkcs7"`` checks and strips the padding (a bad pad raises
        :class:`kcipher.PaddingError` and returns nothing; padding proves nothing about who wrote
        the data: use kcipher.AEAD where that matters)."""
        if _padded(padding, out):
            return self._padded(True, True, data, iv)
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

    # ---- CFB, CFB8, OFB (host memory; OpenSSL's -cfb, -cfb8, -ofb bytes; any length) ----
    def cfb_encrypt(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None) -> Any:
        """CFB encryption with full-block segments (a chain: one thread)."""
        return self._feedback_any("cfb_encrypt", data, iv, out)

    def cfb_decrypt(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None) -> Any:
        """CFB decryption with full-block segments (parallel, as fast as ECB)."""
        return self._feedback_any("cfb_decrypt", data, iv, out)

    def cfb8_encrypt(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None) -> Any:
        """CFB with 8-bit segments: one block encryption per byte."""
        return self._feedback_any("cfb8_encrypt", data, iv, out)

    def cfb8_decrypt(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None) -> Any:
        """CFB8 decryption."""
        return self._feedback_any("cfb8_decrypt", data, iv, out)

    def ofb(self, data: Data, iv: BytesLike, *, out: Optional[Data] = None) -> Any:
        """OFB, encryption and decryption alike (a chain: one thread)."""
        return self._feedback_any("ofb", data, iv, out)

    # ---- dispatch ----
    def _feedback_any(self, op: str, data: Any, iv: Any, out: Any) -> Any:
        if kind(type(data)) != ARRAY and (out is None or kind(type(out)) != ARRAY):
            if out is None and is_ndarray(data):
                out = empty_like(data)
            try:
                return self._feedback(op, data, iv, out)
            except TypeError:
                if not (is_ndarray(data) or is_ndarray(out)):
                    raise
        return self._array_call(op, data, out, None, iv)

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
        if src.gpu and op.startswith(("cbc", "cfb", "ofb")):
            raise TypeError(f"{op} takes host memory only (the library runs CBC, CFB and OFB on the CPU): copy "
                            "the array to the host, or use ctr()")
        out, dst = describe_out(data, src, out)
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
        elif op.startswith(("cfb", "ofb")):
            self._feedback_ptr(op, iv, src.ptr, dst.ptr, n)
        else:
            self._ecb_ptr(op == "ecb_decrypt", src.ptr, dst.ptr, n)
        return out
