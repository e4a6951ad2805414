"""kcipher.keysearch: the unknown bits of a key, from known pairs."""
import pytest

import kcipher


@pytest.mark.parametrize("name", ["aria-128", "lea-128", "hight", "cham-64-128"])
def test_finds_the_key(name, tmp_path):
    info = next(c for c in kcipher.ciphers() if c.name == name)
    key = bytes((17 * i + 5) & 0xFF for i in range(info.key_bytes))
    c = kcipher.Cipher(name, key)
    pts = [bytes(range(i, i + info.block_bytes)) for i in (0, 1)]
    pairs = [(p, c.ecb_encrypt(p)) for p in pts]
    mask = bytes(info.key_bytes - 2) + b"\x0f\xff"  # 12 unknown bits
    template = bytes(k & ~m & 0xFF for k, m in zip(key, mask))  # the unknown bits cleared
    r = kcipher.keysearch(name, pairs, template, mask, threads=2, checkpoint=str(tmp_path / "ck"))
    assert r.complete and r.keys == [key]
    assert r.total == 4096 and r.found[0].index == ((key[-2] & 0x0F) << 8) | key[-1]
    # resumed from the checkpoint: nothing left to test, the key reported again
    again = kcipher.keysearch(name, [(p.hex(), q.hex()) for p, q in pairs], template.hex(), mask.hex(),
                              threads=2, checkpoint=str(tmp_path / "ck"))
    assert again.keys == [key] and again.tested == 0


def test_shards_cover_the_range():
    key = bytes(16)
    c = kcipher.Cipher("lea-128", key)
    pt = bytes(16)
    mask = bytes(15) + b"\xff"
    found, total = [], 0
    for i in range(3):
        r = kcipher.keysearch("lea-128", [(pt, c.ecb_encrypt(pt))], key, mask, shard=f"{i}/3", threads=1)
        found += r.keys
        total += r.total
    assert total == 256 and found == [key]


def test_progress_can_stop_it():
    key = bytes(16)
    c = kcipher.Cipher("aria-128", key)
    calls = []

    def progress(info):
        calls.append(info)
        return True

    r = kcipher.keysearch("aria-128", [(bytes(16), c.ecb_encrypt(bytes(16)))], key, bytes(10) + b"\xff" * 6,
                          progress=progress, chunk_keys=4096, threads=1)
    assert not r.complete and calls and r.done < r.total


def test_keysearch_misuse():
    with pytest.raises(kcipher.UnknownCipherError):
        kcipher.keysearch("aria-512", [(bytes(16), bytes(16))], bytes(16), bytes(16))
    with pytest.raises(kcipher.ArgumentError, match="pair"):
        kcipher.keysearch("aria-128", [], bytes(16), bytes(16))
    with pytest.raises(kcipher.ArgumentError, match="plaintext"):
        kcipher.keysearch("aria-128", [(bytes(8), bytes(16))], bytes(16), bytes(16))
    with pytest.raises(kcipher.ArgumentError, match="mask"):
        kcipher.keysearch("aria-128", [(bytes(16), bytes(16))], bytes(16), b"\xff" * 9 + bytes(7))
    with pytest.raises(kcipher.KeyLengthError):
        kcipher.keysearch("aria-128", [(bytes(16), bytes(16))], bytes(15), bytes(16))
    with pytest.raises(kcipher.ArgumentError, match="start"):
        kcipher.keysearch("aria-128", [(bytes(16), bytes(16))], bytes(16), bytes(15) + b"\x0f", start=16)
    with pytest.raises(ValueError, match="shard"):
        kcipher.keysearch("aria-128", [(bytes(16), bytes(16))], bytes(16), bytes(15) + b"\x0f", shard="3/3")
    with pytest.raises(ValueError, match="device"):
        kcipher.keysearch("aria-128", [(bytes(16), bytes(16))], bytes(16), bytes(15) + b"\x0f", device="tpu")
