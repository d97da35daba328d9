"""A 1366×768 laptop with JupyterLab's side bar open, and the dark theme: the storage strip and
the grids fit on one screen (linked hover seen at once), nothing is cut or overflows, "go to
slot" shows the slot, and exercise code is readable on the dark theme.
"""
from __future__ import annotations

from browser_harness import Notebook


def _text(locator) -> str:
    return " ".join(locator.inner_text().split())


def _contrast(page, locator) -> float:
    """WCAG contrast ratio of an element's text colour against its background colour."""
    return page.evaluate("""(el) => {
      const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
      let bgEl = el, bg = 'rgba(0, 0, 0, 0)';
      while (bgEl && (bg === 'rgba(0, 0, 0, 0)' || bg === 'transparent')) {
        bg = getComputedStyle(bgEl).backgroundColor; bgEl = bgEl.parentElement; }
      const a = lum(rgb(getComputedStyle(el).color)), b = lum(rgb(bg));
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }""", locator.element_handle())


def test_laptop_screen_with_side_bar(lab, browser, artifacts):
    name = "compact.ipynb"
    lab.write_notebook(name, [
        "import tensorviz as torch\nx = torch.arange(24).reshape(2, 3, 4)\n"
        "torch.show(x, x.permute(2, 0, 1).transpose(1, 2)[:, :, ::2])",
        "big = (torch.arange(10**6) % 7).to(torch.uint8)  # short values, long indices\n"
        "torch.show(big[::3], torch.arange(20))",
        "from tensorviz.lessons import exercise\nex_stride_3d = exercise('01/stride-3d')\n"
        "ex_stride_3d",
    ])
    nb = Notebook(browser, lab, name, viewport=(1366, 768))
    page = nb.page
    try:
        # the side bar open (the file browser), as most learners have it
        page.evaluate("window.jupyterapp.shell.activateById('filebrowser')")
        page.wait_for_function("() => !window.jupyterapp.shell.leftCollapsed && "
                               "document.querySelector('#filebrowser').offsetWidth > 150")
        for k in range(3):
            nb.run_cell(k)
        out = nb.output(0)
        out.locator(".tv-root").wait_for()
        strip = out.locator(".tv-strip")
        strip.scroll_into_view_if_needed()
        page.evaluate("(el) => el.scrollIntoView({block: 'start'})", strip.element_handle())
        page.screenshot(path=str(artifacts / "laptop-1366x768.png"))
        hidden = out.locator(".tv-strip-scroll").evaluate("s => s.scrollWidth - s.clientWidth")
        assert hidden <= 1, f"the 24-slot strip hides {hidden} px"
        last_slot = out.locator('.tv-slot[data-k="23"]').bounding_box()
        cell = out.locator('.tv-card[data-t="0"] .tv-cell').last.bounding_box()
        assert last_slot["y"] >= 0 and cell["y"] + cell["height"] <= 768, \
            "the strip and a whole grid are not on one screen"
        # the long label is spelled out in the strip head, never cut
        label = out.locator(".tv-strip-users .tv-chip .tv-label").nth(1)
        assert _text(label) == "x.permute(2, 0, 1).transpose(1, 2)[:, :, ::2]"
        assert label.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        out.locator('.tv-card[data-t="0"] .tv-cell[data-index="1,2,3"]').hover()
        page.screenshot(path=str(artifacts / "laptop-1366x768.png"))

        # a 1-D grid stays inside its card; "go to slot" shows the slot it went to
        big = nb.output(1)
        big.locator(".tv-root").wait_for()
        for card in big.locator(".tv-card").all():
            assert card.evaluate("c => c.scrollWidth <= c.clientWidth + 1")
        jump = big.locator('[data-action="strip-jump"]')
        jump.fill("600000")
        jump.press("Enter")
        slot = big.locator('.tv-slot[data-k="600000"]')
        slot.wait_for()
        page.wait_for_function("(el) => el.classList.contains('tv-hl-main')",
                               arg=slot.element_handle())
        box = slot.evaluate("""el => { const sc = el.closest('.tv-strip-scroll');
          const a = el.getBoundingClientRect(), b = sc.getBoundingClientRect();
          return a.left >= b.left && a.right <= b.right; }""")
        assert box, "go to slot loaded the window but the slot is scrolled out of sight"
        assert "storage[600000] = 2" in _text(big.locator(".tv-readout"))
        # 6-digit slot indices and @addresses are not cut or run into each other
        assert big.locator(".tv-root").evaluate("""r => [...r.querySelectorAll(
            '.tv-slot-index, .tv-cell .tv-addr')].every(e => {
            const box = (e.classList.contains('tv-addr') ? e.parentElement : e)
              .getBoundingClientRect();
            const range = document.createRange(); range.selectNodeContents(e);
            const text = range.getBoundingClientRect();
            return text.left >= box.left - 0.5 && text.right <= box.right + 0.5; })""")
        big.screenshot(path=str(artifacts / "go-to-slot.png"))

        # dark theme: exercise code and text readable
        nb.command("apputils:change-theme", {"theme": "JupyterLab Dark"})
        page.wait_for_function("document.body.dataset.jpThemeLight === 'false'")
        ex = nb.output(2).locator(".tv-exercise")
        ex.wait_for()
        code = ex.locator("code").first
        assert _contrast(page, code) >= 4.5
        assert _contrast(page, nb.output(0).locator(".tv-slot").first) >= 4.5
        ex.screenshot(path=str(artifacts / "exercise-dark.png"))
        nb.output(0).screenshot(path=str(artifacts / "show-dark-compact.png"))
        nb.command("apputils:change-theme", {"theme": "JupyterLab Light"})
        assert nb.errors == []
    finally:
        nb.close()
