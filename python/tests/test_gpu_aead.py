"""AEAD (GCM) on CuPy arrays and CUDA tensors, on the GPU: the same bytes as the CPU's AEAD on
bytes, a round trip, InvalidTag on any change. Skipped where there is no GPU, no CUDA build, or
no cupy/torch (as test_gpu.py)."""
import pytest

import kcipher
from conftest import gpu_array_modules, seed_of, to_host_bytes

np = pytest.importorskip("numpy")

if kcipher.gpu_count() == 0:
    pytest.skip("no GPU usable by kcipher here", allow_module_level=True)

torch, cupy = gpu_array_modules()
LIBS = [name for name, m in (("torch", torch), ("cupy", cupy)) if m is not None]
if not LIBS:
    pytest.skip("neither PyTorch with CUDA nor CuPy is installed", allow_module_level=True)

CIPHERS = [c for c in kcipher.ciphers() if c.block_bytes == 16]
LENGTHS = [0, 1, 15, 16, 17, 1000, 1 << 20]
GCM_TAGS = [16, 15, 14, 13, 12, 8, 4]

# GPU clock cycles a stream is kept busy before the data a test checks is written on it (as in
# test_gpu.py): a call that did not run on that stream, behind that work, would read zeros.
BUSY_CYCLES = 600_000_000


def to_gpu(lib, b):
    """bytes -> a 1-D uint8 array of `lib` on the current GPU."""
    host = np.frombuffer(b, dtype=np.uint8).copy()
    if lib == "torch":
        return torch.from_numpy(host).cuda()
    return cupy.asarray(host)


def flip(lib, a, i):
    """A copy of a with bit 0 of byte i flipped."""
    b = bytearray(to_host_bytes(a))
    b[i] ^= 1
    return to_gpu(lib, bytes(b))


def assert_gpu_uint8(lib, a, n, like):
    if lib == "torch":
        assert isinstance(a, torch.Tensor) and a.is_cuda and a.dtype == torch.uint8 and a.device == like.device
        assert tuple(a.shape) == (n,)
    else:
        assert isinstance(a, cupy.ndarray) and a.dtype == cupy.uint8 and a.device == like.device
        assert a.shape == (n,)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("info", CIPHERS, ids=lambda c: c.name)
def test_gcm_on_the_gpu_same_bytes_as_the_cpu(lib, info):
    rng = np.random.default_rng(seed_of("gpu-gcm", lib, info.name))
    key = rng.integers(0, 256, info.key_bytes, dtype=np.uint8).tobytes()
    cpu = kcipher.AEAD(f"{info.name}-gcm", key, kernel="cpu")
    gpu = kcipher.AEAD(f"{info.name}-gcm", key)  # kernel=None: a GPU kernel for GPU arrays
    assert gpu.gpu_kernel is not None and cpu.gpu_kernel is None
    for n in LENGTHS:
        pt = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        d = to_gpu(lib, pt)
        cases = [(12, None, 16), (1, b"", 16), (16, rng.bytes(20), 12), (60, rng.bytes(1000), 8), (8, rng.bytes(17), 4)]
        if n < 100_000:
            cases += [(12, rng.bytes(k), t) for k, t in ((1, 15), (16, 14), (33, 13))]
        for iv_len, aad, t in cases:
            iv = rng.bytes(iv_len)
            want = cpu.encrypt(iv, pt, aad, tag_length=t)
            sealed = gpu.encrypt(iv, d, aad, tag_length=t)
            assert_gpu_uint8(lib, sealed, n + t, d)
            assert to_host_bytes(sealed) == want, (n, iv_len, aad and len(aad), t)
            opened = gpu.decrypt(iv, sealed, aad, tag_length=t)
            assert_gpu_uint8(lib, opened, n, d)
            assert to_host_bytes(opened) == pt
            # the CPU opens what the GPU sealed, and a GPU AAD is the same as its bytes
            assert cpu.decrypt(iv, to_host_bytes(sealed), aad, tag_length=t) == pt
            if aad:
                assert to_host_bytes(gpu.encrypt(iv, d, to_gpu(lib, aad), tag_length=t)) == want
        assert to_host_bytes(d) == pt  # the input is untouched


@pytest.mark.parametrize("lib", LIBS)
def test_gpu_kernel_by_name_and_gpu_for_host_memory(lib):
    key = bytes(range(32))
    g = kcipher.AEAD("lea-256-gcm", key, "gpu")
    assert "cuda" in g.kernel and g.gpu_kernel == g.kernel
    named = kcipher.AEAD("lea-256-gcm", key, g.kernel)
    cpu = kcipher.AEAD("lea-256-gcm", key, "cpu")
    pt = bytes(range(256)) * 300
    iv = bytes(12)
    want = cpu.encrypt(iv, pt, b"hdr")
    assert g.encrypt(iv, pt, b"hdr") == want  # host memory through the GPU context
    assert to_host_bytes(g.encrypt(iv, to_gpu(lib, pt), b"hdr")) == want
    assert to_host_bytes(named.decrypt(iv, to_gpu(lib, want), b"hdr")) == pt
    assert named.decrypt(iv, want, b"hdr") == pt


@pytest.mark.parametrize("lib", LIBS)
def test_gpu_decrypt_any_change_is_invalid_tag(lib):
    a = kcipher.AEAD("aria-128-gcm", bytes(16))
    iv, aad = bytes(range(12)), b"associated"
    for n in (0, 1, 17, 1 << 20):
        pt = bytes(i % 251 for i in range(n))
        sealed = a.encrypt(iv, to_gpu(lib, pt), aad)
        for i in sorted({0, n // 2, max(n - 1, 0), n, n + 15}):  # ciphertext bytes and tag bytes
            with pytest.raises(kcipher.InvalidTag):
                a.decrypt(iv, flip(lib, sealed, i), aad)
        with pytest.raises(kcipher.InvalidTag):
            a.decrypt(iv, sealed, aad + b"!")
        with pytest.raises(kcipher.InvalidTag):
            a.decrypt(bytes(12), sealed, aad)
        with pytest.raises(kcipher.InvalidTag):
            a.decrypt(iv, sealed, aad, tag_length=12)  # the last 12 bytes taken as the tag
        assert to_host_bytes(a.decrypt(iv, sealed, aad)) == pt  # and the sealed array unchanged
    for n in (0, 1, 15):
        with pytest.raises(kcipher.DataLengthError, match="shorter than the 16-byte tag"):
            a.decrypt(iv, to_gpu(lib, bytes(n)))


@pytest.mark.parametrize("lib", LIBS)
def test_gpu_arrays_of_other_dtypes_and_shapes(lib):
    a = kcipher.AEAD("cham-128-256-gcm", bytes(32))
    cpu = kcipher.AEAD("cham-128-256-gcm", bytes(32), "cpu")
    if lib == "torch":
        x = torch.arange(64 * 48, dtype=torch.float32, device="cuda").view(64, 48)
    else:
        x = cupy.arange(64 * 48, dtype=cupy.float32).reshape(64, 48)
    raw = to_host_bytes(x)
    sealed = a.encrypt(bytes(12), x, b"")
    assert_gpu_uint8(lib, sealed, len(raw) + 16, x)
    assert to_host_bytes(sealed) == cpu.encrypt(bytes(12), raw, b"")
    with pytest.raises(ValueError, match="contiguous"):
        a.encrypt(bytes(12), x.T)


@pytest.mark.parametrize("lib", LIBS)
def test_ccm_and_cpu_kernels_refuse_gpu_arrays(lib):
    d = to_gpu(lib, bytes(64))
    with pytest.raises(TypeError, match="host memory only"):
        kcipher.AEAD("aria-128-ccm", bytes(16)).encrypt(bytes(12), d)
    with pytest.raises(TypeError, match="host memory only"):
        kcipher.AEAD("aria-128-ccm", bytes(16), "gpu").decrypt(bytes(12), d)
    assert kcipher.AEAD("aria-128-ccm", bytes(16)).gpu_kernel is None
    with pytest.raises(kcipher.KernelError, match="cannot take GPU arrays"):
        kcipher.AEAD("aria-128-gcm", bytes(16), "cpu").encrypt(bytes(12), d)
    with pytest.raises(kcipher.KernelError, match="cannot take GPU arrays"):
        kcipher.AEAD("aria-128-gcm", bytes(16), "aria/ref").decrypt(bytes(12), d)
    # CCM over bytes still works with a GPU kernel named (its chain runs on the CPU)
    ccm = kcipher.AEAD("aria-128-ccm", bytes(16), "gpu")
    assert ccm.encrypt(bytes(12), b"abc") == kcipher.AEAD("aria-128-ccm", bytes(16)).encrypt(bytes(12), b"abc")
    assert to_host_bytes(d) == bytes(64)


@pytest.mark.skipif(torch is None, reason="PyTorch with CUDA is not installed")
def test_torch_gcm_runs_on_the_current_stream():
    """Inside `with torch.cuda.stream(side)`, behind a busy kernel and the copy that writes the
    input: a call on another stream, or at once, would seal zeros. The call waits, so the result
    is final when it returns."""
    a = kcipher.AEAD("aria-256-gcm", bytes(range(32)))
    pt = np.random.default_rng(3).integers(0, 256, 1 << 20, dtype=np.uint8)
    src = torch.from_numpy(pt).cuda()
    want = kcipher.AEAD("aria-256-gcm", bytes(range(32)), "cpu").encrypt(bytes(12), pt.tobytes(), b"h")
    a.encrypt(bytes(12), src, b"h")  # the GPU context made first
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    g = torch.zeros_like(src)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(BUSY_CYCLES)
        g.copy_(src)
        sealed = a.encrypt(bytes(12), g, b"h")
        assert side.query(), "the call returned before the work on its stream was done"
        opened = a.decrypt(bytes(12), sealed, b"h")
    assert to_host_bytes(sealed) == want
    assert torch.equal(opened, src)

