"""Where the widgets' ES modules and CSS live: the wheel's ``tensorviz/_static`` or ``widgets/``."""
from __future__ import annotations

from pathlib import Path

__all__ = ["asset_dir", "asset"]


def asset_dir() -> Path:
    """``tensorviz/_static`` in an installed wheel, else ``widgets/`` of a source checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_static", package.parent / "widgets"):
        if (candidate / "tensorviz.js").is_file():
            return candidate
    raise FileNotFoundError(
        "tensorviz's widget assets are missing: expected tensorviz/_static/tensorviz.js (wheel) "
        "or widgets/tensorviz.js (source checkout)")


def asset(name: str) -> Path:
    return asset_dir() / name
