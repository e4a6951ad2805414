"""Every cipher and mode against the vector files of the C tests (tests/vectors/)."""
import pytest

import kcipher
from conftest import load_cryptopp, load_kv_lines, load_openssl_evp, unhex

KV_FILES = {
    "aria_rfc5794.txt": 3,
    "kcmvp_aria_ecb_kat.txt": None,
    "kcmvp_lea_ecb_kat.txt": 1020,
    "lea_spec_ttak_ko_12_0223.txt": 3,
    "kcmvp_hight_ecb_kat.txt": 216,
    "cham_revised_2019.txt": 3,
    "kcmvp_seed_ecb_kat.txt": 276,
}


def kv_name(rec):
    c = rec["cipher"].lower().replace("/", "-")  # "CHAM-64/128" -> cham-64-128
    return c


@pytest.mark.parametrize("file", sorted(KV_FILES))
def test_ecb_known_answers(file):
    n = 0
    for rec in load_kv_lines(file):
        if "rounds" in rec and rec["cipher"].startswith("CHAM") and rec["rounds"] not in ("88", "112", "120"):
            continue  # the original (2017) CHAM lines of that file
        key, pt, ct = unhex(rec["key"]), unhex(rec["pt"]), unhex(rec["ct"])
        with kcipher.Cipher(kv_name(rec), key) as c:
            assert c.ecb_encrypt(pt) == ct, rec
            assert c.ecb_decrypt(ct) == pt, rec
        n += 1
    if KV_FILES[file] is not None:
        assert n == KV_FILES[file]
    assert n > 0


def check_modes(name, mode, key, iv, pt, ct):
    c = kcipher.Cipher(name, key)
    if mode == "ECB":
        assert c.ecb_encrypt(pt) == ct
        assert c.ecb_decrypt(ct) == pt
    elif mode == "CBC":
        assert c.cbc_encrypt(pt, iv) == ct
        assert c.cbc_decrypt(ct, iv) == pt
    elif mode == "CTR":
        assert c.ctr(pt, iv) == ct
        assert c.ctr(ct, iv) == pt
    elif mode in ("CFB", "CFB8"):
        op = mode.lower()
        assert getattr(c, op + "_encrypt")(pt, iv) == ct
        assert getattr(c, op + "_decrypt")(ct, iv) == pt
    elif mode == "OFB":
        assert c.ofb(pt, iv) == ct
        assert c.ofb(ct, iv) == pt
    else:
        return 0
    return 1


def test_openssl_aria_modes():
    n = 0
    for r in load_openssl_evp("openssl_evpciph_aria.txt"):
        if "cipher" not in r or "aad" in r or "tag" in r:
            continue
        name = r["cipher"]  # ARIA-128-CBC
        iv = unhex(r["iv"]) if "iv" in r else b""
        n += check_modes("aria-" + name[5:8], name[9:], unhex(r["key"]), iv, unhex(r["plaintext"]),
                         unhex(r["ciphertext"]))
    assert n == 21  # 6 ECB, 3 CBC, 3 CTR, 3 CFB, 3 CFB8, 3 OFB


@pytest.mark.parametrize("file,expect", [("cryptopp_aria.txt", 12), ("cryptopp_lea.txt", 90),
                                         ("cryptopp_hight.txt", 75)])
def test_cryptopp_modes(file, expect):
    n = 0
    for r in load_cryptopp(file):
        key = unhex(r["key"])
        family, mode = r["name"].split("/")
        if family.startswith("ARIA"):
            name = f"aria-{8 * len(key)}"
        elif family.startswith("LEA"):
            name = f"lea-{8 * len(key)}"
        else:
            name = "hight"
        iv = unhex(r["iv"]) if "iv" in r else b""
        n += check_modes(name, mode, key, iv, unhex(r["plaintext"]), unhex(r["ciphertext"]))
    assert n == expect


def test_cbc_chains_in_pieces():
    key, iv = bytes(range(32)), bytes(range(16, 32))
    pt = bytes(range(256)) * 4
    c = kcipher.Cipher("cham-128-256", key)
    whole = c.cbc_encrypt(pt, iv)
    first = c.cbc_encrypt(pt[:512], iv)
    second = c.cbc_encrypt(pt[512:], first[-16:])
    assert first + second == whole
    assert c.cbc_decrypt(whole[:512], iv) + c.cbc_decrypt(whole[512:], whole[496:512]) == pt


@pytest.mark.parametrize("name", [c.name for c in kcipher.ciphers()])
def test_ctr_offset_slices(name):
    info = next(c for c in kcipher.ciphers() if c.name == name)
    bs = info.block_bytes
    c = kcipher.Cipher(name, bytes(range(info.key_bytes)))
    iv = b"\xff" * (bs - 1) + b"\xfd"  # carries through every byte and wraps
    data = bytes(range(256)) * 10 + b"tail"
    whole = c.ctr(data, iv)
    k = 7 * bs
    assert c.ctr(data[:k], iv) + c.ctr(data[k:], iv, offset=7) == whole
    assert c.ctr(whole, iv) == data


@pytest.mark.parametrize("name", [c.name for c in kcipher.ciphers()])
def test_every_cpu_kernel_agrees(name):
    info = next(c for c in kcipher.ciphers() if c.name == name)
    data = bytes((i * 37) & 0xFF for i in range(4096 + 3 * info.block_bytes))
    key, iv = bytes(range(info.key_bytes)), bytes(range(info.block_bytes))
    ref = kcipher.Cipher(name, key, f"{info.family}/ref")
    ks = kcipher.kernels(name, available=True)
    assert ks
    for k in ks:
        if "cuda-gpu" in k.requires:
            continue
        c = kcipher.Cipher(name, key, k.name)
        assert c.kernel == k.name
        assert c.ecb_encrypt(data) == ref.ecb_encrypt(data), k.name
        assert c.cbc_decrypt(data, iv) == ref.cbc_decrypt(data, iv), k.name
        assert c.ctr(data[:-1], iv, 5) == ref.ctr(data[:-1], iv, 5), k.name
