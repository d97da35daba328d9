"""The widgets in a real JupyterLab page, driven by headless Chromium.

Each test opens a notebook, runs its cells one by one and checks the DOM the front end drew:
storage cells, linked highlights, the address formula, live updates after later cells.
"""
from __future__ import annotations

import time

EVIL = '<img src=x onerror="window.__pwned = 1">'


def _text(locator) -> str:
    return " ".join(locator.inner_text().split())


def test_show_links_views_and_updates_live(open_notebook, artifacts):
    nb = open_notebook("show.ipynb", [
        "import tensorviz as torch\na = torch.arange(12).reshape(3, 4)\n"
        "torch.show(a, a.t(), a[1:, ::2])",
        "a.t()[0, 1] = 100",
        "a.numpy()[2, 3] = -1",
        "for _ in range(300):\n    a.add_(1)",
        "b = torch.zeros(3)\ntorch.show(b)",
        "del b\nimport gc\n_ = gc.collect()",
        f"torch.show(a, labels=[{EVIL!r}])",
    ])
    page = nb.page
    nb.run_cell(0)
    out = nb.output(0)
    out.locator(".tv-root").wait_for()
    assert out.locator(".tv-strip").count() == 1
    assert out.locator(".tv-slot").count() == 12
    assert out.locator(".tv-card").count() == 3
    assert out.locator(".tv-fp-head").count() == 3
    assert out.locator(".tv-fp.tv-fp-on.tv-c2").count() == 4  # a[1:, ::2] reads 4 slots
    assert [_text(c) for c in out.locator(".tv-chip .tv-label").all()[:3]] == \
        ["a", "a.t()", "a[1:, ::2]"]

    # idle: the band where stride arrows appear says what it is for
    assert out.locator(".tv-arrow-hint").is_visible()
    out.screenshot(path=str(artifacts / "show-idle.png"))

    # hover a.t()[2, 1]: it lives in storage[6], like a[1, 2] and a[1:, ::2][0, 1]
    out.locator('.tv-card[data-t="1"] .tv-cell[data-index="2,1"]').hover()
    assert not out.locator(".tv-arrow-hint").is_visible()
    slot6 = out.locator('.tv-slot[data-k="6"]')
    assert "tv-hl-main" in slot6.get_attribute("class")
    assert "tv-hl" in out.locator('.tv-card[data-t="0"] .tv-cell[data-index="1,2"]') \
        .get_attribute("class")
    assert "tv-hl" in out.locator('.tv-card[data-t="2"] .tv-cell[data-index="0,1"]') \
        .get_attribute("class")
    readout = _text(out.locator(".tv-readout"))
    assert "a.t()[2, 1] lives in storage[6]" in readout
    assert "offset + i·stride₀ + j·stride₁ = 0 + 2·1 + 1·4 = 6" in readout
    arrows = [" ".join(t.text_content().split()) for t in out.locator(".tv-arrow-label").all()]
    assert arrows == ["i+1: +1", "j+1: +4"]
    assert "tv-dim" not in slot6.get_attribute("class")
    out.screenshot(path=str(artifacts / "show-hover-cell.png"))

    # hover storage[4]: every cell that reads it, in every view
    out.locator('.tv-slot[data-k="4"]').hover()
    readout = _text(out.locator(".tv-readout"))
    assert "storage[4] = 4" in readout
    for cell in ("a[1, 0]", "a.t()[0, 1]", "a[1:, ::2][0, 0]"):
        assert cell in readout
    assert out.locator(".tv-cell.tv-hl").count() == 3
    out.screenshot(path=str(artifacts / "show-hover-slot.png"))

    # the keyboard works too: Tab reaches a grid, arrows move (and stay inside the widget)
    active = page.evaluate("window.jupyterapp.shell.currentWidget.content.activeCellIndex")
    out.locator('.tv-card[data-t="1"] .tv-cell[data-index="0,0"]').focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert "a.t()[1, 1] lives in storage[5]" in _text(out.locator(".tv-readout"))
    assert out.locator('.tv-card[data-t="1"] .tv-cell[data-index="1,1"]').evaluate(
        "e => e === document.activeElement && e.tabIndex === 0")
    out.locator('.tv-slot[data-k="4"]').focus()
    page.keyboard.press("ArrowRight")
    assert "storage[5] = 5" in _text(out.locator(".tv-readout"))
    assert page.evaluate("window.jupyterapp.shell.currentWidget.content.activeCellIndex") \
        == active

    # a later cell writes through a view: the widget updates
    nb.run_cell(1)
    page.wait_for_function(
        "() => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-slot[data-k=\"4\"]').textContent === '100'")
    assert _text(out.locator('.tv-card[data-t="1"] .tv-cell[data-index="0,1"] .tv-v')) == "100"
    # a write through a NumPy alias is seen after the cell (post_run_cell)
    nb.run_cell(2)
    page.wait_for_function(
        "() => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-slot[data-k=\"11\"]').textContent === '-1'")

    # a loop of writes: throttled while it runs, the last state flushed when the cell ends
    nb.run_cell(3)
    page.wait_for_function(
        "() => document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-slot[data-k=\"0\"]').textContent === '300'")
    assert _text(out.locator('.tv-slot[data-k="11"]')) == "299"

    # the widget says when its tensor is gone
    nb.run_cell(4)
    freed = nb.output(4)
    freed.locator(".tv-root").wait_for()
    assert freed.locator(".tv-banner").count() == 0
    nb.run_cell(5)
    freed.locator(".tv-banner").wait_for()
    assert "no longer exists" in _text(freed.locator(".tv-banner"))
    assert freed.locator(".tv-card .tv-badge-freed").count() == 1
    assert freed.locator(".tv-strip .tv-badge-freed").count() == 1
    assert "float32 · 3 elements × 4 bytes = 12 bytes" in _text(freed.locator(".tv-strip"))

    # strings are text, never markup
    nb.run_cell(6)
    evil = nb.output(6)
    evil.locator(".tv-root").wait_for()
    assert evil.locator(".tv-root img").count() == 0
    assert EVIL in _text(evil.locator(".tv-card .tv-label"))
    assert page.evaluate("window.__pwned") is None

    # dark theme: just a screenshot to look at
    nb.command("apputils:change-theme", {"theme": "JupyterLab Dark"})
    page.wait_for_function("document.body.dataset.jpThemeLight === 'false'")
    out.locator('.tv-card[data-t="2"] .tv-cell[data-index="1,1"]').hover()
    out.screenshot(path=str(artifacts / "show-dark.png"))
    nb.command("apputils:change-theme", {"theme": "JupyterLab Light"})
    assert nb.errors == []


def test_playground_and_big_tensors(open_notebook, artifacts):
    nb = open_notebook("playground.ipynb", [
        "import tensorviz as torch\nx = torch.arange(12).reshape(3, 4)\np = torch.playground(x)\np",
        "big = torch.arange(10**7)\ntorch.show(big[5_000_000:5_000_010].view(2, 5))",
        "x4 = torch.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)\ntorch.show(x4.permute(0, 2, 3, 1))",
        "print(p.code)",
    ])
    page = nb.page
    nb.run_cell(0)
    pg = nb.output(0)
    pg.locator(".tv-pg").wait_for()
    chain = pg.locator(".tv-pg-step")

    def apply(op: str, args: str | None, steps: int) -> None:
        pg.locator(f'.tv-op[data-op="{op}"]').click()
        if args is not None:
            pg.locator(".tv-pg-input").fill(args)
            pg.locator(".tv-pg-input").press("Enter")
        page.wait_for_function(
            "(n) => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
            ".tv-pg-step').length === n", arg=steps)

    apply("transpose", "0, 1", 2)
    apply("index", "1:, ::2", 3)
    apply("contiguous", None, 4)
    assert "view · same storage #1" in _text(chain.nth(2))
    assert "COPY → new storage #2" in _text(chain.nth(3))
    assert pg.locator(".tv-strip").count() == 2
    assert "x3 = x2.contiguous()" in _text(pg.locator(".tv-pg-code"))
    # a bad op shows PyTorch's own message, and adds nothing
    pg.locator('.tv-op[data-op="view"]').click()
    pg.locator(".tv-pg-input").fill("5, 5")
    pg.locator(".tv-pg-input").press("Enter")
    pg.locator(".tv-pg-error:not([hidden])").wait_for()
    assert "RuntimeError: shape '[5, 5]' is invalid for input of size 6" in \
        _text(pg.locator(".tv-pg-error"))
    assert chain.count() == 4
    pg.screenshot(path=str(artifacts / "playground.png"))

    # 10^7 elements: a window of the storage, paged from the page
    t0 = time.monotonic()
    nb.run_cell(1)
    big = nb.output(1)
    big.locator(".tv-root").wait_for()
    assert time.monotonic() - t0 < 10
    assert big.locator(".tv-slot").count() == 128
    assert _text(big.locator(".tv-pager-text")) == "slots 4,999,998–5,000,125 of 10,000,000"
    assert _text(big.locator('.tv-cell[data-index="1,4"] .tv-v')) == "5000009"
    big.locator('[data-action="strip-next"]').click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-pager-text')].some(e => e.textContent.startsWith('slots 5,000,126'))")
    assert _text(big.locator(".tv-slot").first) == "5000126"
    # clicking a cell whose slot is not drawn scrolls the strip back to it
    big.locator('.tv-cell[data-index="0,0"]').click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-pager-text')].some(e => e.textContent.startsWith('slots 4,999,936'))")

    # or jumps: the typed slot lands in the middle of the window
    big.locator('[data-action="strip-jump"]').fill("7000000")
    big.locator('[data-action="strip-jump"]').press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-pager-text')].some(e => e.textContent === 'slots 6,999,936–7,000,063 of 10,000,000')")
    assert _text(big.locator('.tv-slot[data-k="7000000"]')) == "7000000"

    # 4-D: a grid of grids, each block labelled
    nb.run_cell(2)
    x4 = nb.output(2)
    x4.locator(".tv-root").wait_for()
    assert x4.locator(".tv-block").count() == 8
    assert _text(x4.locator(".tv-block-label").first) == "x4.permute(0, 2, 3, 1)[0, 0, :, :]"
    x4.screenshot(path=str(artifacts / "four-d.png"))

    # the kernel saw every click
    nb.run_cell(3)
    text = _text(nb.output(3))
    assert "x1 = x0.transpose(0, 1)" in text and "x3 = x2.contiguous()" in text
    assert nb.errors == []


def test_layouts_zero_dim_broadcast_high_dims_and_bytes(open_notebook, artifacts):
    nb = open_notebook("layouts.ipynb", [
        "import tensorviz as torch, numpy as np\na = torch.arange(6)\n"
        "torch.show(a[4], a[2:2], torch.tensor([True, False]))",
        "r = torch.arange(4)\ntorch.show(r, r.expand(3, 4))",
        "x6 = torch.arange(2 * 3 * 2 * 2 * 2 * 3).reshape(2, 3, 2, 2, 2, 3)\ntorch.show(x6)",
        "n = np.arange(24, dtype=np.int16).reshape(2, 3, 4)\ntorch.show(n[:, ::2, 1:])",
        "long = torch.arange(1000)\ntorch.show(long)",
        "al = torch.arange(4)\ntorch.show(al, al.numpy(), al.numpy().view(np.int32))",
    ])
    page = nb.page
    for k in range(6):
        nb.run_cell(k)
        nb.output(k).locator(".tv-root").wait_for()

    # 0-dim: its one element lives at storage_offset; empty: no cells; 1-byte items
    zero = nb.output(0)
    zero.locator('.tv-card[data-t="0"] .tv-cell').hover()
    readout = _text(zero.locator(".tv-readout"))
    assert "a[4] lives in storage[4]" in readout and "storage_offset = 4" in readout
    assert "a[4][]" not in readout and "= 4 = 4" not in readout
    # only the footprint marks of tensors that read the slot are outlined (a[2:2] reads none)
    assert zero.locator(".tv-fp.tv-hl-fp").count() == 1
    assert "tv-hl-fp" not in zero.locator('.tv-fp.tv-c1[data-k="4"]').get_attribute("class")
    assert "reads storage[4] is_contiguous" in _text(zero.locator('.tv-card[data-t="0"] .tv-meta'))
    assert zero.locator('.tv-card[data-t="1"] .tv-cell').count() == 0
    assert "has no elements" in _text(zero.locator('.tv-card[data-t="1"]'))
    # the bool tensor was a temporary: freed when the cell ended, its strip keeps its facts,
    # calmly marked as a snapshot (nothing could change it) rather than "freed"
    zero.locator('.tv-strip[data-strip="1"] .tv-badge-snapshot').wait_for()
    assert zero.locator(".tv-banner").count() == 0
    assert "bool · 2 elements × 1 byte = 2 bytes" in _text(zero.locator(".tv-strip").nth(1))
    zero.screenshot(path=str(artifacts / "zero-dim-empty.png"))

    # stride 0: one slot read by a whole column, said in words, not only in colour
    bc = nb.output(1)
    bc.locator('.tv-slot[data-k="2"]').hover()
    readout = _text(bc.locator(".tv-readout"))
    assert "3 elements here: r.expand(3, 4)[0, 2], r.expand(3, 4)[1, 2], r.expand(3, 4)[2, 2]" \
        in readout
    assert "broadcasting" in readout
    assert bc.locator('.tv-card[data-t="1"] .tv-cell.tv-hl').count() == 3
    assert _text(bc.locator('.tv-fp.tv-c1[data-k="2"]')) == "●×3"
    bc.locator('.tv-card[data-t="1"] .tv-cell[data-index="1,2"]').hover()
    arrows = [" ".join(t.text_content().split()) for t in bc.locator(".tv-arrow-label").all()]
    assert "i+1: +0 (broadcast)" in arrows
    bc.screenshot(path=str(artifacts / "broadcast.png"))

    # above 4-D: index selectors for the leading dims
    hd = nb.output(2)
    assert hd.locator(".tv-block").count() == 4
    assert _text(hd.locator(".tv-block-label").first) == "x6[0, 0, 0, 0, :, :]"
    hd.locator('.tv-selectors button[aria-label="next index of dim 0"]').click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-block-label')].some(e => e.textContent === 'x6[1, 0, 0, 0, :, :]')")
    assert _text(hd.locator('.tv-cell[data-index="1,0,0,0,0,0"] .tv-v')) == "72"

    # NumPy: byte strides shown, and the toggle turns strides and offsets into bytes
    npy = nb.output(3)
    assert "(24, 16, 2) bytes" in _text(npy.locator(".tv-meta"))
    npy.locator(".tv-bytes-toggle").check()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-axis')].some(e => e.textContent.includes('stride 16 bytes'))")
    assert "(24, 16, 2) bytes" in _text(npy.locator(".tv-meta"))
    npy.locator('.tv-cell[data-index="0,1,1"]').hover()
    assert "storage[10] (byte 20 = 10 × 2)" in _text(npy.locator(".tv-readout"))
    npy.screenshot(path=str(artifacts / "numpy-bytes.png"))

    # a long dim pages, or jumps to a typed index (it lands mid-window)
    long = nb.output(4)
    assert _text(long.locator(".tv-card .tv-pager .tv-selector-value")) == "0–31 of 1,000"
    long.locator('[data-action="dim-jump-0"]').fill("500")
    long.locator('[data-action="dim-jump-0"]').press("Enter")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
        ".tv-selector-value')].some(e => e.textContent === '484–515 of 1,000')")
    assert _text(long.locator('.tv-cell[data-index="500"] .tv-v')) == "500"

    # a zero-copy NumPy alias draws on its tensor's strip; another dtype notes the shared bytes
    al = nb.output(5)
    assert al.locator(".tv-strip").count() == 2
    assert al.locator('.tv-strip[data-strip="0"] .tv-fp-head').count() == 2
    assert "shares memory with storage #2 (read as another dtype)" in \
        _text(al.locator('.tv-strip[data-strip="0"] .tv-strip-head'))
    assert nb.errors == []
