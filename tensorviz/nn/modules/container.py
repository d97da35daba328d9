"""Containers: ``Sequential``, ``ModuleList``, ``ModuleDict``, ``ParameterList``,
``ParameterDict`` -- modules that hold other modules (or parameters) and register them.

    net = tensorviz.nn.Sequential(tensorviz.nn.Linear(4, 8), tensorviz.nn.ReLU())
    net[0]            # Linear(in_features=4, out_features=8, bias=True)
    net[1:]           # Sequential((1): ReLU())  -- slices keep the original indices
"""
from __future__ import annotations

import operator
from collections import OrderedDict
from itertools import chain, islice
from typing import Any, Iterable, Iterator

from ..._tensor import Tensor, typename
from ..parameter import Parameter
from .module import Module, _addindent

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _index(idx, n: int, what: str) -> int:
    idx = operator.index(idx)
    if not -n <= idx < n:
        raise IndexError(f"index {idx} is out of range")
    return idx % n


class Sequential(Module):
    """Modules applied one after the other (``Sequential(a, b)(x) == b(a(x))``); takes
    modules or one OrderedDict of named modules."""

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        n = len(self._modules)
        return next(islice(iter(self._modules.values()), _index(idx, n, "Sequential"), None))

    def __setitem__(self, idx, module: Module) -> None:
        key = list(self._modules.keys())[_index(idx, len(self._modules), "Sequential")]
        setattr(self, key, module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules.keys())
        if isinstance(idx, slice):
            for key in keys[idx]:
                delattr(self, key)
        else:
            delattr(self, keys[_index(idx, len(keys), "Sequential")])
        values = list(self._modules.values())
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(values))

    def __len__(self) -> int:
        return len(self._modules)

    def __add__(self, other: "Sequential") -> "Sequential":
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")
        return Sequential(*self, *other)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, module: Module) -> "Sequential":
        """Add a module at the end."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> "Sequential":
        """Insert a module before ``index``."""
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index %= n + 1 if index < 0 else n + 1
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(mods))
        return self

    def extend(self, sequential: Iterable[Module]) -> "Sequential":
        for m in sequential:
            self.append(m)
        return self

    def pop(self, key) -> Module:
        v = self[key]
        del self[key]
        return v

    def forward(self, input):
        """Apply each module in turn."""
        for module in self:
            input = module(input)
        return input


class ModuleList(Module):
    """A list of modules, registered (``parameters()`` sees theirs); indexable like a list."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self += modules

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self), "ModuleList"))]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, str(_index(idx, len(self), "ModuleList")), module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        for k in (keys[idx] if isinstance(idx, slice) else [keys[_index(idx, len(keys), "")]]):
            delattr(self, k)
        values = list(self._modules.values())
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(values))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> "ModuleList":
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> "ModuleList":
        return ModuleList(chain(self, other))

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def insert(self, index: int, module: Module) -> None:
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(mods))

    def append(self, module: Module) -> "ModuleList":
        """Add a module at the end."""
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key=-1) -> Module:
        v = self[key]
        del self[key]
        return v

    def extend(self, modules: Iterable[Module]) -> "ModuleList":
        """Add modules at the end."""
        if not hasattr(modules, "__iter__"):
            raise TypeError("ModuleList.extend should be called with an iterable, but got " +
                            type(modules).__name__)
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def __repr__(self) -> str:
        # consecutive equal reprs are shown once, as PyTorch does: (0-1): 2 x ReLU()
        items = list(self._modules.items())
        if not items:
            return self._get_name() + "()"
        reprs = [repr(m) for _, m in items]
        lines = []
        start = 0
        for i in range(1, len(reprs) + 1):
            if i == len(reprs) or reprs[i] != reprs[start]:
                if i - start > 1:
                    line = f"({items[start][0]}-{items[i - 1][0]}): {i - start} x " + \
                        _addindent(reprs[start], 2)
                else:
                    line = f"({items[start][0]}): " + _addindent(reprs[start], 2)
                lines.append(line)
                start = i
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')


class ModuleDict(Module):
    """A dict of modules, registered, in insertion order."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules) -> None:
        """Add modules from a mapping or an iterable of (name, module) pairs."""
        if isinstance(modules, (OrderedDict, ModuleDict, dict)):
            for key, module in modules.items():
                self[key] = module
        else:
            for j, m in enumerate(modules):
                if len(m) != 2:
                    raise ValueError("ModuleDict update sequence element #" + str(j) +
                                     " has length " + str(len(m)) + "; 2 is required")
                self[m[0]] = m[1]

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')


def _param_repr(p, typename: bool = False) -> str:
    """One line of ParameterList's (dtype) or ParameterDict's (type name) repr, as PyTorch
    words them: ``  (0): Parameter containing: [tensorviz.float32 of size 2]``."""
    if not isinstance(p, Tensor):
        return f"Object of type: {type(p).__name__}"
    size = "x".join(str(s) for s in p.size())
    dev = "" if p.device.type == "cpu" else f" ({p.device})"
    name = "Parameter" if isinstance(p, Parameter) else "Tensor"
    kind = p.type() if typename else p.dtype
    return f"{name} containing: [{kind} of size {size}{dev}]"


class ParameterList(Module):
    """A list of parameters, registered (plain tensors are made Parameters)."""

    def __init__(self, values=None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self)[idx])
        return getattr(self, str(_index(idx, len(self), "ParameterList")))

    def __setitem__(self, idx: int, param) -> None:
        idx = _index(idx, len(self), "ParameterList")
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, str(idx), param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, value) -> "ParameterList":
        """Add a parameter at the end."""
        new_idx = len(self)
        self._size += 1
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, str(new_idx), value)
        return self

    def extend(self, values) -> "ParameterList":
        """Add parameters at the end."""
        for v in values:
            self.append(v)
        return self

    def extra_repr(self) -> str:
        # PyTorch's two-space prefix on top of the usual indent is kept (its repr shows it)
        return "\n".join(f"  ({i}): " + _param_repr(p) for i, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict of parameters, registered, in insertion order."""

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys: dict = {}
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str):
        return getattr(self, key)

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, key, value)

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def pop(self, key: str):
        v = self[key]
        del self[key]
        return v

    def clear(self) -> None:
        for k in list(self._keys):
            del self[k]

    def update(self, parameters) -> None:
        """Add parameters from a mapping or (name, parameter) pairs."""
        from collections import OrderedDict
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            items = list(parameters.items())
        elif hasattr(parameters, "items"):
            items = sorted(parameters.items())  # a plain mapping: PyTorch sorts its keys
        else:
            items = parameters
        for k, v in items:
            self[k] = v

    def extra_repr(self) -> str:
        return "\n".join(f"  ({k}): " + _param_repr(p, True) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")
