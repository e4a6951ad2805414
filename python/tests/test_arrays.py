"""Round trips on buffers and numpy arrays of many dtypes and shapes; return types; out=."""
import array
import threading
import time

import pytest

import kcipher
from conftest import seed_of

np = pytest.importorskip("numpy")

KEY = bytes(range(32))
IV16 = bytes(range(100, 116))
DTYPES = [np.uint8, np.int8, np.uint16, np.int32, np.uint64, np.float16, np.float32, np.float64, np.complex64,
          np.complex128, np.bool_]
SHAPES = [(0,), (64,), (4, 64), (2, 3, 16), (1024, 33)]


def random_array(rng, shape, dtype):
    raw = rng.integers(0, 256, size=int(np.prod(shape)) * np.dtype(dtype).itemsize, dtype=np.uint8)
    if dtype == np.bool_:
        return (raw % 2).astype(np.bool_).reshape(shape)
    return raw.view(dtype).reshape(shape)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_round_trip_every_mode(dtype, shape):
    rng = np.random.default_rng(seed_of(np.dtype(dtype).name, shape))
    x = random_array(rng, shape, dtype)
    c = kcipher.Cipher("aria-256", KEY)
    for enc, dec, args in [(c.ecb_encrypt, c.ecb_decrypt, ()), (c.cbc_encrypt, c.cbc_decrypt, (IV16,)),
                           (c.ctr, c.ctr, (IV16,))]:
        if enc != c.ctr and x.nbytes % 16:
            continue
        y = enc(x, *args)
        assert type(y) is np.ndarray and y.dtype == x.dtype and y.shape == x.shape
        assert y.tobytes() == enc(x.tobytes(), *args)  # the same bytes as from bytes
        z = dec(y, *args)
        assert z.tobytes() == x.tobytes()


def test_ctr_any_length_from_numpy():
    rng = np.random.default_rng(1)
    c = kcipher.Cipher("hight", KEY[:16])
    for n in [1, 7, 8, 9, 1000, 65537]:
        x = rng.integers(0, 256, n, dtype=np.uint8)
        assert c.ctr(c.ctr(x, IV16[:8]), IV16[:8]).tobytes() == x.tobytes()


def test_non_contiguous_is_a_clear_error():
    x = np.arange(4096, dtype=np.uint32).reshape(64, 64)
    c = kcipher.Cipher("lea-128", KEY[:16])
    for bad in (x.T, x[:, ::2], x[::2]):
        with pytest.raises(ValueError, match="contiguous"):
            c.ecb_encrypt(bad)
        with pytest.raises(ValueError, match="contiguous"):
            c.ctr(bad, IV16)
    # a contiguous copy works, and a slice along the first axis is contiguous
    assert c.ecb_encrypt(np.ascontiguousarray(x.T)).nbytes == x.nbytes
    assert c.ctr(x[8:16], IV16).tobytes() == c.ctr(x[8:16].tobytes(), IV16)
    with pytest.raises(ValueError, match="contiguous"):
        c.ecb_encrypt(x, out=np.empty((64, 128), np.uint32)[:, ::2])


def test_in_place_and_out():
    c = kcipher.Cipher("cham-128-128", KEY[:16])
    x = np.random.default_rng(2).integers(0, 2**32, (256, 4), dtype=np.uint32)
    orig = x.copy()
    expect = c.ecb_encrypt(x.tobytes())
    r = c.ecb_encrypt(x, out=x)
    assert r is x and x.tobytes() == expect
    c.ecb_decrypt(x, out=x)
    assert np.array_equal(x, orig)
    # out of another dtype/shape, same byte size
    out = np.empty(x.nbytes, np.uint8)
    assert c.ctr(x, IV16, out=out) is out and out.tobytes() == c.ctr(x.tobytes(), IV16)
    # bytearray in place, memoryview out
    b = bytearray(orig.tobytes())
    c.ctr(b, IV16, out=b)
    assert bytes(b) == c.ctr(orig.tobytes(), IV16)
    buf = bytearray(len(b))
    assert c.ctr(b, IV16, out=memoryview(buf)) is not None and c.ctr(bytes(buf), IV16) == bytes(b)


def test_return_types():
    c = kcipher.Cipher("lea-256", KEY)
    data = bytes(64)
    assert type(c.ecb_encrypt(data)) is bytes
    assert type(c.ecb_encrypt(bytearray(data))) is bytearray
    assert type(c.ecb_encrypt(memoryview(data))) is bytes
    assert type(c.ecb_encrypt(array.array("I", [0] * 16))) is bytes
    assert c.ecb_encrypt(memoryview(data)) == c.ecb_encrypt(data)
    assert c.ecb_encrypt(b"") == b""


def test_large_input_threads():
    c1 = kcipher.Cipher("aria-128", KEY[:16], threads=1)
    call = kcipher.Cipher("aria-128", KEY[:16])
    x = np.random.default_rng(3).integers(0, 256, 3 << 20, dtype=np.uint8)
    assert np.array_equal(c1.ctr(x, IV16, 9), call.ctr(x, IV16, 9))


# The GIL tests need calls that take a while: the reference ARIA kernel (the slowest) on one
# thread, on a buffer sized for about LONG_CALL seconds on this machine.
LONG_CALL = 0.4
EDGE = 0.03  # what is within this of a long call's start or end does not count


def slow_cipher():
    return kcipher.Cipher("aria-128", KEY[:16], "aria/ref", threads=1)


def long_call_bytes(c):
    probe = bytes(256 << 10)
    c.ctr(probe, IV16)
    t = time.perf_counter()
    c.ctr(probe, IV16)
    dt = max(time.perf_counter() - t, 1e-4)
    n = int(len(probe) * LONG_CALL / dt)
    return min(max(n, 1 << 20), 256 << 20) & ~15


def others_ran_during(fn):
    """Runs fn() here while another Python thread notes each millisecond in which it ran.
    Returns (seconds fn took, its result, distinct milliseconds the other thread ran in during
    fn, leaving out EDGE at either end). Where fn holds the GIL the other thread cannot run
    Python code inside the call at all; where fn releases it, it runs whenever it gets a core."""
    stamps = []
    stop = threading.Event()
    running = threading.Event()

    def spin():
        pc, last = time.perf_counter, -1
        running.set()
        while not stop.is_set():
            now = pc()
            ms = int(now * 1000)
            if ms != last:
                stamps.append(now)
                last = ms

    t = threading.Thread(target=spin, daemon=True)
    t.start()
    running.wait()
    time.sleep(0.02)
    t0 = time.perf_counter()
    r = fn()
    t1 = time.perf_counter()
    stop.set()
    t.join()
    return t1 - t0, r, sum(1 for s in stamps if t0 + EDGE < s < t1 - EDGE)


@pytest.mark.parametrize("path", ["buffer", "pointer"])
def test_gil_released_during_large_calls(path):
    c = slow_cipher()
    n = long_call_bytes(c)
    x = np.random.default_rng(4).integers(0, 256, n, dtype=np.uint8)
    if path == "pointer":  # a dtype without a buffer-protocol export: through its data pointer
        x = x.view("datetime64[s]")
    expect = kcipher.Cipher("aria-128", KEY[:16]).ctr(x.view(np.uint8).tobytes(), IV16)
    seconds, y, others = others_ran_during(lambda: c.ctr(x, IV16))
    assert y.view(np.uint8).tobytes() == expect
    # Holding the GIL, the other thread runs in no millisecond inside the call. Released, it
    # runs in most of them; a loaded 2-core machine still leaves it well over 10.
    assert seconds > 4 * EDGE, f"the call took only {seconds:.3f} s; make it longer"
    assert others >= 10, (f"another thread ran in only {others} ms of a {seconds * 1000:.0f} ms call: "
                          "is the GIL held during the work?")


def test_concurrent_use_from_threads():
    # One Cipher shared by two threads, both inside the library at once: thread A runs a long
    # call while this thread makes whole calls, each checked, that start and end within it.
    # (With the GIL held by A, no call of this thread could run inside A's.)
    c = slow_cipher()
    n = long_call_bytes(c)
    big = np.random.default_rng(7).integers(0, 256, n, dtype=np.uint8)
    expect_big = kcipher.Cipher("aria-128", KEY[:16]).ctr(big, IV16, 3)
    small = bytes(range(256)) * 64  # 16 KiB
    expect_small = c.ctr(small, IV16)
    a = {}
    started = threading.Event()

    def long_call():
        try:
            started.set()
            a["t0"] = time.perf_counter()
            a["result"] = c.ctr(big, IV16, 3)
            a["t1"] = time.perf_counter()
        except BaseException as e:  # re-raised below
            a["error"] = e

    th = threading.Thread(target=long_call)
    th.start()
    started.wait()
    windows, wrong = [], 0
    while th.is_alive():
        t = time.perf_counter()
        ok = c.ctr(small, IV16) == expect_small
        windows.append((t, time.perf_counter()))
        wrong += not ok
    th.join()
    if "error" in a:
        raise a["error"]
    assert wrong == 0 and np.array_equal(a["result"], expect_big)
    inside = sum(1 for s, e in windows if a["t0"] + EDGE < s and e < a["t1"] - EDGE)
    assert inside >= 3, (f"only {inside} of {len(windows)} calls ran inside another thread's "
                         f"{(a['t1'] - a['t0']) * 1000:.0f} ms call on the same Cipher")


def test_odd_dtypes_through_array_interface():
    c = kcipher.Cipher("aria-128", KEY[:16])
    x = np.arange(8).astype("datetime64[s]")  # no buffer-protocol export for datetime64
    y = c.ctr(x, IV16)
    assert y.dtype == x.dtype and y.tobytes() == c.ctr(x.view(np.uint8).tobytes(), IV16)
    # with a plain buffer as out= (through its address), and a read-only one refused
    out = bytearray(x.nbytes)
    assert c.ctr(x, IV16, out=out) is out and bytes(out) == y.tobytes()
    mv = memoryview(bytearray(x.nbytes)).cast("I")
    assert c.ctr(y, IV16, out=mv) is mv and mv.tobytes() == x.tobytes()
    with pytest.raises(TypeError, match="read-only"):
        c.ctr(x, IV16, out=bytes(x.nbytes))
    with pytest.raises(ValueError, match="same size"):
        c.ctr(x, IV16, out=bytearray(8))


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    c = kcipher.Cipher("lea-128", KEY[:16])
    t = torch.arange(1000, dtype=torch.int32)
    y = c.ctr(t, IV16)
    assert isinstance(y, torch.Tensor) and y.dtype == t.dtype
    assert y.numpy().tobytes() == c.ctr(t.numpy().tobytes(), IV16)
    c.ctr(y, IV16, out=y)
    assert torch.equal(y, t)
