"""Derivative-formula coverage: of the op spellings PyTorch differentiates (the sample table of
``_samples``, asked of PyTorch itself), how many tensorviz differentiates as PyTorch does --
its result has a real node, not the ``NotImplemented`` placeholder whose backward raises,
unless PyTorch's own node is that placeholder (``floor_divide``, ``heaviside``,
``histogram``: PyTorch records them but raises "derivative ... is not implemented" too).

Run ``python -m tests.autograd.coverage`` from the repository root to print it; the test
``test_formulas.py::test_coverage_is_complete`` keeps it at 100%.
"""
from __future__ import annotations

import warnings

import tensorviz

from . import _samples as S


def coverage() -> tuple[int, int, list[str]]:
    """``(with_formula, differentiated_by_pytorch, missing_spellings)``."""
    total, missing = 0, []
    for ns, name in S.ops():
        sample = S.sample(ns, name)
        if sample is None:
            continue
        total += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out, _ = S.run(tensorviz, ns, name, sample[1], "float64", "contig")
            t_out, _ = S.run(S.torch, ns, name, sample[1], "float64", "contig")
        names = [o.grad_fn.name() if o.grad_fn is not None else None
                 for o in S.float_outputs(out)]
        t_names = [o.grad_fn.name() if o.grad_fn is not None else None
                   for o in S.float_outputs(t_out)]
        real = any(n is not None and not n.endswith("NotImplemented") for n in names)
        if not real and names != t_names:
            missing.append(S.qual(ns, name))
    return total - len(missing), total, missing


if __name__ == "__main__":  # pragma: no cover
    n, total, missing = coverage()
    print(f"derivative formulas: {n}/{total} op spellings PyTorch differentiates"
          + (f" (missing: {', '.join(missing)})" if missing else ""))
