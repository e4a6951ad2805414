"""kcipher.AEAD (GCM and CCM) and the MAC functions (CMAC, GMAC), shaped like pyca/cryptography's
``AESGCM`` / ``AESCCM`` and ``CMAC``: one-shot calls over bytes, numpy and GPU arrays.

The data of an AEAD call grows or shrinks by the tag, so a result never keeps its input's shape
or dtype: bytes for bytes, memoryviews and other buffers, a bytearray for a bytearray, a 1-D
uint8 array of the input's own library (and device) for an array.

GCM over a CUDA tensor or CuPy array runs on its GPU (kcipher_gpu_aead_seal/open, on the
array's stream; the call waits for it); CCM is a chain and takes host memory only, as Cipher's
CBC does. The MAC functions read GPU arrays through host memory.
"""
import operator
from typing import Any, Callable, Optional, Tuple, cast

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
                        "(PyTorch and CuPy are); copy it to the host first")
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


def _on_gpu(x: Any) -> bool:
    """Whether x is a CUDA tensor or a CuPy array: what the AEAD runs on the device."""
    if kind(type(x)) != ARRAY:
        return False
    if is_torch(x):
        return bool(x.device.type == "cuda")
    return type(x).__module__.partition(".")[0] == "cupy"


def _device_result(x: Any, n: int) -> Any:
    """A new 1-D uint8 array of n bytes of x's library, on x's GPU (allocated on that library's
    current stream, the one the work goes to)."""
    if is_torch(x):
        import torch  # type: ignore[import-not-found, unused-ignore]

        return torch.empty(n, dtype=torch.uint8, device=x.device)
    import cupy  # type: ignore[import-not-found, unused-ignore]

    with x.device:
        return cupy.empty(n, dtype=cupy.uint8)


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

    kernel: as :class:`kcipher.Cipher`'s. None (the default) lets the library choose the CPU
    kernel for host memory and, for GCM on the first GPU array, the fastest GPU kernel (for that,
    a copy of the key is kept in the extension's memory and wiped on close); "cpu" is the same
    without GPU arrays (and without the key copy); "gpu" the fastest GPU kernel for everything
    (host memory GCM then goes through the GPU too; CCM runs on the CPU whatever the kernel);
    any name of :func:`kcipher.kernels` forces that kernel.

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
    array of the same library and device for an array (numpy, torch, CuPy).

    GCM data in a CUDA tensor or CuPy array runs **on its GPU**, without a copy: the result is
    allocated on that GPU, the work is queued on the array's stream (torch's current stream,
    CuPy's ``__cuda_array_interface__`` stream) and the call waits for it, so the tag is checked
    before decrypt returns. associated_data on the GPU is copied to the host (the C call takes
    it there). This needs a GPU kernel: kernel=None or "gpu" (or a GPU kernel's name); with
    "cpu" or a CPU kernel name a GPU array is :class:`kcipher.KernelError`, and where kcipher
    has no GPU a :class:`kcipher.GPUError`, as for :class:`kcipher.Cipher`. CCM (a chain, run
    on the CPU) takes host memory only: a GPU array is a TypeError, as in Cipher's CBC.

    The round keys are wiped by :meth:`close`, at the end of a ``with`` block, or when the object
    is collected. An AEAD may be shared between threads; the GIL is released for inputs of 4 KiB
    and more.
    """

    def __init__(self, name: str, key: BytesLike, kernel: Optional[str] = None) -> None:
        super().__init__(name, key, kernel)

    def _describe(self) -> str:
        return f"{self.name}-{self.mode} "

    def _on_device(self, seal: bool, nonce: BytesLike, data: Any, associated_data: Optional[Data],
                   t: int) -> Any:
        """GCM on data's GPU: a new 1-D uint8 array of data's library there."""
        if self.mode != "gcm":
            raise TypeError(f"{self.mode.upper()} takes host memory only (its CBC-MAC is a chain; the library runs "
                            "CCM on the CPU): copy the array to the host, or use GCM")
        src = describe(data, "data", None)
        n = src.nbytes
        out = _device_result(data, n + t if seal else max(n - t, 0))
        dst = describe(out, "out", src.stream)
        a = None if associated_data is None else _host(associated_data, "associated_data")[0]
        # On a bad tag the extension raises and `out` (zeroed on the device) is dropped here.
        (self._gpu_seal if seal else self._gpu_open)(nonce, src.ptr, n, a, dst.ptr, t, src.stream or 0)
        return out

    def encrypt(self, nonce: BytesLike, data: Data, associated_data: Optional[Data] = None,
                tag_length: int = 16) -> Any:
        """Encrypts and authenticates data, and authenticates associated_data (None: none):
        returns ciphertext || tag, len(data) + tag_length bytes."""
        t = _tag_length(tag_length)
        if _on_gpu(data):
            return self._on_device(True, nonce, data, associated_data, t)
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
        if _on_gpu(data):
            return self._on_device(False, nonce, data, associated_data, t)
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
    return cast(bytes, _kcipher.mac(cipher, key, _MODE_CMAC, None, _mac_data(data), t, None, kernel))


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
    return cast(bytes, _kcipher.mac(cipher, key, _MODE_GMAC, iv, _mac_data(data), _tag_length(tag_length), None,
                                    kernel))


def gmac_verify(cipher: str, key: BytesLike, iv: BytesLike, data: Data, tag: BytesLike, *,
                kernel: Optional[str] = None) -> None:
    """Checks a GMAC tag (of len(tag) bytes) in constant time: None when it matches,
    :class:`kcipher.InvalidTag` when it does not."""
    if not _kcipher.mac(cipher, key, _MODE_GMAC, iv, _mac_data(data), None, tag, kernel):
        raise InvalidTag(f"{_kcipher.strerror(34)}: the GMAC tag does not match", 34)


__all__ = ["AEAD", "cmac", "cmac_verify", "gmac", "gmac_verify"]
