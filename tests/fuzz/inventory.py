"""The op inventory the fuzzer draws from: every public function and Tensor method that both
PyTorch and tensorviz have, each with its parameter lists.

Parameter lists come from PyTorch's own docstrings (``add(input, other, *, alpha=1, out=None)``,
every overload the docstring lists), falling back to tensorviz's Python signature. Ops whose
results are random or that change global state are left out (they have their own tests)::

    >>> ops = inventory(torch, tensorviz)
    >>> ops["function"]["add"][0].names
    ['input', 'other', 'alpha']
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

# Random results, global state, files, devices, autograd, legacy constructors: not fuzzed here.
EXCLUDED = set("""
bernoulli bernoulli_ cauchy_ exponential_ geometric_ log_normal_ normal normal_ poisson rand
rand_like randint randint_like randn randn_like randperm random_ uniform_ multinomial
empty empty_like empty_strided new_empty new_empty_strided
manual_seed seed initial_seed get_rng_state set_rng_state Generator
set_default_dtype set_default_device get_default_device get_default_dtype set_printoptions
set_num_threads set_num_interop_threads get_num_threads get_num_interop_threads
set_grad_enabled enable_grad no_grad inference_mode is_grad_enabled
is_inference_mode_enabled requires_grad_ requires_grad grad is_leaf detach_ data data_
save load from_numpy frombuffer numpy data_ptr untyped_storage storage cpu cuda get_device
is_cpu is_cuda device Tensor Size TypedStorage UntypedStorage is_storage typename type new
BoolTensor ByteTensor CharTensor DoubleTensor FloatTensor HalfTensor IntTensor LongTensor
ShortTensor dtype layout memory_format finfo iinfo istft stft set_ resize_ resize_as_
as_strided as_strided_ element_size itemsize nbytes
""".split())

# Properties read as attributes rather than called.
PROPERTIES = ["T", "mT", "H", "mH", "real", "imag", "shape", "ndim", "dtype", "is_leaf"]

_SIG = re.compile(r"^\s*(?:\.\. function:: |\.\. method:: )?(?:torch\.|Tensor\.)?(\w+)\((.*)\)\s*->")


@dataclass
class Param:
    """One parameter: its name, whether it is required, keyword-only or ``*args``."""
    name: str
    required: bool = True
    kwonly: bool = False
    star: bool = False
    default: str | None = None


@dataclass
class Signature:
    """One overload: the parameters in order."""
    params: list = field(default_factory=list)

    @property
    def names(self) -> list:
        return [p.name for p in self.params if p.name not in ("out", "device", "layout",
                                                            "requires_grad", "pin_memory",
                                                            "generator", "memory_format")]


def _split_top(text: str) -> list:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [p.strip() for p in parts]


def _parse(params: str) -> Signature:
    sig, kwonly = Signature(), False
    for tok in _split_top(params):
        if tok == "*":
            kwonly = True
            continue
        star = tok.startswith("*")
        tok = tok.lstrip("*")
        name, _, default = tok.partition("=")
        name = name.strip().split(":")[0].strip()
        name = name.split()[-1] if name.split() else name  # "int... size", "Tensor input"
        if not re.fullmatch(r"\w+", name):
            continue
        sig.params.append(Param(name, required=not default and not star, kwonly=kwonly,
                                star=star, default=default.strip() or None))
    return sig


def _doc_signatures(obj, name: str) -> list:
    out = []
    for line in (getattr(obj, "__doc__", None) or "").splitlines():
        m = _SIG.match(line)
        if m and m.group(1) == name:
            out.append(_parse(m.group(2)))
    return out


def _py_signature(obj) -> list:
    try:
        s = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    sig = Signature()
    for p in s.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            continue
        sig.params.append(Param(p.name, required=p.default is p.empty and p.kind is not p.VAR_POSITIONAL,
                                kwonly=p.kind is p.KEYWORD_ONLY, star=p.kind is p.VAR_POSITIONAL,
                                default=None if p.default is p.empty else repr(p.default)))
    return [sig]


def inventory(torch, tv) -> dict:
    """``{"function": {name: [Signature]}, "method": {name: [Signature]},
    "property": [names]}`` over the names both libraries have."""
    funcs, methods = {}, {}
    for name in sorted(dir(tv)):
        if name.startswith("_") or name in EXCLUDED or not hasattr(torch, name):
            continue
        obj = getattr(torch, name)
        if not callable(obj) or isinstance(obj, type):
            continue
        sigs = _doc_signatures(obj, name) or _py_signature(getattr(tv, name))
        if sigs:
            funcs[name] = sigs
    for name in sorted(dir(tv.Tensor)):
        if (name.startswith("_") or name in EXCLUDED or name in PROPERTIES
                or not hasattr(torch.Tensor, name)):
            continue
        obj = getattr(torch.Tensor, name)
        if not callable(obj):
            continue
        sigs = _doc_signatures(obj, name)
        if not sigs and name.endswith("_") and name[:-1] in funcs:  # add_ -> add minus input
            sigs = [Signature(s.params[1:]) for s in funcs[name[:-1]]]
        if not sigs:
            sigs = [Signature(s.params[1:]) for s in _py_signature(getattr(tv.Tensor, name))]
        methods[name] = sigs
    props = [p for p in PROPERTIES if hasattr(tv.Tensor, p) and p not in EXCLUDED]
    return {"function": funcs, "method": methods, "property": props}
