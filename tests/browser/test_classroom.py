"""What a teacher's first demo does, in a real JupyterLab page: show() where it is called,
temporaries without alarms, the playground's canonical "view fails -> contiguous()" demo.
"""
from __future__ import annotations


def _text(locator) -> str:
    return " ".join(locator.inner_text().split())


def test_show_displays_where_it_is_called(open_notebook, artifacts):
    nb = open_notebook("show_here.ipynb", [
        "import tensorviz as torch\na = torch.arange(6).reshape(2, 3)\nw = torch.show(a)",
        "torch.show(a.t())\nprint('after the widget')",
        "for v in (a, a.t()):\n    torch.show(v)",
        "torch.show(a)",
        "w2 = torch.show(a[1])\nw2",
    ])
    for k in range(5):
        nb.run_cell(k)
    counts = []
    for k in range(5):
        out = nb.output(k)
        out.locator(".tv-root").first.wait_for()
        counts.append(out.locator(".tv-root").count())
    assert counts == [1, 1, 2, 1, 1]
    assert "after the widget" in nb.output(1).text_content()
    assert [_text(c) for c in nb.output(2).locator(".tv-card .tv-chip .tv-label").all()] == \
        ["v", "v"]
    nb.output(2).screenshot(path=str(artifacts / "show-in-loop.png"))
    assert nb.errors == []
