"""The widget in Jupyter Notebook 7 (the classic-style interface many classrooms use), driven by
headless Chromium: it renders, and a later cell's write updates it live.

The same server as the JupyterLab tests serves Notebook 7's ``/notebooks/`` pages.
"""
from __future__ import annotations

import pytest

from browser_harness import Notebook

pytest.importorskip("notebook", reason="Notebook 7 is not installed (pip install 'tensorviz[test]')")

# Notebook 7 itself raises these while loading (seen with no tensorviz cell in the notebook; the
# widget calls no application command): they are not the widget's.
NOTEBOOK7_OWN_ERRORS = ("Cannot read properties of undefined (reading 'schema')",
                        "Command 'filebrowser:open-path' not registered.")


def test_widget_renders_and_updates_live_in_notebook7(lab, browser, artifacts):
    lab.write_notebook("nb7.ipynb", [
        "import tensorviz as torch\na = torch.arange(12).reshape(3, 4)\ntorch.show(a, a.t())",
        "a.t()[0, 1] = 100",
    ])
    # ready means the kernel is connected and idle (not a fixed time): on a busy machine the
    # kernel can take far longer to start than the page
    nb = Notebook(browser, lab, "nb7.ipynb", ui="notebook")
    page = nb.page
    try:
        nb.run_cell(0)
        out = nb.output(0)
        out.locator(".tv-root").wait_for(timeout=60_000)
        assert out.locator(".tv-strip").count() == 1
        assert out.locator(".tv-slot").count() == 12
        assert out.locator(".tv-card").count() == 2
        assert out.locator('.tv-slot[data-k="4"]').inner_text().strip() == "4"

        # hover a.t()[0, 1]: storage[4], with the address worked out
        out.locator('.tv-card[data-t="1"] .tv-cell[data-index="0,1"]').hover()
        readout = " ".join(out.locator(".tv-readout").inner_text().split())
        assert "a.t()[0, 1] lives in storage[4]" in readout

        nb.run_cell(1)
        page.wait_for_function(
            "document.querySelector('.tv-slot[data-k=\"4\"]').textContent.trim() === '100'",
            timeout=60_000)
        assert out.locator('.tv-card[data-t="0"] .tv-cell[data-index="1,0"]') \
            .inner_text().split()[0] == "100"
        page.screenshot(path=str(artifacts / "notebook7.png"))
        assert [e for e in nb.errors if e not in NOTEBOOK7_OWN_ERRORS] == []
    finally:
        nb.close()
