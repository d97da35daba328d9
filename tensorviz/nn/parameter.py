"""``nn.Parameter``: a tensor that a ``Module`` registers as one of its parameters.

A Parameter is a leaf that requires grad (by default) and shares its memory with the tensor
it was made from; arithmetic on it gives plain tensors::

    w = tensorviz.nn.Parameter(tensorviz.ones(2))
    w                   # Parameter containing:\\ntensor([1., 1.], requires_grad=True)
    type(w * 2)         # tensorviz.Tensor
"""
from __future__ import annotations

from .. import _autograd_meta as _ag_meta
from .._tensor import Tensor, _make

__all__ = ["Parameter", "Buffer"]


class Parameter(Tensor):
    """A tensor registered as a module parameter (a leaf; ``requires_grad=True`` by default).

    >>> p = tensorviz.nn.Parameter(tensorviz.zeros(3))
    >>> p.requires_grad, p.is_leaf
    (True, True)
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            from .. import empty
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): data must be a Tensor, not {type(data).__name__}")
        p = _make(cls, data._storage, data._dtype, data._offset, data._shape, data._stride,
                  data._a)
        vc = data._vc
        if vc is None:
            vc = data._vc = [0]
        p._vc = vc
        if requires_grad:
            _ag_meta.set_requires_grad(p, True, _ag_meta.FACTORY)
        return p

    def __init__(self, data=None, requires_grad: bool = True):
        pass

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self.detach(), self.requires_grad))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = Parameter(self.detach().clone(), self.requires_grad)
        memo[id(self)] = result
        return result


def _rebuild_parameter(data: Tensor, requires_grad: bool) -> Parameter:
    return Parameter(data, requires_grad)


class Buffer(Tensor):
    """A marker for ``register_buffer`` through attribute assignment (``self.x = Buffer(t)``):
    the module stores the plain tensor as a buffer (``persistent`` as given)."""

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True):
        if data is None:
            from .. import empty
            data = empty(0)
        b = _make(cls, data._storage, data._dtype, data._offset, data._shape, data._stride,
                  data._a)
        b.persistent = persistent
        return b

    def __init__(self, data=None, *, persistent: bool = True):
        pass


Parameter.__module__ = "tensorviz.nn.parameter"
Buffer.__module__ = "tensorviz.nn.parameter"
