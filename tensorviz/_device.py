"""``tensorviz.device``: where a tensor's storage lives (``cpu`` or ``cuda:N``)."""
from __future__ import annotations

from typing import Union

__all__ = ["device", "DeviceLike", "as_device"]

_KNOWN_TYPES = ("cpu", "cuda")


class device:
    """A device: ``device('cpu')``, ``device('cuda:0')``, ``device('cuda', 1)``."""

    __slots__ = ("type", "index")

    def __init__(self, type: Union[str, "device"], index: int | None = None):
        if isinstance(type, device):
            if index is not None:
                raise ValueError("device(): cannot pass an index together with a device object")
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            if type < 0:
                raise RuntimeError(f"Device index must not be negative, got {type}")
            type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({type.__class__.__name__}), but expected a device string like "
                            "'cpu' or 'cuda:0'")
        name, sep, idx = type.partition(":")
        if sep:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(idx)
        if name not in _KNOWN_TYPES:
            raise RuntimeError(f"Expected one of cpu, cuda device type at start of device "
                               f"string: {type}")
        if index is not None and index < 0:
            raise RuntimeError(f"Device index must not be negative, got {index}")
        self.type = name
        self.index = index

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

    # `with tensorviz.device('cuda:1'):` selects the current CUDA device, as in PyTorch.
    def __enter__(self):
        from . import cuda
        if self.type == "cuda" and self.index is not None:
            cuda._push_device(self.index)
        return self

    def __exit__(self, *exc):
        from . import cuda
        if self.type == "cuda" and self.index is not None:
            cuda._pop_device()
        return False


DeviceLike = Union[device, str, int, None]

CPU = device("cpu")
_CACHE: dict = {"cpu": CPU, None: CPU, CPU: CPU}


def as_device(d: DeviceLike) -> device:
    """Normalize a device argument; ``cuda`` without an index means the current CUDA device."""
    try:
        return _CACHE[d]
    except (KeyError, TypeError):
        pass
    dev = d if isinstance(d, device) else device(d)
    if dev.type == "cuda" and dev.index is None:
        from . import cuda
        dev = device("cuda", cuda.current_device())
    elif dev.type == "cpu":
        dev = CPU
    if isinstance(d, str):
        _CACHE[d] = dev if dev.type == "cpu" or ":" in d else None
        if _CACHE[d] is None:
            del _CACHE[d]
    return dev
