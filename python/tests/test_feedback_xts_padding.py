"""CFB, CFB8, OFB, XTS and PKCS#7 padding: each checked against the mode composed by hand here
over the same Cipher's ECB (so an error in the library's mode code cannot hide in both), on
random keys, IVs and lengths across block boundaries, for every cipher the mode is defined for."""
import os
import random

import numpy as np
import pytest

import kcipher

CIPHERS = [c for c in kcipher.ciphers()]
WIDE = [c for c in CIPHERS if c.block_bytes == 16]


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def cfb_by_hand(c, iv, data, decrypt):
    bs, out, reg = c.block_size, bytearray(), iv
    for i in range(0, len(data), bs):
        piece = data[i:i + bs]
        o = xor(piece, c.ecb_encrypt(reg))
        out += o
        reg = piece if decrypt else o
    return bytes(out)


def cfb8_by_hand(c, iv, data, decrypt):
    out, reg = bytearray(), iv
    for b in data:
        o = b ^ c.ecb_encrypt(reg)[0]
        out.append(o)
        reg = reg[1:] + bytes([b if decrypt else o])
    return bytes(out)


def ofb_by_hand(c, iv, data):
    bs, out, reg = c.block_size, bytearray(), iv
    for i in range(0, len(data), bs):
        reg = c.ecb_encrypt(reg)
        out += xor(data[i:i + bs], reg)
    return bytes(out)


@pytest.mark.parametrize("info", CIPHERS, ids=lambda i: i.name)
def test_feedback_modes_match_composition(info):
    rng = random.Random(info.name)
    bs = info.block_bytes
    with kcipher.Cipher(info.name, rng.randbytes(info.key_bytes)) as c:
        for n in [0, 1, bs - 1, bs, bs + 1, 3 * bs, 5 * bs + 3, 257]:
            iv, pt = rng.randbytes(bs), rng.randbytes(n)
            ct = cfb_by_hand(c, iv, pt, False)
            assert c.cfb_encrypt(pt, iv) == ct
            assert c.cfb_decrypt(ct, iv) == pt
            ct8 = cfb8_by_hand(c, iv, pt, False)
            assert c.cfb8_encrypt(pt, iv) == ct8
            assert c.cfb8_decrypt(ct8, iv) == pt
            assert c.ofb(pt, iv) == ofb_by_hand(c, iv, pt)


def test_feedback_modes_take_arrays_and_out():
    rng = random.Random(5)
    c = kcipher.Cipher("aria-128", rng.randbytes(16))
    iv = rng.randbytes(16)
    a = np.frombuffer(rng.randbytes(1000), dtype=np.uint8).copy()
    ct = c.cfb_encrypt(a, iv)
    assert isinstance(ct, np.ndarray) and ct.tobytes() == c.cfb_encrypt(a.tobytes(), iv)
    c.cfb_decrypt(ct, iv, out=ct)  # in place
    assert ct.tobytes() == a.tobytes()
    buf = bytearray(a.tobytes())
    assert isinstance(c.ofb(buf, iv), bytearray)
    with pytest.raises(kcipher.IVLengthError):
        c.cfb_encrypt(b"x" * 16, b"short")


# ---- PKCS#7 ----

def pkcs7(data, bs):
    k = bs - len(data) % bs
    return data + bytes([k]) * k


@pytest.mark.parametrize("info", CIPHERS, ids=lambda i: i.name)
def test_padding_matches_composition(info):
    rng = random.Random("pad" + info.name)
    bs = info.block_bytes
    c = kcipher.Cipher(info.name, rng.randbytes(info.key_bytes))
    for n in [0, 1, bs - 1, bs, bs + 1, 4 * bs + 5]:
        pt, iv = rng.randbytes(n), rng.randbytes(bs)
        assert c.ecb_encrypt(pt, padding="pkcs7") == c.ecb_encrypt(pkcs7(pt, bs))
        assert c.cbc_encrypt(pt, iv, padding="pkcs7") == c.cbc_encrypt(pkcs7(pt, bs), iv)
        assert c.ecb_decrypt(c.ecb_encrypt(pt, padding="pkcs7"), padding="pkcs7") == pt
        back = c.cbc_decrypt(bytearray(c.cbc_encrypt(pt, iv, padding="pkcs7")), iv, padding="pkcs7")
        assert isinstance(back, bytearray) and back == pt


def test_bad_padding_is_refused():
    rng = random.Random(7)
    c = kcipher.Cipher("lea-128", rng.randbytes(16))
    for last in [bytes(16), bytes(15) + b"\x11", bytes(14) + b"\x01\x02", bytes(13) + b"\x03\x02\x03"]:
        with pytest.raises(kcipher.PaddingError):
            c.ecb_decrypt(c.ecb_encrypt(last), padding="pkcs7")
    with pytest.raises(kcipher.DataLengthError):
        c.ecb_decrypt(b"x" * 17, padding="pkcs7")
    with pytest.raises(ValueError):
        c.ecb_encrypt(b"x", padding="zero")
    with pytest.raises(TypeError):
        c.ecb_encrypt(b"x", padding="pkcs7", out=bytearray(16))
    assert c.ecb_decrypt(b"x" * 16) is not None  # unpadded calls keep their meaning


# ---- XTS ----

def times_alpha(t):
    v = int.from_bytes(t, "little") << 1
    if v >> 128:
        v = (v ^ 0x87) & ((1 << 128) - 1)
    return v.to_bytes(16, "little")


def xts_unit_by_hand(data_key, tweak_key, tweak, unit, decrypt):
    """One data unit, IEEE 1619 section 5.3 (ciphertext stealing included)."""
    t = tweak_key.ecb_encrypt(tweak)
    run = data_key.ecb_decrypt if decrypt else data_key.ecb_encrypt
    full, tail = divmod(len(unit), 16)
    if tail:
        full -= 1
    out, tweaks = bytearray(), []
    for i in range(full + (2 if tail else 0)):
        tweaks.append(t)
        t = times_alpha(t)
    for i in range(full):
        out += xor(run(xor(unit[16 * i:16 * i + 16], tweaks[i])), tweaks[i])
    if tail:
        m = 16 * full
        t_first, t_last = (tweaks[full + 1], tweaks[full]) if decrypt else (tweaks[full], tweaks[full + 1])
        cc = xor(run(xor(unit[m:m + 16], t_first)), t_first)
        pp = unit[m + 16:] + cc[tail:]
        out += xor(run(xor(pp, t_last)), t_last) + cc[:tail]
    return bytes(out)


def xts_by_hand(name, key, tweak, data, unit, decrypt):
    half = len(key) // 2
    dk, tk = kcipher.Cipher(name, key[:half]), kcipher.Cipher(name, key[half:])
    size = unit or len(data)
    out, base = bytearray(), int.from_bytes(tweak, "little")
    for i, off in enumerate(range(0, len(data), size)):
        tw = ((base + i) % (1 << 128)).to_bytes(16, "little")
        out += xts_unit_by_hand(dk, tk, tw, data[off:off + size], decrypt)
    return bytes(out)


@pytest.mark.parametrize("info", WIDE, ids=lambda i: i.name)
def test_xts_matches_composition(info):
    rng = random.Random("xts" + info.name)
    key = rng.randbytes(2 * info.key_bytes)
    with kcipher.XTS(info.name, key) as x:
        for n, unit in [(16, 0), (17, 0), (31, 0), (32, 0), (100, 0), (512, 512), (1024 + 40, 512), (96, 32),
                        (16 * 5 + 7, 48)]:
            tweak = b"\xff" * 16 if n == 96 else rng.randbytes(16)  # 0xff..: the unit counter carries over
            pt = rng.randbytes(n)
            ct = x.encrypt(pt, tweak, unit)
            assert ct == xts_by_hand(info.name, key, tweak, pt, unit, False), (n, unit)
            assert x.decrypt(ct, tweak, unit) == pt


def test_xts_arrays_threads_and_errors():
    rng = random.Random(11)
    key = rng.randbytes(32)
    x = kcipher.XTS("lea-128", key, threads=2)
    tweak = rng.randbytes(16)
    a = np.frombuffer(rng.randbytes(1 << 20), dtype=np.uint8).copy()
    ct = x.encrypt(a, tweak, 4096)
    assert isinstance(ct, np.ndarray)
    assert ct.tobytes() == kcipher.XTS("lea-128-xts", key, threads=1).encrypt(a.tobytes(), tweak, 4096)
    x.decrypt(ct, tweak, 4096, out=ct)
    assert ct.tobytes() == a.tobytes()
    with pytest.raises(kcipher.KeyLengthError):
        kcipher.XTS("lea-128", key[:16])
    with pytest.raises(kcipher.KeyLengthError):
        kcipher.XTS("lea-128", key[:16] * 2)  # equal halves
    with pytest.raises(kcipher.Error):
        kcipher.XTS("hight", os.urandom(32))  # 64-bit blocks: no XTS
    with pytest.raises(kcipher.DataLengthError):
        x.encrypt(b"x" * 15, tweak)
    with pytest.raises(kcipher.DataLengthError):
        x.encrypt(b"x" * 40, tweak, 32)  # a last unit of 8 bytes
    with pytest.raises(kcipher.IVLengthError):
        x.encrypt(b"x" * 32, tweak[:8])
    with pytest.raises(ValueError):
        kcipher.Cipher("lea-128-xts", key)
