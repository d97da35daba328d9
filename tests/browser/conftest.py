"""Fixtures for the real-browser tests: one JupyterLab server and one Chromium per session.

They skip (with the reason) where Chromium or JupyterLab is missing; CI installs both.
Screenshots go to ``test-artifacts/browser/``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from browser_harness import REPO, Lab, Notebook, chromium, missing_requirements

ARTIFACTS = REPO / "test-artifacts" / "browser"


def pytest_collection_modifyitems(items):
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    reason = missing_requirements()
    if reason:
        pytest.skip(reason)
    server = Lab(tmp_path_factory.mktemp("notebooks"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser(lab):
    with chromium() as b:
        yield b


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def open_notebook(lab, browser):
    """``open_notebook(name, cells)`` -> a Notebook; closed (kernel shut down) after the test."""
    opened: list[Notebook] = []

    def _open(name: str, cells: list[str]) -> Notebook:
        lab.write_notebook(name, cells)
        nb = Notebook(browser, lab, name)
        opened.append(nb)
        return nb

    yield _open
    for nb in opened:
        nb.close()
