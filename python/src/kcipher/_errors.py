"""kcipher's exceptions: one class per kind of failure, each carrying the library's status.

Every error the C library reports is raised as a subclass of :class:`Error`, with the library's
own message (``kcipher_strerror``) and the status code in ``.status``. Argument errors are also
``ValueError``s, so code that catches ``ValueError`` for bad input keeps working.
"""
from typing import Dict, Optional, Type


class Error(Exception):
    """Any failure reported by the kcipher library. ``status`` is the C status code."""

    def __init__(self, message: str, status: Optional[int] = None) -> None:
        super().__init__(message)
        self.status = status


class ArgumentError(Error, ValueError):
    """Invalid input: wrong lengths, unknown names, overlapping buffers, bad ranges."""


class UnknownCipherError(ArgumentError):
    """The cipher name (or its mode suffix) is not one of kcipher.ciphers()."""


class KeyLengthError(ArgumentError):
    """The key is not the cipher's key length."""


class IVLengthError(ArgumentError):
    """The IV (or counter block) is not one block long; a GCM/GMAC nonce that is empty, a CCM
    nonce that is not 7 to 13 bytes."""


class DataLengthError(ArgumentError):
    """ECB or CBC data that is not a whole number of blocks (without padding=), an XTS data
    unit shorter than one block."""


class PaddingError(ArgumentError):
    """PKCS#7 padding that does not check out on decryption (wrong key or IV, or altered data);
    no plaintext is released. Padding authenticates nothing: use kcipher.AEAD for that."""


class CounterSpaceError(ArgumentError):
    """A CTR request that would run past the counter's 2^(8*block) blocks."""


class TagLengthError(ArgumentError):
    """A tag length the mode does not allow (GCM/GMAC: 16, 15, 14, 13, 12, 8, 4; CCM: 4, 6, ...,
    16; CMAC: 4 to the block size)."""


class MessageLimitError(ArgumentError):
    """A message, AAD or nonce beyond the mode's limit for one invocation (GCM: 2**36 - 32 bytes
    of data per nonce; CCM: 2**(8 * (15 - nonce length)) - 1 bytes), refused before any output."""


class InvalidTag(Error):
    """Authentication failed: the tag does not match the data, AAD, nonce and key (as
    ``cryptography.exceptions.InvalidTag``). No plaintext is released."""


class KernelError(Error, ValueError):
    """An unknown kernel, one this machine cannot run, one of another cipher, or a CPU kernel
    given GPU memory."""


class GPUError(Error, RuntimeError):
    """No usable GPU, memory that is not GPU memory, or a CUDA failure (the CUDA message is
    part of the text)."""


class CheckpointError(Error, OSError):
    """A key-search checkpoint that cannot be read or written, is damaged, or belongs to another search."""


class Cancelled(Error):
    """Stopped by the caller; progress was saved."""


class DRBGStateError(Error, RuntimeError):
    """A DRBG call in the wrong state: not instantiated, or a reseed is due with no entropy
    source."""


class EntropySourceError(Error, RuntimeError):
    """The DRBG's entropy source failed (or there is none)."""


# kcipher.h's kcipher_status values -> the class raised for them.
STATUS_CLASSES: Dict[int, Type[Error]] = {
    1: ArgumentError,         # NULL_POINTER
    2: UnknownCipherError,    # UNKNOWN_CIPHER
    3: UnknownCipherError,    # UNKNOWN_MODE
    4: KeyLengthError,
    5: IVLengthError,
    6: DataLengthError,
    7: CounterSpaceError,
    8: KernelError,           # UNKNOWN_KERNEL
    9: KernelError,           # KERNEL_UNAVAILABLE
    10: KernelError,          # KERNEL_MISMATCH
    11: ArgumentError,        # OVERLAP
    12: Error,                # NO_MEMORY
    13: ArgumentError,        # INVALID_ARGUMENT
    14: Error,                # INTERNAL
    15: GPUError,             # CUDA
    16: KernelError,          # NOT_GPU_KERNEL
    17: GPUError,             # NOT_DEVICE_MEMORY
    18: GPUError,             # NO_GPU
    19: ArgumentError,        # MASK_BITS
    20: ArgumentError,        # NO_PAIRS
    21: ArgumentError,        # PAIR_LENGTH
    22: ArgumentError,        # SEARCH_RANGE
    23: CheckpointError,      # CHECKPOINT_MISMATCH
    24: CheckpointError,      # CHECKPOINT
    25: Cancelled,
    26: DRBGStateError,       # DRBG_NOT_INSTANTIATED
    27: ArgumentError,        # DRBG_REQUEST_TOO_LARGE
    28: DRBGStateError,       # DRBG_RESEED_REQUIRED
    29: ArgumentError,        # DRBG_ENTROPY_LENGTH
    30: ArgumentError,        # DRBG_INPUT_LENGTH
    31: EntropySourceError,   # DRBG_ENTROPY_SOURCE
    32: KernelError,          # CPU_FEATURES (KCIPHER_CPU_FEATURES cannot be parsed)
    33: KernelError,          # UNSUPPORTED (the cipher does not offer the operation)
    34: InvalidTag,           # AUTH
    35: TagLengthError,       # TAG_LENGTH
    36: MessageLimitError,    # MODE_LIMIT
    37: Error,                # STATE (the streaming calls, which the package does not use)
    38: KeyLengthError,       # XTS_KEY (the two halves of an XTS key are equal)
    39: PaddingError,
    40: ArgumentError,        # CONTEXT_MODE (an XTS context used for another mode)
    41: CheckpointError,      # CHECKPOINT_DAMAGED
}
