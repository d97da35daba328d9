"""Spectral ops against PyTorch: ``tensorviz.fft`` over dtypes (single precision stays single),
``n``/``s``, ``dim``, ``norm`` and non-contiguous layouts, the output layout, ``fftfreq`` and
``fftshift``, the window functions, and ``stft``/``istft``."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tensorviz

torch = pytest.importorskip("torch")

LAYOUTS = ("contig", "t", "step", "offset", "expand")  # see conftest.py
TOL = dict(rtol=1e-4, atol=1e-4)


def _layout(i):
    return LAYOUTS[i % len(LAYOUTS)]


def _same_strides(tvdiff, f, *args):
    (r_tv, e_tv, _), (r_pt, e_pt, _) = tvdiff.run(f, *args)
    assert e_tv is None and e_pt is None, (e_tv, e_pt)
    big = [d for d in range(r_pt.dim()) if r_pt.shape[d] > 1]
    assert [r_tv.stride(d) for d in big] == [r_pt.stride(d) for d in big], \
        (r_tv.shape, r_tv.stride(), r_pt.stride())


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64",
                                   "bool"])
def test_fft_1d(tvdiff, name, dtype):
    norms = (None, "backward", "ortho", "forward")
    for i, (shape, dim) in enumerate([((8,), -1), ((3, 6), 0), ((2, 3, 5), 1), ((4, 5), -1)]):
        x = tvdiff.make(shape, dtype, _layout(i), seed=i)
        for j, n in enumerate((None, 4, 11)):
            for norm in (norms[(i + j) % 4], norms[(i + j + 2) % 4]):
                tvdiff.check(lambda lib, t: getattr(lib.fft, name)(t, n, dim, norm), x, **TOL)
    x = tvdiff.make((3, 6), dtype, "t")
    for f in (lambda lib, t: getattr(lib.fft, name)(t, 0),
              lambda lib, t: getattr(lib.fft, name)(t, norm="foo"),
              lambda lib, t: getattr(lib.fft, name)(t, dim=2),
              lambda lib, t: getattr(lib.fft, name)(t[0, 0])):
        tvdiff.check(f, x)


def test_fft_half_and_output_layout(tvdiff):
    x = tvdiff.make((3, 4), "float16")
    tvdiff.check(lambda lib, t: lib.fft.fft(t), x)
    for layout in ("t", "step", "contig"):
        y = tvdiff.make((3, 4, 2), "float32", layout)
        for f in (lambda lib, t: lib.fft.fft(t, dim=0), lambda lib, t: lib.fft.fft(t),
                  lambda lib, t: lib.fft.fft(t, dim=1), lambda lib, t: lib.fft.rfft(t, dim=1),
                  lambda lib, t: lib.fft.fftn(t, dim=(0,)), lambda lib, t: lib.fft.fftn(t),
                  lambda lib, t: lib.fft.fft2(t), lambda lib, t: lib.fft.ifftn(t, dim=(0, 1)),
                  lambda lib, t: lib.fft.irfft(t, dim=0)):
            _same_strides(tvdiff, f, y)
    z = tvdiff.make((4, 3, 2), "float32", "contig")
    _same_strides(tvdiff, lambda lib, t: lib.fft.fft(t.permute(1, 0, 2), dim=0), z)
    _same_strides(tvdiff, lambda lib, t: lib.fft.fft(t.permute(1, 0, 2), dim=1), z)


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn",
                                  "irfftn"])
@pytest.mark.parametrize("dtype", ["float32", "complex128", "int32"])
def test_fft_nd(tvdiff, name, dtype):
    x = tvdiff.make((2, 4, 6), dtype, "t", seed=3)
    fn = lambda lib: getattr(lib.fft, name)  # noqa: E731
    for kw in ({}, {"s": (4, 3)}, {"dim": (0, 2)}, {"s": (3, 5), "dim": (0, -1)},
               {"norm": "ortho"}, {"norm": "forward", "dim": (1,)}, {"s": (-1, 4)}):
        if name.endswith("2") and "dim" in kw and len(kw["dim"]) != 2:
            continue
        tvdiff.check(lambda lib, t: fn(lib)(t, **kw), x, **TOL)
    for kw in ({"s": (4,), "dim": (0, 1)}, {"dim": (0, 0)}, {"s": (0, 4)}):
        tvdiff.check(lambda lib, t: fn(lib)(t, **kw), x, **TOL)
    v = tvdiff.make((8,), dtype)
    tvdiff.check(lambda lib, t: fn(lib)(t), v, **TOL)


def test_fftfreq_and_shift(tvdiff):
    x = tvdiff.make((1,), "float32")
    for n in (1, 5, 6):
        for d in (1.0, 0.1, 2):
            tvdiff.check(lambda lib, t: lib.fft.fftfreq(n, d), x)
            tvdiff.check(lambda lib, t: lib.fft.rfftfreq(n, d), x)
        tvdiff.check(lambda lib, t: lib.fft.fftfreq(n, dtype=lib.float64), x)
    tvdiff.check(lambda lib, t: lib.fft.fftfreq(5, dtype=lib.long), x)
    for i, shape in enumerate([(8,), (5,), (3, 4), (3, 5, 2)]):
        y = tvdiff.make(shape, "float32", _layout(i), seed=i)
        for dim in (None, 0, -1, (0,), tuple(range(len(shape)))):
            tvdiff.check(lambda lib, t: lib.fft.fftshift(t, dim), y)
            tvdiff.check(lambda lib, t: lib.fft.ifftshift(t, dim), y)
            tvdiff.check(lambda lib, t: lib.fft.ifftshift(lib.fft.fftshift(t, dim), dim), y)


WINDOWS = ["hann_window", "hamming_window", "blackman_window", "bartlett_window",
           "kaiser_window"]


@pytest.mark.parametrize("name", WINDOWS)
def test_windows(tvdiff, name):
    x = tvdiff.make((1,), "float32")
    for n in (0, 1, 2, 5, 8):
        for periodic in (True, False):
            tvdiff.check(lambda lib, t: getattr(lib, name)(n, periodic), x, **TOL)
            tvdiff.check(lambda lib, t: getattr(lib, name)(n, periodic=periodic,
                                                          dtype=lib.float64), x, **TOL)
    tvdiff.check(lambda lib, t: getattr(lib, name)(5, dtype=lib.long), x)
    tvdiff.check(lambda lib, t: getattr(lib, name)(-1), x)
    if name == "hamming_window":
        tvdiff.check(lambda lib, t: lib.hamming_window(5, False, alpha=0.5, beta=0.5), x, **TOL)
    if name == "kaiser_window":
        tvdiff.check(lambda lib, t: lib.kaiser_window(6, False, beta=5.0), x, **TOL)



@pytest.mark.parametrize("name", WINDOWS[:4])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_windows_computed_op_by_op_in_their_dtype(name, dtype):
    """PyTorch's values, lengths up to its arange's thread split (32768), where 16-bit
    indices are already rounded (a long bfloat16 window is a staircase), and past it
    against PyTorch on one thread (past it, PyTorch's values depend on its thread count)."""
    rng = np.random.default_rng(len(name) * 7 + len(dtype))
    lengths = [3, 4, 257, 1001, 2049, 30001, 32767] + list(rng.integers(2, 32767, 6))
    threads = torch.get_num_threads()
    try:
        for n in lengths + [70000] + ([1000000] if dtype == "bfloat16" else []):
            if n > 32767:
                torch.set_num_threads(1)
            for periodic in (True, False):
                want = getattr(torch, name)(int(n), periodic, dtype=getattr(torch, dtype))
                got = getattr(tensorviz, name)(int(n), periodic, dtype=getattr(tensorviz, dtype))
                assert got.dtype.name == dtype and tuple(got.shape) == tuple(want.shape)
                # (cos is a libm's in float32/float64: an ulp or two apart; the 16-bit
                # windows and Bartlett's, which has no cos, are bit for bit)
                ulps = 0 if name == "bartlett_window" or dtype in ("float16", "bfloat16") \
                    else 4 * np.finfo(dtype).eps
                np.testing.assert_allclose(got.double().numpy(), want.double().numpy(),
                                           rtol=0, atol=ulps,
                                           err_msg=f"{name}({n}, {periodic}, {dtype})")
    finally:
        torch.set_num_threads(threads)

STFT_CASES = [
    dict(n_fft=8), dict(n_fft=8, hop_length=2, center=False),
    dict(n_fft=8, hop_length=3, win_length=4, window="hann4"),
    dict(n_fft=8, window="hann8", onesided=False), dict(n_fft=8, window="hann8", normalized=True),
    dict(n_fft=8, window="hann8", pad_mode="constant"), dict(n_fft=6, window="hamming6"),
    dict(n_fft=8, window="hann8", hop_length=8),
]


def _window(lib, spec):
    if spec is None:
        return lib.ones(8)
    name, n = spec[:-1], int(spec[-1])
    return {"hann": lib.hann_window, "hamming": lib.hamming_window}[name](n)


@pytest.mark.parametrize("case", range(len(STFT_CASES)))
@pytest.mark.parametrize("shape", [(32,), (2, 24)])
def test_stft_istft(tvdiff, case, shape):
    kw = dict(STFT_CASES[case])
    x = tvdiff.make(shape, "float32", "step", seed=case)
    wspec = kw.pop("window", None)

    def spec(lib, t):
        win = _window(lib, wspec) if wspec else lib.ones(kw["n_fft"])
        return lib.stft(t, window=win, return_complex=True, **kw)
    tvdiff.check(spec, x, **TOL)
    inv_kw = {k: v for k, v in kw.items() if k in ("n_fft", "hop_length", "win_length",
                                                   "center", "normalized", "onesided")}

    def roundtrip(lib, t):
        win = _window(lib, wspec) if wspec else lib.ones(kw["n_fft"])
        s = lib.stft(t, window=win, return_complex=True, **kw)
        return lib.istft(s, window=win, length=t.shape[-1], **inv_kw)
    tvdiff.check(roundtrip, x, rtol=1e-3, atol=1e-3)


def test_stft_errors_and_defaults(tvdiff):
    x = tvdiff.make((16,), "float64")
    for f in (lambda lib, t: lib.stft(t, 4, window=lib.ones(4, dtype=t.dtype)),
              lambda lib, t: lib.stft(t, 32, window=lib.ones(32, dtype=t.dtype),
                                      return_complex=True),
              lambda lib, t: lib.stft(t, 8, window=lib.hann_window(8), return_complex=True),
              lambda lib, t: lib.stft(t.cfloat(), 8, window=lib.ones(8)),
              lambda lib, t: lib.stft(t[None, None], 8, window=lib.ones(8),
                                      return_complex=True),
              lambda lib, t: lib.stft(t, 8, window=lib.ones(5), return_complex=True),
              lambda lib, t: lib.istft(lib.stft(t, 8, window=lib.ones(8, dtype=t.dtype),
                                                return_complex=True).real, 8),
              lambda lib, t: lib.istft(lib.stft(t, 8, window=lib.ones(8, dtype=t.dtype),
                                                return_complex=True), 8,
                                       window=lib.ones(8, dtype=t.dtype), length=20)):
        tvdiff.check(f, x, rtol=1e-6, atol=1e-6)


def test_stft_without_window_warns_once(monkeypatch):
    from tensorviz.ops import indexing
    monkeypatch.setattr(indexing, "_WARNED", set())
    x = tensorviz.arange(16.0)
    with pytest.warns(UserWarning, match="window was not provided"):
        s = tensorviz.stft(x, 8, return_complex=True)
    assert tuple(s.shape) == (5, 9) and s.dtype is tensorviz.complex64
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tensorviz.stft(x, 8, return_complex=True)
    back = tensorviz.istft(s, 8)
    np.testing.assert_allclose(back.numpy(), x.numpy(), atol=1e-5)


@pytest.mark.parametrize("op", ["fft", "rfft", "fftn", "stft"])
def test_on_cuda_matches_cpu(devices, op):
    if devices == "cpu":
        pytest.skip("compares cuda with cpu")
    x = tensorviz.arange(24.0).reshape(2, 12)
    calls = {"fft": lambda t: tensorviz.fft.fft(t, dim=0),
             "rfft": lambda t: tensorviz.fft.rfft(t, n=16),
             "fftn": lambda t: tensorviz.fft.fftn(t, norm="ortho"),
             "stft": lambda t: tensorviz.stft(t, 4, window=tensorviz.hann_window(4, device=
                                              t.device), return_complex=True)}
    cpu, gpu = calls[op](x), calls[op](x.cuda())
    assert gpu.dtype is cpu.dtype and gpu.stride() == cpu.stride()
    np.testing.assert_allclose(gpu.cpu().numpy(), cpu.numpy(), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("dtype", [None, "float64", "complex64", "int64"])
def test_fftfreq_edges(tvdiff, n, dtype):
    """n=0 gives [] (fftfreq) and [nan] (rfftfreq, arange(1) / 0); complex dtypes are refused
    by the arange PyTorch builds them with."""
    def f(lib, name):
        kw = {} if dtype is None else {"dtype": getattr(lib, dtype)}
        return getattr(lib.fft, name)(n, 0.5, **kw)
    tvdiff.check(lambda lib: f(lib, "fftfreq"))
    tvdiff.check(lambda lib: f(lib, "rfftfreq"))


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window",
                                  "bartlett_window", "kaiser_window"])
@pytest.mark.parametrize("n", [0, 1, 2, 6])
def test_window_complex_dtype(tvdiff, name, n):
    """Complex windows: empty and [1] for lengths 0 and 1, NotImplementedError (arange)
    beyond."""
    tvdiff.check(lambda lib: getattr(lib, name)(n, dtype=lib.complex64))
    tvdiff.check(lambda lib: getattr(lib, name)(n, False, dtype=lib.complex128))


@pytest.mark.parametrize("layout", ["contig", "step"])
def test_istft_two_sided_real_output(tvdiff, layout):
    """A two-sided spectrum inverted with return_complex=False: PyTorch inverts its first
    n_fft // 2 + 1 bins as a one-sided spectrum."""
    x = tvdiff.make((2, 64), "complex64", layout, seed=3)

    def f(lib, t, **kw):
        w = lib.hann_window(16)
        spec = lib.stft(t, 16, hop_length=4, window=w, return_complex=True)
        return lib.istft(spec, 16, hop_length=4, window=w, **kw)
    tvdiff.check(f, x, rtol=1e-4, atol=1e-5)
    tvdiff.check(lambda lib, t: f(lib, t, onesided=False, length=60), x, rtol=1e-4, atol=1e-5)
    tvdiff.check(lambda lib, t: f(lib, t, return_complex=True), x, rtol=1e-4, atol=1e-5)


def test_bad_argument_types(tvdiff):
    x = tvdiff.make((3, 4), "float32")
    for name in ("hann_window", "kaiser_window", "bartlett_window"):
        tvdiff.check(lambda lib: getattr(lib, name)(2.5))
        tvdiff.check(lambda lib: getattr(lib, name)(True))
    tvdiff.check(lambda lib, t: lib.fft.fftn(t, s=(2, 2, 2)), x)
    tvdiff.check(lambda lib, t: lib.fft.fftn(t, s=(2, 2)), x)


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window",
                                  "bartlett_window", "kaiser_window"])
def test_window_too_long_is_the_allocators_error(name):
    """A window no memory can hold: PyTorch's RuntimeError, never NumPy's MemoryError."""
    with pytest.raises(RuntimeError, match="can't allocate memory"):
        getattr(tensorviz, name)(2**40)


def test_blackman_window_float64_is_pytorchs_exactly():
    """blackman_window sums its terms in PyTorch's order: float64 values are bit-identical
    (the first element is 0, not -1.4e-17, so sign() of it agrees)."""
    torch = pytest.importorskip("torch")
    for periodic in (True, False):
        for n in range(1, 12):
            a = tensorviz.blackman_window(n, periodic, dtype=tensorviz.float64).numpy()
            b = torch.blackman_window(n, periodic, dtype=torch.float64).numpy()
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_blackman_window_in_its_own_precision(dtype):
    """PyTorch computes the Blackman window op by op in its dtype: the ends are -2.98e-08 in
    float32 (0 in float64), so rsqrt/log of them are nan, as there; every length."""
    for n in range(0, 40):
        for periodic in (True, False):
            want = torch.blackman_window(n, periodic, dtype=getattr(torch, dtype))
            got = tensorviz.blackman_window(n, periodic, dtype=getattr(tensorviz, dtype))
            a, b = want.float().numpy(), got.float().numpy()
            assert np.array_equal(np.signbit(a), np.signbit(b)), (n, periodic, a, b)
            tol = 1e-2 if dtype.endswith("16") else 1e-6
            np.testing.assert_allclose(b, a, rtol=tol, atol=tol)
            np.testing.assert_array_equal(np.isnan(got.float().rsqrt().numpy()),
                                          np.isnan(want.float().rsqrt().numpy()))


@pytest.mark.parametrize("name", ["hann_window", "hamming_window"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("n", [3, 10, 101, 5000, 20000, 1000000])
def test_hann_and_hamming_windows_are_computed_op_by_op_in_their_dtype(name, dtype, n):
    """PyTorch builds them op by op in the window's dtype (arange, * 2 pi / (n - 1), cos,
    * -beta, + alpha): a float16 window of 10**6 points has NaN past index 65504 (its arange
    is inf there), and 16-bit windows are bit-identical; float32/float64 within an ulp
    (SLEEF's cos). Past 32768 points PyTorch splits arange over threads, which moves its
    vector blocks (see _creation._vector_arange): there only the NaN positions compare."""
    import numpy as np
    torch = pytest.importorskip("torch")
    for periodic in (True, False):
        args = (n, periodic) + ((0.3, 2.7) if name == "hamming_window" else ())
        e = getattr(torch, name)(*args, dtype=getattr(torch, dtype)).double().numpy()
        r = getattr(tensorviz, name)(*args, dtype=getattr(tensorviz, dtype)).double().numpy()
        assert np.array_equal(np.isnan(r), np.isnan(e))
        if n > 32768:
            continue
        if dtype in ("float16", "bfloat16"):
            np.testing.assert_array_equal(r, e)
        else:
            # (an ulp of cos, times beta, and the sum's own rounding)
            beta = 2.7 if name == "hamming_window" else 0.5
            tol = beta * float(np.finfo(dtype).eps) + np.spacing(np.abs(e).astype(dtype))
            assert np.all(np.abs(r - e) <= tol), np.max(np.abs(r - e) - tol)


@pytest.mark.parametrize("args", [(3, 1), (1, 3), (4, True, True), (4, False, False),
                                  (4, True, 2), (4, 0, 2.0)])
def test_kaiser_window_periodic_bool_beta_float(tvdiff, args):
    # periodic takes only a bool; beta a float, a bool read as one (PyTorch's parser)
    x = tvdiff.make((1,), "float32")
    tvdiff.check(lambda lib, t: lib.kaiser_window(*args), x)
