"""A meta tensor's layout (10**12 elements, no values) and a bfloat16 tensor drawn by the
widget in a real JupyterLab page."""
from __future__ import annotations


def _text(locator) -> str:
    return " ".join(locator.inner_text().split())


def test_meta_layout_and_bfloat16_values(open_notebook, artifacts):
    nb = open_notebook("meta.ipynb", [
        "import tensorviz as torch\nbig = torch.empty(10**6, 10**6, device='meta')\n"
        "torch.show(big.t()[::2])",
        "b = torch.arange(6, dtype=torch.bfloat16).reshape(2, 3) * 0.37\ntorch.show(b.t())",
    ])
    nb.run_cell(0)
    meta = nb.output(0)
    meta.locator(".tv-root").wait_for()
    text = _text(meta)
    assert "of 1,000,000,000,000" in _text(meta.locator(".tv-pager-text"))
    assert "values unavailable" in text and "meta" in text
    assert "(500000, 1000000)" in text and "(2, 1000000) elements" in text
    assert "reads storage[0] … storage[999999999998]" in text
    assert meta.locator(".tv-slot").count() > 0
    meta.screenshot(path=str(artifacts / "meta-layout.png"))

    nb.run_cell(1)
    bf = nb.output(1)
    bf.locator(".tv-root").wait_for()
    text = _text(bf)
    assert "bfloat16" in text and "values unavailable" not in text
    assert _text(bf.locator('.tv-cell[data-index="1,0"] .tv-v')) == "0.3691"
    bf.screenshot(path=str(artifacts / "bfloat16.png"))
    assert nb.errors == []
