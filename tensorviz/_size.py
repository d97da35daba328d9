"""``tensorviz.Size``: the tuple subclass that ``t.shape`` and ``t.size()`` return."""
from __future__ import annotations


class Size(tuple):
    """A tensor's shape; a tuple of ints that prints as ``tensorviz.Size([2, 3])``."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        items = tuple(sizes)
        for i, s in enumerate(items):
            if type(s) is not int and not hasattr(s, "__index__"):
                raise TypeError(f"tensorviz.Size() takes an iterable of 'int' (item {i} is "
                                f"'{type(s).__name__}')")
        return tuple.__new__(cls, (s if type(s) is int else int(s.__index__()) for s in items))

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __repr__(self) -> str:
        return f"tensorviz.Size([{', '.join(map(str, self))}])"

    __str__ = __repr__

    def __getitem__(self, key):
        r = tuple.__getitem__(self, key)
        return Size(r) if isinstance(key, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented  # (TypeError: a Size joins only tuples, as in PyTorch)
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, n):
        r = tuple.__mul__(self, n)
        return r if r is NotImplemented else Size(r)

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (tuple(self),))
