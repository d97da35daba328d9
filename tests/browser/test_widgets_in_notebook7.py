"""The widget in Jupyter Notebook 7 (the classic-style interface many classrooms use), driven by
headless Chromium: it renders, and a later cell's write updates it live.

The same server as the JupyterLab tests serves Notebook 7's ``/notebooks/`` pages.
"""
from __future__ import annotations

import pytest

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
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{lab.url}/notebooks/nb7.ipynb", wait_until="domcontentloaded")
        cells = page.locator(".jp-Cell")
        cells.nth(0).locator(".cm-content").click()
        page.keyboard.press("Shift+Enter")
        out = cells.nth(0).locator(".jp-OutputArea")
        out.locator(".tv-root").wait_for(timeout=120_000)
        assert out.locator(".tv-strip").count() == 1
        assert out.locator(".tv-slot").count() == 12
        assert out.locator(".tv-card").count() == 2
        assert out.locator('.tv-slot[data-k="4"]').inner_text().strip() == "4"

        # hover a.t()[0, 1]: storage[4], with the address worked out
        out.locator('.tv-card[data-t="1"] .tv-cell[data-index="0,1"]').hover()
        readout = " ".join(out.locator(".tv-readout").inner_text().split())
        assert "a.t()[0, 1] lives in storage[4]" in readout

        cells.nth(1).locator(".cm-content").click()
        page.keyboard.press("Control+Enter")
        page.wait_for_function(
            "document.querySelector('.tv-slot[data-k=\"4\"]').textContent.trim() === '100'",
            timeout=60_000)
        assert out.locator('.tv-card[data-t="0"] .tv-cell[data-index="1,0"]') \
            .inner_text().split()[0] == "100"
        page.screenshot(path=str(artifacts / "notebook7.png"))
        assert [e for e in errors if e not in NOTEBOOK7_OWN_ERRORS] == []
    finally:
        page.close()
