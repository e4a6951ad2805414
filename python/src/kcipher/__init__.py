"""kcipher: the Korean standard block ciphers ARIA, LEA, HIGHT, revised CHAM and SEED in ECB, CBC,
CTR, CFB, CFB8, OFB and XTS, authenticated encryption (GCM, CCM) and MACs (CMAC, GMAC), the SP 800-90A CTR_DRBG and
exhaustive key search, for bytes, numpy arrays and GPU arrays (PyTorch, CuPy, DLPack).
docs/python.md in the repository is the guide.

    >>> import kcipher
    >>> with kcipher.Cipher("aria-256", key) as c:
    ...     ct = c.ctr(plaintext, iv)
    >>> sealed = kcipher.AEAD("aria-128-gcm", key16).encrypt(nonce, plaintext, aad)
"""
from . import _kcipher
from ._aead import AEAD, cmac, cmac_verify, gmac, gmac_verify
from ._cipher import Cipher
from ._xts import XTS
from ._drbg import DRBG
from ._errors import (ArgumentError, Cancelled, CheckpointError, CounterSpaceError, DataLengthError, DRBGStateError,
                      EntropySourceError, Error, GPUError, InvalidTag, IVLengthError, KernelError, KeyLengthError,
                      MessageLimitError, PaddingError, TagLengthError, UnknownCipherError,
                      STATUS_CLASSES as _STATUS_CLASSES)
from ._info import CipherInfo, GpuInfo, KernelInfo, SelftestResult, ciphers, format_info, info, kernels, selftest
from ._keysearch import FoundKey, KeysearchResult, keysearch

_kcipher._set_error_classes(_STATUS_CLASSES)

__version__ = _kcipher.version()


def gpu_count() -> int:
    """GPUs the library can use (0 without a GPU, a driver, or a CUDA build)."""
    return _kcipher.gpu_count()


__all__ = [
    "Cipher", "XTS", "AEAD", "cmac", "cmac_verify", "gmac", "gmac_verify", "DRBG", "keysearch", "FoundKey",
    "KeysearchResult",
    "ciphers", "kernels", "info", "format_info", "selftest", "gpu_count",
    "CipherInfo", "KernelInfo", "GpuInfo", "SelftestResult",
    "Error", "ArgumentError", "UnknownCipherError", "KeyLengthError", "IVLengthError", "DataLengthError",
    "CounterSpaceError", "KernelError", "GPUError", "CheckpointError", "Cancelled", "DRBGStateError",
    "EntropySourceError", "InvalidTag", "TagLengthError", "MessageLimitError", "PaddingError",
]
