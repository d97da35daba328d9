"""``LBFGS``: limited-memory BFGS with an optional strong-Wolfe line search, as PyTorch's.

The whole optimisation (many closure evaluations) happens inside one ``step(closure)``, on
the parameters seen as one flat vector ``x`` with gradient ``g``::

    repeat up to max_iter times:
        remember (s, y) = (last step, change of g) when y.s > 1e-10   # at most history_size
        d = -H g           # H: the inverse-Hessian estimate of those pairs (two-loop recursion)
        t = lr             # the very first iteration: min(1, 1 / |g|_1) * lr
        x += t d           # t chosen by the strong-Wolfe search with line_search_fn
    stop early when |g|_max <= tolerance_grad, the step or the loss change is below
    tolerance_change, or max_eval evaluations were spent

The history lives in ``state`` under PyTorch's names (``d``, ``t``, ``old_dirs`` (the y's),
``old_stps`` (the s's), ``ro`` (1 / y.s), ``H_diag``, ``prev_flat_grad``, ``prev_loss``,
``al``, ``func_evals``, ``n_iter``), so the next ``step`` continues from it.
"""
from __future__ import annotations

from typing import Any, Callable

from .. import _grad_mode, cat, view_as_real
from .. import is_complex as _is_complex
from .._tensor import Tensor, contiguous_format
from .optimizer import Optimizer, _to_scalar

__all__ = ["LBFGS"]


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """Where the cubic through ``(x1, f1)``, ``(x2, f2)`` with slopes ``g1``, ``g2`` has its
    minimum, clamped to ``bounds`` (default: between the two points); the middle of the
    bounds when the cubic has no minimum."""
    low, high = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    if not x1 <= x2:
        # The formula below is written for x1 <= x2; d1 and d2 are symmetric in the points.
        x1, f1, g1, x2, f2, g2 = x2, f2, g2, x1, f1, g1
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if not d2_square >= 0:
        return (low + high) / 2.0
    d2 = d2_square.sqrt()
    minimum = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    return min(max(minimum, low), high)


def _strong_wolfe(evaluate: Callable, t: Any, d: Tensor, f: float, g: Tensor, gtd: Tensor,
                  c1: float = 1e-4, c2: float = 0.9, tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> tuple[float, Tensor, Any, int]:
    """Find a step ``t`` along ``d`` meeting the strong Wolfe conditions: enough decrease,
    ``f(t) <= f + c1 t g.d``, and a flat enough slope, ``|g(t).d| <= c2 |g.d|``.

    ``evaluate(t)`` returns the loss and flat gradient at ``x + t d``. First widen the step
    until an interval holding such a ``t`` is found, then shrink that interval by cubic
    interpolation ("zoom"). Returns ``(loss, gradient, t, evaluations)``.
    """
    d_norm = d.abs().max()
    f_new, g_new = evaluate(t)
    evals, trials = 1, 0
    gtd_new = g_new.dot(d)
    # Points are (step, loss, gradient, slope along d); `previous` is the last trial point.
    previous = (0, f, g, gtd)
    bracket, done = None, False
    while trials < max_ls:
        point = (t, f_new, g_new, gtd_new)
        if f_new > f + c1 * t * gtd or (trials > 1 and f_new >= previous[1]):
            bracket = [previous, point]  # the loss went up: a minimum lies in between
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, done = [point], True  # both conditions hold
            break
        if gtd_new >= 0:
            bracket = [previous, point]  # the slope turned: a minimum lies in between
            break
        # Still going down: extrapolate to a longer step (between 1.01 t and 10 t).
        t = _cubic_minimum(previous[0], previous[1], previous[3], t, f_new, gtd_new,
                           bounds=(t + 0.01 * (t - previous[0]), t * 10))
        previous = point
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new.dot(d)
        trials += 1
    if trials == max_ls:
        bracket = [(0, f, g, None), (t, f_new, g_new, None)]

    # Zoom: `low` indexes the bracket end with the lower loss.
    low, high = (0, 1) if bracket[0][1] <= bracket[-1][1] else (1, 0)
    stalled = False
    while not done and trials < max_ls:
        if abs(bracket[1][0] - bracket[0][0]) * d_norm < tolerance_change:
            break
        (t0, f0, _, s0), (t1, f1, _, s1) = bracket
        t = _cubic_minimum(t0, f0, s0, t1, f1, s1)
        # Keep t at least 10% of the interval away from its ends: after one step that close
        # (or one outside), move it to that margin.
        right = max(b[0] for b in bracket)
        left = min(b[0] for b in bracket)
        margin = 0.1 * (right - left)
        if min(right - t, t - left) < margin:
            if stalled or t >= right or t <= left:
                t = right - margin if abs(t - right) < abs(t - left) else left + margin
                stalled = False
            else:
                stalled = True
        else:
            stalled = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new.dot(d)
        trials += 1
        point = (t, f_new, g_new, gtd_new)
        if f_new > f + c1 * t * gtd or f_new >= bracket[low][1]:
            bracket[high] = point
            low, high = (0, 1) if bracket[0][1] <= bracket[1][1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high][0] - bracket[low][0]) >= 0:
                bracket[high] = bracket[low]  # keep the minimum between low and t
            bracket[low] = point
    t, f_new, g_new, _ = bracket[low]
    return f_new, g_new, t, evals


class LBFGS(Optimizer):
    """L-BFGS: quasi-Newton steps from the last ``history_size`` gradient changes; needs a
    closure that recomputes the loss, and one param group. Good for small, smooth,
    full-batch problems.

    >>> opt = tensorviz.optim.LBFGS([x], lr=1, line_search_fn="strong_wolfe")
    >>> def closure():
    ...     opt.zero_grad(); loss = f(x); loss.backward(); return loss
    >>> opt.step(closure)
    """

    def __init__(self, params: Any, lr: float | Tensor = 1, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, {"lr": lr, "max_iter": max_iter, "max_eval": max_eval,
                                  "tolerance_grad": tolerance_grad,
                                  "tolerance_change": tolerance_change,
                                  "history_size": history_size,
                                  "line_search_fn": line_search_fn})
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options "
                             "(parameter groups)")
        self._params = self.param_groups[0]["params"]

    # --- The parameters as one flat vector (complex ones as pairs of reals) ---

    def _real_views(self) -> list[Tensor]:
        return [view_as_real(p) if _is_complex(p) else p for p in self._params]

    def _flat_grad(self) -> Tensor:
        """All gradients in one new vector (zeros for a parameter without one)."""
        pieces = []
        for p in self._params:
            piece = p.new(p.numel()).zero_() if p.grad is None else p.grad.view(-1)
            pieces.append(view_as_real(piece).view(-1) if _is_complex(piece) else piece)
        return cat(pieces, 0)

    def _move(self, t: Any, d: Tensor) -> None:
        """x += t * d, d being a flat vector."""
        offset = 0
        for p in self._real_views():
            n = p.numel()
            p.add_(d[offset:offset + n].view_as(p), alpha=t)
            offset += n
        total = sum(p.numel() for p in self._real_views())
        if offset != total:
            raise AssertionError(f"Expected offset {offset} to equal {total}")

    def _loss_and_grad_at(self, closure: Callable, t: Any, d: Tensor) -> tuple[float, Tensor]:
        """The loss and flat gradient at x + t d; the parameters are left at x."""
        saved = [p.clone(memory_format=contiguous_format) for p in self._params]
        self._move(t, d)
        loss = float(closure())
        grad = self._flat_grad()
        for p, value in zip(self._params, saved, strict=True):
            p.copy_(value)
        return loss, grad

    @_grad_mode.no_grad()
    def step(self, closure: Callable[[], Any]) -> Any:
        """Run up to ``max_iter`` L-BFGS iterations; returns the closure's first loss.

        >>> loss = opt.step(closure)
        """
        if len(self.param_groups) != 1:
            raise AssertionError(f"Expected exactly one param_group, but got "
                                 f"{len(self.param_groups)}")
        closure = _grad_mode.enable_grad()(closure)
        group = self.param_groups[0]
        lr = _to_scalar(group["lr"])
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]

        # All the history sits on the first parameter's state.
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        first_loss = closure()
        loss = float(first_loss)
        evals = 1
        state["func_evals"] += 1
        grad = self._flat_grad()
        if grad.abs().max() <= tolerance_grad:
            return first_loss  # already stationary

        d, t = state.get("d"), state.get("t")
        y_hist, s_hist, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag = state.get("H_diag")
        prev_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

        iteration = 0
        while iteration < max_iter:
            iteration += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = grad.neg()
                y_hist, s_hist, ro, h_diag = [], [], [], 1
            else:
                y, s = grad.sub(prev_grad), d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:  # keep only pairs with positive curvature
                    if len(y_hist) == group["history_size"]:
                        del y_hist[0], s_hist[0], ro[0]
                    y_hist.append(y)
                    s_hist.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / y.dot(y)
                if "al" not in state:
                    state["al"] = [None] * group["history_size"]
                d = self._two_loop(grad, y_hist, s_hist, ro, h_diag, state["al"])

            if prev_grad is None:
                prev_grad = grad.clone(memory_format=contiguous_format)
            else:
                prev_grad.copy_(grad)
            prev_loss = loss

            t = min(1.0, 1.0 / grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            gtd = grad.dot(d)
            if gtd > -tolerance_change:
                break  # d is not a descent direction (to tolerance)

            step_evals = 0
            if group["line_search_fn"] is not None:
                if group["line_search_fn"] != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                loss, grad, t, step_evals = _strong_wolfe(
                    lambda step: self._loss_and_grad_at(closure, step, d), t, d, loss, grad,
                    gtd, max_ls=max_eval - evals)
                self._move(t, d)
                stationary = grad.abs().max() <= tolerance_grad
            else:
                self._move(t, d)
                if iteration != max_iter:
                    # Note: as PyTorch, no evaluation after the last iteration's move: the
                    # next step() starts with one.
                    with _grad_mode.enable_grad():
                        loss = float(closure())
                    grad = self._flat_grad()
                    stationary = grad.abs().max() <= tolerance_grad
                    step_evals = 1
            evals += step_evals
            state["func_evals"] += step_evals

            if (iteration == max_iter or evals >= max_eval or stationary
                    or d.mul(t).abs().max() <= tolerance_change
                    or abs(loss - prev_loss) < tolerance_change):
                break

        state.update({"d": d, "t": t, "old_dirs": y_hist, "old_stps": s_hist, "ro": ro,
                      "H_diag": h_diag, "prev_flat_grad": prev_grad, "prev_loss": prev_loss})
        return first_loss

    @staticmethod
    def _two_loop(grad: Tensor, y_hist: list, s_hist: list, ro: list, h_diag: Any,
                  al: list) -> Tensor:
        """d = -H grad, H the L-BFGS inverse-Hessian estimate (Nocedal & Wright, alg. 7.4);
        ``al`` receives the first loop's coefficients."""
        q = grad.neg()
        for i in reversed(range(len(y_hist))):
            al[i] = s_hist[i].dot(q) * ro[i]
            q.add_(y_hist[i], alpha=-al[i])
        r = q.mul(h_diag)
        for i in range(len(y_hist)):
            beta = y_hist[i].dot(r) * ro[i]
            r.add_(s_hist[i], alpha=al[i] - beta)
        return r
