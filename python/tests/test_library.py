"""kernels(), ciphers(), info(), selftest() and `python -m kcipher`."""
import subprocess
import sys

import kcipher


def test_ciphers_and_kernels():
    names = [c.name for c in kcipher.ciphers()]
    assert names == ["aria-128", "aria-192", "aria-256", "lea-128", "lea-192", "lea-256", "hight", "cham-64-128",
                     "cham-128-128", "cham-128-256", "seed-128"]
    ks = kcipher.kernels()
    assert {"aria/ref", "lea/ref", "hight/ref", "cham/ref", "seed/ref"} <= {k.name for k in ks}
    assert all(k.family == "aria" for k in kcipher.kernels("aria-256"))
    for c in kcipher.ciphers():
        assert c.default_kernel in {k.name for k in kcipher.kernels(c.name, available=True)}
        assert kcipher.Cipher(c.name, bytes(c.key_bytes)).kernel == c.default_kernel


def test_info():
    i = kcipher.info()
    assert i["version"] == kcipher.__version__
    assert len(i["ciphers"]) == 11 and i["kernels"] and isinstance(i["gpus"], list)
    text = kcipher.format_info()
    assert "Kernels:" in text and "aria/ref" in text


def test_selftest():
    r = kcipher.selftest()
    assert r.ok and r.failed == 0 and r.passed > 0


def test_python_dash_m():
    out = subprocess.run([sys.executable, "-m", "kcipher"], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1].endswith(" failed") and ", 0 failed" in out
    info = subprocess.run([sys.executable, "-m", "kcipher", "info"], capture_output=True, text=True, check=True)
    assert "Ciphers" in info.stdout


def test_every_status_has_a_class():
    from kcipher import _kcipher

    for status in _kcipher.statuses():
        if status:
            assert status in kcipher._STATUS_CLASSES, status


def test_type_information_ships():
    import pathlib

    d = pathlib.Path(kcipher.__file__).parent
    assert (d / "py.typed").is_file() and (d / "_kcipher.pyi").is_file() and (d / "_typing.py").is_file()
    stub = (d / "_kcipher.pyi").read_text()
    from kcipher import _kcipher

    for name in ("Context", "Drbg", "keysearch", "ciphers", "kernels", "dlpack_view"):
        assert hasattr(_kcipher, name) and (f"def {name}(" in stub or f"class {name}:" in stub or f"class {name}(" in stub), name
    # the public methods are annotated
    assert kcipher.Cipher.ctr.__annotations__.get("return") is not None
