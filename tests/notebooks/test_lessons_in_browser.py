"""The lessons in a real browser: an exercise answered in JupyterLab, and the classroom
playground served as an app by voila and driven with clicks.

nbclient (test_lesson_notebooks.py) proves the Python runs; only a browser proves the exercise
form and the playground work for a learner.  Uses the browser tests' harness (JupyterLab +
Debian's headless Chromium through Playwright) and skips with the reason where those, or voila,
are missing.  Screenshots go to ``test-artifacts/lessons/``.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from browser_harness import (REPO, Lab, Notebook, _free_port, chromium,  # noqa: E402
                             missing_requirements)

pytestmark = [pytest.mark.browser, pytest.mark.notebooks]

NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts" / "lessons"


@pytest.fixture
def in_browser():
    """``in_browser(fn)`` runs ``fn(browser)`` with a headless Chromium, in a thread of its own.

    Playwright's sync API refuses to start while another sync Playwright is open in the same
    thread, and tests/browser keeps one open for the whole session; a fresh thread has no
    event loop, so both can run in one pytest session.
    """
    reason = missing_requirements()
    if reason:
        pytest.skip(reason)

    def run(fn, timeout: float = 400):
        outcome: dict = {}

        def target():
            try:
                with chromium() as browser:
                    fn(browser)
            except BaseException as exc:  # re-raised in the test's thread
                outcome["error"] = exc

        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        thread.join(timeout)
        if thread.is_alive():
            pytest.fail(f"the browser test did not finish in {timeout:.0f} s")
        if "error" in outcome:
            raise outcome["error"]

    return run


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def test_welcome_exercise_checks_answers_in_lab(in_browser, tmp_path, artifacts):
    shutil.copy(NOTEBOOKS / "00_welcome.ipynb", tmp_path)
    lab = Lab(tmp_path)
    try:
        in_browser(lambda browser: _answer_the_welcome_exercise(browser, lab, artifacts))
    finally:
        lab.stop()


def _answer_the_welcome_exercise(browser, lab, artifacts):
    nb = Notebook(browser, lab, "00_welcome.ipynb")
    nb.page.set_default_timeout(60_000)
    try:
        nb.command("notebook:run-all-cells")
        form = nb.panel.locator(".tv-exercise")
        form.wait_for(timeout=90_000)
        nb.wait_idle(90_000)
        nb.panel.locator(".tv-root").first.wait_for()  # the lesson's live widget drew
        box = form.locator("input[type=text]")

        box.fill("seven")  # not a number: say how to write it, not "wrong"
        box.press("Enter")
        form.locator(".tv-feedback", has_text="Couldn't read 'seven': write it as a number "
                     "in digits").wait_for()
        form.screenshot(path=str(artifacts / "welcome-unreadable.png"))

        box.fill("3")
        box.press("Enter")
        form.locator(".tv-feedback", has_text="the value stored there").wait_for()

        form.get_by_role("button", name="Hint").click()
        form.get_by_text("Row i starts at").wait_for()

        box.fill("7")
        form.get_by_role("button", name="Check").click()
        form.locator(".tv-feedback", has_text="Right: 7").wait_for()

        form.get_by_role("button", name="Show solution").click()
        form.get_by_text("points.storage_offset()").wait_for()
        form.screenshot(path=str(artifacts / "welcome-exercise.png"))
        assert nb.errors == []
    finally:
        nb.close()


def test_choice_and_code_exercises_in_lab(in_browser, tmp_path, artifacts):
    """Lesson 02: a multiple-choice exercise answered with the radio buttons and Check, and a
    build-it exercise answered by editing and re-running its cell."""
    shutil.copy(NOTEBOOKS / "02_views_transpose_contiguous.ipynb", tmp_path)
    lab = Lab(tmp_path)
    try:
        in_browser(lambda browser: _answer_lesson_02(browser, lab, artifacts))
    finally:
        lab.stop()


def _answer_lesson_02(browser, lab, artifacts):
    nb = Notebook(browser, lab, "02_views_transpose_contiguous.ipynb")
    nb.page.set_default_timeout(60_000)
    try:
        nb.command("notebook:run-all-cells")
        nb.panel.locator(".tv-exercise").nth(4).wait_for(timeout=90_000)
        nb.wait_idle(90_000)
        assert nb.panel.locator(".tv-root").count() >= 5  # four views and the playground

        # advanced indexing copies: x, picked and chosen on three strips
        fancy = nb.panel.locator(".tv-root", has=nb.page.locator(".tv-label", has_text="picked"))
        fancy.first.wait_for()
        assert fancy.first.locator(".tv-strip").count() == 3
        fancy.first.screenshot(path=str(artifacts / "lesson02-advanced-indexing.png"))
        bcast = nb.panel.locator(".tv-bcast")
        assert bcast.count() == 1 and "1 → 4" in bcast.text_content()

        choice = nb.panel.locator(".tv-exercise", has_text="Only one of these allocates")
        choice.get_by_role("radio", name="x.contiguous()", exact=True).check()
        choice.get_by_role("button", name="Check").click()
        choice.locator(".tv-feedback", has_text="itself").wait_for()
        choice.get_by_role("radio", name="x.t().contiguous()", exact=True).check()
        choice.get_by_role("button", name="Check").click()
        choice.locator(".tv-feedback", has_text="Right").wait_for()
        choice.screenshot(path=str(artifacts / "lesson02-choice.png"))

        build = nb.panel.locator(".tv-exercise", has_text="without copying")
        build.locator(".tv-feedback", has_text="Nothing to check yet").wait_for()
        index = nb.page.evaluate(
            "() => window.jupyterapp.shell.currentWidget.content.widgets.findIndex("
            "c => c.model.sharedModel.getSource().startsWith('rows = None'))")
        assert index >= 0
        nb.panel.locator(".jp-Cell").nth(index).locator(".cm-content").click()
        nb.page.keyboard.press("Control+a")
        nb.page.keyboard.type("rows = r.repeat(4, 1)\nex_expand.check(rows)")
        nb.run_cell(index)
        build.locator(".tv-feedback", has_text="stride 0").wait_for()  # a copy: not yet
        nb.panel.locator(".jp-Cell").nth(index).locator(".cm-content").click()
        nb.page.keyboard.press("Control+a")
        nb.page.keyboard.type("rows = r.expand(4, 3)\nex_expand.check(rows)")
        nb.run_cell(index)
        build.locator(".tv-feedback", has_text="Right").wait_for()
        build.screenshot(path=str(artifacts / "lesson02-expand.png"))
        assert nb.errors == []
    finally:
        nb.close()


@pytest.fixture
def voila_app():
    """voila serving the classroom notebook on 127.0.0.1; yields its URL."""
    pytest.importorskip("voila")
    home = Path(tempfile.mkdtemp(prefix="tv-voila-home-"))
    env = dict(os.environ)
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        (home / sub).mkdir()
        env[var] = str(home / sub)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    port = _free_port()
    log = open(home / "voila.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
         "--VoilaConfiguration.show_tracebacks=True",
         str(NOTEBOOKS / "classroom_playground.ipynb")],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("voila did not start:\n" +
                            (home / "voila.log").read_text(errors="replace")[-3000:])
            try:
                with urllib.request.urlopen(url, timeout=60) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.3)
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # voila and the kernels it started
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        log.close()
        shutil.rmtree(home, ignore_errors=True)


def test_classroom_playground_runs_as_a_voila_app(in_browser, voila_app, artifacts):
    in_browser(lambda browser: _drive_the_classroom_app(browser, voila_app, artifacts))


def _drive_the_classroom_app(browser, voila_app, artifacts):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(60_000)  # a loaded CI machine: kernel start and execution vary
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(voila_app, wait_until="domcontentloaded", timeout=120_000)
        root = page.locator(".tv-classroom .tv-root")
        root.wait_for(timeout=120_000)
        assert not page.get_by_text("def restart(").first.is_visible()  # an app: no code

        root.get_by_role("button", name="transpose").click()
        args = root.locator("input[type=text]").first
        args.fill("0, 1")
        args.press("Enter")
        page.locator(".tv-classroom .tv-chip", has_text="x.transpose(0, 1)").first.wait_for()
        expect(root).to_contain_text("# view: same storage")  # synced a moment after the chip

        page.locator(".tv-classroom-bar select").select_option(
            "torch.arange(24).reshape(2, 3, 4)")
        page.get_by_text("shape (2, 3, 4) stride (12, 4, 1) offset 0").first.wait_for()
        page.screenshot(path=str(artifacts / "classroom-voila.png"))
        # On a projector the biggest starting tensor's storage strip (24 slots) fits the
        # screen without scrolling, from 1280 pixels wide (the zoom steps down) to full HD.
        for width in (1280, 1366, 1600, 1920):
            page.set_viewport_size({"width": width, "height": 900})
            page.wait_for_timeout(300)
            hidden = page.evaluate(
                "() => { const s = document.querySelector('.tv-classroom .tv-strip-scroll');"
                " return s.scrollWidth - s.clientWidth; }")
            assert hidden <= 1, f"at {width} px the storage strip hides {hidden} px"
        page.screenshot(path=str(artifacts / "classroom-voila-1920.png"))
        assert not page.get_by_text("As an app for a projector").is_visible()  # inside the app

        # After one op, on a 1280×800 projector or a 1366×768 laptop: the whole storage strip
        # and a whole grid on one screen, so linked hover is seen at once
        root.get_by_role("button", name="transpose").click()
        args.fill("0, 1")
        args.press("Enter")
        page.locator(".tv-classroom .tv-chip", has_text="x.transpose(0, 1)").first.wait_for()
        for width, height in ((1280, 800), (1366, 768)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(
                "(w) => document.documentElement.clientWidth === w", arg=width)
            page.evaluate("window.scrollTo(0, 0)")
            scroller = page.locator(".tv-classroom .tv-strip-scroll")
            hidden = scroller.evaluate("s => s.scrollWidth - s.clientWidth")
            assert hidden <= 1, f"at {width}×{height} the strip hides {hidden} px after one op"
            slot = page.locator('.tv-classroom .tv-slot[data-k="23"]').bounding_box()
            cell = page.locator('.tv-classroom .tv-card[data-t="0"] .tv-cell').last \
                .bounding_box()
            assert slot["y"] >= 0 and cell["y"] + cell["height"] <= height, \
                f"at {width}×{height} the strip and the grid are not on one screen"
            select = page.locator(".tv-classroom-bar select")
            assert select.evaluate("e => e.scrollHeight <= e.clientHeight + 1")  # text not cut
            page.screenshot(path=str(artifacts / f"classroom-voila-{width}x{height}.png"))

        # graph mode: a program's code and its graph; the in-place program's red stamp; the
        # step-through replay of backward
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.get_by_role("button", name="autograd graph").click()
        graph = page.locator(".tv-classroom .tvg-root")
        graph.wait_for()
        expect(page.locator(".tv-classroom .tv-demo-code")).to_contain_text("loss = y.sum()")
        page.locator(".tv-classroom-bar select").select_option(
            "in-place write to a saved tensor (backward would fail)")
        page.locator(".tv-classroom .tvg-stamp.tvg-stale").wait_for()
        expect(page.locator(".tv-classroom .tvg-stamp.tvg-stale")).to_have_text(
            "v0 at save · v1 now")
        expect(page.locator(".tv-classroom .tvg-error")).to_contain_text(
            "modified by an inplace operation")
        page.locator(".tv-classroom-bar select").select_option(
            "retain_grad and a hook fire during backward")
        page.locator(".tv-classroom .tvg-tap").first.wait_for()
        page.locator(".tv-classroom .tvg-step").click()
        expect(page.locator(".tv-classroom .tvg-counter")).to_contain_text("step 0 / ")
        page.locator(".tv-classroom .tvg-play").click()
        page.locator(".tv-classroom .tvg-tap.tvg-fired").first.wait_for()
        expect(page.locator(".tv-classroom .tvg-tap.tvg-fired").first).to_contain_text(
            "tensor hook on h: peek(")
        page.screenshot(path=str(artifacts / "classroom-voila-graph.png"))
        page.get_by_role("button", name="views").click()
        page.locator(".tv-classroom .tv-root").wait_for()
        assert page.locator(".tv-classroom .tvg-root").count() == 0
        assert errors == []
    except Exception:
        page.screenshot(path=str(artifacts / "classroom-voila-failed.png"), full_page=True)
        raise
    finally:
        page.close()
