"""CTR_DRBG: the TTAK.KO-12.0189 vectors (SEED, ARIA, LEA, HIGHT) as the C tests run them."""
import collections
import os

import pytest

import kcipher
from conftest import load_drbg_rsp, unhex

KISA = "kisa_ttak_ko_12_0189_ctr_drbg.rsp"


def kisa_cipher(section):
    name = section.split(" ")[0].lower()
    return "hight" if name == "hight-128" else name


def test_kisa_vectors():
    n = 0
    for v in load_drbg_rsp(KISA):
        name = kisa_cipher(v["section"])
        df = "no df" not in v["section"]
        pr = v["params"].get("PredictionResistance") == "True"
        queue = collections.deque()
        interval = None
        if pr:
            queue += [unhex(v["EntropyInputPR1"]), unhex(v["EntropyInputPR2"])]
        else:
            interval = int(v["params"]["ReseedInterval"])
            if interval == 1:
                queue.append(unhex(v["EntropyInputReseed"]))

        def source(lo, hi):
            return queue.popleft()

        with kcipher.DRBG(name, df=df, entropy_source=source, reseed_interval=interval, instantiate=False) as d:
            d.instantiate(unhex(v["EntropyInput"]), unhex(v["Nonce"]), unhex(v["PersonalizationString"]))
            rb1, rb2 = unhex(v["ReturnedBits1"]), unhex(v["ReturnedBits2"])
            add1 = unhex(v["AdditionalInput1"]) or None
            add2 = unhex(v["AdditionalInput2"]) or None
            assert d.generate(len(rb1), add1, pr) == rb1, v
            assert d.generate(len(rb2), add2, pr) == rb2, v
        assert not queue
        n += 1
    assert n == 192  # 8 ciphers x 24 cases


def test_os_seeded_and_large():
    d = kcipher.DRBG("aria-256")
    a, b = d.generate(32), d.generate(32)
    assert len(a) == 32 and a != b
    big = d.generate(3 * d.max_request + 5)  # served as consecutive maximum-size requests
    assert len(big) == 3 * d.max_request + 5
    buf = bytearray(1000)
    assert d.generate(-1, out=buf) is buf and any(buf)


def _in_child(fn):
    """fn's bytes, computed in a forked child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.write(w, fn())
        finally:
            os._exit(0)
    os.close(w)
    out = b""
    while chunk := os.read(r, 1 << 16):
        out += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return out


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_forked_child_reseeds_before_its_first_bytes():
    d = kcipher.DRBG("lea-128")
    d.generate(16)
    for n in (32, 3 * d.max_request + 5):  # one request, and the large path
        child = _in_child(lambda: d.generate(n))
        parent = d.generate(n)
        assert len(child) == n and child != parent


def test_large_equals_request_by_request():
    e = bytes(range(48))
    a = kcipher.DRBG("lea-128", entropy_source=False, instantiate=False)
    b = kcipher.DRBG("lea-128", entropy_source=False, instantiate=False)
    a.instantiate(e, b"nonce")
    b.instantiate(e, b"nonce")
    m = a.max_request
    whole = a.generate(2 * m + 100)
    parts = b.generate(m) + b.generate(m) + b.generate(100)
    assert whole == parts


def test_drbg_misuse():
    with pytest.raises(kcipher.UnknownCipherError):
        kcipher.DRBG("aes-128")
    d = kcipher.DRBG("hight", entropy_source=False, instantiate=False)
    with pytest.raises(kcipher.DRBGStateError):
        d.generate(8)
    with pytest.raises(kcipher.ArgumentError):
        d.instantiate(bytes(3))  # entropy shorter than the security strength
    d.instantiate(bytes(range(16)), b"n")
    with pytest.raises(kcipher.ArgumentError):
        d.generate(d.max_request + 1, additional=b"x")  # one request over the limit
    d.close()
    with pytest.raises(ValueError, match="closed"):
        d.generate(8)

    def broken(lo, hi):
        raise RuntimeError("no entropy today")

    with pytest.raises(RuntimeError, match="no entropy today"):
        kcipher.DRBG("lea-128", entropy_source=broken)
