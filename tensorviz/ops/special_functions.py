"""Special functions (gamma family, inverse error function, modified Bessel functions, normal
distribution) and a few small numeric ops (``dist``, ``renorm``, ``gradient``).

Every function is a vectorised port of the algorithm PyTorch's CPU kernels use (ATen's
``Math.h``, mostly derived from the Cephes Math Library, 3-clause BSD, Copyright (c) 2018
Steven Moshier), so values at poles, signs and infinities come out as PyTorch's::

    y = f(x as float64)  rounded to the result dtype   (ints and bools -> default float)

Where PyTorch's float kernels round in ways that change the answer, they are followed:
``trigamma`` (``polygamma(1, x)``) runs in the input's own precision (its reflection
``pi^2 / sin(pi x)^2`` gives PyTorch's finite values at negative integers only when ``sin`` is
rounded as PyTorch's), ``i0``/``i1`` overflow where a float ``exp`` does (float32 ``i0`` is
PyTorch's float32 evaluation bit for bit: ``_i0_single``), and ``mvlgamma`` forms ``x - i/2``
in the input's dtype.
"""
from __future__ import annotations

import builtins
import functools
import math

import numpy as np

from .. import _dtypes, _layout
from .._dispatch import op
from .._dtypes import _COMPLEX, _FLOAT
from .._tensor import Tensor
from ..backends import runs_numpy
from ..backends._numpy import call_quiet, quietly as _quietly
from ._elementwise import device_of, finish, promote, result_strides
from .pointwise import (_check_tensor, _compute2, _erf_parts, _float_result, _map,
                        _not_implemented)

_F64 = _dtypes.float64


def _unary(name: str, kernel, complex_kernel: str, half_ok: bool = True):
    """``name(input, *, out=None)``: ``kernel(xp, x float64)`` rounded to the result dtype."""
    def body(input, *, out=None) -> Tensor:
        _check_tensor(name, input)
        dt = input._dtype
        if dt.category == _COMPLEX or (dt in _dtypes.HALVES and not half_ok):
            raise _not_implemented(complex_kernel, dt)
        rdt = _float_result(dt)
        if getattr(kernel, "single", False):  # (exp overflows as PyTorch's float kernel's)
            single = rdt is not _F64
            return _map(input, rdt, lambda xp, a: kernel(xp, a, single).astype(rdt._np), out,
                        cdt=_F64)
        return _map(input, rdt, lambda xp, a: kernel(xp, a).astype(rdt._np), out, cdt=_F64)
    body.__name__ = body.__qualname__ = name
    body.__doc__ = f"``{name}`` elementwise (float64 inside); ints and bools give the default " \
                   "float dtype."
    return body


def _polevl(x, coeffs):
    """``c[0] x^n + ... + c[n]`` (Horner)."""
    r = _full_like(x, coeffs[0])
    for c in coeffs[1:]:
        r = r * x + c
    return r


def _full_like(x, value):
    """A float64 array of ``value`` shaped like ``x`` (``x * 0`` would turn inf into nan)."""
    return (x != x) * 0.0 + value


def _chbevl(x, coeffs):
    """Cephes' Chebyshev series ``sum' c[i] T_i(x/2)`` (Clenshaw)."""
    b0 = _full_like(x, coeffs[0])
    b1 = _full_like(x, 0.0)
    b2 = b1
    for c in coeffs[1:]:
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def _sinpi_abs(xp, x):
    """``|sin(pi x)|`` with the argument reduced first (exactly 0 at integers)."""
    r = x - xp.round(x)
    return xp.abs(xp.sin(math.pi * r))


# ---------------------------------------------------------------- lgamma
_LANCZOS_G = 7.0
_LANCZOS = (0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012,
            9.9843695780195716e-6, 1.5056327351493116e-7)
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def _lgamma_pos(xp, x):
    """``lgamma(x)`` for ``x >= 0.5`` (Lanczos, g=7, n=9; Stirling's series past 1e7)."""
    z = x - 1.0
    big = z > 1e7
    zs = xp.where(big, 1.0, z)
    a = _full_like(zs, _LANCZOS[0])
    for i, c in enumerate(_LANCZOS[1:], 1):
        a = a + c / (zs + i)
    t = zs + _LANCZOS_G + 0.5
    small = _HALF_LOG_2PI + (zs + 0.5) * xp.log(t) - t + xp.log(a)
    xb = xp.where(big, x, 1e8)
    stirling = (xb - 0.5) * xp.log(xb) - xb + _HALF_LOG_2PI + 1.0 / (12.0 * xb)
    return xp.where(big, stirling, small)


def _lgamma(xp, x):
    neg = x < 0.5
    xr = xp.where(neg, 1.0 - x, x)
    pos = _lgamma_pos(xp, xp.where(xp.isfinite(xr), xr, 1.0))
    s = _sinpi_abs(xp, xp.where(xp.isfinite(x), x, 0.5))
    refl = math.log(math.pi) - xp.log(s) - pos  # (s == 0: +inf, a pole)
    r = xp.where(neg, refl, pos)
    tiny = xp.abs(x) < 1e-12  # (-log|x| - euler x: sin(pi x) would lose denormals)
    r = xp.where(tiny, -xp.log(xp.where(tiny, xp.abs(x), 1.0)) - 0.5772156649015329 * x, r)
    r = xp.where(xp.isinf(x), xp.inf, r)
    # lgamma(1) = lgamma(2) = 0 exactly, as the C library gives
    r = xp.where((x == 1.0) | (x == 2.0), 0.0, r)
    return xp.where(xp.isnan(x), x, r)


# ---------------------------------------------------------------- digamma
_PSI_10 = 2.25175258906672110764
_PSI_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
          -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
          8.33333333333333333333E-2)


def _digamma_pos(xp, x):
    """Cephes' digamma for ``x > 0``: recurrence up to 10, then the asymptotic series."""
    result = _full_like(x, 0.0)
    for _ in range(10):
        low = x < 10
        result = result - xp.where(low, 1.0 / xp.where(low, x, 1.0), 0.0)
        x = xp.where(low, x + 1.0, x)
    z = 1.0 / (x * x)
    y = xp.where(x < 1e17, z * _polevl(z, _PSI_A), 0.0)
    r = result + xp.log(x) - 0.5 / x - y
    return xp.where(x == 10, result + _PSI_10, r)


def _digamma(xp, x):
    neg = x < 0
    integer = x == xp.trunc(x)
    xs = xp.where(neg, 1.0 - x, x)
    xs = xp.where(xs > 0, xs, 1.0)
    pos = _digamma_pos(xp, xs)
    frac = xp.where(neg & ~integer, x - xp.trunc(x), 0.25)
    refl = pos - math.pi / xp.tan(math.pi * frac)
    r = xp.where(neg, xp.where(integer, xp.nan, refl), pos)
    r = xp.where(x == 0, xp.copysign(xp.inf, -x), r)
    return xp.where(xp.isnan(x), x, r)


# ---------------------------------------------------------------- trigamma, zeta, polygamma
def _trigamma(xp, x):
    """PyTorch's trigamma, in the dtype of ``x`` (float32 or float64)."""
    t = x.dtype.type
    pi = t(math.pi)
    low = x < 0.5
    s = xp.sin(pi * x)
    result = xp.where(low, -(pi * pi) / (s * s), t(0))
    sign = xp.where(low, t(-1), t(1))
    x = xp.where(low, t(1) - x, x)
    for _ in range(6):
        result = result + t(1) / (x * x)
        x = x + t(1)
    ixx = t(1) / (x * x)
    result = result + (t(1) + t(1) / (t(2) * x) + ixx * (t(1. / 6) - ixx * (
        t(1. / 30) - ixx * t(1. / 42)))) / x
    return sign * result


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def _zeta(xp, x, q):
    """Hurwitz zeta ``sum_k (q + k)^-x`` (Cephes: direct sum, then Euler-Maclaurin)."""
    x, q = xp.broadcast_arrays(x, q)
    bad_q = (q <= 0) & (q == xp.floor(q))
    nan_ = (x < 1) | ((q <= 0) & ~bad_q & (x != xp.floor(x)))
    s = xp.power(q, -x)
    a = q.copy()
    b = xp.zeros_like(s)
    done = xp.zeros(s.shape, dtype=bool)
    # (Cephes sums at least 9 terms and until a > 9; each element stops when a term no
    # longer changes its sum, and takes no tail then)
    finite_q = q[xp.isfinite(q)]
    steps = 9
    if finite_q.size:
        steps = builtins.max(9, builtins.min(100000, builtins.int(
            math.ceil(9.0 - builtins.float(finite_q.min()))) + 1))
    for i in range(steps):
        active = ~done & ((i < 9) | (a <= 9.0))
        if not active.any():
            break
        a = xp.where(active, a + 1.0, a)
        bi = xp.power(a, -x)
        b = xp.where(active, bi, b)
        s = xp.where(active, s + bi, s)
        done = done | (active & (-_MACHEP * s < bi) & (bi < _MACHEP * s))
    w = a
    tail = s + b * w / (x - 1.0) - 0.5 * b
    aa = xp.ones_like(s)
    stop = xp.zeros(s.shape, dtype=bool)
    k = 0.0
    for c in _ZETA_A:
        aa = aa * (x + k)
        b = b / w
        t = aa * b / c
        tail = xp.where(stop, tail, tail + t)
        stop = stop | (xp.abs(t / tail) < _MACHEP)
        k += 1.0
        aa = aa * (x + k)
        b = b / w
        k += 1.0
    r = xp.where(done, s, tail)
    r = xp.where(nan_, xp.nan, r)
    r = xp.where(bad_q & ~(x < 1), xp.inf, r)
    return xp.where(x == 1, xp.inf, r)


# ---------------------------------------------------------------- erfinv
_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erfinv(xp, y):
    """A rational first guess (PyTorch's), then Newton steps on the float64 ``erf``/``erfc``
    (``erfc`` near +-1, where ``erf(x) - y`` would cancel)."""
    ay = xp.abs(y)
    ok = ay < 1.0
    ys = xp.where(ok, y, 0.0)
    ays = xp.abs(ys)
    z = ys * ys
    a, b = _ERFINV_A, _ERFINV_B
    num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0]
    dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0
    central = ys * num / dem
    zz = xp.sqrt(-xp.log((1.0 - ays) / 2.0))
    c, d = _ERFINV_C, _ERFINV_D
    num = ((c[3] * zz + c[2]) * zz + c[1]) * zz + c[0]
    dem = (d[1] * zz + d[0]) * zz + 1.0
    x = xp.where(ays <= 0.7, central, xp.copysign(num, ys) / dem)
    # Newton steps on the elements that need them only (not NaN, +-1, 0 or past 1: a
    # tensor of mostly such values costs nothing more)
    todo = ok & (y != 0)
    if todo.any():
        xt, yt, ayt = x[todo], ys[todo], ays[todo]
        tail = ayt > 0.5
        target = 1.0 - ayt  # exact for |y| in [0.5, 1] (Sterbenz)
        for _ in range(3):
            e, ec = _erf_parts(xp, xt)
            deriv = _TWO_OVER_SQRT_PI * xp.exp(-xt * xt)
            # f = erf(x) - y, or in the tails erfc(|x|) - (1 - |y|) (one root, sign-folded)
            f_c = xp.where(xt < 0, -e, e) - yt
            f_t = -(ec - target) * xp.sign(yt)
            f = xp.where(tail, f_t, f_c)
            xt = xt - xp.where(deriv > 0, f / xp.where(deriv > 0, deriv, 1.0), 0.0)
        x[todo] = xt
    r = xp.where(ok, x, xp.nan)
    r = xp.where(ay == 1.0, xp.copysign(xp.inf, y), r)
    r = xp.where(y == 0, y, r)  # (keeps -0.0)
    return xp.where(xp.isnan(y), y, r)


# ---------------------------------------------------------------- Bessel functions
_I0E_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
          1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
          -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
          9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
          -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
          1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
          -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
          1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
          -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
          1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0E_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
          3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
          1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
          -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
          7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
          -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
          3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
          2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
          8.04490411014108831608E-1)
_I1E_A = (2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
          -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
          3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
          -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
          9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
          -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
          4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
          -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
          2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
          -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1E_B = (7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
          -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
          -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
          4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
          -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
          3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
          -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
          -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
          7.78576235018280120474E-1)


def _bessel_parts(xp, x, coef_a, coef_b):
    """``(|x|, small, chebyshev value)``: Cephes' two expansions, ``[0, 8]`` and ``(8, inf]``."""
    ax = xp.abs(x)
    small = ax <= 8.0
    inner = _chbevl(xp.where(small, ax, 0.0) / 2.0 - 2.0, coef_a)
    big = xp.where(small, 9.0, ax)
    outer = _chbevl(32.0 / big - 2.0, coef_b) / xp.sqrt(big)
    return ax, small, inner, outer


def _exp(xp, x, single: bool):
    """``exp(x)``; ``single``: infinite past float32's range, as a float kernel's exp."""
    e = xp.exp(x)
    return xp.where(e > 3.4028234663852886e38, xp.inf, e) if single else e


def _i0(xp, x, single=False):
    if single and not (xp is not np and runs_numpy(xp)):  # (the meta device: no values)
        return _i0_single(xp, x)
    ax, small, inner, outer = _bessel_parts(xp, x, _I0E_A, _I0E_B)
    return _exp(xp, ax, single) * xp.where(small, inner, outer)


# glibc's expf (sysdeps/ieee754/flt-32/e_expf.c): exp(x) = 2^(k/32) 2^(r/32) in double, from
# a table of 2^(i/32) (bits, less i << 47) and a cubic, rounded once to float
_EXPF_TAB = (0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
             0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
             0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
             0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
             0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
             0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
             0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
             0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540)
_EXPF_SHIFT = float.fromhex("0x1.8p+52")
_EXPF_INVLN2N = float.fromhex("0x1.71547652b82fep+0") * 32
_EXPF_C = (float.fromhex("0x1.c6af84b912394p-5") / 32 ** 3,
           float.fromhex("0x1.ebfce50fac4f3p-3") / 32 ** 2,
           float.fromhex("0x1.62e42ff0c52d6p-1") / 32)


def _expf(xp, x):
    """float32 ``exp`` as glibc's ``expf`` (``std::exp`` of a float) computes it, bit for bit:
    ``_expf(np, np.float32([0.5]))`` is glibc's 1.6487212 (NumPy's own float32 exp differs
    from it by an ulp on about one input in 2000)."""
    xd = x.astype(np.float64)
    with np.errstate(all="ignore"):
        z = _EXPF_INVLN2N * xp.where(xp.isfinite(xd), xd, 0.0)
        kd = z + _EXPF_SHIFT
        ki = kd.view(np.uint64)
        r = z - (kd - _EXPF_SHIFT)
        tab = xp.asarray(np.array(_EXPF_TAB, dtype=np.uint64))
        s = (tab[ki % np.uint64(32)] + (ki << np.uint64(47))).view(np.float64)
        c0, c1, c2 = _EXPF_C
        y = ((c0 * r + c1) * (r * r) + (c2 * r + 1)) * s
        y = xp.where(xd > 88.72283172607422, xp.inf, xp.where(xd < -103.97207641601562, 0.0, y))
        y = xp.where(xp.isnan(xd) | (xd == xp.inf), xd, y)
        return y.astype(np.float32)


def _chbevl_single(xp, x, coeffs):
    """Cephes' Chebyshev series in float32 with float32 coefficients, each ``x * b1 - b2``
    fused (one rounding: GCC contracts it to an FMA in PyTorch's kernels; exact here in
    float64, a product of two floats being exact there)."""
    f32 = np.float32
    b0 = xp.full(x.shape, f32(coeffs[0]), dtype=f32) + x * f32(0)
    b1 = xp.zeros(x.shape, dtype=f32) + x * f32(0)
    b2 = b1
    for c in coeffs[1:]:
        b2 = b1
        b1 = b0
        fused = (x.astype(np.float64) * b1.astype(np.float64) - b2.astype(np.float64))
        b0 = fused.astype(f32) + f32(c)
    return f32(0.5) * (b0 - b2)


def _i0_single(xp, x):
    """PyTorch's float32 ``calc_i0`` (float16/bfloat16 go through it too), bit for bit: the
    Chebyshev series in float32 with float32-rounded coefficients (``_chbevl_single``) times
    glibc's ``expf``, so i0(0) is 0.99999994 (not 1) and floor(i0(0)) is 0, as in PyTorch;
    i0(inf) is NaN (inf / inf), as in PyTorch.

    >>> float(_i0_single(np, np.zeros(1))[0])
    0.9999999403953552
    """
    f32 = np.float32
    with np.errstate(all="ignore"):
        ax = xp.abs(x.astype(f32))
        small = ax <= f32(8)
        inner = _chbevl_single(xp, xp.where(small, ax, f32(0)) / f32(2) - f32(2), _I0E_A)
        big = xp.where(small, f32(9), ax)
        outer = _chbevl_single(xp, f32(32) / big - f32(2), _I0E_B)
        e = _expf(xp, ax)
        return xp.where(small, e * inner, e * outer / xp.sqrt(big))


def _i0e(xp, x):
    _, small, inner, outer = _bessel_parts(xp, x, _I0E_A, _I0E_B)
    return xp.where(small, inner, outer)


def _i1(xp, x, single=False):
    ax, small, inner, outer = _bessel_parts(xp, x, _I1E_A, _I1E_B)
    out = _exp(xp, ax, single) * xp.where(small, ax * inner, outer)
    return xp.where(x < 0, -out, out)


_i0.single = _i1.single = True


def _i1e(xp, x):
    ax, small, inner, outer = _bessel_parts(xp, x, _I1E_A, _I1E_B)
    out = xp.where(small, inner * ax, outer)
    return xp.where(x < 0, -out, out)


# ---------------------------------------------------------------- the normal distribution
_SQRT1_2 = math.sqrt(0.5)
_SQRT_PI = math.sqrt(math.pi)


def _erfcx(xp, x):
    """``exp(x^2) erfc(x)``: the continued fraction without its ``exp(-x^2)`` for x >= 1.5,
    ``2 exp(x^2) - erfcx(-x)`` below -1.5."""
    ax = xp.abs(x)
    mid = ax < 1.5
    e, ec = _erf_parts(xp, xp.where(mid, x, 0.0))
    xm = xp.where(mid, x, 0.0)
    mid_v = xp.exp(xm * xm) * xp.where(xm < 0, 2.0 - ec, ec)
    xl = xp.where(mid, 1.5, ax)
    xl = xp.where(xp.isfinite(xl), xl, 1e300)
    frac = xl.copy()
    for k in range(120, 0, -1):
        frac = xl + (k / 2.0) / frac
    pos = 1.0 / (_SQRT_PI * frac)
    neg = 2.0 * xp.exp(xl * xl) - pos
    r = xp.where(mid, mid_v, xp.where(x > 0, pos, neg))
    r = xp.where(x == xp.inf, 0.0, xp.where(x == -xp.inf, xp.inf, r))
    return xp.where(xp.isnan(x), x, r)


def _erfc_signed(xp, x):
    _, c = _erf_parts(xp, x)
    return xp.where(x < 0, 2.0 - c, c)


def _ndtr(xp, x):
    """``(1 + erf(x / sqrt 2)) / 2``, as ``erfc(-x / sqrt 2) / 2`` (no cancellation)."""
    r = 0.5 * _erfc_signed(xp, -x * _SQRT1_2)
    return xp.where(xp.isnan(x), x, r)


def _log_ndtr(xp, x):
    t = x * _SQRT1_2
    low = x < -1.0
    lo = xp.log(_erfcx(xp, xp.where(low, -t, 0.0)) / 2.0) - t * t
    hi = xp.log1p(-_erfc_signed(xp, xp.where(low, 0.0, t)) / 2.0)
    r = xp.where(low, lo, hi)
    return xp.where(xp.isnan(x), x, r)


_NDTRI_P0 = (-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
             1.39312609387279679503E1, -1.23916583867381258016E0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
             -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
             1.59056225126211695515E1, -1.18331621121330003142E0)
_NDTRI_P1 = (4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
             4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
             -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
             1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
             -3.80806407691578277194E-2, -9.33259480895457427372E-4)
_NDTRI_P2 = (3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
             1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
             3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
             2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
             2.89247864745380683936E-6, 6.79019408009981274425E-9)
_EXP_M2 = 0.13533528323661269189


def _ndtri(xp, y0):
    inside = (y0 > 0) & (y0 < 1)
    y = xp.where(inside, y0, 0.5)
    upper = y > 1.0 - _EXP_M2
    y = xp.where(upper, 1.0 - y, y)
    central = y > _EXP_M2
    yc = xp.where(central, y, 0.5) - 0.5
    y2 = yc * yc
    xc = (yc + yc * (y2 * _polevl(y2, _NDTRI_P0) / _polevl(y2, _NDTRI_Q0))) * \
        2.50662827463100050242
    yt = xp.where(central, 0.01, y)
    x = xp.sqrt(-2.0 * xp.log(yt))
    x0 = x - xp.log(x) / x
    z = 1.0 / x
    x1 = xp.where(x < 8.0, z * _polevl(z, _NDTRI_P1) / _polevl(z, _NDTRI_Q1),
                  z * _polevl(z, _NDTRI_P2) / _polevl(z, _NDTRI_Q2))
    xt = x0 - x1
    xt = xp.where(upper, xt, -xt)
    r = xp.where(central, xc, xt)
    r = xp.where(inside, r, xp.nan)
    r = xp.where(y0 == 0, -xp.inf, xp.where(y0 == 1, xp.inf, r))
    return r


def _entr(xp, x):
    r = -x * xp.log(xp.where(x > 0, x, 1.0))
    r = xp.where(x == 0, 0.0, xp.where(x < 0, -xp.inf, r))
    return xp.where(xp.isnan(x), x, r)


# ---------------------------------------------------------------- the ops
lgamma = op(inplace=True, also=("special.gammaln",))(
    _unary("lgamma", _lgamma, "lgamma_vml_cpu"))
digamma = op(inplace=True, also=("special.digamma", "special.psi"))(
    _unary("digamma", _digamma, "digamma"))
erfinv = op(inplace=True, also=("special.erfinv",))(_unary("erfinv", _erfinv, "erfinv_vml_cpu"))
i0 = op(inplace=True, inplace_function=True, also=("special.i0",))(
    _unary("i0", _i0, "i0_vml_cpu"))
# torch.special's own functions
_special_op = functools.partial(op, namespace="special", method=False)
special_i0e = _special_op("i0e")(_unary("special_i0e", _i0e, "i0e_cpu"))
special_i1 = _special_op("i1")(_unary("special_i1", _i1, "i1_cpu"))
special_i1e = _special_op("i1e")(_unary("special_i1e", _i1e, "i1e_cpu"))
special_erfcx = _special_op("erfcx")(_unary("special_erfcx", _erfcx, "erfcx_cpu", half_ok=False))
special_ndtr = _special_op("ndtr")(_unary("special_ndtr", _ndtr, "ndtr_cpu"))
special_ndtri = _special_op("ndtri")(_unary("special_ndtri", _ndtri, "ndtri_cpu", half_ok=False))
special_log_ndtr = _special_op("log_ndtr")(
    _unary("special_log_ndtr", _log_ndtr, "log_ndtr_cpu", half_ok=False))
special_entr = _special_op("entr")(_unary("special_entr", _entr, "entr_cpu"))


def _check_int_arg(fname: str, value, arg: str, pos: int) -> None:
    if isinstance(value, builtins.bool) or not isinstance(value, (builtins.int, np.integer)):
        raise TypeError(f"{fname}(): argument '{arg}' (position {pos}) must be int, not "
                        f"{type(value).__name__}")



def polygamma(n, input, *, out=None) -> Tensor:
    """The ``n``-th derivative of ``digamma``: ``(-1)^(n+1) n! zeta(n+1, x)`` (``n >= 2``),
    PyTorch's trigamma for ``n == 1``, ``digamma`` for ``n == 0``."""
    if isinstance(n, Tensor) and not n._shape and n._dtype.category == _dtypes._INT:
        n = builtins.int(n.item())  # (a 0-dim integer tensor reads as an int, as in PyTorch)
    _check_int_arg("polygamma", n, "n", 1)
    _check_tensor("polygamma", input, "input", 2)
    n = builtins.int(n)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    dt = input._dtype
    if n == 0:
        if dt.category == _COMPLEX:
            raise _not_implemented("digamma", dt)
        return digamma(input, out=out)
    if dt.category == _COMPLEX:
        raise _not_implemented("trigamma" if n == 1 else "polygamma", dt)
    rdt = _float_result(dt)
    if n == 1:
        cdt = _F64 if rdt is _F64 else _dtypes.float32
        return _map(input, rdt, lambda xp, a: _trigamma(xp, a).astype(rdt._np), out, cdt=cdt)
    # n! in the computing precision (float32 overflows from 35!), as PyTorch's exp(lgamma)
    fact = math.exp(math.lgamma(n + 1.0)) if n < 171 else math.inf
    odt = np.float64 if rdt is _F64 else np.float32
    fact = odt(fact) if fact < float(_dtypes.np_finfo(odt).max) else odt(np.inf)
    sign = 1.0 if n % 2 else -1.0

    def f(xp, a):
        z = _zeta(xp, xp.asarray(float(n + 1)), a).astype(odt)
        r = sign * fact * z
        if np.isinf(fact):
            # Note: where n! overflows and zeta(n+1, x) underflows, PyTorch's product is
            # inf * 0 = nan (and from n = 2**31 its int n wraps: 2**40 computes n = 0, -inf
            # for every x, NaN too); tensorviz gives the value's own overflow or underflow.
            lost = ((z == 0) | xp.isnan(z)) & xp.isfinite(a)
            if xp.any(lost):
                r = xp.where(lost, sign * _polygamma_far(xp, n, a).astype(odt), r)
        return r.astype(rdt._np)
    return _map(input, rdt, f, out, cdt=_F64)


def _polygamma_far(xp, n: int, x):
    """``n! zeta(n+1, x)`` for an ``n`` so large that one term of the sum, ``(x+k)**-(n+1)``
    at the ``x+k`` nearest 0, decides it: computed from logarithms (float64), so it
    overflows to +-inf or underflows to 0 as the value does. For a negative half-integer
    ``x`` and odd ``n+1`` the terms +-0.5, +-1.5 ... cancel: ``|x| + 1`` decides.

    >>> _polygamma_far(np, 1000, np.array([2.0, 3000.0]))
    array([inf,  0.])
    """
    s = n + 1.0
    odd = (n + 1) % 2 == 1
    frac = x - xp.floor(x)
    up, down = frac, 1.0 - frac  # (distances to the terms above and below 0, for x < 0)
    half = (x < 0) & (frac == 0.5)
    m = xp.where(x > 0, x, xp.where(up <= down, up, down))
    negative = (x < 0) & (down < up)
    doubled = half & (not odd)
    m = xp.where(half & odd, xp.abs(x) + 1.0, m)
    with np.errstate(all="ignore"):
        log_mag = math.lgamma(n + 1.0) - s * xp.log(m) + xp.where(doubled, math.log(2.0), 0.0)
        mag = xp.exp(xp.minimum(log_mag, 1000.0))
    return xp.where(negative & odd, -mag, mag)


def _polygamma_method(self, n) -> Tensor:
    """``Tensor.polygamma(n)``: ``polygamma(n, self)``."""
    return polygamma(n, self)


def _polygamma_inplace_check(self, n=None, *args, **kwargs) -> None:
    """``polygamma_`` of an integer or bool tensor: PyTorch's refusal of the float result,
    before anything is computed (a sum over 2**31 terms took seconds for nothing)."""
    if isinstance(self, Tensor) and self._dtype.category < _dtypes._FLOAT and \
            isinstance(n, builtins.int) and not isinstance(n, builtins.bool) and n >= 0:
        rdt = _dtypes.get_default_dtype()
        raise RuntimeError(f"result type {rdt.cname} can't be cast to the desired output "
                           f"type {self._dtype.cname}")


op(method=_polygamma_method, inplace=True, also=("special.polygamma",),
   inplace_check=_polygamma_inplace_check)(polygamma)


def _mvlgamma_check(self, p) -> None:
    """``mvlgamma_``'s checks, in PyTorch's order: ``p``, bool, then an integer ``self``
    (which cannot hold the float result)."""
    _check_int_arg("mvlgamma_", p, "p", 1)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if self._dtype is _dtypes.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if self._dtype.category < _FLOAT:
        raise RuntimeError(f"mvlgamma: result type {self._dtype.cname} can't be cast to the "
                           f"desired output type {_dtypes._default_dtype.cname}")


@op(inplace=True, inplace_check=_mvlgamma_check, also=("special.multigammaln",))
def mvlgamma(input, p, *, out=None) -> Tensor:
    """The multivariate log-gamma ``p(p-1)/4 log(pi) + sum_i lgamma(x - i/2)``, i < p."""
    _check_tensor("mvlgamma", input)
    _check_int_arg("mvlgamma", p, "p", 2)
    p = builtins.int(p)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    dt = input._dtype
    if dt is _dtypes.bool:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if dt.category == _COMPLEX:
        raise _not_implemented("lgamma_vml_cpu", dt)
    rdt = _float_result(dt)
    const = p * (p - 1) / 4.0 * math.log(math.pi)

    n = _layout.numel(input._shape)
    if builtins.max(n, 1) * p > 2**34 and not input.is_meta:
        # (PyTorch makes arange(p), then an (..., p) tensor: none of it on the meta device)
        from ..backends._numpy import out_of_memory
        raise out_of_memory(builtins.max(n, 1) * p * rdt.itemsize)

    def f(xp, a):
        total = _full_like(a, const)
        low = a.astype(rdt._np)
        if a.size == 0:  # (nothing to sum, however large p is)
            return total.astype(rdt._np)
        if p <= 64:
            for i in range(p):  # (x - i/2 rounded to the input's precision, as PyTorch adds it)
                arg = (low + rdt._np.type(-i / 2.0)).astype(np.float64)
                total = total + _lgamma(xp, arg)
            return total.astype(rdt._np)
        chunk = builtins.max(1, 2**18 // builtins.max(low.size, 1))  # (large p: in blocks)
        for start in range(0, p, chunk):
            steps = (xp.arange(start, builtins.min(p, start + chunk)) / -2.0).astype(rdt._np)
            arg = (low[..., None] + steps).astype(np.float64)
            total = total + _lgamma(xp, arg).sum(axis=-1)
        return total.astype(rdt._np)
    res = _map(input, rdt, f, out, cdt=_F64)
    # (PyTorch's composite sums over a new last dim: a row-major result)
    return res if out is not None or res.is_contiguous() else res.contiguous()


@_special_op("zeta")
def _zeta_op(input, other, *, out=None) -> Tensor:
    """``torch.special.zeta(x, q)``: the Hurwitz zeta function (numbers allowed on one side)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("special_zeta() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(other).__name__})")
    rdt, dev = promote(input, other), device_of(input, other)
    if rdt.category == _COMPLEX or rdt in _dtypes.HALVES:
        raise _not_implemented("zeta_cpu", rdt)
    rdt = _float_result(rdt)
    return _binary64(lambda xp, x, q: _zeta(xp, x, q), input, other, rdt, dev, out)


def _binary64(f, a, b, rdt, dev, out):
    """``f`` computed in float64 on operands first rounded to ``rdt`` (as PyTorch's kernel
    sees them), the result rounded back to ``rdt``."""
    def in_float64(xp, xa, xb):
        return f(xp, xp.asarray(xa).astype(np.float64),
                 xp.asarray(xb).astype(np.float64)).astype(rdt._np)
    return _compute2(in_float64, a, b, rdt, rdt, dev, out)


@_special_op()
def xlog1py(input, other, *, out=None) -> Tensor:
    """``x * log1p(y)``, 0 where x is 0 (unless y is NaN)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("special_xlog1py() received an invalid combination of arguments - got "
                        f"({type(input).__name__}, {type(other).__name__})")
    rdt, dev = promote(input, other), device_of(input, other)
    if rdt.category == _COMPLEX:
        raise _not_implemented("xlog1py_cpu", rdt)
    rdt = _float_result(rdt)

    def f(xp, x, y):
        r = x * xp.log1p(y)
        return xp.where((x == 0) & ~xp.isnan(y), 0.0, r)
    return _binary64(f, input, other, rdt, dev, out)


# ---------------------------------------------------------------- dist, renorm, gradient
@op()
@_quietly
def dist(input, other, p=2) -> Tensor:
    """``vector_norm(input - other, p)`` with broadcasting (a 0-dim float tensor)."""
    _check_tensor("dist", input)
    _check_tensor("dist", other, "other", 2)
    if isinstance(p, Tensor):
        p = p.item()
    from ._elementwise import _check_bool_sub
    _check_bool_sub(input, other)  # (PyTorch's input - other comes first)
    rdt = promote(input, other)
    if rdt.category < _FLOAT:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {rdt.cname} instead.")
    from .linalg import vector_norm
    # Note: PyTorch's complex difference is input + (-1+0j) * other, whose 0 * inf makes NaN
    # of an infinite other (1j - (-inf-inf j) is nan+nan j there), so its dist is NaN where
    # the difference is an infinity; tensorviz subtracts (C99's classes, as its `-` does)
    # and the distance is inf.
    diff = input.to(rdt) - other.to(rdt)
    if rdt is _dtypes.complex32:  # (the norm of the complex32 difference, each part rounded
        # to float16 first, computed in complex64 and rounded to float16: a complex32 input,
        # or a float16 tensor and a complex 0-dim one)
        return vector_norm(diff.to(_dtypes.complex64), builtins.float(p)).to(_dtypes.float16)
    return vector_norm(diff, builtins.float(p))


@op(inplace=True)
def renorm(input, p, dim, maxnorm, *, out=None) -> Tensor:
    """Each slice ``input.select(dim, i)`` whose p-norm exceeds ``maxnorm`` is scaled down to
    norm ``maxnorm`` (by ``maxnorm / (norm + 1e-7)``, as PyTorch)."""
    _check_tensor("renorm", input)
    if isinstance(p, Tensor):
        p = p.item()
    if isinstance(maxnorm, Tensor):
        maxnorm = maxnorm.item()
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    dt = input._dtype
    nd = len(input._shape)
    if nd <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {nd} dimensions")
    d = _layout.normalize_dim(dim, nd)
    if dt.category < _FLOAT:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {dt.cname}")
    from .linalg import vector_norm
    dims = tuple(i for i in range(nd) if i != d)
    # (a float16 input's norms stay float32, as PyTorch's kernel keeps them: one past
    # float16's range still scales its slice instead of zeroing it)
    norm = vector_norm(input.float() if dt is _dtypes.float16 else input, builtins.float(p),
                       dims, True)
    xp = input._storage._backend.xp
    nrm = norm._arr
    mx = call_quiet(nrm.dtype.type, maxnorm)  # (a maxnorm past the dtype's range: inf)
    factor = call_quiet(lambda: xp.where(nrm > mx, mx / (nrm + nrm.dtype.type(1e-7)),
                                         nrm.dtype.type(1)))
    cdt = dt if dt is not _dtypes.float16 else _dtypes.float32
    res = call_quiet(lambda: (input._arr.astype(cdt._np) * factor.astype(cdt._np)).astype(
        dt._np))
    # (row-major whatever the input's layout: PyTorch's renorm allocates its result
    # contiguous, a permuted input's too)
    return finish(res, dt, input._storage._device, out,
                  None if out is not None else _layout.contiguous_strides(res.shape), (input,))


@op(method=False)
def gradient(input, *, spacing=1, dim=None, edge_order: int = 1):
    """Central differences inside, one-sided (first or second order) at the edges; one
    tensor per differentiated dim, in a tuple.  ``spacing``: a number, a list of numbers (one
    per dim) or a list of 1-D coordinate tensors.  Written as PyTorch's composite (slices and
    tensor arithmetic), so dtypes promote as PyTorch's: coordinate tensors take part."""
    _check_tensor("gradient", input)
    nd = len(input._shape)
    if dim is None:
        dims = list(range(nd))
        given = "since dim argument was not given"
        count = f"'self.dim() = {nd}'"
    else:
        dims = [dim] if isinstance(dim, (builtins.int, np.integer)) else list(dim)
        dims = [_layout.normalize_dim(d, nd) for d in dims]
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"dim {dims[0]} appears multiple times in the list of dims")
        given = "since dim argument was given"
        count = f"dim argument = {len(dims)}"
    if isinstance(spacing, (list, tuple)):
        if len(spacing) != len(dims):
            raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar, or a "
                               f"list of length equal to {count}, {given}, but got a list of "
                               f"length {len(spacing)}")
        spacings = list(spacing)
    else:
        spacings = [spacing] * len(dims)
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    for d in dims:
        if input._shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")
    if input._dtype is _dtypes.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    from .joining import cat

    def sl(d, start, stop=None):
        n = input._shape[d]
        start = start + n if start < 0 else start
        stop = n if stop is None else (stop + n if stop < 0 else stop)
        return input.narrow(d, start, stop - start)

    outs = []
    for d, dx in zip(dims, spacings):
        if isinstance(dx, Tensor) and dx._shape:
            shape = [1] * nd
            shape[d] = -1
            ax = dx[1:] - dx[:-1]
            dx1, dx2 = ax[:-1], ax[1:]
            a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
            b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
            c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
            center = a * sl(d, 0, -2) + b * sl(d, 1, -1) + c * sl(d, 2)
            if edge_order == 1:
                pre = (sl(d, 1, 2) - sl(d, 0, 1)) / ax[0]
                app = (sl(d, -1) - sl(d, -2, -1)) / ax[-1]
            else:
                a = -(2.0 * ax[0] + ax[1]) / (ax[0] * (ax[0] + ax[1]))
                b = (ax[0] + ax[1]) / (ax[0] * ax[1])
                c = (-ax[0]) / (ax[1] * (ax[0] + ax[1]))
                pre = a * sl(d, 0, 1) + b * sl(d, 1, 2) + c * sl(d, 2, 3)
                a = ax[-1] / (ax[-2] * (ax[-1] + ax[-2]))
                b = -(ax[-1] + ax[-2]) / (ax[-1] * ax[-2])
                c = (2 * ax[-1] + ax[-2]) / (ax[-1] * (ax[-1] + ax[-2]))
                app = a * sl(d, -3, -2) + b * sl(d, -2, -1) + c * sl(d, -1)
            outs.append(cat([pre, center, app], d))
            continue
        if isinstance(dx, Tensor):
            dx = dx.item()
        center = (sl(d, 2) - sl(d, 0, -2)) / dx
        if edge_order == 1:
            pre = (sl(d, 1, 2) - sl(d, 0, 1)) / dx
            app = (sl(d, -1) - sl(d, -2, -1)) / dx
        else:
            pre = (-1.5 * sl(d, 0, 1) + 2 * sl(d, 1, 2) - 0.5 * sl(d, 2, 3)) / dx
            app = (0.5 * sl(d, -3, -2) - 2 * sl(d, -2, -1) + 1.5 * sl(d, -1)) / dx
        outs.append(cat([pre, center / 2, app], d))
    return tuple(outs)
