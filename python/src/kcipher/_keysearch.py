"""kcipher.keysearch: exhaustive search of a key's unknown bits, with the CLI's options."""
from typing import Callable, Iterable, List, NamedTuple, Optional, Tuple, Union

from . import _kcipher
from ._info import cipher_info
from ._typing import Buffer, ProgressInfo

#: bytes-like, or a str of hex digits
BytesOrHex = Union[Buffer, str]


class FoundKey(NamedTuple):
    key: bytes
    index: int  # type: ignore[assignment]  # the candidate number (shadows tuple.index)


class KeysearchResult(NamedTuple):
    found: List[FoundKey]       # the keys matching all pairs, in the order found (the first only,
                                # give or take a race between threads, unless all_keys)
    complete: bool              # the whole range was searched (False: stopped at a key or by progress())
    tested: int                 # candidates tested by this call
    done: int                   # candidates of the range finished, earlier runs included
    total: int                  # candidates in the range
    seconds: float
    range: Optional[Tuple[int, int]]  # first and last candidate searched (None: an empty shard)

    @property
    def keys(self) -> List[bytes]:
        return [f.key for f in self.found]

    @property
    def keys_per_second(self) -> float:
        return self.tested / self.seconds if self.seconds > 0 else 0.0


def _bytes(v: BytesOrHex, what: str) -> bytes:
    if isinstance(v, str):
        try:
            return bytes.fromhex(v)
        except ValueError:
            raise ValueError(f"{what} {v!r} is not valid hex") from None
    return bytes(memoryview(v))


_DEVICES = {"cpu": 0, "gpu": 1, "all": 2}


def _shard(shard: Union[None, str, Tuple[int, int]]) -> Tuple[int, int]:
    if shard is None:
        return 0, 1
    if isinstance(shard, str):
        try:
            i, n = (int(p) for p in shard.split("/"))
        except ValueError:
            raise ValueError(f"shard {shard!r}: expected 'I/N' with 0 <= I < N, e.g. '0/4'") from None
    else:
        i, n = shard
    if n <= 0 or not 0 <= i < n:
        raise ValueError(f"shard {shard!r}: expected 0 <= I < N")
    return i, n


def keysearch(cipher: str, pairs: Iterable[Tuple[BytesOrHex, BytesOrHex]], key: BytesOrHex, mask: BytesOrHex, *,
              start: int = 0, count: int = 0, device: str = "cpu", checkpoint: Optional[str] = None,
              shard: Union[None, str, Tuple[int, int]] = None, threads: int = 0, kernel: Optional[str] = None,
              chunk_keys: int = 0, checkpoint_seconds: float = 30.0,
              progress: Optional[Callable[[ProgressInfo], object]] = None, all_keys: bool = False) -> KeysearchResult:
    """The key that encrypts each known plaintext to its ciphertext, where the bits set in
    ``mask`` (at most 64) are unknown; ``kcipher keysearch`` with the same options. The search
    stops at the first key that matches every pair; ``all_keys=True`` searches the whole range
    and returns every one.

    pairs: (plaintext, ciphertext) blocks, bytes or hex. key: the template (bits under the mask
    are ignored). Candidate i is the key with the bits of i put into the mask's positions, lowest
    mask bit first. start/count: the part of the 2^bits candidates (count 0: to the end); shard
    "I/N" or (I, N): the I-th of N equal parts of that. device: "cpu", "gpu" or "all".
    checkpoint: a file that saves progress and keys; the same call again resumes from it.
    progress(info) is called several times a second with done/total/tested/found/keys_per_second/
    elapsed_seconds/eta_seconds; a true return stops the search (complete=False; progress saved).
    Ctrl-C stops it too (progress saved) and raises KeyboardInterrupt.
    """
    info = cipher_info(cipher)
    pts, cts = bytearray(), bytearray()
    for n, pair in enumerate(pairs):
        pt, ct = pair
        p, c = _bytes(pt, f"pairs[{n}] plaintext"), _bytes(ct, f"pairs[{n}] ciphertext")
        for what, v in (("plaintext", p), ("ciphertext", c)):
            if len(v) != info.block_bytes:
                raise _kcipher_error(21, f"pairs[{n}] {what} has {len(v)} bytes; {cipher} blocks are "
                                         f"{info.block_bytes}")
        pts += p
        cts += c
    if not pts:
        raise _kcipher_error(20, "give at least one (plaintext, ciphertext) pair")
    k, m = _bytes(key, "key"), _bytes(mask, "mask")
    for what, v in (("key", k), ("mask", m)):
        if len(v) != info.key_bytes:
            raise _kcipher_error(4, f"{what} has {len(v)} bytes; {cipher} keys are {info.key_bytes}")
    if device not in _DEVICES:
        raise ValueError(f"device must be 'cpu', 'gpu' or 'all', not {device!r}")
    i, n = _shard(shard)
    r = _kcipher.keysearch(info.name, bytes(pts), bytes(cts), k, m, start, count, i, n, _DEVICES[device], threads,
                           kernel, None if checkpoint is None else str(checkpoint), checkpoint_seconds, chunk_keys,
                           progress, bool(all_keys))
    return KeysearchResult([FoundKey(key, index) for key, index in r["found"]], r["complete"], r["tested"],
                           r["done"], r["total"], r["seconds"], r["range"])


def _kcipher_error(status: int, detail: str) -> Exception:
    from ._errors import STATUS_CLASSES

    return STATUS_CLASSES[status](f"{_kcipher.strerror(status)}: {detail}", status)
