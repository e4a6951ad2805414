"""kcipher.AEAD (GCM, CCM) and the MAC functions (CMAC, GMAC): OpenSSL's ARIA vectors, a
bit-by-bit reference written here from SP 800-38B/C/D over the library's ECB (itself checked
against the known answers in test_vectors.py), OpenSSL through pyca/cryptography where it has
the cipher (SEED-CMAC), InvalidTag on every flipped byte, arrays, and argument errors."""
import pytest

import kcipher
from conftest import a_gpu_array, load_openssl_evp, optional_module, seed_of, to_host_bytes, unhex

np = optional_module("numpy")
needs_numpy = pytest.mark.skipif(np is None, reason="numpy is not installed")

BLOCK16 = [c.name for c in kcipher.ciphers() if c.block_bytes == 16]
BLOCK8 = [c.name for c in kcipher.ciphers() if c.block_bytes == 8]
KEY_BYTES = {c.name: c.key_bytes for c in kcipher.ciphers()}
GCM_TAGS = [16, 15, 14, 13, 12, 8, 4]
CCM_TAGS = [4, 6, 8, 10, 12, 14, 16]


def rand_bytes(n, *seed):
    import random

    return random.Random(seed_of(n, *seed)).getrandbits(8 * n).to_bytes(n, "little") if n else b""


def key_for(name):
    return rand_bytes(KEY_BYTES[name], name, "key")


# ---- the reference: the modes written from the standards, bit by bit, over the library's ECB ----

def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def flip(b, i=0, bit=0x01):
    """b with one bit of byte i flipped."""
    return b[:i] + bytes([b[i] ^ bit]) + b[i + 1:]


def pad16(b):
    return b + bytes(-len(b) % 16)


def gf128_mult(x, y):
    """The GCM field product (SP 800-38D 6.3, Algorithm 1), bits reflected as the standard says."""
    z, v = 0, y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ (0xE1 << 120) if v & 1 else v >> 1
    return z


def ghash(h, data):
    y = 0
    for i in range(0, len(data), 16):
        y = gf128_mult(y ^ int.from_bytes(data[i:i + 16], "big"), h)
    return y


def ref_gcm(ecb, iv, pt, aad, t):
    """SP 800-38D 7.1: ciphertext || tag."""
    h = int.from_bytes(ecb(bytes(16)), "big")
    if len(iv) == 12:
        j0 = iv + b"\0\0\0\1"
    else:
        j0 = ghash(h, pad16(iv) + bytes(8) + (8 * len(iv)).to_bytes(8, "big")).to_bytes(16, "big")
    c0 = int.from_bytes(j0[12:], "big")
    blocks = b"".join(j0[:12] + ((c0 + i) % 2**32).to_bytes(4, "big") for i in range(1, (len(pt) + 15) // 16 + 1))
    ct = xor(pt, ecb(blocks)) if pt else b""
    s = ghash(h, pad16(aad) + pad16(ct) + (8 * len(aad)).to_bytes(8, "big") + (8 * len(ct)).to_bytes(8, "big"))
    return ct + xor(ecb(j0), s.to_bytes(16, "big"))[:t]


def ref_ccm(ecb, nonce, pt, aad, t):
    """SP 800-38C 6.1 with the formatting of its appendix A: ciphertext || tag."""
    q = 15 - len(nonce)
    b0 = bytes([(0x40 if aad else 0) | ((t - 2) // 2) << 3 | (q - 1)]) + nonce + len(pt).to_bytes(q, "big")
    a = len(aad)
    enc = b"" if not aad else a.to_bytes(2, "big") if a < 0xFF00 else b"\xff\xfe" + a.to_bytes(4, "big")
    chain = b0 + (pad16(enc + aad) if aad else b"") + pad16(pt)
    y = bytes(16)
    for i in range(0, len(chain), 16):
        y = ecb(xor(y, chain[i:i + 16]))
    ctr = [bytes([q - 1]) + nonce + i.to_bytes(q, "big") for i in range((len(pt) + 15) // 16 + 1)]
    s = ecb(b"".join(ctr))
    return xor(pt, s[16:]) + xor(y[:t], s[:t])


def ref_cmac(ecb, bs, msg, t):
    """SP 800-38B 6.1-6.2 for a block of bs bytes (R_128 = 0x87, R_64 = 0x1b)."""
    mask, top = (1 << 8 * bs) - 1, 1 << (8 * bs - 1)

    def dbl(x):
        return ((x << 1) & mask) ^ ((0x87 if bs == 16 else 0x1B) if x & top else 0)

    k1 = dbl(int.from_bytes(ecb(bytes(bs)), "big"))
    k2 = dbl(k1)
    if msg and len(msg) % bs == 0:
        body, last = msg[:-bs], xor(msg[-bs:], k1.to_bytes(bs, "big"))
    else:
        n = len(msg) - len(msg) % bs
        rest = msg[n:] + b"\x80"
        body, last = msg[:n], xor(rest + bytes(bs - len(rest)), k2.to_bytes(bs, "big"))
    y = bytes(bs)
    for i in range(0, len(body), bs):
        y = ecb(xor(y, body[i:i + bs]))
    return ecb(xor(y, last))[:t]


# ---- known answers: OpenSSL's evpciph_aria.txt (RFC 8269 GCM, its own IV-length cases, CCM from
# draft-ietf-avtcore-aria-srtp-02 with 8-, 12- and 16-byte tags) ----

def test_openssl_aria_gcm_ccm_vectors():
    n = {"GCM": 0, "CCM": 0}
    for r in load_openssl_evp("openssl_evpciph_aria.txt"):
        if "tag" not in r:
            continue
        name = r["cipher"].lower()  # aria-128-gcm
        key, iv, aad, tag = unhex(r["key"]), unhex(r["iv"]), unhex(r.get("aad", "")), unhex(r["tag"])
        pt, ct = unhex(r["plaintext"]), unhex(r["ciphertext"])
        with kcipher.AEAD(name, key) as a:
            assert a.encrypt(iv, pt, aad, tag_length=len(tag)) == ct + tag, r
            assert a.decrypt(iv, ct + tag, aad, tag_length=len(tag)) == pt
            with pytest.raises(kcipher.InvalidTag):
                a.decrypt(iv, ct + flip(tag, -1 + len(tag)), aad, tag_length=len(tag))
        n[name[-3:].upper()] += 1
    assert n == {"GCM": 5, "CCM": 7}  # RFC 8269 (2) and IV lengths 5, 16, 18; 8-, 12-, 16-byte tags


# ---- round trips and the reference, for every 128-bit cipher ----

@pytest.mark.parametrize("name", BLOCK16)
def test_round_trip_every_cipher(name):
    key = key_for(name)
    ecb = kcipher.Cipher(name, key).ecb_encrypt
    for mode, tags, nonce_len in [("gcm", GCM_TAGS, 12), ("ccm", CCM_TAGS, 13)]:
        a = kcipher.AEAD(f"{name}-{mode}", key)
        ref = ref_gcm if mode == "gcm" else ref_ccm
        for n in (0, 1, 15, 16, 17, 64, 257):
            pt = rand_bytes(n, name, mode)
            nonce = rand_bytes(nonce_len, name, mode, n)
            for aad in (b"", rand_bytes(n % 37 + 1, "aad", n)):
                full = ref(ecb, nonce, pt, aad, 16)  # a GCM tag of t bytes is the first t of the 16
                for t in tags:
                    sealed = a.encrypt(nonce, pt, aad, tag_length=t)
                    assert type(sealed) is bytes and len(sealed) == n + t
                    expect = full[:n + t] if mode == "gcm" else ref(ecb, nonce, pt, aad, t)
                    assert sealed == expect, (mode, n, len(aad), t)
                    assert a.decrypt(nonce, sealed, aad, tag_length=t) == pt
            # associated_data=None is no AAD
            assert a.encrypt(nonce, pt) == a.encrypt(nonce, pt, b"")
        a.close()


@pytest.mark.parametrize("iv_len", [1, 7, 11, 12, 13, 16, 17, 32, 64])
def test_gcm_iv_lengths(iv_len):
    key = key_for("lea-128")
    ecb = kcipher.Cipher("lea-128", key).ecb_encrypt
    a = kcipher.AEAD("lea-128-gcm", key)
    iv, pt, aad = rand_bytes(iv_len, "iv"), rand_bytes(100, "pt"), rand_bytes(20, "aad")
    assert a.encrypt(iv, pt, aad) == ref_gcm(ecb, iv, pt, aad, 16)


@pytest.mark.parametrize("nonce_len", range(7, 14))
def test_ccm_nonce_lengths_and_long_aad(nonce_len):
    key = key_for("aria-256")
    ecb = kcipher.Cipher("aria-256", key).ecb_encrypt
    a = kcipher.AEAD("aria-256-ccm", key)
    nonce, pt = rand_bytes(nonce_len, "n"), rand_bytes(70, "pt")
    for aad_len in (1, 14, 15, 300):
        aad = rand_bytes(aad_len, "aad")
        assert a.encrypt(nonce, pt, aad, tag_length=10) == ref_ccm(ecb, nonce, pt, aad, 10)


def test_large_message_releases_the_gil_path():
    a = kcipher.AEAD("aria-128-gcm", key_for("aria-128"))
    pt = rand_bytes(1 << 20, "big")
    sealed = a.encrypt(bytes(12), pt, b"x")
    assert a.decrypt(bytes(12), sealed, b"x") == pt


# ---- InvalidTag ----

@pytest.mark.parametrize("mode", ["gcm", "ccm"])
def test_every_flipped_byte_is_rejected(mode):
    a = kcipher.AEAD(f"cham-128-256-{mode}", key_for("cham-128-256"))
    nonce, pt, aad = rand_bytes(12, "n"), rand_bytes(40, "pt"), rand_bytes(9, "aad")
    sealed = a.encrypt(nonce, pt, aad, tag_length=12)
    for i in range(len(sealed)):
        for bit in (0x01, 0x80):
            bad = bytearray(sealed)
            bad[i] ^= bit
            with pytest.raises(kcipher.InvalidTag):
                a.decrypt(nonce, bytes(bad), aad, tag_length=12)
    for i in range(len(aad)):
        with pytest.raises(kcipher.InvalidTag):
            a.decrypt(nonce, sealed, flip(aad, i, 0x04), tag_length=12)
    for i in range(len(nonce)):
        with pytest.raises(kcipher.InvalidTag):
            a.decrypt(flip(nonce, i, 0x10), sealed, aad, tag_length=12)
    with pytest.raises(kcipher.InvalidTag):
        a.decrypt(nonce, sealed, None, tag_length=12)  # AAD left out
    with pytest.raises(kcipher.InvalidTag):
        a.decrypt(nonce, sealed[:-1], aad, tag_length=12)  # one byte short
    with pytest.raises(kcipher.InvalidTag):
        a.decrypt(nonce, sealed, aad, tag_length=14 if mode == "ccm" else 13)  # another tag length
    with pytest.raises(kcipher.InvalidTag):
        kcipher.AEAD(f"cham-128-256-{mode}", bytes(32)).decrypt(nonce, sealed, aad, tag_length=12)  # another key
    assert a.decrypt(nonce, sealed, aad, tag_length=12) == pt


def test_invalid_tag_is_a_kcipher_error_and_not_a_value_error():
    a = kcipher.AEAD("seed-128-gcm", key_for("seed-128"))
    with pytest.raises(kcipher.InvalidTag) as e:
        a.decrypt(bytes(12), bytes(16))
    assert isinstance(e.value, kcipher.Error) and not isinstance(e.value, ValueError)
    assert e.value.status == 34 and "authentic" in str(e.value).lower()


def test_bytearray_in_bytearray_out_and_buffers():
    a = kcipher.AEAD("lea-192-gcm", key_for("lea-192"))
    pt = rand_bytes(33, "pt")
    sealed = a.encrypt(bytearray(12), bytearray(pt), bytearray(b"hdr"))
    assert type(sealed) is bytearray and bytes(sealed) == a.encrypt(bytes(12), pt, b"hdr")
    assert type(a.decrypt(bytes(12), sealed, b"hdr")) is bytearray
    opened = a.decrypt(memoryview(bytes(12)), memoryview(bytes(sealed)), memoryview(b"hdr"))
    assert type(opened) is bytes and opened == pt


# ---- arrays ----

@needs_numpy
def test_numpy_arrays():
    a = kcipher.AEAD("aria-192-ccm", key_for("aria-192"))
    rng = np.random.default_rng(7)
    nonce = rng.integers(0, 256, 11, dtype=np.uint8)
    for x in (rng.integers(0, 256, 1000, dtype=np.uint8), rng.random((8, 5), dtype=np.float32),
              np.arange(24).astype("datetime64[s]"), np.zeros((0,), np.uint8), rng.integers(0, 2, (3, 3)) > 0):
        aad = rng.integers(0, 256, 5, dtype=np.uint8)
        sealed = a.encrypt(nonce, x, aad, tag_length=8)
        assert type(sealed) is np.ndarray and sealed.dtype == np.uint8 and sealed.shape == (x.nbytes + 8,)
        assert sealed.flags.writeable
        assert sealed.tobytes() == a.encrypt(nonce.tobytes(), x.tobytes(), aad.tobytes(), tag_length=8)
        opened = a.decrypt(nonce, sealed, aad, tag_length=8)
        assert type(opened) is np.ndarray and opened.tobytes() == x.tobytes()
        sealed[0] ^= 1
        with pytest.raises(kcipher.InvalidTag):
            a.decrypt(nonce, sealed, aad, tag_length=8)
    with pytest.raises(ValueError, match="contiguous"):
        a.encrypt(nonce, np.zeros((8, 8), np.uint8).T)
    with pytest.raises(ValueError, match="contiguous"):
        a.encrypt(nonce, b"", np.zeros((8, 8), np.uint8)[:, ::2])


@needs_numpy
def test_array_interface_without_buffer_protocol():
    class HostArray:  # only __array_interface__, as some libraries' host arrays
        def __init__(self, a):
            self._a = a

        @property
        def __array_interface__(self):
            return self._a.__array_interface__

    a = kcipher.AEAD("lea-128-gcm", key_for("lea-128"))
    x = np.arange(100, dtype=np.uint16)
    sealed = a.encrypt(bytes(12), HostArray(x), HostArray(np.frombuffer(b"aad", np.uint8)))
    assert type(sealed) is np.ndarray and sealed.tobytes() == a.encrypt(bytes(12), x.tobytes(), b"aad")
    assert kcipher.cmac("lea-128", bytes(16), HostArray(x)) == kcipher.cmac("lea-128", bytes(16), x.tobytes())


def test_gpu_arrays_give_gpu_arrays():
    """GCM over a GPU array runs on its GPU (test_gpu_aead.py has the rest), CMAC reads it
    through host memory: either way the result is of the array's kind, on its device."""
    g = a_gpu_array(100)
    if g is None:
        pytest.skip("no CUDA PyTorch or CuPy here")
    if kcipher.gpu_count() == 0:
        pytest.skip("no GPU usable by kcipher here (GCM on a GPU array needs one)")
    a = kcipher.AEAD("aria-128-gcm", key_for("aria-128"))
    sealed = a.encrypt(bytes(12), g, g[:10])
    assert type(sealed) is type(g) and sealed.device == g.device and sealed.shape == (116,)
    assert to_host_bytes(sealed) == a.encrypt(bytes(12), bytes(100), bytes(10))
    opened = a.decrypt(bytes(12), sealed, g[:10])
    assert type(opened) is type(g) and to_host_bytes(opened) == bytes(100)
    assert kcipher.cmac("aria-128", bytes(16), g) == kcipher.cmac("aria-128", bytes(16), bytes(100))


# ---- argument errors ----

def test_tag_lengths():
    for mode, good in [("gcm", GCM_TAGS), ("ccm", CCM_TAGS)]:
        a = kcipher.AEAD(f"aria-128-{mode}", bytes(16))
        for t in range(-1, 20):
            if t in good:
                assert len(a.encrypt(bytes(12), b"abc", tag_length=t)) == 3 + t
                continue
            with pytest.raises(kcipher.TagLengthError) as e:
                a.encrypt(bytes(12), b"abc", tag_length=t)
            assert isinstance(e.value, ValueError)
            with pytest.raises(kcipher.TagLengthError):
                a.decrypt(bytes(12), bytes(40), tag_length=t)
    with pytest.raises(TypeError):
        a.encrypt(bytes(12), b"", tag_length=16.0)


def test_nonce_lengths():
    g = kcipher.AEAD("lea-256-gcm", bytes(32))
    with pytest.raises(kcipher.IVLengthError, match="at least 1 byte"):
        g.encrypt(b"", b"data")
    with pytest.raises(kcipher.IVLengthError):
        g.decrypt(b"", bytes(32))
    c = kcipher.AEAD("lea-256-ccm", bytes(32))
    for n in (0, 1, 6, 14, 16):
        with pytest.raises(kcipher.IVLengthError, match="7 to 13"):
            c.encrypt(bytes(n), b"data")
    for n in range(7, 14):
        assert len(c.encrypt(bytes(n), b"data")) == 20


def test_short_ciphertext_is_a_data_length_error():
    a = kcipher.AEAD("aria-128-gcm", bytes(16))
    for n in (0, 1, 15):
        with pytest.raises(kcipher.DataLengthError, match="shorter than the 16-byte tag"):
            a.decrypt(bytes(12), bytes(n))
    assert a.decrypt(bytes(12), a.encrypt(bytes(12), b"")) == b""


def test_ccm_length_limit_for_its_nonce():
    a = kcipher.AEAD("aria-128-ccm", bytes(16))
    # a 13-byte nonce leaves a 2-byte length field: at most 65535 bytes
    assert len(a.encrypt(bytes(13), bytes(65535), tag_length=4)) == 65539
    with pytest.raises(kcipher.MessageLimitError) as e:
        a.encrypt(bytes(13), bytes(65536))
    assert isinstance(e.value, ValueError)
    assert len(a.encrypt(bytes(12), bytes(65536), tag_length=4)) == 65540


def test_names_keys_and_types():
    with pytest.raises(kcipher.UnknownCipherError, match="-gcm"):
        kcipher.AEAD("aria-128", bytes(16))  # the mode is part of the name
    with pytest.raises(kcipher.UnknownCipherError, match="CTR"):
        kcipher.AEAD("aria-128-ctr", bytes(16))
    with pytest.raises(kcipher.UnknownCipherError):
        kcipher.AEAD("aria-512-gcm", bytes(16))
    with pytest.raises(kcipher.KeyLengthError, match="16-byte key"):
        kcipher.AEAD("aria-128-gcm", bytes(32))
    for name in BLOCK8:
        with pytest.raises(kcipher.KernelError, match="128-bit block") as e:
            kcipher.AEAD(f"{name}-gcm", bytes(16))
        assert isinstance(e.value, ValueError)
    with pytest.raises(TypeError, match="fromhex"):
        kcipher.AEAD("aria-128-gcm", "00" * 16)
    a = kcipher.AEAD("aria-128-gcm", bytes(16))
    assert a.name == "aria-128" and a.mode == "gcm" and "aria-128-gcm" in repr(a)
    with pytest.raises(TypeError, match="fromhex"):
        a.encrypt("00" * 12, b"")
    with pytest.raises(TypeError, match="str"):
        a.encrypt(bytes(12), "text")
    with pytest.raises(TypeError, match="str"):
        a.encrypt(bytes(12), b"", "aad")
    with pytest.raises(TypeError):
        a.encrypt(bytes(12), None)
    with pytest.raises(TypeError):
        a.encrypt(bytes(12), 42)
    a.close()
    assert a.closed and "closed" in repr(a)
    with pytest.raises(ValueError, match="closed"):
        a.encrypt(bytes(12), b"")
    with kcipher.AEAD("aria-128-ccm", bytes(16)) as b:
        assert b.mode == "ccm"
    assert b.closed


# ---- CMAC and GMAC ----

@pytest.mark.parametrize("name", BLOCK8 + BLOCK16)
def test_cmac_against_the_reference(name):
    key = key_for(name)
    ecb = kcipher.Cipher(name, key).ecb_encrypt
    bs = kcipher.Cipher(name, key).block_size
    for n in (0, 1, bs - 1, bs, bs + 1, 2 * bs, 100, 1000):
        msg = rand_bytes(n, name, "cmac")
        tag = kcipher.cmac(name, key, msg)
        assert type(tag) is bytes and tag == ref_cmac(ecb, bs, msg, bs), n
        assert kcipher.cmac(f"{name}-cmac", key, msg) == tag
        for t in range(4, bs + 1):
            assert kcipher.cmac(name, key, msg, tag_length=t) == tag[:t]
        assert kcipher.cmac_verify(name, key, msg, tag) is None
        assert kcipher.cmac_verify(name, key, msg, tag[:5]) is None  # a truncated tag, checked at its length
        with pytest.raises(kcipher.InvalidTag):
            kcipher.cmac_verify(name, key, msg, flip(tag))
        if msg:
            with pytest.raises(kcipher.InvalidTag):
                kcipher.cmac_verify(name, key, flip(msg, 0, 0x80), tag)


def test_cmac_hight_64_bit_block():
    key = key_for("hight")
    msg = rand_bytes(45, "hight")
    tag = kcipher.cmac("hight", key, msg)
    assert len(tag) == 8
    assert tag == ref_cmac(kcipher.Cipher("hight", key).ecb_encrypt, 8, msg, 8)
    for t in (0, 3, 9, 16, 17):
        with pytest.raises(kcipher.TagLengthError, match="4 to 8" if 0 < t <= 16 else None):
            kcipher.cmac("hight", key, msg, tag_length=t)
    with pytest.raises(kcipher.TagLengthError):
        kcipher.cmac_verify("hight", key, msg, tag + b"\0")
    with pytest.raises(kcipher.KernelError, match="128-bit block"):
        kcipher.gmac("hight", key, bytes(12), msg)


def test_cmac_seed_against_openssl():
    """SEED is the one cipher of this library that pyca/cryptography (OpenSSL) has."""
    cryptography = optional_module("cryptography")
    if cryptography is None:
        pytest.skip("cryptography is not installed")
    from cryptography.hazmat.primitives import cmac as pyca_cmac

    try:
        from cryptography.hazmat.decrepit.ciphers.algorithms import SEED
    except ImportError:
        from cryptography.hazmat.primitives.ciphers.algorithms import SEED
    key = key_for("seed-128")
    for n in (0, 1, 16, 17, 100):
        msg = rand_bytes(n, "seed")
        try:
            c = pyca_cmac.CMAC(SEED(key))
        except Exception as e:  # an OpenSSL without its legacy provider
            pytest.skip(f"OpenSSL's SEED-CMAC is not available here: {e}")
        c.update(msg)
        assert kcipher.cmac("seed-128", key, msg) == c.finalize()


@pytest.mark.parametrize("name", BLOCK16)
def test_gmac_is_gcm_with_the_data_as_aad(name):
    key = key_for(name)
    a = kcipher.AEAD(f"{name}-gcm", key)
    for iv_len in (1, 12, 16):
        iv = rand_bytes(iv_len, "iv")
        for n in (0, 1, 16, 33):
            data = rand_bytes(n, name, "gmac")
            for t in GCM_TAGS:
                tag = kcipher.gmac(name, key, iv, data, tag_length=t)
                assert tag == a.encrypt(iv, b"", data, tag_length=t)
                assert kcipher.gmac(f"{name}-gmac", key, iv, data, t) == tag
                assert kcipher.gmac_verify(name, key, iv, data, tag) is None
                with pytest.raises(kcipher.InvalidTag):
                    kcipher.gmac_verify(name, key, iv, data, flip(tag, len(tag) - 1, 0x02))
                with pytest.raises(kcipher.InvalidTag):
                    kcipher.gmac_verify(name, key, flip(iv, 0, 0x02), data, tag)


def test_mac_argument_errors():
    with pytest.raises(kcipher.UnknownCipherError, match="GCM, not GMAC"):
        kcipher.gmac("aria-128-gcm", bytes(16), bytes(12), b"")
    with pytest.raises(kcipher.UnknownCipherError, match="GMAC, not CMAC"):
        kcipher.cmac("aria-128-gmac", bytes(16), b"")
    with pytest.raises(kcipher.UnknownCipherError):
        kcipher.cmac("nope", bytes(16), b"")
    with pytest.raises(kcipher.KeyLengthError, match="32-byte key"):
        kcipher.cmac("lea-256", bytes(16), b"")
    with pytest.raises(kcipher.IVLengthError):
        kcipher.gmac("lea-128", bytes(16), b"", b"data")
    for t in (0, 5, 11, 17):
        with pytest.raises(kcipher.TagLengthError):
            kcipher.gmac("lea-128", bytes(16), bytes(12), b"data", tag_length=t)
    with pytest.raises(TypeError, match="fromhex"):
        kcipher.cmac_verify("lea-128", bytes(16), b"data", "00" * 16)
    with pytest.raises(TypeError, match="str"):
        kcipher.cmac("lea-128", bytes(16), "data")


@needs_numpy
def test_mac_numpy():
    key = key_for("cham-128-128")
    x = np.random.default_rng(3).random((10, 7))
    assert kcipher.cmac("cham-128-128", key, x) == kcipher.cmac("cham-128-128", key, x.tobytes())
    assert kcipher.gmac("cham-128-128", key, np.zeros(12, np.uint8), x) == \
        kcipher.gmac("cham-128-128", key, bytes(12), x.tobytes())
    with pytest.raises(ValueError, match="contiguous"):
        kcipher.cmac("cham-128-128", key, x.T)
