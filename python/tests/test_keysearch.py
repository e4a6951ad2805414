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
    assert r.keys == [key]
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


def test_stops_at_the_first_key_unless_all_keys():
    # 20 unknown bits, the key early in the range, one thread on the slow per-key path: a
    # search that went on would test all 2^20 candidates
    key = bytes(range(13)) + b"\x00\x10\x00"  # candidate 4096
    c = kcipher.Cipher("hight", key)
    pairs = [(bytes(8), c.ecb_encrypt(bytes(8))), (b"\x01" * 8, c.ecb_encrypt(b"\x01" * 8))]
    mask = bytes(13) + b"\x0f\xff\xff"
    template = bytes(k & ~m & 0xFF for k, m in zip(key, mask))
    r = kcipher.keysearch("hight", pairs, template, mask, threads=1, kernel="hight/ref", chunk_keys=4096)
    assert r.keys == [key] and not r.complete and r.tested < r.total // 2
    r = kcipher.keysearch("hight", pairs, template, mask, threads=2, chunk_keys=4096, all_keys=True)
    assert r.keys == [key] and r.complete and r.tested == r.total


def test_damaged_checkpoint_is_refused(tmp_path):
    key = bytes(16)
    c = kcipher.Cipher("lea-128", key)
    args = ("lea-128", [(bytes(16), c.ecb_encrypt(bytes(16)))], key, bytes(15) + b"\xff")
    ck = tmp_path / "ck"
    kcipher.keysearch(*args, threads=1, checkpoint=str(ck))
    text = ck.read_text()
    ck.write_text(text.replace("range 0 255", "range 0 254"))
    with pytest.raises(kcipher.CheckpointError, match="damaged"):
        kcipher.keysearch(*args, threads=1, checkpoint=str(ck))


def test_progress_can_stop_it():
    key = bytes(16)
    c = kcipher.Cipher("aria-128", key)
    calls = []

    def progress(info):
        calls.append(info)
        return True

    r = kcipher.keysearch("aria-128", [(bytes(16), c.ecb_encrypt(bytes(16)))], key, bytes(10) + b"\xff" * 6,
                          progress=progress, chunk_keys=4096, threads=1, all_keys=True)  # the key is candidate 0
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


@pytest.mark.skipif(kcipher.gpu_count() == 0, reason="no GPU usable by kcipher here")
@pytest.mark.parametrize("name", ["aria-128", "aria-256", "lea-128", "lea-192", "hight", "cham-64-128",
                                  "cham-128-256"])
def test_gpu_finds_the_planted_key(name):
    info = next(c for c in kcipher.ciphers() if c.name == name)
    key = bytes((29 * i + 11) & 0xFF for i in range(info.key_bytes))
    c = kcipher.Cipher(name, key)
    pts = [bytes(range(i, i + info.block_bytes)) for i in (3, 40)]
    pairs = [(p, c.ecb_encrypt(p)) for p in pts]
    # 22 unknown bits in three bytes, not all at the end
    mask = bytearray(info.key_bytes)
    mask[0], mask[info.key_bytes // 2], mask[-1] = 0x3F, 0xFF, 0xFF
    template = bytes(k & ~m & 0xFF for k, m in zip(key, mask))
    r = kcipher.keysearch(name, pairs, template, bytes(mask), device="gpu", all_keys=True)
    assert r.complete and r.keys == [key] and r.total == 1 << 22 and r.tested == 1 << 22
    # the planted key's candidate number: its unknown bits, lowest mask bit first
    index, bit = 0, 0
    for pos in reversed(range(info.key_bytes)):  # the last byte holds the lowest bits
        for b in range(8):
            if mask[pos] >> b & 1:
                index |= (key[pos] >> b & 1) << bit
                bit += 1
    assert r.found[0].index == index
    # a sub-range that misses it finds nothing; every device together finds it again
    miss = kcipher.keysearch(name, pairs, template, bytes(mask), device="gpu", start=index + 1, count=1 << 16)
    assert miss.complete and miss.keys == [] and miss.total == 1 << 16
    both = kcipher.keysearch(name, pairs, template, bytes(mask), device="all", threads=2,
                             start=max(0, index - 40000), count=1 << 16, all_keys=True)
    assert both.complete and both.keys == [key] and both.found[0].index == index
