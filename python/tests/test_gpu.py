"""The same bytes from numpy on the CPU and from CuPy / PyTorch arrays on the GPU (zero-copy,
on the array's stream). Skipped where there is no GPU, no CUDA build, or no cupy/torch."""
import pytest

import kcipher
from conftest import gpu_array_modules, to_host_bytes

np = pytest.importorskip("numpy")

if kcipher.gpu_count() == 0:
    pytest.skip("no GPU usable by kcipher here", allow_module_level=True)

torch, cupy = gpu_array_modules()
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch with CUDA is not installed")
needs_cupy = pytest.mark.skipif(cupy is None, reason="CuPy is not installed")

CIPHERS = [c for c in kcipher.ciphers()]
N = (1 << 20) + 24  # crosses launches; a multiple of 8 but not of 16 for CTR tails

# GPU clock cycles a stream is kept busy before the data a test checks is written on it
# (torch.cuda._sleep: about 0.3 s at the clocks of current GPUs): long enough that work queued on
# another stream, or run at once, would read the data before it is there.
BUSY_CYCLES = 600_000_000


def host_reference(c, info, data, iv, offset):
    n = len(data) - len(data) % info.block_bytes
    return c.ecb_encrypt(data[:n]), c.ctr(data, iv, offset)


def keep_busy(stream_handle):
    """Queues a long-running kernel on a CUDA stream (given as its handle); False if it cannot."""
    if torch is not None:
        with torch.cuda.stream(torch.cuda.ExternalStream(stream_handle)):
            torch.cuda._sleep(BUSY_CYCLES)
        return True
    if cupy is not None:
        try:
            k = cupy.RawKernel(r'''
extern "C" __global__ void kc_spin(long long cycles) {
    long long t = clock64();
    while (clock64() - t < cycles) { }
}''', "kc_spin")
            with cupy.cuda.ExternalStream(stream_handle):
                k((1,), (1,), (np.int64(BUSY_CYCLES),))
            return True
        except Exception:  # no NVRTC here
            return False
    return False


@needs_torch
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
    assert to_host_bytes(e) == ecb_ref
    assert torch.equal(c.ecb_decrypt(e), t[:n])
    s = c.ctr(t, iv, 3)
    assert to_host_bytes(s) == ctr_ref
    assert c.gpu_kernel is not None
    # another dtype and shape, in place
    f = t[:n].view(torch.int32).view(-1, 4) if n % 16 == 0 else t[:n]
    g = f.clone()
    assert c.ecb_encrypt(g, out=g) is g and g.dtype == f.dtype and to_host_bytes(g) == ecb_ref


@needs_torch
@pytest.mark.parametrize("info", [c for c in CIPHERS if c.name in ("aria-128", "lea-256", "hight", "cham-64-128")],
                         ids=lambda c: c.name)
def test_torch_work_is_queued_on_the_stream(info):
    """The work goes to the tensor's current stream (or stream=), behind what is queued there:
    each input is written on a side stream only after a long busy kernel, so a call that ran on
    another stream, or at once, would read the old contents (zeros)."""
    rng = np.random.default_rng(8)
    key = rng.integers(0, 256, info.key_bytes, dtype=np.uint8).tobytes()
    iv = bytes(range(info.block_bytes))
    host = rng.integers(0, 256, 1 << 20, dtype=np.uint8)
    c = kcipher.Cipher(info.name, key)
    ecb_ref, ctr_ref = host_reference(c, info, host.tobytes(), iv, 5)
    src = torch.from_numpy(host).cuda()
    c.ctr(src, iv)  # the GPU context made and both kernels loaded before anything is timed
    c.ecb_encrypt(src)
    torch.cuda.synchronize()
    cur = torch.cuda.current_stream()

    # 1. inside `with torch.cuda.stream(side)`: the current stream is side
    side = torch.cuda.Stream()
    g = torch.zeros_like(src)
    side.wait_stream(cur)  # g's zeros (and src) are written before side goes on
    with torch.cuda.stream(side):
        torch.cuda._sleep(BUSY_CYCLES)
        g.copy_(src)
        r = c.ecb_encrypt(g, out=g)
    queued_only = not side.query()
    side.synchronize()
    assert r is g and to_host_bytes(g) == ecb_ref
    assert queued_only, "the call waited for the stream (it should return once the work is queued)"

    # 2. stream= from outside: h (made on the current stream) is encrypted on s2
    s2 = torch.cuda.Stream()
    h = torch.zeros_like(src)
    s2.wait_stream(cur)
    with torch.cuda.stream(s2):
        torch.cuda._sleep(BUSY_CYCLES)
        h.copy_(src)
    out = c.ctr(h, iv, 5, stream=s2)  # a result tensor from the current stream, written on s2
    s2.synchronize()
    assert to_host_bytes(out) == ctr_ref
    # the same with the stream as a raw cudaStream_t
    h2 = torch.zeros_like(src)
    s2.wait_stream(cur)
    with torch.cuda.stream(s2):
        torch.cuda._sleep(BUSY_CYCLES)
        h2.copy_(src)
    c.ctr(h2, iv, 5, out=h2, stream=s2.cuda_stream)
    s2.synchronize()
    assert to_host_bytes(h2) == ctr_ref


@needs_torch
def test_torch_memory_recorded_on_a_side_stream():
    """A temporary input used on stream= (not the current stream) and freed right after the call
    is not handed to new tensors until that stream's work is done (record_stream)."""
    c = kcipher.Cipher("lea-128", bytes(16))
    iv = bytes(16)
    host = np.random.default_rng(9).integers(0, 256, 4 << 20, dtype=np.uint8)
    expect = c.ctr(host.tobytes(), iv)
    x = torch.from_numpy(host).cuda()
    c.ctr(x, iv)  # the GPU context first
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    tmp = x.clone()  # on the current stream
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(BUSY_CYCLES)
    out = torch.empty_like(x)
    c.ctr(tmp, iv, out=out, stream=side)  # queued behind the busy kernel
    freed = tmp.data_ptr()
    del tmp  # the caller drops its input while side still has to read it
    junk = torch.empty_like(x)  # without record_stream this is tmp's block again, at once...
    junk.fill_(0xA5)  # ...and this would overwrite it before side reads it
    assert junk.data_ptr() != freed, "the allocator reused an input still queued on another stream"
    torch.cuda.current_stream().wait_stream(side)
    assert to_host_bytes(out) == expect


@needs_torch
def test_torch_non_contiguous_is_a_clear_error():
    c = kcipher.Cipher("aria-128", bytes(16))
    iv = bytes(16)
    t = torch.arange(64 * 64, dtype=torch.int32, device="cuda").view(64, 64)
    for bad in (t.T, t[:, ::2], t[::2]):
        assert not bad.is_contiguous()
        with pytest.raises(ValueError, match="contiguous"):
            c.ecb_encrypt(bad)
        with pytest.raises(ValueError, match="contiguous"):
            c.ctr(bad, iv)
        with pytest.raises(ValueError, match="contiguous"):
            c.ctr(torch.zeros(bad.shape, dtype=bad.dtype, device="cuda"), iv, out=bad)
    before = to_host_bytes(t)
    # a contiguous copy works, and a slice along the first axis is contiguous
    assert to_host_bytes(c.ecb_encrypt(t.T.contiguous())) == c.ecb_encrypt(to_host_bytes(t.T.contiguous()))
    assert to_host_bytes(c.ctr(t[8:16], iv)) == c.ctr(to_host_bytes(t[8:16]), iv)
    assert to_host_bytes(t) == before


@needs_cupy
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
    # on a non-blocking stream (CuPy's current stream, which __cuda_array_interface__ reports),
    # behind a busy kernel and the copy that writes the input
    z = cupy.zeros_like(d)
    cupy.cuda.Device().synchronize()
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        busy = keep_busy(s.ptr)
        z[...] = d
        c.ctr(z, iv, out=z)
        queued_only = not s.done
    s.synchronize()
    assert cupy.asnumpy(z).tobytes() == ctr_ref
    assert queued_only or not busy, "the call waited for the stream"
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


@needs_cupy
def test_cupy_non_contiguous_is_a_clear_error():
    c = kcipher.Cipher("lea-128", bytes(16))
    a = cupy.arange(64 * 64, dtype=cupy.uint32).reshape(64, 64)
    for bad in (a.T, a[:, ::2], a[::2]):
        with pytest.raises(ValueError, match="contiguous"):
            c.ecb_encrypt(bad)
        with pytest.raises(ValueError, match="contiguous"):
            c.ctr(bad, bytes(16))
    assert cupy.asnumpy(c.ctr(a[8:16], bytes(16))).tobytes() == c.ctr(cupy.asnumpy(a[8:16]).tobytes(), bytes(16))


def test_gpu_kernel_cipher_and_cpu_only_cipher():
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
    assert to_host_bytes(g.ctr(arr, bytes(16))) == kcipher.Cipher("lea-128", key).ctr(bytes(64), bytes(16))
    cpu = kcipher.Cipher("lea-128", key, "cpu")
    with pytest.raises(kcipher.KernelError, match="kernel=None"):
        cpu.ctr(arr, bytes(16))
    with pytest.raises(TypeError, match="host memory only"):
        kcipher.Cipher("lea-128", key).cbc_encrypt(arr, bytes(16))


def test_drbg_to_gpu_arrays():
    """DRBG output on the GPU: the same bytes as a CPU DRBG instantiated alike."""
    if torch is None and cupy is None:
        pytest.skip("neither PyTorch with CUDA nor CuPy is installed")
    entropy, nonce = bytes(range(48)), b"gpu-nonce"
    n = (1 << 20) + 5
    with kcipher.DRBG("lea-128", kernel="gpu", entropy_source=False, instantiate=False) as g, \
            kcipher.DRBG("lea-128", kernel="cpu", entropy_source=False, instantiate=False) as h:
        assert "cuda" in g.kernel and "cuda" not in h.kernel
        g.instantiate(entropy, nonce)
        h.instantiate(entropy, nonce)
        a = g.generate(n, device="gpu")  # CuPy if installed, else torch
        assert a.shape == (n,) and a.dtype == (cupy.uint8 if cupy is not None else torch.uint8)
        assert to_host_bytes(a) == h.generate(n)
        for device in [d for d, m in (("torch", torch), ("cupy", cupy)) if m is not None]:
            b = g.generate(4096, device=device)
            assert type(b).__module__.partition(".")[0] == device
            assert to_host_bytes(b) == h.generate(4096)
        if torch is not None:  # into a GPU tensor of another dtype
            out = torch.zeros(1024, dtype=torch.float32, device="cuda")
            assert g.generate(-1, out=out) is out
            assert to_host_bytes(out) == h.generate(4096)
        assert g.generate(32) == h.generate(32)  # and the two are still in step


XTS_CIPHERS = [c for c in CIPHERS if c.block_bytes == 16]


@pytest.mark.parametrize("info", XTS_CIPHERS, ids=lambda c: c.name)
def test_xts_gpu_arrays_same_bytes_as_host(info):
    xp = torch if torch is not None else cupy
    if xp is None:
        pytest.skip("neither PyTorch with CUDA nor CuPy is installed")
    rng = np.random.default_rng(9)
    key = rng.integers(0, 256, 2 * info.key_bytes, dtype=np.uint8).tobytes()
    tweak = b"\xfe" + b"\xff" * 15  # the unit counter carries across all 16 bytes
    host = rng.integers(0, 256, 64 * 4096 + 40, dtype=np.uint8)  # a short last unit: stealing
    x = kcipher.XTS(info.name, key)
    for unit in (0, 4096):
        ref = x.encrypt(host.tobytes(), tweak, unit)
        dev = torch.from_numpy(host.copy()).cuda() if xp is torch else cupy.asarray(host)
        ct = x.encrypt(dev, tweak, unit)
        assert to_host_bytes(ct) == ref
        x.decrypt(ct, tweak, unit, out=ct)  # in place, on the GPU
        assert to_host_bytes(ct) == host.tobytes()
