"""JupyterLab on 127.0.0.1 plus headless Debian Chromium, driven by Playwright.

Used by the real-browser tests and by ``make_screenshot.py`` (the README screenshot).
Everything lives in temporary directories (Jupyter config/data/runtime, IPython, Chromium's
HOME); nothing is downloaded.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
REPO = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def missing_requirements() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if not os.path.exists(CHROMIUM):
        return f"Chromium not found at {CHROMIUM} (CI installs Debian's chromium package)"
    for module in ("jupyterlab", "playwright", "anywidget", "ipykernel", "psutil"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install 'tensorviz[test]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def notebook_json(cells: list[str]) -> str:
    """A minimal nbformat-4 notebook (plain JSON: importing nbformat is slow)."""
    return json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"cell{k}",
                   "metadata": {}, "outputs": [], "source": src} for k, src in enumerate(cells)],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                    "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5})


class Lab:
    """A JupyterLab server serving ``root`` on a free port of 127.0.0.1."""

    def __init__(self, root: Path):
        self.root = root
        self.home = Path(tempfile.mkdtemp(prefix="tv-lab-home-"))
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ)
        for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                         ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
            (self.home / sub).mkdir()
            env[var] = str(self.home / sub)
        env["JUPYTERLAB_SETTINGS_DIR"] = str(self.home / "settings")
        env["JUPYTERLAB_WORKSPACES_DIR"] = str(self.home / "workspaces")
        # the settings defaults tensorviz's wheel installs (widget state saved with notebooks)
        shutil.copytree(REPO / "jupyter-config" / "lab" / "settings", self.home / "app-settings")
        settings = self.home / "settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False}))
        # the kernel must import this checkout's tensorviz
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        env.pop("ANYWIDGET_HMR", None)
        self.log = open(self.home / "server.log", "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
             "--ip=127.0.0.1", f"--port={self.port}", "--ServerApp.port_retries=0",
             "--IdentityProvider.token=", "--ServerApp.password=",
             f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
             # Notebook 7's pages too: tests wait on its kernel as on JupyterLab's
             "--JupyterNotebookApp.expose_app_in_browser=True",
             f"--LabApp.app_settings_dir={self.home / 'app-settings'}",
             f"--JupyterNotebookApp.app_settings_dir={self.home / 'app-settings'}",
             "--LabApp.extension_manager=readonly", "--LabApp.news_url=None",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited early:\n{self.server_log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/status", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"JupyterLab did not answer in {timeout}s:\n{self.server_log()}")

    def server_log(self) -> str:
        self.log.flush()
        return (self.home / "server.log").read_text(errors="replace")[-4000:]

    def write_notebook(self, name: str, cells: list[str]) -> str:
        (self.root / name).write_text(notebook_json(cells))
        return name

    def stop(self) -> None:
        """SIGTERM the server (it shuts its kernels down), then make sure none survive."""
        import psutil

        try:
            children = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            children = []
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for child in children:  # only processes this server started
            try:
                child.wait(timeout=5)
            except psutil.TimeoutExpired:
                child.kill()
            except psutil.NoSuchProcess:
                pass
        self.log.close()
        shutil.rmtree(self.home, ignore_errors=True)


@contextmanager
def chromium():
    """A headless Debian Chromium with its own HOME; yields a Playwright Browser."""
    from playwright.sync_api import sync_playwright

    home = tempfile.mkdtemp(prefix="tv-chromium-home-")
    env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": f"{home}/.config",
           "XDG_CACHE_HOME": f"{home}/.cache"}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=CHROMIUM_ARGS, env=env)
        try:
            yield browser
        finally:
            browser.close()
            shutil.rmtree(home, ignore_errors=True)


class Notebook:
    """One notebook opened in a fresh page; collects page errors."""

    def __init__(self, browser, lab: Lab, name: str, viewport=(1400, 1000), scale: float = 1,
                 ui: str = "lab"):
        """``ui``: ``"lab"`` (JupyterLab) or ``"notebook"`` (Notebook 7's one-notebook page);
        either way the page is ready only once the kernel is connected and idle."""
        self.page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]},
                                     device_scale_factor=scale)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.name = name
        path = f"lab/tree/{name}?reset" if ui == "lab" else f"notebooks/{name}"
        self.page.goto(f"{lab.url}/{path}", wait_until="domcontentloaded")
        self.page.wait_for_function("window.jupyterapp && window.jupyterapp.shell && "
                                    "window.jupyterapp.shell.currentWidget && "
                                    "window.jupyterapp.shell.currentWidget.sessionContext",
                                    timeout=60_000)
        self.wait_idle(timeout=90_000)

    @property
    def panel(self):
        return self.page.locator(".jp-NotebookPanel:visible")

    def wait_idle(self, timeout: int = 60_000) -> None:
        """Until the kernel exists, is connected and idle (not just the toolbar's guess)."""
        self.page.wait_for_function(
            "(() => { const w = window.jupyterapp.shell.currentWidget;"
            " const k = w && w.sessionContext && w.sessionContext.session &&"
            " w.sessionContext.session.kernel;"
            " return !!k && k.status === 'idle' && k.connectionStatus === 'connected'; })()",
            timeout=timeout)

    def command(self, name: str, args: dict | None = None) -> None:
        self.page.evaluate("([n, a]) => window.jupyterapp.commands.execute(n, a)",
                           [name, args or {}])

    def run_cell(self, index: int, timeout: int = 60_000) -> None:
        """Run cell ``index`` and wait until its execution count appears."""
        cell = self.panel.locator(".jp-Cell").nth(index)
        cell.locator(".cm-content").click()
        self.page.keyboard.press("Control+Enter")
        self.page.wait_for_function(
            "(i) => { const nb = window.jupyterapp.shell.currentWidget.content;"
            " const c = nb.widgets[i]; return c && c.model.executionCount !== null &&"
            " c.model.executionCount !== undefined && !c.node.querySelector("
            "'.jp-InputArea-prompt').textContent.includes('*'); }", arg=index, timeout=timeout)
        self.wait_idle(timeout)

    def output(self, index: int):
        return self.panel.locator(".jp-Cell").nth(index).locator(".jp-OutputArea")

    def close(self) -> None:
        try:
            self.page.evaluate("window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        except Exception:  # the page may already be gone
            pass
        self.page.close()
