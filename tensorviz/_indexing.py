"""``t[key]`` and ``t[key] = value``.

Basic keys (ints, slices with positive steps, None, Ellipsis) give views through
``_layout.index``; keys holding integer/boolean tensors, lists or arrays are advanced indexing
(PyTorch follows NumPy's rules here) and copy on read.
"""
from __future__ import annotations

import builtins
import types
import warnings

import numpy as np

from . import _chalf, _dtypes, _layout
from ._scalars import _C_NAMES, _limits, checked_scalar, scalar_to  # noqa: F401  (re-exported)
from ._tensor import _HOOKS as _TENSOR_HOOKS
from ._tensor import Tensor, lazy_values, wrap_array
from ._tensor import host_array as _host_array
from .backends import runs_numpy
from .backends._numpy import call_quiet

_BASIC_TYPES = (builtins.int, slice, type(None), type(Ellipsis))


def _normalize_basic(k):
    """An int for index-like scalars, else the key item unchanged; None when not basic."""
    t = type(k)
    if t is builtins.int or t is slice or k is None or k is Ellipsis:
        return k
    if t is builtins.bool:
        return NotImplemented
    if isinstance(k, (np.integer,)):
        return builtins.int(k)
    if isinstance(k, Tensor) and not k._shape and k._dtype.category == _dtypes._INT \
            and k._dtype is not _dtypes.uint8:  # (a 0-dim uint8 is a (deprecated) mask)
        # Note: PyTorch treats a 0-dim integer tensor index like a Python int (a view).
        return builtins.int(k.item())
    return NotImplemented


_SEQ_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed "
    "in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be "
    "interpreted as tensor index, x[torch.tensor(seq)], which will result either in an error or "
    "a different result")


def _as_tuple(key) -> tuple:
    """The key as a tuple; a short list holding sequences, slices, tensors, None or Ellipsis
    counts as a tuple of indices (deprecated in PyTorch, with its warning), as in PyTorch."""
    if type(key) is tuple:
        return key
    if isinstance(key, list) and len(key) < 32:
        for k in key:
            if isinstance(k, (Tensor, list, tuple, slice, np.ndarray)) or k is None \
                    or k is Ellipsis:
                warnings.warn(_SEQ_WARNING, UserWarning, stacklevel=5)
                return tuple(key)
    return (key,)


def _basic_key(key):
    key = _as_tuple(key)
    out = []
    for k in key:
        n = _normalize_basic(k)
        if n is NotImplemented:
            return None, key
        out.append(n)
    return tuple(out), key


_UINT8_WARNING = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                  "torch.bool instead.")
_BAD_INDEX = "tensors used as indices must be long, int, byte or bool tensors"


def _advanced_key(t: Tensor, key: tuple):
    """Translate a key to one the backend's array indexing understands (PyTorch semantics).

    Integer tensors/lists index a dim, bool (and deprecated uint8) tensors are masks over as
    many dims as they have; the mask shapes and the number of indexed dims are checked with
    PyTorch's messages, and on devices whose indexing does not check bounds, the bounds too.
    """
    be = t._storage._backend
    xp = be.xp
    out = []
    masks = []  # (position in out, mask shape)
    for k in key:
        if isinstance(k, slice):
            step = k.step
            if step is not None and _layout._opt_index(step) <= 0:
                raise ValueError("step must be greater than zero")
            out.append(k)
        elif isinstance(k, Tensor):
            dt = k._dtype
            if dt is _dtypes.uint8:
                warnings.warn(_UINT8_WARNING, UserWarning, stacklevel=4)
                k = k.to(_dtypes.bool)
            elif dt is not _dtypes.bool and dt not in (_dtypes.int64, _dtypes.int32):
                raise IndexError(_BAD_INDEX)
            if k.device != t.device and k.device.type != "cpu":
                raise RuntimeError(f"indices should be either on cpu or on the same device as "
                                   f"the indexed tensor ({t.device})")
            arr = k._arr if k.device == t.device else be.from_host(_host_array(k), t.device)
            if k._dtype is _dtypes.bool and k._shape:
                masks.append((len(out), k._shape))
            out.append(arr)
        elif isinstance(k, (list, tuple, np.ndarray)):
            arr = np.asarray(k)
            if arr.dtype.kind == "f" and not isinstance(k, np.ndarray):
                arr = arr.astype(np.int64)  # PyTorch reads a sequence as a long tensor
            if arr.dtype.kind not in "iub":
                if arr.size == 0:
                    arr = arr.astype(np.int64)
                else:
                    raise IndexError(_BAD_INDEX)
            if arr.dtype.kind == "b" and arr.ndim:
                masks.append((len(out), arr.shape))
            out.append(arr if runs_numpy(xp) else xp.asarray(arr))
        elif isinstance(k, (builtins.float, builtins.complex, str)) or (
                isinstance(k, np.generic) and not isinstance(k, (np.integer, np.bool_))):
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                             f"byte Variables are valid indices (got {type(k).__name__})")
        else:
            out.append(k)
    _check_dims(t, out, masks, xp)
    return tuple(out)


def _consumed(k) -> int:
    """How many of the indexed tensor's dims one key item uses up."""
    if k is None or k is Ellipsis or isinstance(k, (builtins.bool, np.bool_)):
        return 0
    if hasattr(k, "dtype") and hasattr(k, "ndim") and k.dtype.kind == "b":
        return k.ndim
    return 1


def _check_dims(t: Tensor, key: list, masks, xp) -> None:
    shape = t._shape
    used = [_consumed(k) for k in key]
    total = sum(used)
    if total > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    pos = 0
    mask_at = dict(masks)
    for i, k in enumerate(key):
        if k is Ellipsis:
            pos += len(shape) - total
            continue
        mshape = mask_at.get(i)
        if mshape is not None:
            for j, m in enumerate(mshape):
                if m != shape[pos + j]:
                    raise IndexError(f"The shape of the mask {list(mshape)} at index {j} does "
                                     f"not match the shape of the indexed tensor "
                                     f"{list(shape)} at index {pos + j}")
        elif not runs_numpy(xp) and hasattr(k, "dtype") and k.dtype.kind in "iu" and k.size:
            # Note: CuPy wraps out-of-range indices silently; PyTorch raises.
            size = shape[pos]
            lo, hi = builtins.int(k.min()), builtins.int(k.max())
            bad = lo if lo < -size else hi if hi >= size else None
            if bad is not None:
                raise IndexError(f"index {bad} is out of bounds for dimension {pos} with size "
                                 f"{size}")
        pos += used[i]


def _translate_index_error(err: IndexError) -> IndexError:
    msg = str(err).replace("axis", "dimension")
    return IndexError(msg)


def _int_of(k):
    """``k`` as an int when PyTorch reads it as one (a select), else None."""
    if type(k) is builtins.int or isinstance(k, np.integer):
        return builtins.int(k)
    if isinstance(k, Tensor) and not k._shape and k._dtype.category == _dtypes._INT \
            and k._dtype is not _dtypes.uint8:
        return builtins.int(k.item())
    return None


def _item_dims(k) -> int:
    """How many dims of the indexed tensor a key item uses (Ellipsis: counted apart)."""
    if k is None or k is Ellipsis or isinstance(k, (builtins.bool, np.bool_)):
        return 0
    if isinstance(k, Tensor):
        return len(k._shape) if k._dtype in (_dtypes.bool, _dtypes.uint8) else 1
    if isinstance(k, (list, tuple, np.ndarray)):
        arr = np.asarray(k)
        return arr.ndim if arr.dtype.kind == "b" else 1
    return 1


def _select_ints(t: Tensor, key: tuple) -> tuple:
    """PyTorch applies the int items of a key as selects before any advanced indexing, so
    they never count as advanced indices (NumPy's ``x[0, :, [1, 2]]`` puts the indexed dim
    first; PyTorch's does not).  Returns the selected view and the key without the ints."""
    ints = [(i, v) for i, v in ((i, _int_of(k)) for i, k in enumerate(key)) if v is not None]
    if not ints:
        return t, key
    dims = [_item_dims(k) for k in key]
    n, named = len(t._shape), sum(dims)
    pos, d, where = {}, 0, {i for i, _ in ints}
    for i, k in enumerate(key):
        if k is Ellipsis:
            d += max(n - named, 0)
            continue
        if i in where:
            pos[i] = d
        d += dims[i]
    if named > n:  # (the advanced path words this error as PyTorch does)
        return t, key
    if any(k is None for k in key[:max(where)]):
        # (as PyTorch's applySlicing, left to right: a None before an int is an unsqueeze
        # of the dims as they are then, its stride from the dim the int later selects:
        # zeros(4, 4, 2).permute(2, 1, 0)[[1, 0], None, 1] has stride (4, 1, 1))
        values, out, d = dict(ints), [], 0
        for i, k in enumerate(key):
            if i in where:
                t = t.select(d, values[i])
            elif k is None:
                t = t.unsqueeze(d)
                out.append(slice(None))
                d += 1
            else:
                d += max(n - named, 0) if k is Ellipsis else dims[i]
                out.append(k)
        return t, tuple(out)
    for i, v in sorted(ints, key=lambda iv: -pos[iv[0]]):
        t = t.select(pos[i], v)
    return t, tuple(k for i, k in enumerate(key) if i not in where)


def getitem(t: Tensor, key) -> Tensor:
    basic, key = _basic_key(key)
    if basic is not None:
        return t._view(*_layout.index(t._shape, t._stride, t._offset, basic))
    t, key = _select_ints(t, key)
    if not t._shape:
        for k in key:
            if not isinstance(k, (builtins.bool, type(None), type(Ellipsis))) and not (
                    isinstance(k, Tensor) and k._dtype in (_dtypes.bool, _dtypes.uint8)):
                raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in "
                                 "Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor "
                                 "to a number")
    np_key = _advanced_key(t, key)
    try:
        res = t._arr[np_key]
    except IndexError as e:
        raise _translate_index_error(e) from None
    xp = t._storage._backend.xp
    if not isinstance(res, xp.ndarray):
        res = xp.asarray(res)
    elif xp.may_share_memory(res, t._arr):  # advanced indexing copies, whatever NumPy does
        res = res.copy()
    # PyTorch's index kernel lays its result out after the source's dim order (NumPy puts the
    # indexed dims outermost in memory): the strides PyTorch would give (row-major for a
    # contiguous source and row-major indices, the common case, found without the model).
    # (row-major strides exactly: a size-1 dim's stride, which contiguity ignores, still
    # orders TensorIterator's dims: ones(4, 1, 3).mT[[0, 1]] has stride (3, 1, 3))
    row_major = tuple(t._stride) == _layout.contiguous_strides(t._shape)
    if row_major and 0 not in res.shape and builtins.all(
            (k.flags.c_contiguous and k.ndim) if type(k) is np.ndarray else
            (k == slice(None) or k is None or k is Ellipsis) for k in np_key):
        stride = _layout.contiguous_strides(res.shape)
    else:
        stride = _index_result_strides(t, np_key, res.shape)
    return wrap_array(res, t._dtype, t.device, stride=stride)


def _index_result_strides(t: Tensor, np_key: tuple, shape: tuple) -> tuple | None:
    """The strides of PyTorch's ``index`` result: TensorIterator orders the dims by the
    strides of its operands, the source restrided (0 on the indexed dims) then each index
    tensor (viewed with size-1 dims around it); ties keep row-major order."""
    basic, adv, arrays = [], [], []  # the key, each advanced item as full slices; their dims
    d = 0
    for k in np_key:
        if k is None or isinstance(k, slice):
            basic.append(k)
            d += 1
        elif k is Ellipsis:
            return _index_result_strides_ellipsis(t, np_key, shape)
        elif hasattr(k, "ndim") and hasattr(k, "dtype"):
            n = k.ndim if k.dtype.kind == "b" else 1
            if n == 0:  # a 0-dim bool, as PyTorch reads it: a new size-1 dim (unsqueeze)
                basic.append(None)  # indexed by a long tensor [0] (True) or [] (False)
                adv.append(d)
                arrays.append(np.zeros(1 if k else 0, dtype=np.int64))
                d += 1
                continue
            basic.extend([slice(None)] * n)
            adv.extend(range(d, d + n))
            arrays.append(k)
            d += n
        else:
            return None
    return _strides_from(t, tuple(basic), adv, arrays, shape) if adv else None


def _index_result_strides_ellipsis(t: Tensor, np_key: tuple, shape: tuple):
    """As ``_index_result_strides`` with the one Ellipsis spelled out as full slices."""
    used = sum(_consumed(k) for k in np_key)
    i = next(j for j, k in enumerate(np_key) if k is Ellipsis)
    fill = (slice(None),) * max(len(t._shape) - used, 0)
    return _index_result_strides(t, np_key[:i] + fill + np_key[i + 1:], shape)


def _index_operands(arrays: list, repl: tuple) -> list:
    """Element strides of PyTorch's index tensors over the indexed shape ``repl``: a mask
    becomes the columns of its ``nonzero()`` (stride = its ndim); others broadcast."""
    out = []
    for k in arrays:
        if k.dtype.kind == "b":
            out.extend([(k.ndim,)] * k.ndim if len(repl) == 1 else [])
            continue
        try:
            b = np.broadcast_to(k, repl)
        except Exception:  # noqa: BLE001 - (a device array, or shapes PyTorch refuses)
            continue
        out.append(tuple(st // k.itemsize for st in b.strides))
    return out


def _strides_from(t: Tensor, basic: tuple, adv: list, arrays: list, shape: tuple):
    vshape, vstride, _ = _layout.index(t._shape, t._stride, t._offset, basic)
    rest = [i for i in range(len(vshape)) if i not in adv]
    n_repl = len(shape) - len(rest)
    if n_repl < 0:
        return None
    adjacent = adv == list(range(adv[0], adv[0] + len(adv)))
    before = [r for r in rest if r < adv[0]] if adjacent else []
    after = [r for r in rest if r not in before]
    nb, repl = len(before), tuple(shape[len(before):len(before) + n_repl])
    src = [vstride[r] for r in before] + [0] * n_repl + [vstride[r] for r in after]
    operands = [tuple(src)]
    full = (1,) * nb + repl + (1,) * len(after)
    if 0 in shape and full == tuple(shape):  # (every operand has the result's shape and no
        return _layout.contiguous_strides(shape)  # elements: all contiguous, row-major)
    for st in _index_operands(arrays, repl):
        view = _layout.view_strides(repl, st, full) if len(st) == len(repl) else None
        view = _layout.contiguous_strides(full) if view is None else view
        # broadcast to the result: a size-1 dim of the index against a longer one is 0
        operands.append(tuple(0 if full[i] == 1 and shape[i] != 1 else view[i]
                              for i in range(len(shape))))
    return _iterator_strides(shape, tuple(operands))


def _iterator_strides(shape: tuple, operands: tuple) -> tuple:
    """Row-major strides in the dim order TensorIterator picks for these operands' strides
    (its ``reorder_dimensions``: an insertion sort, fastest dim first)."""
    n = len(shape)
    perm = _layout.iterator_order(shape, operands)
    if perm == list(range(n - 1, -1, -1)):  # (row-major: PyTorch's contiguous strides)
        return _layout.contiguous_strides(shape)
    strides, step = [0] * n, 1
    for d in perm:
        strides[d] = step
        step *= shape[d]  # (TensorIterator's compatible_stride: after an empty dim, 0)
    return tuple(strides)


def setitem(t: Tensor, key, value) -> None:
    basic, key = _basic_key(key)
    if basic is not None:
        dest = t._view(*_layout.index(t._shape, t._stride, t._offset, basic))
        assign(dest, value)
        return
    t, key = _select_ints(t, key)
    _check_uint8_fill(key, value)
    np_key = _advanced_key(t, key)
    arr = t._raw if t._cj else t._arr  # (a lazy conjugate/negative view: stored mapped)
    view = _put_target(t, key)
    fill = _masked_fill_dispatch(key, value)
    if _layout.has_internal_overlap(view._shape, view._stride) and 0 not in view._shape:
        # PyTorch's index_put_ (and masked_fill_, which it becomes) warn and write anyway
        warnings.warn(INDEX_PUT_EXPANDED, UserWarning, stacklevel=3)
        if fill:
            warnings.warn(MASKED_FILL_EXPANDED, UserWarning, stacklevel=3)
    if not fill and isinstance(value, Tensor):
        check_partial_overlap(view, value, full_ok=False)
    src = _value_array(t, value)
    if isinstance(value, Tensor) and (value._dtype is not t._dtype or value._shape):
        _check_index_put(t, arr, np_key, value)
    if t._cj:
        src = lazy_values(np.asarray(src).astype(arr.dtype))
    def put():
        arr[np_key] = src
    try:
        # (quiet: a value past the dtype's range is inf, as PyTorch's, not NumPy's
        # overflow RuntimeWarning)
        call_quiet(put)
    except IndexError as e:
        raise _translate_index_error(e) from None
    except ValueError:
        shape = arr[np_key].shape
        vshape = value._shape if isinstance(value, Tensor) else ()
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(vshape)} cannot be "
                           f"broadcast to indexing result of shape {list(shape)}") from None
    t._bump()


INDEX_PUT_EXPANDED = (
    "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[indices] = "
    "tensor")
MASKED_FILL_EXPANDED = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before "
    "performing this operation. This also applies to advanced indexing e.g. tensor[mask] = "
    "scalar")


def _put_target(t: Tensor, key: tuple) -> Tensor:
    """The view PyTorch's ``index_put_`` writes into for ``t[key] = v``: the key's slices
    applied, its advanced items left as whole dims."""
    basic = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            basic.append(k)
        else:
            basic.extend([slice(None)] * _item_dims(k))
    try:
        return t._view(*_layout.index(t._shape, t._stride, t._offset, tuple(basic)))
    except Exception:  # noqa: BLE001 - (a bad key: the indexing itself reports it)
        return t


def _masked_fill_dispatch(key: tuple, value) -> builtins.bool:
    """True when PyTorch's ``index_put_`` becomes ``masked_fill_``: one bool (or uint8) mask
    and otherwise only slices, None and Ellipsis, with a one-element value."""
    if isinstance(value, Tensor):
        if value.numel() != 1:
            return False
    elif not isinstance(value, (builtins.bool, builtins.int, builtins.float, builtins.complex,
                                np.generic)):
        return False
    masks = 0
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            continue
        if isinstance(k, Tensor) and k._dtype in (_dtypes.bool, _dtypes.uint8):
            if not k._shape:  # (a 0-dim mask is PyTorch's index [0] or []: no mask at all)
                return False
            masks += 1
        elif isinstance(k, (list, tuple, np.ndarray)) and np.asarray(k).dtype.kind == "b":
            masks += 1
        else:
            return False
    return masks == 1


def _check_uint8_fill(key: tuple, value) -> None:
    """``t[uint8_mask] = scalar`` is ``masked_fill_``, which refuses a uint8 mask in PyTorch."""
    masks = [k for k in key if isinstance(k, Tensor) and k._dtype is _dtypes.uint8 and k._shape]
    basic = [k for k in key if k is None or k is Ellipsis or isinstance(k, slice)]
    if len(masks) == 1 and len(basic) == len(key) - 1 and \
            (not isinstance(value, Tensor) or value.numel() == 1):
        warnings.warn(_UINT8_WARNING, UserWarning, stacklevel=4)
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           "unsigned char")


def _check_index_put(t: Tensor, arr, np_key: tuple, value: Tensor) -> None:
    """PyTorch's ``index_put_`` checks: broadcastable shape, then equal dtypes.

    A single boolean mask with a one-element value is ``masked_fill_`` (which casts)."""
    adv = [k for k in np_key if hasattr(k, "dtype") and hasattr(k, "ndim")]
    if len(adv) == 1 and adv[0].dtype.kind == "b" and value.numel() == 1:
        return
    try:
        shape = arr[np_key].shape
    except IndexError as e:  # (PyTorch checks bounds last: a dtype mismatch comes first)
        if "out of bounds" in str(e):
            _check_put_dtype(t, value)
        raise _translate_index_error(e) from None
    vshape = list(value._shape)
    while vshape and vshape[0] == 1:  # PyTorch drops a value's leading 1s first
        vshape.pop(0)
    ok = len(vshape) <= len(shape) and all(
        v in (1, d) for v, d in zip(reversed(vshape), reversed(shape)))
    if not ok:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(value._shape)} cannot "
                           f"be broadcast to indexing result of shape {list(shape)}")
    _check_put_dtype(t, value)


def _check_put_dtype(t: Tensor, value: Tensor) -> None:
    if value._dtype is not t._dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{t._dtype.cname} for the destination and {value._dtype.cname} for "
                           "the source.")


def _value_array(dest: Tensor, value):
    """``value`` as something the backend can assign into ``dest``'s dtype (PyTorch casting)."""
    if isinstance(value, Tensor):
        if value.device != dest.device and not (value.device.type == "cpu" and not value._shape):
            raise RuntimeError(f"Expected all tensors to be on the same device, but found at "
                               f"least two devices, {dest.device} and {value.device}!")
        src = value._arr
        if value.device != dest.device:
            src = dest._storage._backend.from_host(_host_array(value), dest.device)
        if value._dtype is _dtypes.complex32 and dest._dtype is not _dtypes.complex32:
            src = _chalf.widen(src)  # (then converted as a complex64 value: exact)
        if value._dtype.category == _dtypes._COMPLEX and dest._dtype.category != _dtypes._COMPLEX:
            src = (src != 0) if dest._dtype is _dtypes.bool else src.real  # (bool: either part)
        return read_apart(dest, value, src)
    if isinstance(value, (builtins.bool, builtins.int, builtins.float, builtins.complex,
                          np.generic)):
        try:
            return checked_scalar(value, dest._dtype)
        except OverflowError:
            raise ValueError("Overflow when unpacking long long") from None
    name = type(value).__name__
    if type(value).__module__ not in ("builtins", None):
        name = f"{type(value).__module__}.{name}"
    raise TypeError(f"can't assign a {name} to a {dest.type()}")


def read_apart(dest: Tensor, src: Tensor, arr):
    """``arr`` (the values of ``src``, about to be written into ``dest``) copied first when
    ``src`` shares ``dest``'s memory, so that every value is read before any is written.

    Note: PyTorch's kernels read such a source while they write (``x[m] = x[1:]``,
    ``x.masked_scatter_(m, x)``): what they give depends on their loop order over memory
    and is documented as undefined; tensorviz gives what PyTorch gives for a copy of the
    source. Example: ``x = tensorviz.arange(5.); x[x > 1] = x[::2]`` makes x
    ``[0, 1, 0, 2, 4]`` (PyTorch: ``[0, 1, 0, 0, 4]``, having read x[2] after writing it).
    """
    if src._storage is dest._storage and arr is not None:
        return arr.copy()
    return arr


def set_element(t: Tensor, pos: int, value) -> None:
    """``t[i, j, ...] = value`` for a Python scalar, ``pos`` being the element's storage position
    (in ``t``'s dtype): the checked conversion of ``assign``, stored straight into the storage."""
    dt = t._dtype
    v = _value_array(t, value)
    if t._cj:  # (a lazy conjugate/negative view stores the conjugate/negation)
        v = -v if t._dtype.category != _dtypes._COMPLEX else \
            _chalf.conj(v) if dt is _dtypes.complex32 else np.conj(v)
    st = t._storage
    buf = st._as(dt._np)
    if type(v) is dt._np.type:
        buf[pos] = v  # already the storage's dtype: a plain store, nothing to round or warn
    else:
        from .backends._numpy import call_quiet
        call_quiet(buf.__setitem__, pos, v)
    t._bump()


def check_writable(dest: Tensor) -> None:
    """RuntimeError when several elements of ``dest`` share one memory location."""
    if _layout.has_internal_overlap(dest._shape, dest._stride) and 0 not in dest._shape:
        raise RuntimeError("unsupported operation: more than one element of the written-to "
                           "tensor refers to a single memory location. Please clone() the "
                           "tensor before performing the operation.")


def same_data(dest: Tensor, value) -> builtins.bool:
    """Whether ``value`` broadcast to ``dest``'s shape is exactly the view ``dest`` (same
    memory, offset, strides, dtype and lazy bit): PyTorch's copy_ returns at once then, so
    writing an expanded tensor into itself (``x.expand(3)[:] = x``) is no overlap error."""
    if not isinstance(value, Tensor) or value._storage is not dest._storage or \
            value._offset != dest._offset or value._dtype is not dest._dtype or \
            value._cj != dest._cj:
        return False
    shape, stride = value._shape, value._stride
    while shape and shape[0] == 1 and len(shape) > len(dest._shape):
        shape, stride = shape[1:], stride[1:]
    try:
        _, st, _ = _layout.expand(shape, stride, 0, dest._shape)
    except RuntimeError:
        return False
    return tuple(st) == tuple(dest._stride)


def _copied_as(dest: Tensor, value: Tensor):
    """``value`` as PyTorch's setitem hands it to ``copy_`` (``copy_to``): itself when it has
    ``dest``'s shape, else with every leading 1 dropped and expanded to ``dest``'s shape (a
    new dim, or a size-1 one, of stride 0); None where it does not expand."""
    if value._shape == dest._shape:
        return value
    shape, stride = value._shape, value._stride
    while shape and shape[0] == 1:
        shape, stride = shape[1:], stride[1:]
    try:
        _, st, _ = _layout.expand(shape, stride, 0, dest._shape)
    except RuntimeError:
        return None
    return types.SimpleNamespace(_storage=value._storage, _shape=dest._shape,
                                 _stride=tuple(st), _offset=value._offset,
                                 _dtype=value._dtype, _cj=value._cj)


def assign(dest: Tensor, value) -> None:
    """Write ``value`` (scalar or broadcastable tensor) into the view ``dest``, in place."""
    if isinstance(value, Tensor) and value._storage is dest._storage and \
            (value._shape or not dest._shape):
        # As PyTorch's copy_to (a 0-dim value into a bigger dest is a fill of its number):
        # the value as copy_ gets it is either exactly dest (nothing to do, even into an
        # expanded dest: ``x.expand(3)[:] = x``) or checked as copy_ checks it (``x[1:] =
        # x[:-1]`` is refused; a stride-0 view of a broadcast value passes: ``x[:] = x[0]``).
        src = _copied_as(dest, value)
        if src is not None:
            if src._offset == dest._offset and src._stride == dest._stride and \
                    src._dtype is dest._dtype and src._cj == dest._cj:
                dest._bump()
                return
            check_writable(dest)
            check_partial_overlap(dest, src, lazy_read=False)
    check_writable(dest)
    src = _value_array(dest, value)
    if isinstance(value, Tensor) and value._shape != dest._shape:
        # PyTorch drops the value's leading 1s, then expands it (with expand's error)
        shape, k = value._shape, 0
        while k < len(shape) and shape[k] == 1:
            k += 1
        if k:
            src = src.reshape(shape[k:])
        _layout.expand(shape[k:], value._stride[k:], 0, dest._shape)
    from .backends._numpy import call_quiet
    from ._tensor import store
    call_quiet(store, dest, src)
    dest._bump()


_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor "
            "refer to a single memory location. Please clone() the tensor before performing the "
            "operation.")


def as_resized(out: Tensor, shape: tuple):
    """``out`` as PyTorch's kernel sees it once its ``out=`` is resized to ``shape`` (in place:
    row-major from its offset, over the same storage even where that must grow), for the
    overlap checks PyTorch makes after the resize; ``out`` itself when it has that shape."""
    if out._shape == tuple(shape):
        return out
    return types.SimpleNamespace(_storage=out._storage, _shape=tuple(shape), _dtype=out._dtype,
                                 _stride=_layout.contiguous_strides(tuple(shape)),
                                 _offset=out._offset)


def check_partial_overlap(dest: Tensor, src, full_ok: bool = True,
                          lazy_read: bool = True) -> None:
    """PyTorch's ``assert_no_partial_overlap``: RuntimeError when ``src`` shares some, but not
    exactly all, of the memory ``dest`` is written to.  Only dense layouts are compared (as
    PyTorch, anything else is too hard to tell and passes); the same memory with the same
    strides (``x.add_(x)``) is fine unless ``full_ok`` is False (``assert_no_overlap``, as
    the index ops check their source). A lazy conjugate or negative ``src`` is read into a
    new tensor first (``x[:3].add_(x[1:].conj())`` runs in PyTorch), and a lazy ``dest`` is
    computed apart and copied in (``atanh(x.mT, out=x.conj())`` runs), except by ``copy_``
    (``lazy_read`` False: ``x[:3].copy_(x[1:].conj())`` is refused)."""
    if getattr(src, "_storage", None) is not dest._storage or \
            (src._cj or getattr(dest, "_cj", False)) and lazy_read:
        return  # (src: a tensor, or a layout over its storage; anything else is read first)
    if src is dest:
        if full_ok:
            return
        raise RuntimeError(_OVERLAP)
    n_dest, n_src = _layout.numel(dest._shape), _layout.numel(src._shape)
    if not n_dest or not n_src:
        return
    if not (_layout.is_non_overlapping_and_dense(dest._shape, dest._stride) and
            _layout.is_non_overlapping_and_dense(src._shape, src._stride)):
        return
    a0 = dest._offset * dest._dtype.itemsize
    a1 = a0 + n_dest * dest._dtype.itemsize
    b0 = src._offset * src._dtype.itemsize
    b1 = b0 + n_src * src._dtype.itemsize
    if a0 == b0 and a1 == b1:
        if dest._stride == src._stride and full_ok:
            return
        raise RuntimeError(_OVERLAP)
    if a0 < b1 and b0 < a1:
        raise RuntimeError(_OVERLAP)


_TENSOR_HOOKS.update(getitem=getitem, setitem=setitem, assign=assign, set_element=set_element)
