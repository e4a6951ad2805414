"""Bad input is an exception with the library's message, never a crash."""
import gc

import pytest

import kcipher
from conftest import a_gpu_array, to_host_bytes

KEY = bytes(range(32))


def test_unknown_cipher():
    with pytest.raises(kcipher.UnknownCipherError, match="aria-512") as e:
        kcipher.Cipher("aria-512", KEY)
    assert isinstance(e.value, ValueError) and isinstance(e.value, kcipher.Error)
    assert e.value.status == 2


@pytest.mark.parametrize("name,good", [("aria-128", 16), ("aria-192", 24), ("lea-256", 32), ("hight", 16),
                                       ("cham-64-128", 16), ("cham-128-256", 32)])
def test_wrong_key_length(name, good):
    for n in (0, good - 1, good + 1):
        with pytest.raises(kcipher.KeyLengthError, match=f"{good}-byte key"):
            kcipher.Cipher(name, bytes(n))
    kcipher.Cipher(name, bytes(good))


def test_key_must_be_bytes():
    with pytest.raises(TypeError, match="fromhex"):
        kcipher.Cipher("aria-128", "00" * 16)
    with pytest.raises(TypeError):
        kcipher.Cipher("aria-128", 12345)


def test_bad_mode_lengths():
    c = kcipher.Cipher("aria-128", KEY[:16])
    for n in (1, 15, 17, 31):
        with pytest.raises(kcipher.DataLengthError, match="block"):
            c.ecb_encrypt(bytes(n))
        with pytest.raises(kcipher.DataLengthError):
            c.cbc_decrypt(bytes(n), bytes(16))
    h = kcipher.Cipher("hight", KEY[:16])
    with pytest.raises(kcipher.DataLengthError):
        h.ecb_encrypt(bytes(12))
    assert len(h.ctr(bytes(13), bytes(8))) == 13  # CTR takes any length


def test_wrong_iv():
    c = kcipher.Cipher("lea-128", KEY[:16])
    for iv in (b"", bytes(8), bytes(15), bytes(17)):
        with pytest.raises(kcipher.IVLengthError):
            c.cbc_encrypt(bytes(32), iv)
        with pytest.raises(kcipher.IVLengthError):
            c.ctr(bytes(32), iv)
    with pytest.raises(TypeError, match="fromhex"):
        c.ctr(bytes(32), "00" * 16)
    with pytest.raises(TypeError):
        c.ctr(bytes(32), None)


def test_bad_offset_and_counter_space():
    c = kcipher.Cipher("hight", KEY[:16])
    with pytest.raises(ValueError, match="offset"):
        c.ctr(bytes(8), bytes(8), -1)
    with pytest.raises(ValueError, match="offset"):
        c.ctr(bytes(8), bytes(8), 1 << 64)
    with pytest.raises(kcipher.CounterSpaceError):
        c.ctr(bytes(16), bytes(8), (1 << 64) - 1)
    assert len(c.ctr(bytes(8), bytes(8), (1 << 64) - 1)) == 8


def test_kernel_errors():
    with pytest.raises(kcipher.KernelError, match="no-such"):
        kcipher.Cipher("aria-128", KEY[:16], "aria/no-such")
    with pytest.raises(kcipher.KernelError):
        kcipher.Cipher("aria-128", KEY[:16], "lea/ref")  # another family
    # Every kernel this machine cannot run (GPU kernels without a GPU, CPU kernels without their
    # instruction set) is refused by name.
    unavailable = kcipher.kernels(available=False)
    if not unavailable:
        pytest.skip("every kernel of this build runs on this machine: none to refuse")
    checked = 0
    for k in unavailable:
        info = next(c for c in kcipher.ciphers() if c.family == k.family)
        with pytest.raises(kcipher.KernelError, match=k.name.replace("/", ".")):
            kcipher.Cipher(info.name, bytes(info.key_bytes), k.name)
        checked += 1
    assert checked == len(unavailable) >= 1


def test_out_mismatch():
    c = kcipher.Cipher("aria-128", KEY[:16])
    with pytest.raises(ValueError, match="same size"):
        c.ecb_encrypt(bytes(32), out=bytearray(16))
    with pytest.raises(TypeError, match="writable"):
        c.ecb_encrypt(bytes(32), out=bytes(32))
    with pytest.raises(TypeError, match="bytes-like"):
        c.ecb_encrypt([1, 2, 3])
    with pytest.raises(TypeError):
        c.ecb_encrypt("text")
    b = bytearray(64)
    with pytest.raises(kcipher.ArgumentError, match="overlap"):
        c.ecb_encrypt(memoryview(b)[:32], out=memoryview(b)[16:48])


def test_closed_and_context_manager():
    with kcipher.Cipher("aria-256", KEY) as c:
        assert not c.closed and c.block_size == 16 and c.name == "aria-256"
        c.ctr(b"abc", bytes(16))
    assert c.closed and "closed" in repr(c)
    with pytest.raises(ValueError, match="closed"):
        c.ctr(b"abc", bytes(16))
    c.close()  # twice is fine
    d = kcipher.Cipher("aria-256", KEY)
    del d
    gc.collect()


def test_gpu_array_on_cpu_only_cipher_or_no_gpu():
    c = kcipher.Cipher("aria-128", KEY[:16], "cpu")
    assert c.gpu_kernel is None
    with pytest.raises(ValueError, match="gpu_device"):
        kcipher.Cipher("aria-128", KEY[:16], "cpu", gpu_device=0)
    if kcipher.gpu_count() == 0:
        with pytest.raises(kcipher.GPUError):
            kcipher.Cipher("aria-128", KEY[:16], "gpu")
        assert kcipher.Cipher("aria-128", KEY[:16]).gpu_kernel is None
        pytest.skip("no GPU here: a real GPU array cannot be made")
    arr = a_gpu_array(64)
    if arr is None:
        pytest.skip("a GPU, but neither PyTorch with CUDA nor CuPy to make a GPU array")
    with pytest.raises(kcipher.KernelError, match="cannot take GPU arrays"):
        c.ctr(arr, bytes(16))
    with pytest.raises(kcipher.KernelError):
        c.ecb_encrypt(arr)
    with pytest.raises(kcipher.KernelError):  # a CPU kernel by name: the same
        kcipher.Cipher("aria-128", KEY[:16], "aria/ref").ecb_decrypt(arr)
    with pytest.raises(TypeError, match="host memory only"):
        kcipher.Cipher("aria-128", KEY[:16]).cbc_encrypt(arr, bytes(16))
    with pytest.raises(TypeError, match="both"):  # GPU data, host out=
        kcipher.Cipher("aria-128", KEY[:16]).ctr(arr, bytes(16), out=bytearray(64))
    with pytest.raises(ValueError, match="same size"):
        kcipher.Cipher("aria-128", KEY[:16]).ctr(arr, bytes(16), out=a_gpu_array(32))
    assert to_host_bytes(arr) == bytes(64)  # untouched by the refused calls


def test_cbc_refuses_gpu_kind_arguments_cleanly():
    class Fake:
        __cuda_array_interface__ = {"data": (0, False), "shape": (16,), "typestr": "|u1", "version": 3}

    c = kcipher.Cipher("aria-128", KEY[:16])
    with pytest.raises(TypeError, match="host memory only"):
        c.cbc_encrypt(Fake(), bytes(16))
