"""``tensorviz.optim.lr_scheduler``: learning-rate schedules, as PyTorch 2.13's.

A scheduler rewrites ``group["lr"]`` of its optimizer each time ``step()`` is called (once per
epoch, or per batch for ``OneCycleLR``/``CyclicLR``), after ``optimizer.step()``::

    opt = tensorviz.optim.SGD(params, lr=1.0)
    sched = tensorviz.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
    for epoch in range(4):
        train(...); opt.step(); sched.step()
        sched.get_last_lr()          # [1.0], [0.1], [0.1], [0.01]

How the module is organised:

- ``LRScheduler`` keeps the bookkeeping every schedule shares: ``initial_lr``/``base_lrs``,
  ``last_epoch``, the call-order warnings, and writing the new rates into the groups.
- Most schedules are *chainable*: each step multiplies the group's current lr by a factor
  (``_MultiplyingScheduler``; each subclass gives its factor and its closed form side by side).
  Chaining lets several schedulers act on one optimizer, and it is why a schedule's floats are
  products of factors rather than the closed form: PyTorch computes them that way, so do we.
- The closed forms answer ``step(epoch)`` (deprecated in PyTorch, still supported).
- ``SequentialLR`` and ``ChainedScheduler`` wrap other schedulers and share one state_dict layout.

``state_dict()`` holds the scheduler's attributes (without the optimizer) under PyTorch's names,
so a checkpoint saved here loads into ``torch.optim.lr_scheduler`` and back.
"""
from __future__ import annotations

import functools
import math
import types
import warnings
import weakref
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, SupportsFloat

from .._tensor import Tensor
from .optimizer import Optimizer, _to_scalar

__all__ = ["LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
           "ExponentialLR", "SequentialLR", "CosineAnnealingLR", "ChainedScheduler",
           "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts", "OneCycleLR",
           "PolynomialLR", "LRScheduler"]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)

_ORDER_URL = "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
_STEP_OVERRIDDEN = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    f"`lr_scheduler.step()`. See more details at {_ORDER_URL}")
_STEP_BEFORE_OPTIMIZER = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    f"See more details at {_ORDER_URL}")


# --- Reading and writing per-group values ------------------------------------------------------

def _copied(value: Any) -> Any:
    """A tensor hyperparameter is cloned so the scheduler never aliases the optimizer's."""
    return value.clone() if isinstance(value, Tensor) else value


def _group_values(optimizer: Optimizer, key: str) -> list[Any]:
    """``[group[key] for each group]``, tensors copied (KeyError where a group lacks ``key``)."""
    return [_copied(group[key]) for group in optimizer.param_groups]


def _set_group_value(group: dict[str, Any], key: str, value: Any) -> None:
    """Store ``value`` as ``group[key]``; a tensor already there is filled in place, so an
    optimizer holding a tensor lr keeps the very same tensor."""
    if isinstance(group[key], Tensor):
        group[key].fill_(_to_scalar(value))
    else:
        group[key] = value


def _per_group(name: str, optimizer: Optimizer, value: Any) -> list[Any]:
    """One value per param group: a list/tuple is checked for length, a scalar is repeated."""
    groups = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != groups:
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(value)} values, param_groups has {groups}.")
        return [_copied(v) for v in value]
    return [_copied(value) for _ in range(groups)]


def _require_optimizer(optimizer: Any) -> None:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")


def _set_momentum(group: dict[str, Any], momentum: float, use_beta1: bool) -> None:
    """Momentum-cycling schedules write SGD's ``momentum`` or Adam's ``betas[0]``."""
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


def _setup_momentum_cycling(sched: LRScheduler, optimizer: Optimizer, base_momentum: Any,
                            max_momentum: Any, last_epoch: int) -> tuple[list, list]:
    """Shared by CyclicLR and OneCycleLR: check the optimizer has a momentum, and on a fresh
    start record ``max_momentum``/``base_momentum`` in the groups, starting at the max."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                         "option enabled")
    sched.use_beta1 = "betas" in optimizer.defaults
    tops = _per_group("max_momentum", optimizer, max_momentum)
    bottoms = _per_group("base_momentum", optimizer, base_momentum)
    if last_epoch == -1:
        for top, bottom, group in zip(tops, bottoms, optimizer.param_groups, strict=True):
            _set_momentum(group, top, sched.use_beta1)
            group["max_momentum"] = top
            group["base_momentum"] = bottom
    return bottoms, tops


def _watch_optimizer_steps(optimizer: Optimizer) -> None:
    """Wrap ``optimizer.step`` once so it records that it ran (``_opt_called``): the first
    scheduler step warns when the optimizer has not stepped yet. A weak reference avoids a
    cycle between the optimizer and its own step."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    method = optimizer.step.__func__
    owner = weakref.ref(optimizer)

    @functools.wraps(method)
    def step(*args: Any, **kwargs: Any) -> Any:
        opt = owner()
        opt._opt_called = True
        return method.__get__(opt, type(opt))(*args, **kwargs)

    step._wrapped_by_lr_sched = True
    optimizer.step = step


def _warn_outside_step(sched: LRScheduler) -> None:
    # Note: the warning points at the line that called get_lr() (PyTorch's points inside
    # get_lr); the category and text are PyTorch's.
    if not sched._get_lr_called_within_step:
        warnings.warn("To get the last learning rate computed by the scheduler, "
                      "please use `get_last_lr()`.", UserWarning, stacklevel=3)


# --- The base class ----------------------------------------------------------------------------

class LRScheduler:
    """Base class of the schedules: subclasses compute the next rates in ``get_lr()``.

    Creating a scheduler records each group's ``initial_lr`` (once) and takes the first step
    of the schedule, so create it before loading an optimizer checkpoint.

    >>> class Halving(LRScheduler):
    ...     def get_lr(self):
    ...         return [base / 2 ** self.last_epoch for base in self.base_lrs]
    """

    # Flags set on the instance while a step runs (they show in state_dict, as PyTorch's).
    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        _require_optimizer(optimizer)
        self.optimizer = optimizer
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", _copied(group["lr"]))
            elif "initial_lr" not in group:
                raise KeyError(
                    f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                    "scheduler with last_epoch >= 0.\n"
                    "This typically happens when:\n"
                    "1. You're trying to resume training from a checkpoint but haven't "
                    "properly loaded the optimizer state\n"
                    "2. You're using last_epoch >= 0 for a fresh training run "
                    "(not recommended)")
        self.base_lrs: list[Any] = _group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _watch_optimizer_steps(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        """Reset the step count and take the schedule's first step (epoch 0, or the resumed
        ``last_epoch + 1``) in "initial" mode, which chainable schedules treat as no change."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's attributes except the optimizer.

        >>> torch.save({"sched": sched.state_dict()}, "ckpt.pt")
        """
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes saved by ``state_dict()``.

        >>> sched.load_state_dict(torch.load("ckpt.pt")["sched"])
        """
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[Any]:
        """The rates the last ``step()`` wrote, one per param group (tensors as copies).

        >>> sched.get_last_lr()
        [0.1]
        """
        return self._last_lr

    def get_lr(self) -> list[Any]:
        """The next rates, one per group; called by ``step()`` (read ``get_last_lr()``
        instead: calling this outside a step warns).

        >>> sched.get_last_lr()   # rather than sched.get_lr()
        """
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advance the schedule one epoch and write the new rates into the optimizer; call it
        after ``optimizer.step()``. ``epoch`` (deprecated) jumps there via the closed form.

        >>> opt.step(); sched.step()
        """
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_STEP_OVERRIDDEN, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_STEP_BEFORE_OPTIMIZER, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        """Compute the rates (chainable ``get_lr()``, or the closed form at a given epoch)
        and write them into the groups."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _set_group_value(group, "lr", lr)
        self._last_lr: list[Any] = _group_values(self.optimizer, "lr")


class _LRScheduler(LRScheduler):
    """The base class's former name, kept for code written against older PyTorch."""


# --- Chainable schedules: lr <- lr * factor ------------------------------------------------

class _MultiplyingScheduler(LRScheduler):
    """A schedule whose step multiplies each group's current lr by ``_factor()`` (``None``:
    leave the rates as they are), with ``_closed_form(base_lr)`` for ``step(epoch)``."""

    def _factor(self) -> float | list[float] | None:
        raise NotImplementedError

    def _closed_form(self, base_lr: Any) -> Any:
        raise NotImplementedError

    def get_lr(self) -> list[Any]:
        _warn_outside_step(self)
        factor = self._factor()
        groups = self.optimizer.param_groups
        if factor is None:
            return _group_values(self.optimizer, "lr")
        if not isinstance(factor, list):
            factor = [factor] * len(groups)
        return [group["lr"] * f for group, f in zip(groups, factor, strict=True)]

    def _get_closed_form_lr(self) -> list[Any]:
        return [self._closed_form(base_lr) for base_lr in self.base_lrs]


class StepLR(_MultiplyingScheduler):
    """Multiply the lr by ``gamma`` every ``step_size`` epochs:
    ``lr = base_lr * gamma ** (epoch // step_size)``.

    >>> sched = StepLR(opt, step_size=30, gamma=0.1)   # 0.1, then 0.01 from epoch 30, ...
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _factor(self) -> float | None:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return None
        return self.gamma

    def _closed_form(self, base_lr: Any) -> Any:
        return base_lr * self.gamma ** (self.last_epoch // self.step_size)


class MultiStepLR(_MultiplyingScheduler):
    """Multiply the lr by ``gamma`` at each milestone epoch (a milestone listed twice
    multiplies twice).

    >>> sched = MultiStepLR(opt, milestones=[30, 80], gamma=0.1)
    """

    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _factor(self) -> float | None:
        if self.last_epoch not in self.milestones:
            return None
        return self.gamma ** self.milestones[self.last_epoch]

    def _closed_form(self, base_lr: Any) -> Any:
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return base_lr * self.gamma ** passed


class ConstantLR(_MultiplyingScheduler):
    """Scale the lr by ``factor`` for the first ``total_iters`` epochs, then restore it
    (a short warm-up at a reduced rate).

    >>> sched = ConstantLR(opt, factor=0.5, total_iters=4)   # 0.05 x4, then 0.1
    """

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def _factor(self) -> float | None:
        if self.last_epoch == 0:
            return self.factor
        if self.last_epoch == self.total_iters:
            return 1.0 / self.factor
        return None

    def _closed_form(self, base_lr: Any) -> Any:
        done = self.last_epoch >= self.total_iters
        return base_lr * (self.factor + done * (1 - self.factor))


class LinearLR(_MultiplyingScheduler):
    """Ramp the lr's multiplier linearly from ``start_factor`` to ``end_factor`` over
    ``total_iters`` epochs, then hold it (linear warm-up).

    >>> sched = LinearLR(opt, start_factor=0.25, total_iters=4)   # 0.025, 0.04375, ... 0.1
    """

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 "
                             "and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def _factor(self) -> float | None:
        if self.last_epoch == 0:
            return self.start_factor
        if self._is_initial or self.last_epoch > self.total_iters:
            return None
        # The ratio of consecutive multipliers start + slope * e, with slope * total_iters
        # = end - start, written so that it needs no division by total_iters.
        span = self.end_factor - self.start_factor
        return 1.0 + span / (self.total_iters * self.start_factor + (self.last_epoch - 1) * span)

    def _closed_form(self, base_lr: Any) -> Any:
        span = self.end_factor - self.start_factor
        done = min(self.total_iters, self.last_epoch)
        return base_lr * (self.start_factor + span * done / self.total_iters)


class ExponentialLR(_MultiplyingScheduler):
    """Multiply the lr by ``gamma`` every epoch: ``lr = base_lr * gamma ** epoch``.

    >>> sched = ExponentialLR(opt, gamma=0.9)
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _factor(self) -> float | None:
        return None if self._is_initial else self.gamma

    def _closed_form(self, base_lr: Any) -> Any:
        return base_lr * self.gamma ** self.last_epoch


class PolynomialLR(_MultiplyingScheduler):
    """Decay the lr to zero over ``total_iters`` epochs:
    ``lr = base_lr * (1 - epoch / total_iters) ** power``, then hold it.

    >>> sched = PolynomialLR(opt, total_iters=4, power=1.0)   # 0.1, 0.075, 0.05, 0.025, 0
    """

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def _factor(self) -> float | None:
        if self._is_initial or self.last_epoch > self.total_iters:
            return None
        now = 1.0 - self.last_epoch / self.total_iters
        before = 1.0 - (self.last_epoch - 1) / self.total_iters
        return (now / before) ** self.power

    def _closed_form(self, base_lr: Any) -> Any:
        return base_lr * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters
                          ) ** self.power


def _one_lambda_per_group(optimizer: Optimizer, lr_lambda: Any) -> list[Callable]:
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(f"Expected {len(optimizer.param_groups)} lr_lambdas, "
                         f"but got {len(lr_lambda)}")
    return list(lr_lambda)


class _LambdaState:
    """state_dict for schedules driven by user functions: a plain function cannot be saved
    (``None`` in its place); a callable object's ``__dict__`` is saved and restored."""

    lr_lambdas: list[Callable]

    def state_dict(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        saved = state_dict["lr_lambdas"]
        self.__dict__.update({k: v for k, v in state_dict.items() if k != "lr_lambdas"})
        for fn, attributes in zip(self.lr_lambdas, saved):
            if attributes is not None:
                fn.__dict__.update(attributes)


class LambdaLR(_LambdaState, LRScheduler):
    """``lr = base_lr * lr_lambda(epoch)``, with one function or one per param group.

    >>> sched = LambdaLR(opt, lr_lambda=lambda epoch: 0.95 ** epoch)
    """

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] | list,
                 last_epoch: int = -1) -> None:
        self.lr_lambdas = _one_lambda_per_group(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_outside_step(self)
        return [base_lr * fn(self.last_epoch)
                for fn, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(_LambdaState, _MultiplyingScheduler):
    """Multiply the lr by ``lr_lambda(epoch)`` every epoch (one function or one per group).

    >>> sched = MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.95)
    """

    _get_closed_form_lr = None  # no closed form: step(epoch) steps the chain at that epoch

    def __init__(self, optimizer: Optimizer, lr_lambda: Callable[[int], float] | list,
                 last_epoch: int = -1) -> None:
        self.lr_lambdas = _one_lambda_per_group(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def _factor(self) -> list[float] | None:
        if self._is_initial:
            return None
        return [fn(self.last_epoch) for fn in self.lr_lambdas]


# --- Schedules computed from the base rates -------------------------------------------------

def _cosine_between(low: Any, high: Any, t: float, period: float) -> Any:
    """Half a cosine from ``high`` (t = 0) down to ``low`` (t = period)."""
    return low + (high - low) * (1 + math.cos(math.pi * t / period)) / 2


class CosineAnnealingLR(LRScheduler):
    """Anneal the lr from its base down to ``eta_min`` over ``T_max`` epochs along half a
    cosine (and back up over the next ``T_max``, as the chain continues).

    >>> sched = CosineAnnealingLR(opt, T_max=4)   # lr 1.0: 1.0, 0.854, 0.5, 0.146, 0.0, 0.146
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_outside_step(self)
        groups, e, T, low = self.optimizer.param_groups, self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return _group_values(self.optimizer, "lr")
        if self._step_count == 1 and e > 0:
            return [_cosine_between(low, base_lr, e, T) for base_lr in self.base_lrs]
        if (e - 1 - T) % (2 * T) == 0:
            # Leaving the bottom of the cosine the ratio below would be 0/0: add the rise.
            return [group["lr"] + (base_lr - low) * (1 - math.cos(math.pi / T)) / 2
                    for base_lr, group in zip(self.base_lrs, groups, strict=True)]
        ratio = (1 + math.cos(math.pi * e / T)) / (1 + math.cos(math.pi * (e - 1) / T))
        return [ratio * (group["lr"] - low) + low for group in groups]

    def _get_closed_form_lr(self) -> list[Any]:
        return [_cosine_between(self.eta_min, base_lr, self.last_epoch, self.T_max)
                for base_lr in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing that restarts at the base lr every ``T_i`` epochs, the period
    growing by ``T_mult`` after each restart (SGDR). ``step(epoch)`` takes fractional epochs,
    e.g. ``epoch + batch / batches`` to anneal within an epoch.

    >>> sched = CosineAnnealingWarmRestarts(opt, T_0=10, T_mult=2)
    """

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        _warn_outside_step(self)
        return [_cosine_between(self.eta_min, base_lr, self.T_cur, self.T_i)
                for base_lr in self.base_lrs]

    def _locate(self, epoch: float) -> None:
        """Set the period ``T_i`` containing ``epoch`` and the position ``T_cur`` in it."""
        if epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        if epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            # Periods T_0 * T_mult**k end at T_0 * (T_mult**n - 1) / (T_mult - 1).
            n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** n

    def step(self, epoch: float | None = None) -> None:
        """Advance one epoch, or go to ``epoch`` (may be fractional), and write the rates.

        >>> for i, batch in enumerate(batches): ...; sched.step(epoch + i / len(batches))
        """
        # Note: as in PyTorch, this step neither warns about the call order or the epoch
        # argument nor counts steps.
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            self._locate(epoch)
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _set_group_value(group, "lr", lr)
        self._last_lr = _group_values(self.optimizer, "lr")


class CyclicLR(LRScheduler):
    """Cycle the lr between ``base_lr`` and ``max_lr`` (triangles of ``step_size_up`` +
    ``step_size_down`` steps), and the momentum the opposite way; step it every batch.
    ``mode`` scales each cycle: ``triangular`` (constant), ``triangular2`` (halving),
    ``exp_range`` (``gamma ** iteration``), or give your own ``scale_fn``.

    >>> sched = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2000)
    """

    def __init__(self, optimizer: Optimizer, base_lr: float | list[float],
                 max_lr: float | list[float], step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular",
                 gamma: float = 1.0, scale_fn: Callable[[float], float] | None = None,
                 scale_mode: str = "cycle", cycle_momentum: bool = True,
                 base_momentum: float = 0.8, max_momentum: float = 0.9,
                 last_epoch: int = -1) -> None:
        _require_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                _set_group_value(group, "lr", lr)
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._fix_scale_mode()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums, self.max_momentums = _setup_momentum_cycling(
                self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _fix_scale_mode(self) -> None:
        """The built-in modes scale per cycle, except ``exp_range`` (per iteration)."""
        if self._scale_fn_custom is None and self.mode in ("triangular", "triangular2"):
            self.scale_mode = "cycle"
        elif self._scale_fn_custom is None and self.mode == "exp_range":
            self.scale_mode = "iterations"

    def scale_fn(self, x: float) -> float:
        """The amplitude multiplier at cycle (or iteration) ``x``.

        >>> CyclicLR(opt, 0.01, 0.1, mode="triangular2").scale_fn(3)
        0.25
        """
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        if self.mode == "exp_range":
            return self.gamma ** x
        return 1.0

    def get_lr(self) -> list[Any]:
        _warn_outside_step(self)
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle   # position within the cycle
        if x <= self.step_ratio:
            rise = x / self.step_ratio
        else:
            rise = (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = [low + (high - low) * rise * self.scale_fn(at)
               for low, high in zip(self.base_lrs, self.max_lrs, strict=True)]
        if self.cycle_momentum:
            momenta = [high - (high - low) * rise * self.scale_fn(at)
                       for low, high in zip(self.base_momentums, self.max_momentums,
                                            strict=True)]
            for group, momentum in zip(self.optimizer.param_groups, momenta, strict=True):
                _set_momentum(group, momentum, self.use_beta1)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        """As the base class's; a custom ``scale_fn`` is saved as its ``__dict__`` (``None``
        for a plain function, which cannot be saved).

        >>> sched.state_dict()["_scale_fn_custom"]
        """
        state = super().state_dict()
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = (fn.__dict__.copy() if fn is not None
                                     and not isinstance(fn, types.FunctionType) else None)
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state saved by ``state_dict()`` (the scale function stays this one's).

        >>> sched.load_state_dict(saved)
        """
        # Note: PyTorch removes "_scale_fn_custom" from the dict it is given; we leave the
        # caller's dict as it was.
        saved_fn = state_dict.get("_scale_fn_custom")
        super().load_state_dict({k: v for k, v in state_dict.items()
                                 if k not in ("_scale_fn_custom", "_scale_fn_ref")})
        if saved_fn is not None:
            self._scale_fn_custom.__dict__.update(saved_fn)
        self._fix_scale_mode()


class OneCycleLR(LRScheduler):
    """The 1cycle policy: warm the lr up from ``max_lr / div_factor`` to ``max_lr`` over
    ``pct_start`` of the steps, then anneal it to ``initial_lr / final_div_factor`` (with
    ``three_phase``, back to the initial lr first); momentum moves the opposite way.
    Step it every batch, ``total_steps`` (or ``epochs * steps_per_epoch``) times.

    >>> sched = OneCycleLR(opt, max_lr=0.1, epochs=10, steps_per_epoch=len(loader))
    """

    def __init__(self, optimizer: Optimizer, max_lr: float | list[float],
                 total_steps: int | None = None, epochs: int | None = None,
                 steps_per_epoch: int | None = None, pct_start: float = 0.3,
                 anneal_strategy: str = "cos", cycle_momentum: bool = True,
                 base_momentum: float | list[float] = 0.85,
                 max_momentum: float | list[float] = 0.95, div_factor: float = 25.0,
                 final_div_factor: float = 1e4, three_phase: bool = False,
                 last_epoch: int = -1) -> None:
        _require_optimizer(optimizer)
        self.optimizer = optimizer
        self.total_steps = self._count_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = self._phases(pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for top, group in zip(max_lrs, optimizer.param_groups):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _setup_momentum_cycling(self, optimizer, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _count_steps(total_steps: Any, epochs: Any, steps_per_epoch: Any) -> int:
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            return total_steps
        if epochs is None or steps_per_epoch is None:
            raise ValueError("You must define either total_steps OR "
                             "(epochs AND steps_per_epoch)")
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError(f"Expected positive integer steps_per_epoch, but got "
                             f"{steps_per_epoch}")
        return epochs * steps_per_epoch

    def _phases(self, pct_start: float, three_phase: bool) -> list[dict[str, Any]]:
        """The phases as (last step, group keys of the lr and momentum at its two ends)."""
        def phase(end_step, lr_from, lr_to, momentum_from, momentum_to):
            return {"end_step": end_step, "start_lr": lr_from, "end_lr": lr_to,
                    "start_momentum": momentum_from, "end_momentum": momentum_to}

        warm_end = float(pct_start * self.total_steps) - 1
        last = self.total_steps - 1
        if not three_phase:
            return [phase(warm_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                    phase(last, "max_lr", "min_lr", "base_momentum", "max_momentum")]
        return [phase(warm_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                phase(float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr",
                      "base_momentum", "max_momentum"),
                phase(last, "initial_lr", "min_lr", "max_momentum", "max_momentum")]

    # Note: a scheduler pickled by PyTorch releases before 1.13 (an ``anneal_func``
    # attribute, no ``_anneal_func_type``) is not supported.
    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list[Any]:
        _warn_outside_step(self)
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total "
                             f"steps is {self.total_steps}")
        # The phase holding this step (the last phase takes any step past its end).
        start = 0.0
        for phase in self._schedule_phases:
            if step <= phase["end_step"] or phase is self._schedule_phases[-1]:
                break
            start = phase["end_step"]
        pct = (step - start) / (phase["end_step"] - start)
        lrs = []
        for group in self.optimizer.param_groups:
            lrs.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct))
            if self.cycle_momentum:
                momentum = self._anneal(group[phase["start_momentum"]],
                                        group[phase["end_momentum"]], pct)
                _set_momentum(group, momentum, self.use_beta1)
        return lrs


# --- ReduceLROnPlateau --------------------------------------------------------------------

class ReduceLROnPlateau(LRScheduler):
    """Multiply the lr by ``factor`` when a metric has stopped improving for more than
    ``patience`` epochs, then wait ``cooldown`` epochs; never below ``min_lr``, and not at
    all when the change would be under ``eps``. Improvement means beating the best value by
    ``threshold`` (relative or absolute, per ``threshold_mode``).

    >>> sched = ReduceLROnPlateau(opt, mode="min", patience=5)
    >>> for epoch in range(100): train(...); sched.step(validation_loss)
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1,
                 patience: int = 10, threshold: float = 1e-4, threshold_mode: str = "rel",
                 cooldown: int = 0, min_lr: list[float] | float = 0,
                 eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        _require_optimizer(optimizer)
        self.optimizer = optimizer
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(f"expected {len(optimizer.param_groups)} min_lrs, "
                                 f"got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _group_values(optimizer, "lr")
        self._set_comparison(mode, threshold, threshold_mode)
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def _set_comparison(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in ("min", "max"):
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    @property
    def in_cooldown(self) -> bool:
        """Whether the scheduler is still waiting after its last reduction.

        >>> sched.in_cooldown
        False
        """
        return self.cooldown_counter > 0

    def _improves(self, value: float) -> bool:
        """Whether ``value`` beats ``self.best`` by the threshold."""
        if self.mode == "min":
            if self.threshold_mode == "rel":
                return value < self.best * (1.0 - self.threshold)
            return value < self.best - self.threshold
        if self.threshold_mode == "rel":
            return value > self.best * (self.threshold + 1.0)
        return value > self.best + self.threshold

    def step(self, metrics: SupportsFloat, epoch: int | None = None) -> None:
        """Record this epoch's metric and reduce the rates after too long a plateau.

        >>> sched.step(val_loss)
        """
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._improves(current):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0   # bad epochs in cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = _group_values(self.optimizer, "lr")

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs "
                    f"from when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), "
                    "usually due to a new param group being added to the optimizer. Please "
                    "modify the `min_lrs` field to match the length of the `optimizer` param "
                    "groups.")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, floor in zip(groups, self.min_lrs):
            old = float(group["lr"])
            new = max(old * self.factor, floor)
            if old - new > self.eps:
                _set_group_value(group, "lr", new)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state saved by ``state_dict()``.

        >>> sched.load_state_dict(saved)
        """
        self.__dict__.update(state_dict)
        self._set_comparison(self.mode, self.threshold, self.threshold_mode)


# --- Schedulers made of schedulers --------------------------------------------------------

def _check_some(owner: str, schedulers: Sequence[LRScheduler], what: str = "") -> None:
    if len(schedulers) < 1:
        raise ValueError(f"{owner} expects at least one scheduler{what}, but got no scheduler.")


def _check_wrapped(owner: str, optimizer: Optimizer, schedulers: Sequence[LRScheduler]) -> None:
    """The checks SequentialLR and ChainedScheduler share: each wrapped scheduler steps
    without arguments and drives ``optimizer``."""
    for i, sched in enumerate(schedulers):
        if not hasattr(sched, "optimizer"):
            raise TypeError(f"{owner} at index {i} should have `optimizer` as its attribute.")
        if isinstance(sched, ReduceLROnPlateau):
            raise ValueError(
                f"{owner} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{i} in the given schedulers sequence.")
        if optimizer != sched.optimizer:
            raise ValueError(
                f"{owner} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {sched.__class__.__name__} at index {i} has {sched.optimizer}, "
                f"which is different from {optimizer.__class__.__name__}.")


class _WrapperState:
    """state_dict of a scheduler made of schedulers: its own attributes plus each wrapped
    scheduler's state_dict under ``_schedulers``."""

    _schedulers: Sequence[LRScheduler]

    def state_dict(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [sched.state_dict() for sched in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        self.__dict__.update({k: v for k, v in state_dict.items() if k != "_schedulers"})
        for sched, saved in zip(self._schedulers, state_dict["_schedulers"]):
            sched.load_state_dict(saved)


class SequentialLR(_WrapperState, LRScheduler):
    """Run ``schedulers`` one after another, switching at each milestone epoch (the next
    scheduler starts from its epoch 0 there).

    >>> warm = LinearLR(opt, start_factor=0.1, total_iters=5)
    >>> sched = SequentialLR(opt, [warm, CosineAnnealingLR(opt, T_max=95)], milestones=[5])
    """

    def __init__(self, optimizer: Optimizer, schedulers: list[LRScheduler],
                 milestones: list[int], last_epoch: int = -1) -> None:
        _check_some(type(self).__name__, schedulers)
        _check_wrapped(type(self).__name__, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                "than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to "
                f"{len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # Each scheduler took its first step when it was created; undo that, and start
        # again from the initial rates with the scheduler that owns epoch 0.
        for group in optimizer.param_groups:
            _set_group_value(group, "lr", group["initial_lr"])
        self.recursive_undo()
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched: Any = None) -> None:
        """Step back ``last_epoch`` of every wrapped scheduler (nested ones included).

        >>> sched.recursive_undo()
        """
        target = self if sched is None else sched
        if hasattr(target, "_schedulers"):
            for inner in target._schedulers:
                self.recursive_undo(inner)
        elif hasattr(target, "last_epoch"):
            target.last_epoch -= 1

    def step(self) -> None:
        """Step the scheduler in charge of this epoch (a fresh start at its milestone).

        >>> opt.step(); sched.step()
        """
        self.last_epoch += 1
        i = bisect_right(self._milestones, self.last_epoch)
        sched = self._schedulers[i]
        if i > 0 and self._milestones[i - 1] == self.last_epoch:
            sched._update_lr(0)
        else:
            sched.step()
        self._last_lr = sched.get_last_lr()


class ChainedScheduler(_WrapperState, LRScheduler):
    """Step every scheduler in ``schedulers`` each time: their factors multiply.

    >>> sched = ChainedScheduler([ConstantLR(opt, factor=0.1, total_iters=2),
    ...                           ExponentialLR(opt, gamma=0.9)])
    """

    def __init__(self, schedulers: Sequence[LRScheduler],
                 optimizer: Optimizer | None = None) -> None:
        _check_some(type(self).__name__, schedulers, " to be chained")
        optimizer = optimizer or schedulers[0].optimizer
        _check_wrapped(type(self).__name__, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _group_values(schedulers[-1].optimizer, "lr")

    def step(self) -> None:
        """Step each wrapped scheduler in order.

        >>> opt.step(); sched.step()
        """
        for sched in self._schedulers:
            sched.step()
        self._last_lr = _group_values(self._schedulers[-1].optimizer, "lr")
