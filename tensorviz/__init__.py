"""tensorviz: see how tensors really work.

A tensor library with PyTorch's public API and semantics (``import tensorviz as torch`` runs
the classic tutorials unchanged) computing on NumPy (``cpu``) and CuPy (``cuda``), plus live
Jupyter widgets that draw a tensor's storage, strides and views::

    import tensorviz as torch
    a = torch.arange(12).reshape(3, 4)
    a.t().stride()            # (1, 4): same storage, strides swapped
    torch.show(a, a.t(), a[1:, ::2])
"""
from __future__ import annotations

from . import _dtypes, _layout, cuda
from ._creation import (arange, as_tensor, asarray, empty, empty_like, empty_strided, eye,
                        frombuffer, full, full_like, is_complex, is_floating_point, is_nonzero,
                        is_storage, is_tensor, linspace, logspace, numel, ones, ones_like, range,
                        scalar_tensor, tensor, zeros, zeros_like)
from ._device import device, get_default_device, set_default_device
from ._dtypes import (bfloat16, bool, can_cast, cdouble, cfloat, complex64, complex128,
                      double, dtype,
                      finfo, float, float16, float32, float64, get_default_dtype, half, iinfo,
                      int, int8, int16, int32, int64, long, promote_types, result_type,
                      set_default_dtype, short, uint8)
from ._grad_mode import (enable_grad, inference_mode, is_grad_enabled,
                         is_inference_mode_enabled, no_grad, set_grad_enabled)
from ._random import (Generator, default_generator, get_rng_state, initial_seed, manual_seed,
                      normal, rand, rand_like, randint, randint_like, randn, randn_like,
                      randperm, seed, set_rng_state)
from ._size import Size
from ._storage import TypedStorage, UntypedStorage
from ._tensor import (Tensor, channels_last, channels_last_3d, contiguous_format, from_numpy,
                      layout, memory_format, preserve_format, strided, typename)
from ._tensor import LEGACY_TYPES as _LEGACY_TYPES
from . import ops as _ops
from .ops import _keywords  # noqa: F401  (ops._keywords, applied below)

globals().update(_LEGACY_TYPES)  # FloatTensor, LongTensor ...: legacy constructors

__version__ = "0.1.0"

globals().update(_ops.install())  # (every op's spellings: complex, polar, cat, ...)
# (install wraps the registry's spellings; this covers the names bound outside it)
_ops._keywords.apply(globals(), Tensor)  # (axis=/keepdims= and 0-dim tensors as dim=, p= ...)

# The constants PyTorch re-exports from math (torch.pi, torch.inf ...) and NumPy's newaxis.
from math import e, inf, nan, pi  # noqa: E402
newaxis = None


def _show(self, **kwargs):
    """Draw this tensor's storage, strides and logical layout as a live widget
    (``tensorviz.show(t)``; the widgets load on first use)."""
    from .viz import show as _viz_show
    return _viz_show(self, **kwargs)


_show.__name__ = _show.__qualname__ = "show"
Tensor.show = _show
del _show
from . import return_types  # noqa: E402

from . import autograd  # noqa: E402  (grad-mode names only: autograd is not implemented yet)

from ._printing import get_printoptions, set_printoptions  # noqa: E402


class _StorageNamespace:
    """``tensorviz.storage.UntypedStorage`` / ``TypedStorage``, as PyTorch spells them."""

    UntypedStorage = UntypedStorage
    TypedStorage = TypedStorage


storage = _StorageNamespace()

# The widgets, plots and file formats load on first use so `import tensorviz` stays light.
_LAZY = {
    "show": ("tensorviz.viz", "show"),
    "show_broadcast": ("tensorviz.viz", "show_broadcast"),  # Note: not in PyTorch (a widget)
    "show_graph": ("tensorviz.viz", "show_graph"),  # Note: not in PyTorch (a widget)
    "show_training": ("tensorviz.viz", "show_training"),  # Note: not in PyTorch (a widget)
    "show_batches": ("tensorviz.viz", "show_batches"),  # Note: not in PyTorch (a widget)
    "playground": ("tensorviz.viz", "playground"),
    "plot": ("tensorviz.viz", "plot"),
    "viz": ("tensorviz.viz", None),
    "save": ("tensorviz.serialization", "save"),
    "load": ("tensorviz.serialization", "load"),
    "serialization": ("tensorviz.serialization", None),
    "linalg": ("tensorviz.linalg", None),
    "fft": ("tensorviz.fft", None),
    "special": ("tensorviz.special", None),
    "nn": ("tensorviz.nn", None),
    "utils": ("tensorviz.utils", None),
    "optim": ("tensorviz.optim", None),
    "is_anomaly_enabled": ("tensorviz.autograd.anomaly_mode", "is_anomaly_enabled"),
    "is_anomaly_check_nan_enabled": ("tensorviz.autograd.anomaly_mode",
                                     "is_anomaly_check_nan_enabled"),
    "testing": ("tensorviz.testing", None),
    "accelerator": ("tensorviz.accelerator", None),
}


def _public_class_names() -> None:
    """``type(x)`` shows ``<class 'tensorviz.Tensor'>`` as PyTorch shows ``torch.Tensor``:
    each public class says it lives where learners import it from (pickle finds it there)."""
    for name, obj in list(globals().items()):
        mod = getattr(obj, "__module__", "") or ""
        if isinstance(obj, type) and not name.startswith("_") and obj.__name__ == name and \
                mod.startswith("tensorviz._"):  # (private modules only: grad_mode keeps its)
            obj.__module__ = "tensorviz"
            obj.__qualname__ = name


_public_class_names()


def __getattr__(name: str):
    if name in ("complex32", "chalf"):
        # (served here, not imported: naming the dtype switches the ops' complex32 gate on,
        # see _chalf, before any op can be handed it)
        from . import _chalf
        _chalf._activate()
        globals()[name] = _dtypes.complex32
        return _dtypes.complex32
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'tensorviz' has no attribute '{name}'")
    import importlib
    module = importlib.import_module(target[0])
    value = module if target[1] is None else getattr(module, target[1])
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | {"complex32", "chalf"})


__all__ = [n for n in globals() if not n.startswith("_") and n not in ("annotations",)] + \
    list(_LAZY) + ["complex32", "chalf"]
