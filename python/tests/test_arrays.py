"""Round trips on buffers and numpy arrays of many dtypes and shapes; return types; out=."""
import array

import pytest

import kcipher

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
    rng = np.random.default_rng(hash((np.dtype(dtype).name, shape)) & 0xFFFF)
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


def test_large_input_threads_and_gil():
    c1 = kcipher.Cipher("aria-128", KEY[:16], threads=1)
    call = kcipher.Cipher("aria-128", KEY[:16])
    x = np.random.default_rng(3).integers(0, 256, 3 << 20, dtype=np.uint8)
    assert np.array_equal(c1.ctr(x, IV16, 9), call.ctr(x, IV16, 9))


def test_concurrent_use_from_threads():
    import threading

    c = kcipher.Cipher("lea-128", KEY[:16])
    x = bytes(range(256)) * 4096
    expect = c.ctr(x, IV16)
    results = []

    def work():
        results.append(c.ctr(x, IV16) == expect)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert results == [True] * 4


def test_odd_dtypes_through_array_interface():
    c = kcipher.Cipher("aria-128", KEY[:16])
    x = np.arange(8).astype("datetime64[s]")  # no buffer-protocol export for datetime64
    y = c.ctr(x, IV16)
    assert y.dtype == x.dtype and y.tobytes() == c.ctr(x.view(np.uint8).tobytes(), IV16)


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    c = kcipher.Cipher("lea-128", KEY[:16])
    t = torch.arange(1000, dtype=torch.int32)
    y = c.ctr(t, IV16)
    assert isinstance(y, torch.Tensor) and y.dtype == t.dtype
    assert y.numpy().tobytes() == c.ctr(t.numpy().tobytes(), IV16)
    c.ctr(y, IV16, out=y)
    assert torch.equal(y, t)
