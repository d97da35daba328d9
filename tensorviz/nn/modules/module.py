"""``nn.Module``: the base class of every layer and model.

A module registers what is assigned to it: a ``Parameter`` becomes a parameter, a ``Module``
a submodule, ``register_buffer`` tensors its buffers (saved in ``state_dict`` unless
``persistent=False``)::

    class Net(tensorviz.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = tensorviz.nn.Linear(4, 2)      # a submodule, with its parameters
        def forward(self, x):
            return self.fc(x).relu()

    net = Net()
    [n for n, _ in net.named_parameters()]     # ['fc.weight', 'fc.bias']
    net.state_dict()                           # OrderedDict of detached tensors
"""
from __future__ import annotations

import functools
import itertools
import warnings
import weakref
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Iterator

from ... import _dtypes
from ..._grad_mode import no_grad
from ..._tensor import Tensor, typename
from ..parameter import Buffer, Parameter

__all__ = ["Module", "register_module_forward_hook", "register_module_forward_pre_hook"]

_global_forward_hooks: dict = OrderedDict()
_global_forward_pre_hooks: dict = OrderedDict()
_hook_ids = itertools.count()


class _RemovableHandle:
    """``handle.remove()`` takes a hook away (also as a context manager)."""

    def __init__(self, *tables):
        self.id = next(_hook_ids)
        self._tables = [weakref.ref(t) if _weakrefable(t) else (lambda t=t: t) for t in tables]

    def remove(self) -> None:
        for ref in self._tables:
            table = ref()
            if table is not None and self.id in table:
                del table[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def _weakrefable(obj) -> bool:
    try:
        weakref.ref(obj)
        return True
    except TypeError:
        return False


class _HookTable(OrderedDict):
    pass


def register_module_forward_pre_hook(hook: Callable) -> _RemovableHandle:
    """A forward pre-hook for every module."""
    h = _RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[h.id] = hook
    return h


def register_module_forward_hook(hook: Callable) -> _RemovableHandle:
    """A forward hook for every module."""
    h = _RemovableHandle(_global_forward_hooks)
    _global_forward_hooks[h.id] = hook
    return h


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict(strict=False)`` found missing or unexpected."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


_IncompatibleKeys.__name__ = "_IncompatibleKeys"


def _addindent(s: str, n: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * n + line for line in lines)


def _forward_unimplemented(self, *input: Any) -> None:
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" '
                              "function")


class Module:
    """Base class of all layers and models (see the module docstring).

    Subclasses call ``super().__init__()`` first, assign parameters and submodules as
    attributes, and define ``forward``; calling the module runs ``forward`` with its hooks.
    """

    dump_patches = False
    _version: int = 1
    training: bool
    call_super_init: bool = False

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = OrderedDict()
        d["_buffers"] = OrderedDict()
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = OrderedDict()
        d["_forward_hooks"] = _HookTable()
        d["_forward_hooks_with_kwargs"] = {}
        d["_forward_hooks_always_called"] = {}
        d["_forward_pre_hooks"] = _HookTable()
        d["_forward_pre_hooks_with_kwargs"] = {}
        d["_backward_hooks"] = _HookTable()
        d["_backward_pre_hooks"] = _HookTable()
        d["_state_dict_hooks"] = _HookTable()
        d["_state_dict_pre_hooks"] = _HookTable()
        d["_load_state_dict_pre_hooks"] = _HookTable()
        d["_load_state_dict_post_hooks"] = _HookTable()

    forward: Callable[..., Any] = _forward_unimplemented

    # ------------------------------------------------------------ registration
    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (BatchNorm's running mean):
        moved by ``to()``, saved in ``state_dict`` unless ``persistent=False``."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        if isinstance(tensor, Buffer):
            persistent = getattr(tensor, "persistent", persistent)
            tensor = tensor.detach()
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or None, a placeholder) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                             f"parameters must be created explicitly. To express '{name}' as a "
                             "function of another Tensor, compute the value in the forward() "
                             "method.")
        self._parameters[name] = param

    def add_module(self, name: str, module: "Module | None") -> None:
        """Add a submodule under ``name`` (``self.name = module`` does the same)."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target: str) -> "Module":
        """The submodule at a dotted path (``"block.0.conv"``); ``""`` is this module."""
        if target == "":
            return self
        mod: Module = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target: str, module: "Module", strict: bool = False) -> None:
        """Replace the submodule at a dotted path."""
        *path, last = target.split(".")
        parent = self.get_submodule(".".join(path))
        if strict and not hasattr(parent, last):
            raise AttributeError(parent._get_name() + " has no attribute `" + last + "`")
        setattr(parent, last, module)

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at a dotted path (``"fc.weight"``)."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at a dotted path."""
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if name not in mod._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return mod._buffers[name]

    # ------------------------------------------------------------ attribute protocol
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules,
                        self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers,
                            self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{typename(value)}' as child module "
                                    f"'{name}' (torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if isinstance(value, Buffer) or buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, Tensor):
                        raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                        "(torch.nn.Buffer, torch.Tensor or None expected)")
                    if isinstance(value, Buffer):
                        persistent = getattr(value, "persistent", True)
                    else:
                        persistent = name not in self._non_persistent_buffers_set
                    remove_from(self.__dict__, self._parameters, self._modules)
                    self.register_buffer(name, value, persistent)
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = list(object.__dir__(self)) + list(self._parameters) + list(self._modules) + \
            list(self._buffers)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)

    # ------------------------------------------------------------ iteration
    def _named_members(self, get_members_fn, prefix: str = "", recurse: bool = True,
                       remove_duplicate: bool = True):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                name = module_prefix + ("." if module_prefix else "") + k
                yield name, v

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The module's parameters (its own, then its submodules', each shared one once)."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(dotted name, parameter)`` pairs, in registration order.

        >>> [n for n, _ in tensorviz.nn.Linear(2, 1).named_parameters()]
        ['weight', 'bias']
        """
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse,
                                       remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """The module's buffers (BatchNorm's running statistics ...)."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """``(dotted name, buffer)`` pairs."""
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse,
                                       remove_duplicate)

    def children(self) -> Iterator["Module"]:
        """The direct submodules."""
        for _, m in self.named_children():
            yield m

    def named_children(self) -> Iterator[tuple[str, "Module"]]:
        """``(name, submodule)`` for the direct submodules (each once)."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self) -> Iterator["Module"]:
        """This module and every submodule, depth first."""
        for _, m in self.named_modules():
            yield m

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True):
        """``(dotted name, module)`` for this module (``''``) and every submodule."""
        if memo is None:
            memo = set()
        if id(self) in memo and remove_duplicate:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    # ------------------------------------------------------------ modes and moves
    def train(self, mode: bool = True) -> "Module":
        """Training mode (Dropout drops, BatchNorm uses batch statistics); returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> "Module":
        """Evaluation mode (``train(False)``); returns self."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        """Set ``requires_grad`` of every parameter (freeze with False); returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's ``.grad`` (to None by default, as PyTorch 2)."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    g = p.grad
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    def apply(self, fn: Callable[["Module"], None]) -> "Module":
        """Call ``fn`` on every submodule (children first), then on self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply(self, fn: Callable[[Tensor], Tensor], recurse: bool = True) -> "Module":
        if recurse:
            for module in self.children():
                module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            with no_grad():
                new = fn(param)
            if new is param:
                continue
            # as PyTorch: the Parameter object stays (its .data is replaced), so optimizers
            # and other references keep seeing the moved/cast parameter
            param.data = new
            if param.grad is not None:
                with no_grad():
                    param.grad.data = fn(param.grad)
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs) -> "Module":
        """Move/cast parameters and buffers: ``to(device)``, ``to(dtype)`` (floating point
        ones only), ``to(tensor)``; returns self."""
        from ...ops.conversion import _parse_to
        from ... import empty
        dev, dt, _ = _parse_to(empty(0), args, dict(kwargs))
        if dt is not None and not (dt.is_floating_point or dt.is_complex):
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but "
                            f"got desired dtype={dt!r}")

        def convert(t: Tensor) -> Tensor:
            if dt is not None and (t.is_floating_point() or t.is_complex()):
                return t.to(dev, dt)
            return t.to(dev) if dev is not None else t
        return self._apply(convert)

    def cpu(self) -> "Module":
        """Move every parameter and buffer to the CPU."""
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None) -> "Module":
        """Move every parameter and buffer to a CUDA device."""
        return self._apply(lambda t: t.cuda(device))

    def _cast(self, dt) -> "Module":
        return self._apply(lambda t: t.to(dt) if t.is_floating_point() else t)

    def double(self) -> "Module":
        """Cast floating point parameters and buffers to float64."""
        return self._cast(_dtypes.float64)

    def float(self) -> "Module":
        """Cast floating point parameters and buffers to float32."""
        return self._cast(_dtypes.float32)

    def half(self) -> "Module":
        """Cast floating point parameters and buffers to float16."""
        return self._cast(_dtypes.float16)

    def bfloat16(self) -> "Module":
        """Cast floating point parameters and buffers to bfloat16: ``model.bfloat16()``."""
        return self._cast(_dtypes.bfloat16)

    def type(self, dst_type) -> "Module":
        """Cast every parameter and buffer to ``dst_type``."""
        return self._apply(lambda t: t.type(dst_type))

    # ------------------------------------------------------------ calling
    def _call_impl(self, *args, **kwargs):
        forward = self.forward
        if not (self._forward_hooks or self._forward_pre_hooks or _global_forward_hooks or
                _global_forward_pre_hooks or self._backward_hooks or
                self._backward_pre_hooks):
            return forward(*args, **kwargs)
        for hook_id, hook in itertools.chain(_global_forward_pre_hooks.items(),
                                             self._forward_pre_hooks.items()):
            if self._forward_pre_hooks_with_kwargs.get(hook_id):
                res = hook(self, args, kwargs)
                if res is not None:
                    args, kwargs = res
            else:
                res = hook(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        bw = None
        if self._backward_hooks or self._backward_pre_hooks:
            bw = _BackwardHook(self)
            args = bw.setup_input_hook(args)
        result = forward(*args, **kwargs)
        for hook_id, hook in itertools.chain(_global_forward_hooks.items(),
                                             self._forward_hooks.items()):
            if self._forward_hooks_with_kwargs.get(hook_id):
                res = hook(self, args, kwargs, result)
            else:
                res = hook(self, args, result)
            if res is not None:
                result = res
        if bw is not None:
            result = bw.setup_output_hook(result)
        return result

    __call__ = _call_impl

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> _RemovableHandle:
        """``hook(module, args)`` before ``forward`` (may return new args)."""
        h = _RemovableHandle(self._forward_pre_hooks, self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[h.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[h.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(h.id, last=False)
        return h

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False,
                              always_call: bool = False) -> _RemovableHandle:
        """``hook(module, args, output)`` after ``forward`` (may return a new output)."""
        h = _RemovableHandle(self._forward_hooks, self._forward_hooks_with_kwargs)
        self._forward_hooks[h.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[h.id] = True
        if prepend:
            self._forward_hooks.move_to_end(h.id, last=False)
        return h

    def register_full_backward_hook(self, hook: Callable,
                                    prepend: bool = False) -> _RemovableHandle:
        """``hook(module, grad_input, grad_output)`` when the gradients with respect to the
        module's inputs are computed (may return new grad_input)."""
        h = _RemovableHandle(self._backward_hooks)
        self._backward_hooks[h.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(h.id, last=False)
        return h

    def register_full_backward_pre_hook(self, hook: Callable,
                                        prepend: bool = False) -> _RemovableHandle:
        """``hook(module, grad_output)`` before the module's gradients are computed."""
        h = _RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[h.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(h.id, last=False)
        return h

    def register_backward_hook(self, hook: Callable) -> _RemovableHandle:
        """Deprecated in PyTorch in favour of ``register_full_backward_hook``; the same here."""
        return self.register_full_backward_hook(hook)

    # ------------------------------------------------------------ state dict
    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *args, destination=None, prefix: str = "",
                   keep_vars: bool = False) -> "OrderedDict[str, Tensor]":
        """An OrderedDict of every parameter and persistent buffer by dotted name (detached
        tensors sharing memory with them), with per-module versions in ``_metadata``.

        >>> list(tensorviz.nn.Linear(2, 1).state_dict())
        ['weight', 'bias']
        """
        if args:
            destination = args[0] if destination is None else destination
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            res = hook(self, destination, prefix, local_metadata)
            if res is not None:
                destination = res
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs, assign: bool = False) -> None:
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                 error_msgs)
        persistent = {k: v for k, v in self._buffers.items()
                      if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(),
                                                        persistent.items()) if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected '
                                  "torch.Tensor or Tensor-like object from checkpoint but "
                                  f"received {type(input_param)}")
                continue
            if input_param.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{input_param.shape} from checkpoint, the shape in current "
                                  f"model is {param.shape}.")
                continue
            try:
                with no_grad():
                    if assign:
                        if isinstance(param, Parameter):
                            new = input_param if isinstance(input_param, Parameter) else \
                                Parameter(input_param, param.requires_grad)
                            setattr(self, name, new)
                        else:
                            setattr(self, name, input_param)
                    else:
                        param.copy_(input_param)
            except Exception as ex:  # (PyTorch collects these too)
                error_msgs.append(f'While copying the parameter named "{key}", whose '
                                  f"dimensions in the model are {param.size()} and whose "
                                  "dimensions in the checkpoint are "
                                  f"{input_param.size()}, an exception occurred : {ex.args}.")
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split(".", 1)
                    if input_name[0] not in self._modules and input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        """Copy parameters and buffers from ``state_dict`` (as ``state_dict()`` makes).

        ``strict`` (default): every key must match, else RuntimeError listing the missing and
        unexpected ones; with ``strict=False`` they are returned instead.  A shape mismatch is
        always an error.  ``assign=True`` takes the given tensors instead of copying.
        """
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list = []
        unexpected: list = []
        errors: list = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True,
                                         missing, unexpected, errors, assign)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {k: v for k, v in local_state_dict.items()
                                   if k.startswith(child_prefix)}
                    load(child, child_state, child_prefix)
            for hook in module._load_state_dict_post_hooks.values():
                hook(module, _IncompatibleKeys(missing, unexpected))
        load(self, state_dict)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def register_state_dict_pre_hook(self, hook) -> _RemovableHandle:
        h = _RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[h.id] = hook
        return h

    def register_state_dict_post_hook(self, hook) -> _RemovableHandle:
        h = _RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[h.id] = hook
        return h

    def register_load_state_dict_pre_hook(self, hook) -> _RemovableHandle:
        h = _RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[h.id] = lambda *a: hook(self, *a)
        return h

    def register_load_state_dict_post_hook(self, hook) -> _RemovableHandle:
        h = _RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[h.id] = hook
        return h

    # ------------------------------------------------------------ printing
    def extra_repr(self) -> str:
        """The text inside this module's parentheses in its repr (layers override it)."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra_lines = []
        extra = self.extra_repr()
        if extra:
            extra_lines = extra.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = _addindent(repr(module), 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def share_memory(self) -> "Module":
        return self

    def compile(self, *args, **kwargs) -> None:
        """Accepted for PyTorch compatibility; nothing is compiled here."""


class _BackwardHook:
    """Module full backward hooks: the gradients with respect to the module's tensor inputs
    and outputs, seen through tensor hooks on identity nodes around the module."""

    def __init__(self, module: Module):
        self.module = module
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_grads: dict = {}

    def setup_input_hook(self, args):
        from ... import autograd
        tensors = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        self.n_inputs = len(args)
        self.input_pos = tensors
        if not tensors:
            return args
        new = list(args)
        idents = _Identity.apply(*[args[i] for i in tensors])
        if isinstance(idents, Tensor):
            idents = (idents,)
        for i, t in zip(tensors, idents):
            new[i] = t
        self.input_node = idents[0].grad_fn
        hook = self

        def on_inputs(grad_inputs, grad_outputs):
            gi = list(grad_inputs)
            full = [None] * hook.n_inputs
            for pos, g in zip(hook.input_pos, gi):
                full[pos] = g
            for h in hook.module._backward_hooks.values():
                res = h(hook.module, tuple(full), hook.grad_outputs or ())
                if res is not None:
                    full = list(res)
            return tuple(full[p] for p in hook.input_pos)
        self.input_node.register_hook(on_inputs)
        return tuple(new)

    def setup_output_hook(self, result):
        outs = result if isinstance(result, tuple) else (result,)
        tensors = [o for o in outs if isinstance(o, Tensor) and o.requires_grad]
        if not tensors:
            return result
        idents = _Identity.apply(*tensors)
        if isinstance(idents, Tensor):
            idents = (idents,)
        hook = self

        def on_outputs(grad_outputs):
            hook.grad_outputs = tuple(grad_outputs)
            res = grad_outputs
            for h in hook.module._backward_pre_hooks.values():
                r = h(hook.module, tuple(res))
                if r is not None:
                    res = tuple(r)
            if not hook.input_pos and hook.module._backward_hooks:
                for h in hook.module._backward_hooks.values():
                    h(hook.module, (None,) * hook.n_inputs, tuple(res))
            return res
        idents[0].grad_fn.register_prehook(on_outputs)
        it = iter(idents)
        new = tuple(next(it) if isinstance(o, Tensor) and o.requires_grad else o for o in outs)
        return new if isinstance(result, tuple) else new[0]


def _identity_function():
    from ...autograd import Function

    class BackwardHookFunction(Function):
        @staticmethod
        def forward(ctx, *args):
            ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
            return args if len(args) > 1 else args[0]

        @staticmethod
        def backward(ctx, *grads):
            return grads if len(grads) > 1 else grads[0]
    return BackwardHookFunction


class _LazyIdentity:
    _cls = None

    def apply(self, *args):
        if _LazyIdentity._cls is None:
            _LazyIdentity._cls = _identity_function()
        return _LazyIdentity._cls.apply(*args)


_Identity = _LazyIdentity()
