"""What autograd knows about one tensor (PyTorch's ``AutogradMeta``), kept in ``t._ag``.

Most tensors take no part in autograd and keep ``t._ag = None``; a tensor gets a record when
it requires grad, is an op's output in a recorded graph, or has autograd facts to keep
(``retain_grad``, hooks, a view's base).  This module sits just below the tensor: creation
functions set ``requires_grad`` through it, and ``tensorviz.autograd`` builds on it::

    t = tensorviz.zeros(2, requires_grad=True)
    t._ag.requires_grad, t._ag.grad_fn      # (True, None): a leaf
"""
from __future__ import annotations

from typing import Any

from . import _dtypes, _grad_mode

__all__ = ["AutogradMeta", "meta", "set_requires_grad", "FACTORY", "METHOD", "ATTRIBUTE",
           "InferenceCounter", "is_inference"]

# Which of PyTorch's three messages an integer tensor's requires_grad=True gets.
FACTORY, METHOD, ATTRIBUTE = 0, 1, 2
_MESSAGES = {
    FACTORY: "Only Tensors of floating point and complex dtype can require gradients",
    METHOD: "only Tensors of floating point dtype can require gradients",
    ATTRIBUTE: "only Tensors of floating point and complex dtype can require gradients",
}
NON_LEAF = ("you can only change requires_grad flags of leaf variables. If you want to use a "
            "computed variable in a subgraph that doesn't require differentiation use "
            "var_no_grad = var.detach().")


class InferenceCounter(list):
    """The version counter (``t._vc``) of an inference tensor's family: views share their
    base's counter, so a view of an inference tensor -- made in inference mode or not, with
    no autograd record -- is known as one too (an inference tensor, as in PyTorch: no view,
    no version, no in-place write outside inference mode).

    Counting a write (``t._bump()``) outside inference mode is refused here, after the kernel
    wrote, as PyTorch's disabled version counter refuses its bump (a kernel's own errors
    come first).

    >>> with tensorviz.inference_mode(): a = tensorviz.zeros(4)
    >>> a[1:].is_inference()        # True
    """

    __slots__ = ()

    def __setitem__(self, i, value) -> None:
        if not _grad_mode._STATE.inference:
            raise RuntimeError(INFERENCE_INPLACE)
        list.__setitem__(self, i, value)


INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed."
                     "You can make a clone to get a normal tensor before doing inplace update."
                     "See https://github.com/pytorch/rfcs/pull/17 for more details.")


def is_inference(t: Any) -> bool:
    """True for an inference tensor (made under ``inference_mode``, or a view of one)."""
    ag = t._ag
    return (ag is not None and ag.inference) or type(t._vc) is InferenceCounter


_INFERENCE_REQUIRES_GRAD = ("Setting requires_grad=True on inference tensor outside "
                            "InferenceMode is not allowed.")


class AutogradMeta:
    """One tensor's autograd facts.

    ``requires_grad`` (a leaf's own flag), ``grad``, ``grad_fn`` and ``output_nr`` (which
    output of ``grad_fn`` this tensor is), ``retains_grad``, ``hooks`` (``register_hook``:
    id -> fn), ``post_acc_hooks``, ``accumulator`` (a weak reference to the leaf's one
    ``AccumulateGrad`` node), ``base`` (the tensor a differentiable view was taken of),
    ``view_version`` (the view family's version when this view's ``grad_fn`` was last set: a
    newer one means the base or a view of it was written in place since, and the view takes
    a new ``AsStridedBackward0`` when next used, as PyTorch's ``attr_version``), ``replay`` (for a view whose chain changes more
    than the layout -- ``view_as_real``, ``conj``, a negative view: ``.real``/``.imag`` --
    how to take it again from the base, PyTorch's ``view_func``; None: ``as_strided``
    suffices), ``creation`` (how the view was
    made: "" normally, "no_grad", "multi" for unbind/split outputs, "inference"; a view of
    a tensor that needs no grad keeps a record only for a creation other than ""),
    ``rebased`` (on a root base that needed no grad until an in-place write of a value
    requiring grad gave it a node, or ``requires_grad_()`` armed it: its views made before,
    which have no record, take one when next used), ``inference`` (made under inference
    mode) and ``name``.
    """

    # (the defaults live on the class: making a record -- one per recorded op's result --
    # sets nothing, and each tensor keeps only the facts it was given)
    requires_grad = False
    grad = None
    grad_fn = None
    output_nr = 0
    retains_grad = False
    hooks = None
    post_acc_hooks = None
    accumulator = None
    base = None
    view_version = None
    replay = None
    creation = ""
    rebased = False
    inference = False
    name = None


#: Called once, the first time any tensor requires grad: autograd installs its recording
#: spellings then (until that moment no op pays anything for autograd).
on_first_requires_grad = None

#: Called with ``t`` when ``requires_grad_()`` (or the attribute) arms a tensor that is a view
#: or may have views (viewed or written before): as in PyTorch, its views taken before then
#: become views of a tensor that requires grad (autograd's ``_record.note_requires_grad``).
on_requires_grad_of_viewed = None


def meta(t: Any) -> AutogradMeta:
    """``t``'s record, made on first need."""
    ag = t._ag
    if ag is None:
        ag = t._ag = AutogradMeta()
    return ag


def set_requires_grad(t: Any, flag: bool, kind: int = ATTRIBUTE) -> None:
    """Set a leaf's ``requires_grad`` with PyTorch's checks (``kind`` picks the message for an
    integer tensor: factories, ``requires_grad_()`` and the attribute each word it their
    own way); RuntimeError for a non-leaf."""
    flag = bool(flag)
    ag = t._ag
    if ag is not None and ag.grad_fn is not None:
        if flag:  # (a non-leaf already requires grad: asking again is fine)
            return
        raise RuntimeError(NON_LEAF)
    if flag:
        dt = t._dtype
        if dt.category < _dtypes._FLOAT:
            raise RuntimeError(_MESSAGES[kind])
        if is_inference(t) and not _grad_mode._STATE.inference:
            raise RuntimeError(_INFERENCE_REQUIRES_GRAD)
        meta(t).requires_grad = True
        if on_first_requires_grad is not None:
            on_first_requires_grad()
        if kind != FACTORY and (t._vc is not None or t._vb is not None) and \
                on_requires_grad_of_viewed is not None:  # (a factory's result has no views)
            on_requires_grad_of_viewed(t)
    elif ag is not None:
        ag.requires_grad = False
