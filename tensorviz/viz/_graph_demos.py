"""Small autograd programs for the classroom demo's graph mode: each a few lines a teacher
projects, run fresh on every pick, with the graph widget drawn beside the code.

The programs are fixed text from this module (never typed in by anyone), run with ``torch``
bound to tensorviz; ``tests/viz/test_graph_demos.py`` runs each on PyTorch too and checks the
graph's nodes are PyTorch's.

>>> view = graph_demo("x used twice: gradients add up")
>>> view.graph["roots"][0]["label"]
'loss'
"""
from __future__ import annotations

from typing import Any

__all__ = ["GRAPH_DEMOS", "graph_demo", "run_demo"]

#: title -> (the code shown, the names of the tensors whose graph is drawn, the seed's name)
GRAPH_DEMOS: dict[str, tuple[str, tuple[str, ...], str | None]] = {
    "y = x * w, loss = y.sum()": (
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "w = torch.tensor([0.5, -1., 2.], requires_grad=True)\n"
        "y = x * w\n"
        "loss = y.sum()", ("loss",), None),
    "a neuron: sigmoid(w · x + b)": (
        "x = torch.tensor([1., -2., 0.5])\n"
        "w = torch.tensor([0.3, 0.1, -0.4], requires_grad=True)\n"
        "b = torch.tensor(0.2, requires_grad=True)\n"
        "out = torch.sigmoid(w @ x + b)", ("out",), None),
    "x used twice: gradients add up": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "loss = (x * x + x.exp()).sum()", ("loss",), None),
    "retain_grad and a hook fire during backward": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "h = x * 3\n"
        "h.retain_grad()\n"
        "def peek(grad):          # a hook that only looks (returns None)\n"
        "    print('gradient of h:', grad)\n"
        "h.register_hook(peek)\n"
        "loss = h.pow(2).sum()", ("loss",), None),
    "in-place write to a saved tensor (backward would fail)": (
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = x.sigmoid()          # SigmoidBackward0 saves its result y\n"
        "loss = y.sum()\n"
        "y.mul_(2)                # version 0 -> 1: the stamp turns red", ("loss",), None),
    "non-scalar output: gradient= is the vector v of vᵀ·J": (
        "x = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        "y = x ** 2\n"
        "v = torch.tensor([1., 0., 0.5])  # y.backward(gradient=v)", ("y",), "v"),
    "a Linear layer: parameters by name": (
        "layer = torch.nn.Linear(3, 2)\n"
        "loss = layer(torch.ones(1, 3)).relu().sum()", ("loss",), None),
}


def run_demo(title: str, torch: Any) -> dict:
    """Run one program with ``torch`` bound to the given library; its namespace."""
    try:
        code = GRAPH_DEMOS[title][0]
    except KeyError:
        raise KeyError(f"no graph demo {title!r}; choose one of: "
                       f"{', '.join(GRAPH_DEMOS)}") from None
    namespace: dict = {"torch": torch}
    exec(compile(code, f"<graph demo: {title}>", "exec"), namespace)  # fixed code, ours
    return namespace


def graph_demo(title: str, **kwargs: Any):
    """The graph widget of one demo program (a :class:`GraphView` that owns the program's
    variables, so its tensors stay alive while it is shown)."""
    import tensorviz

    from ._graph_view import GraphView

    namespace = run_demo(title, tensorviz)  # (raises KeyError for an unknown title)
    _code, roots, seed = GRAPH_DEMOS[title]
    params = next((v for v in namespace.values() if isinstance(v, tensorviz.nn.Module)), None)
    view = GraphView(*[namespace[r] for r in roots], labels=list(roots), params=params,
                     gradient=namespace[seed] if seed else None, namespace=namespace,
                     **kwargs)
    return view
