"""The same bytes from numpy on the CPU and from CuPy / PyTorch arrays on the GPU (zero-copy,
on the array's stream). Skipped where there is no GPU, no CUDA build, or no cupy/torch."""
import pytest

import kcipher
from conftest import optional_module

np = pytest.importorskip("numpy")

if kcipher.gpu_count() == 0:
    pytest.skip("no GPU usable by kcipher here", allow_module_level=True)

torch = optional_module("torch")
cupy = optional_module("cupy")
if torch is not None and not torch.cuda.is_available():
    torch = None

CIPHERS = [c for c in kcipher.ciphers()]
N = (1 << 20) + 24  # crosses launches; a multiple of 8 but not of 16 for CTR tails


def host_reference(c, info, data, iv, offset):
    n = len(data) - len(data) % info.block_bytes
    return c.ecb_encrypt(data[:n]), c.ctr(data, iv, offset)


@pytest.mark.skipif(torch is None, reason="PyTorch with CUDA is not installed")
@pytest.mark.parametrize("info", CIPHERS, ids=lambda c: c.name)
def test_torch_same_bytes_as_numpy(info):
    rng = np.random.default_rng(5)
    key = rng.integers(0, 256, info.key_bytes, dtype=np.uint8).tobytes()
    iv = b"\xff" * info.block_bytes  # wraps at once
    host = rng.integers(0, 256, N, dtype=np.uint8)
    c = kcipher.Cipher(info.name, key)
    ecb_ref, ctr_ref = host_reference(c, info, host.tobytes(), iv, 3)
    n = N - N % info.block_bytes
    t = torch.from_numpy(host).cuda()
    e = c.ecb_encrypt(t[:n])
    assert e.is_cuda and e.dtype == torch.uint8
    assert e.cpu().numpy().tobytes() == ecb_ref
    assert torch.equal(c.ecb_decrypt(e), t[:n])
    s = c.ctr(t, iv, 3)
    assert s.cpu().numpy().tobytes() == ctr_ref
    # in place, another dtype view, on a side stream
    f = t[: n].view(torch.int32) if n % 4 == 0 else t[:n]
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        g = f.clone()
        c.ecb_encrypt(g, out=g)
    side.synchronize()
    assert g.cpu().numpy().tobytes() == ecb_ref
    assert c.gpu_kernel is not None


@pytest.mark.skipif(cupy is None, reason="CuPy is not installed")
@pytest.mark.parametrize("info", CIPHERS, ids=lambda c: c.name)
def test_cupy_same_bytes_as_numpy(info):
    rng = np.random.default_rng(6)
    key = rng.integers(0, 256, info.key_bytes, dtype=np.uint8).tobytes()
    iv = bytes(range(info.block_bytes))
    host = rng.integers(0, 2**16, N // 2, dtype=np.uint16)
    c = kcipher.Cipher(info.name, key)
    ecb_ref, ctr_ref = host_reference(c, info, host.tobytes(), iv, 0)
    d = cupy.asarray(host)
    y = c.ctr(d, iv)
    assert isinstance(y, cupy.ndarray) and y.dtype == d.dtype
    assert cupy.asnumpy(y).tobytes() == ctr_ref
    with cupy.cuda.Stream(non_blocking=True) as s:
        z = d.copy()
        c.ctr(z, iv, out=z)
        s.synchronize()
    assert cupy.asnumpy(z).tobytes() == ctr_ref
    n = (N // 2) - (N // 2) % (info.block_bytes // 2)
    assert cupy.asnumpy(c.ecb_encrypt(d[:n])).tobytes() == ecb_ref[: 2 * n]
    # DLPack as the only interface
    class OnlyDLPack:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    out = cupy.empty_like(d)
    c.ctr(OnlyDLPack(d), iv, out=OnlyDLPack(out))
    cupy.cuda.Device().synchronize()
    assert cupy.asnumpy(out).tobytes() == ctr_ref


def test_gpu_kernel_cipher_and_cpu_only_cipher():
    arr = None
    if torch is not None:
        arr = torch.zeros(64, dtype=torch.uint8, device="cuda")
    elif cupy is not None:
        arr = cupy.zeros(64, dtype=cupy.uint8)
    else:
        pytest.skip("neither PyTorch with CUDA nor CuPy is installed")
    key = bytes(16)
    g = kcipher.Cipher("lea-128", key, "gpu")
    assert "cuda" in g.kernel and g.gpu_kernel == g.kernel
    assert bytes(g.ctr(bytes(64), bytes(16))) == kcipher.Cipher("lea-128", key).ctr(bytes(64), bytes(16))
    cpu = kcipher.Cipher("lea-128", key, "cpu")
    with pytest.raises(kcipher.KernelError, match="kernel=None"):
        cpu.ctr(arr, bytes(16))
    with pytest.raises(TypeError, match="host memory only"):
        kcipher.Cipher("lea-128", key).cbc_encrypt(arr, bytes(16))


def test_drbg_to_gpu_arrays():
    if torch is None and cupy is None:
        pytest.skip("neither PyTorch with CUDA nor CuPy is installed")
    with kcipher.DRBG("lea-128", kernel="gpu") as d:
        a = d.generate(1 << 20, device="gpu")
        assert a.shape[0] == 1 << 20
