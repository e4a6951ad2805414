"""kcipher.AEAD (GCM and CCM) and the MAC functions (CMAC, GMAC), shaped like pyca/cryptography's
``AESGCM`` / ``AESCCM`` and ``CMAC``: one-shot calls over bytes, numpy and GPU arrays.

The data of an AEAD call grows or shrinks by the tag, so a result never keeps its input's shape
or dtype: bytes for bytes, memoryviews and other buffers, a bytearray for a bytearray, a 1-D
uint8 array of the input's own library (and device) for an array.
"""
import operator
from typing import Any, Callable, Optional, Tuple

from . import _kcipher
from ._arrays import ARRAY, describe, is_ndarray, is_torch, kind
from ._errors import InvalidTag, TagLengthError
from ._keyed import Keyed
from ._typing import BytesLike, Data

_MODE_CMAC, _MODE_GMAC = 6, 7  # kcipher_mode
_STATUS_TAG_LENGTH = 35

# How a result is made from the bytearray the extension returns: (host object, its maker).
_Maker = Optional[Callable[[bytearray], Any]]

_NOT_CONTIGUOUS = "{} is not C-contiguous: pass a contiguous array (x.contiguous(), cupy.ascontiguousarray(x), x.copy())"


def _numpy_result(b: bytearray) -> Any:
    import numpy

    return numpy.frombuffer(b, dtype=numpy.uint8)  # writable: a view of the bytearray


def _host(x: Any, what: str) -> Tuple[Any, _Maker]:
    """x as something the extension reads through the buffer protocol (in host memory), and how
    to turn the extension's bytearray into the result for x (None: bytes or bytearray as is)."""
    if x is None:
        raise TypeError(f"{what} must be a bytes-like object or an array, not None")
    if isinstance(x, str):
        raise TypeError(f"{what} must be bytes (or bytes-like), not str")
    if is_ndarray(x):
        if not x.flags.c_contiguous:
            raise ValueError(_NOT_CONTIGUOUS.format(what))
        # The bytes of any dtype (datetime64 and bool included) as one flat uint8 view: no copy.
        return x.reshape(-1).view("u1"), _numpy_result
    if kind(type(x)) != ARRAY:
        return x, None  # bytes, bytearray, memoryview, array.array, ...: the buffer protocol
    if is_torch(x):
        return _torch_host(x, what)
    top = type(x).__module__.partition(".")[0]
    if top == "cupy":
        return _cupy_host(x, what)
    mem = describe(x, what, None)
    if mem.gpu:
        raise TypeError(f"{what}: GPU arrays of '{type(x).__name__}' are not supported by the AEAD and MAC calls "
                        "(PyTorch and CuPy are: they go through host memory); copy it to the host first")
    import ctypes

    # A host array without the buffer protocol (DLPack, __array_interface__): its bytes in place.
    view = memoryview((ctypes.c_ubyte * mem.nbytes).from_address(mem.ptr)) if mem.nbytes else b""
    return view, _numpy_result


def _torch_host(x: Any, what: str) -> Tuple[Any, _Maker]:
    import torch  # type: ignore[import-not-found, unused-ignore]

    if not x.is_contiguous():
        raise ValueError(_NOT_CONTIGUOUS.format(what))
    flat = x.detach().reshape(-1).view(torch.uint8)
    device = x.device
    if device.type == "cpu":
        host = flat.numpy()
        return host, lambda b: torch.from_numpy(_numpy_result(b))
    if device.type != "cuda":
        raise TypeError(f"{what}: a torch tensor on '{device}' (CPU and CUDA tensors are supported)")
    # On torch's current stream of that GPU; .cpu() waits for the copy (and the work before it).
    host = flat.cpu().numpy()
    return host, lambda b: torch.from_numpy(_numpy_result(b)).to(device)


def _cupy_host(x: Any, what: str) -> Tuple[Any, _Maker]:
    import cupy  # type: ignore[import-not-found, unused-ignore]

    if not x.flags.c_contiguous:
        raise ValueError(_NOT_CONTIGUOUS.format(what))
    device = x.device
    host = cupy.asnumpy(x).reshape(-1).view("u1")  # on the current stream; waits for it

    def back(b: bytearray) -> Any:
        with device:
            return cupy.asarray(_numpy_result(b))

    return host, back


def _tag_length(tag_length: Any) -> int:
    t = operator.index(tag_length)
    if not 0 <= t <= 16:
        raise TagLengthError(f"{_kcipher.strerror(_STATUS_TAG_LENGTH)}: tag_length {t} (at most 16 bytes)",
                             _STATUS_TAG_LENGTH)
    return t


def _result(out: Any, maker: _Maker) -> Any:
    return out if maker is None else maker(out)


class AEAD(_kcipher.Aead, Keyed):
    """Authenticated encryption with associated data, one message per call:
    ``AEAD("aria-128-gcm", key)`` or ``AEAD("lea-256-ccm", key)``, shaped like
    ``cryptography.hazmat.primitives.ciphers.aead.AESGCM`` / ``AESCCM``.

    name: a 128-bit-block cipher of :func:`kcipher.ciphers` with the mode as its suffix:
    ``-gcm`` (NIST SP 800-38D) or ``-ccm`` (SP 800-38C). aria-128/192/256, lea-128/192/256,
    cham-128-128, cham-128-256 and seed-128; hight and cham-64-128 (64-bit blocks) have no
    GCM/CCM (:func:`cmac` takes them).

    kernel: None (the library's choice) or a CPU kernel name of :func:`kcipher.kernels`.

    :meth:`encrypt` returns ciphertext || tag (RFC 5116); :meth:`decrypt` takes it and returns
    the plaintext, or raises :class:`kcipher.InvalidTag` when the tag does not match: the tag is
    compared in constant time and no plaintext is ever released unverified.

    Nonces: GCM takes any length from 1 byte (12 is the standard's choice), CCM 7 to 13 bytes.
    Never encrypt two messages with one nonce under one key. tag_length: GCM 16, 15, 14, 13, 12, 8
    or 4; CCM 4, 6, ..., 16; decrypt must be given the length encrypt used.
    Limits per nonce (refused before any output, :class:`kcipher.MessageLimitError`): GCM
    2**36 - 32 bytes of data; CCM 2**(8 * (15 - nonce length)) - 1 bytes.

    data and associated_data: bytes, bytearray, memoryview, any C-contiguous buffer-protocol
    array (numpy of any dtype and shape: its bytes), or a PyTorch tensor / CuPy array. Results:
    bytes for bytes, memoryviews and other buffers; a bytearray for a bytearray; a 1-D uint8
    array of the same library and device for an array (numpy, torch, CuPy). GPU arrays are
    **routed through host memory** for now (the GPU GCM is not built yet): the call copies the
    data to the host (waiting for the array's current stream), computes on the CPU and copies
    the result back to the array's GPU, synchronously.

    The round keys are wiped by :meth:`close`, at the end of a ``with`` block, or when the object
    is collected. An AEAD may be shared between threads; the GIL is released for inputs of 4 KiB
    and more.
    """

    def __init__(self, name: str, key: BytesLike, kernel: Optional[str] = None) -> None:
        super().__init__(name, key, kernel)

    def _describe(self) -> str:
        return f"{self.name}-{self.mode} "

    def encrypt(self, nonce: BytesLike, data: Data, associated_data: Optional[Data] = None,
                tag_length: int = 16) -> Any:
        """Encrypts and authenticates data, and authenticates associated_data (None: none):
        returns ciphertext || tag, len(data) + tag_length bytes."""
        t = _tag_length(tag_length)
        d, maker = _host(data, "data")
        a = None if associated_data is None else _host(associated_data, "associated_data")[0]
        out = self._seal(nonce, d, a, t, maker is not None or type(data) is bytearray)
        return _result(out, maker)

    def decrypt(self, nonce: BytesLike, data: Data, associated_data: Optional[Data] = None,
                tag_length: int = 16) -> Any:
        """Checks and decrypts ciphertext || tag (data) with the same nonce, associated data and
        tag_length as :meth:`encrypt` was given: returns the plaintext, or raises
        :class:`kcipher.InvalidTag` (and releases nothing) when any of them differs."""
        t = _tag_length(tag_length)
        d, maker = _host(data, "data")
        a = None if associated_data is None else _host(associated_data, "associated_data")[0]
        out = self._open(nonce, d, a, t, maker is not None or type(data) is bytearray)
        return _result(out, maker)


def _mac_data(data: Data) -> Any:
    return _host(data, "data")[0]


def cmac(cipher: str, key: BytesLike, data: Data, tag_length: Optional[int] = None, *,
         kernel: Optional[str] = None) -> bytes:
    """CMAC (NIST SP 800-38B) of data under key: the tag as bytes, tag_length bytes (4 to the
    block size; None: the whole block, 16 bytes, 8 for hight and cham-64-128). cipher: any name
    of :func:`kcipher.ciphers`, bare or with ``-cmac`` ("aria-128", "hight-cmac"). data as for
    :meth:`AEAD.encrypt` (GPU arrays through host memory)."""
    t = None if tag_length is None else _tag_length(tag_length)
    return _kcipher.mac(cipher, key, _MODE_CMAC, None, _mac_data(data), t, None, kernel)


def cmac_verify(cipher: str, key: BytesLike, data: Data, tag: BytesLike, *, kernel: Optional[str] = None) -> None:
    """Checks a CMAC tag (of len(tag) bytes) in constant time: returns None when it matches,
    raises :class:`kcipher.InvalidTag` when it does not (as ``cryptography``'s ``CMAC.verify``
    raises): a failed check cannot pass unnoticed."""
    if not _kcipher.mac(cipher, key, _MODE_CMAC, None, _mac_data(data), None, tag, kernel):
        raise InvalidTag(f"{_kcipher.strerror(34)}: the CMAC tag does not match", 34)


def gmac(cipher: str, key: BytesLike, iv: BytesLike, data: Data, tag_length: int = 16, *,
         kernel: Optional[str] = None) -> bytes:
    """GMAC (GCM with data as the associated data and nothing to encrypt; SP 800-38D) of data
    under key and iv: the tag as bytes. cipher: a 128-bit-block cipher, bare or with ``-gmac``.
    iv: any length from 1 byte (12 is standard), never reused under one key; tag_length as GCM's
    (16, 15, 14, 13, 12, 8 or 4)."""
    return _kcipher.mac(cipher, key, _MODE_GMAC, iv, _mac_data(data), _tag_length(tag_length), None, kernel)


def gmac_verify(cipher: str, key: BytesLike, iv: BytesLike, data: Data, tag: BytesLike, *,
                kernel: Optional[str] = None) -> None:
    """Checks a GMAC tag (of len(tag) bytes) in constant time: None when it matches,
    :class:`kcipher.InvalidTag` when it does not."""
    if not _kcipher.mac(cipher, key, _MODE_GMAC, iv, _mac_data(data), None, tag, kernel):
        raise InvalidTag(f"{_kcipher.strerror(34)}: the GMAC tag does not match", 34)


__all__ = ["AEAD", "cmac", "cmac_verify", "gmac", "gmac_verify"]
