"""``Optimizer``: the base class every optimizer builds on, as PyTorch's.

An optimizer holds ``param_groups`` (a list of dicts: ``'params'`` plus the options such as
``'lr'``) and ``state`` (a ``defaultdict(dict)`` keyed by the parameter tensor itself)::

    opt = tensorviz.optim.SGD([w], lr=0.1, momentum=0.9)
    loss.backward(); opt.step(); opt.zero_grad()
    opt.state[w]["momentum_buffer"]        # the running velocity of w

``state_dict()`` swaps each parameter for its index (in group order), the layout PyTorch
writes, so a checkpoint saved by ``tensorviz.save`` loads into ``torch.optim`` and back.
Steps run with grad mode off and change parameters with in-place ops: no graph is
recorded and each parameter's version counter goes up, as in PyTorch.
"""
from __future__ import annotations

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain
from typing import Any, Callable

from .._grad_mode import is_grad_enabled, set_grad_enabled
from .._tensor import Tensor, typename
from ..autograd.graph import RemovableHandle

__all__ = ["Optimizer", "register_optimizer_step_pre_hook",
           "register_optimizer_step_post_hook"]

StateDict = dict


class _RequiredParameter:
    """Singleton marking an option every param group must give."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()

_global_optimizer_pre_hooks: "OrderedDict[int, Callable]" = OrderedDict()
_global_optimizer_post_hooks: "OrderedDict[int, Callable]" = OrderedDict()


def register_optimizer_step_pre_hook(hook: Callable) -> RemovableHandle:
    """Run ``hook(optimizer, args, kwargs)`` before every optimizer's ``step``.

    >>> h = tensorviz.optim.optimizer.register_optimizer_step_pre_hook(print); h.remove()
    """
    handle = RemovableHandle(_global_optimizer_pre_hooks)
    _global_optimizer_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook: Callable) -> RemovableHandle:
    """Run ``hook(optimizer, args, kwargs)`` after every optimizer's ``step``.

    >>> h = tensorviz.optim.optimizer.register_optimizer_step_post_hook(print); h.remove()
    """
    handle = RemovableHandle(_global_optimizer_post_hooks)
    _global_optimizer_post_hooks[handle.id] = hook
    return handle


def _use_grad_for_differentiable(func: Callable) -> Callable:
    """Run ``step`` with grad mode set to the optimizer's ``differentiable`` flag (off by
    default), so updating parameters records no graph."""

    def _use_grad(self, *args, **kwargs):
        prev = is_grad_enabled()
        try:
            set_grad_enabled(self.defaults["differentiable"])
            return func(self, *args, **kwargs)
        finally:
            set_grad_enabled(prev)

    functools.update_wrapper(_use_grad, func)
    return _use_grad


def _to_scalar(x: Any) -> Any:
    """A 1-element tensor hyperparameter as a 0-d tensor; anything else unchanged."""
    if isinstance(x, Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _get_value(x: Any) -> Any:
    """A 0-d tensor's Python number (``step`` counters); anything else unchanged."""
    return x.item() if isinstance(x, Tensor) else x


def _step_counter(value: float = 0.0) -> Tensor:
    """A step count as PyTorch keeps it: a float32 0-d tensor on the cpu.

    >>> _step_counter(3.0)
    tensor(3.)
    """
    from .. import _creation
    from .._dtypes import float32
    return _creation.tensor(value, dtype=float32)


def _scalar_lr(lr: Any) -> Any:
    """``lr`` as a Python number for the update formulas (a tensor lr is read once)."""
    lr = _to_scalar(lr)
    # Note: PyTorch multiplies by a tensor lr inside its kernels; reading it as a Python
    # number gives the same value for the non-differentiable path.
    return lr.item() if isinstance(lr, Tensor) and not lr.requires_grad else lr


def _check_lr(lr: Any) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


class Optimizer:
    """Base class for all optimizers.

    ``params`` is an iterable of tensors (or of ``(name, tensor)`` pairs), or of dicts,
    each a parameter group with its own options; ``defaults`` gives the options a group
    leaves out. Subclasses implement ``step``.

    >>> opt = tensorviz.optim.SGD([{"params": [w]}, {"params": [b], "lr": 1e-3}], lr=0.1)
    >>> [g["lr"] for g in opt.param_groups]
    [0.1, 0.001]
    """

    #: Options a subclass's param groups always have, with the defaults an older state
    #: (pickle or ``state_dict``) lacking them takes on ``__setstate__``.
    _group_defaults: dict = {}
    #: Per-parameter state entries PyTorch keeps as float32 0-d tensors (``step``).
    _tensor_state: tuple = ()

    def __init__(self, params: Any, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: OrderedDict = OrderedDict()
        self._optimizer_load_state_dict_post_hooks: OrderedDict = OrderedDict()
        self._patch_step_function()

        if isinstance(params, Tensor):
            # Note: the type is named as tensorviz names it ("tensorviz.FloatTensor", as
            # tensorviz.typename does), where PyTorch's message says "torch.FloatTensor".
            raise TypeError("params argument given to the optimizer should be an iterable "
                            "of Tensors or dicts, but got " + typename(params))

        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []

        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    # ----------------------------------------------------------------- pickling
    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                     "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)
        # (a state from an older pickle or state_dict: the options it predates take their
        # defaults, and counts kept as Python numbers become PyTorch's float32 0-d tensors)
        for group in self.param_groups:
            for key, value in self._group_defaults.items():
                group.setdefault(key, value)
        if self._tensor_state:
            for p_state in self.state.values():
                for key in self._tensor_state:
                    if key in p_state and not isinstance(p_state[key], Tensor):
                        p_state[key] = _step_counter(float(p_state[key]))

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    # ----------------------------------------------------------------- step hooks
    def _patch_step_function(self) -> None:
        """Wrap the class's ``step`` once so it runs the step pre/post hooks."""
        hooked = getattr(self.__class__.step, "hooked", None)
        if not hooked:
            self.__class__.step = self.profile_hook_step(self.__class__.step)
            self.__class__.step.hooked = True

    @staticmethod
    def profile_hook_step(func: Callable) -> Callable:
        """``func`` (a ``step``) run between the global and the optimizer's step hooks."""

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self, *_ = args
            for pre_hook in chain(_global_optimizer_pre_hooks.values(),
                                  self._optimizer_step_pre_hooks.values()):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(f"{func} must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {result}.")
            out = func(*args, **kwargs)
            for post_hook in chain(self._optimizer_step_post_hooks.values(),
                                   _global_optimizer_post_hooks.values()):
                post_hook(self, args, kwargs)
            return out

        return wrapper

    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` before each ``step``; it may return new
        ``(args, kwargs)``.

        >>> h = opt.register_step_pre_hook(lambda o, a, k: print("stepping")); h.remove()
        """
        handle = RemovableHandle(self._optimizer_step_pre_hooks)
        self._optimizer_step_pre_hooks[handle.id] = hook
        return handle

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        """Call ``hook(optimizer, args, kwargs)`` after each ``step``.

        >>> h = opt.register_step_post_hook(lambda o, a, k: print("stepped")); h.remove()
        """
        handle = RemovableHandle(self._optimizer_step_post_hooks)
        self._optimizer_step_post_hooks[handle.id] = hook
        return handle

    def _register(self, table: OrderedDict, hook: Callable, prepend: bool) -> RemovableHandle:
        handle = RemovableHandle(table)
        table[handle.id] = hook
        if prepend:
            table.move_to_end(handle.id, last=False)
        return handle

    def register_state_dict_pre_hook(self, hook: Callable,
                                     prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer)`` before ``state_dict()`` builds its dict."""
        return self._register(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook: Callable,
                                      prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer, state_dict)`` on the finished dict (may return a new one)."""
        return self._register(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable,
                                          prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer, state_dict)`` before loading (may return a new dict)."""
        return self._register(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook: Callable,
                                           prepend: bool = False) -> RemovableHandle:
        """Call ``hook(optimizer)`` after ``load_state_dict``."""
        return self._register(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ----------------------------------------------------------------- state dicts
    def state_dict(self) -> StateDict:
        """The optimizer's state as PyTorch lays it out: ``{'state': {index: {...}},
        'param_groups': [{..., 'params': [indices]}]}`` (parameters become their position
        across the groups; the tensors in ``state`` are the live ones, not copies).

        >>> opt.state_dict()["param_groups"][0]["params"]
        [0, 1]
        """
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)

        param_mappings: dict[int, int] = {}
        start_index = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, Tensor) else k): v
                        for k, v in self.state.items()}
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param: Tensor, value: Tensor, param_id: Any,
                                                 param_groups: list, key: Any = None) -> Tensor:
        fused = capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            if capturable or fused:
                from .. import float32
                return value.to(dtype=float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def load_state_dict(self, state_dict: StateDict) -> None:
        """Load a dict from ``state_dict()`` (this optimizer's, a checkpoint's, or real
        PyTorch's): state tensors are cast to each parameter's dtype and device (``step``
        counters kept as they are), group options replaced.

        >>> opt.load_state_dict(tensorviz.load("opt.pt"))
        """
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result

        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't "
                             "match the size of optimizer's group")

        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            if isinstance(value, Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, param_groups, key)
            if isinstance(value, dict):
                return {k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                        for k, v in value.items()}
            if isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
                return type(value)(_cast(param, v, param_id=param_id,
                                         param_groups=param_groups) for v in value)
            return value

        state: defaultdict = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k,
                                     param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group: dict, new_group: dict) -> dict:
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # ----------------------------------------------------------------- gradients
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the parameters' gradients: ``.grad = None`` (the default), or zero them in
        place with ``set_to_none=False``. A parameter whose grad is None is skipped by
        ``step``; one with zeros still takes a step (weight decay, momentum).

        >>> opt.zero_grad(); w.grad is None
        True
        """
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update the parameters once; ``closure`` re-evaluates the loss and returns it."""
        raise NotImplementedError

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters with its own options (missing ones from ``defaults``),
        e.g. to train layers that were frozen.

        >>> opt.add_param_group({"params": [head.weight], "lr": 1e-4})
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")

        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)

        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueError("all optimizer params should be with/without names. Some "
                                 "param names are missing")

        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params "
                                "is " + typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")

        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)

        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)

        param_set: set[int] = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                current = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {current} to the optimizer")
        if not param_set.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)
