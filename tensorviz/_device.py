"""``tensorviz.device``: where a tensor's storage lives (``cpu``, ``cuda:N``, or ``meta``: a
layout with no memory at all)."""
from __future__ import annotations

import re
from typing import Union

__all__ = ["device", "DeviceLike", "as_device", "set_default_device", "get_default_device"]

_KNOWN_TYPES = ("cpu", "cuda", "meta")
_INDEX = re.compile(r"0|[1-9][0-9]*", re.ASCII)
_MAX_INDEX = 2 ** 31 - 1


class device:
    """A device: ``device('cpu')``, ``device('cuda:0')``, ``device('cuda', 1)``,
    ``device('meta')`` (shape, strides and dtype without memory)."""

    __slots__ = ("type", "index")

    def __init__(self, type: Union[str, "device"], index: int | None = None):
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): argument 'type' (position 1) must be str, not "
                                "tensorviz.device (a device object takes no index)")
            _set(self, type.type, type.index)
            return
        if isinstance(type, int) and not isinstance(type, bool):
            if type < 0:
                raise RuntimeError(f"Device index must not be negative, got {type}")
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({type.__class__.__name__}), but expected a device string like "
                            "'cpu' or 'cuda:0'")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise TypeError(f"device(): argument 'index' (position 2) must be int, not "
                            f"{index.__class__.__name__}")
        name, sep, idx = type.partition(":")
        if sep:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            # As PyTorch: ASCII digits, no sign, no spaces, no leading zeros ('cuda:01').
            if not _INDEX.fullmatch(idx):
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(idx)
            if index > _MAX_INDEX:
                raise RuntimeError(f"Could not parse device index '{idx}' in device string "
                                   f"'{type}'")
        if name not in _KNOWN_TYPES:
            raise RuntimeError(f"Expected one of cpu, cuda, meta device type at start of device "
                               f"string: {type}")
        if index is not None and index < 0:
            raise RuntimeError(f"Device index must not be negative, got {index}")
        _set(self, name, index)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'tensorviz.device' objects is not "
                             "writable")

    def __delattr__(self, name):
        raise AttributeError(f"attribute '{name}' of 'tensorviz.device' objects is not "
                             "writable")

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other) -> bool:
        # Note: like PyTorch, a device never equals a string (device('cpu') != 'cpu').
        if not isinstance(other, device):
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))

    # `with tensorviz.device('cuda'):` makes it the default device of factory functions
    # (tensorviz.zeros(2) and the like, without device=) inside the block, as in PyTorch.
    def __enter__(self):
        _push_default(self)
        return self

    def __exit__(self, *exc):
        _pop_default()
        return False


def _set(dev: device, type: str, index: int | None) -> None:
    object.__setattr__(dev, "type", type)
    object.__setattr__(dev, "index", index)


DeviceLike = Union[device, str, int, None]

CPU = device("cpu")
# as_device's memo; ``None`` (no device= given) maps to the default device, CPU unless
# `with device(...)` or set_default_device says otherwise (then the entry is removed).
_CACHE: dict = {"cpu": CPU, None: CPU, CPU: CPU}
_default_stack: list = []  # devices of the enclosing `with device(...)` blocks
_default_base: list = [CPU]  # set_default_device's device


def _current_default() -> device:
    return _default_stack[-1] if _default_stack else _default_base[0]


def _sync_default() -> None:
    if _current_default() is CPU:
        _CACHE[None] = CPU
    else:
        _CACHE.pop(None, None)


def _push_default(dev: device) -> None:
    _default_stack.append(CPU if dev.type == "cpu" else dev)
    _sync_default()


def _pop_default() -> None:
    if _default_stack:
        _default_stack.pop()
    _sync_default()


def set_default_device(dev: DeviceLike) -> None:
    """Where factory functions without ``device=`` put tensors (``None``: back to cpu)."""
    if dev is None:
        _default_base[0] = CPU
    else:
        d = dev if isinstance(dev, device) else device(dev)
        _default_base[0] = CPU if d.type == "cpu" else d
    _sync_default()


def get_default_device() -> device:
    """The device factory functions use when no ``device=`` is given."""
    return as_device(None)


def as_device(d: DeviceLike) -> device:
    """Normalize a device argument; ``cuda`` without an index means the current CUDA device,
    and ``None`` the default device (cpu unless changed)."""
    try:
        return _CACHE[d]
    except (KeyError, TypeError):
        pass
    if d is None:
        d = _current_default()
    dev = d if isinstance(d, device) else device(d)
    if dev.type == "cuda" and dev.index is None:
        dev = device("cuda", current_cuda_index())
    elif dev.type == "cpu":
        dev = CPU
    if isinstance(d, str):
        _CACHE[d] = dev if dev.type == "cpu" or ":" in d else None
        if _CACHE[d] is None:
            del _CACHE[d]
    return dev


#: The index a bare ``"cuda"`` means now: ``tensorviz.cuda`` installs its ``current_device``
#: here when it loads (it is a layer above this one).
HOOKS: dict = {}


def current_cuda_index() -> int:
    """The selected GPU's index (``tensorviz.cuda.current_device()``)."""
    return HOOKS["current_cuda_index"]()
