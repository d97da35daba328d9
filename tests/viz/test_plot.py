"""tensorviz.plot: the static matplotlib picture."""
from __future__ import annotations

import numpy as np
import pytest

import tensorviz

mpl = pytest.importorskip("matplotlib", reason="plot() needs matplotlib")
mpl.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _texts(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts] + \
        [ax.get_title(loc="left") for ax in fig.axes]


def test_plot_draws_strip_grids_and_mapping():
    a = tensorviz.arange(12).reshape(3, 4)
    fig = tensorviz.plot(a, a.t(), a[1:, ::2])
    texts = _texts(fig)
    assert any(t.startswith("storage #1: int64, 12 elements") for t in texts)
    assert any("a.t()" in t and "stride (1, 4)" in t for t in texts)
    assert "@9" in texts and "▲" in texts
    assert len(fig.axes) == 4  # one strip, three grids
    assert len(fig.artists) == 12 + 12 + 4  # a line from every cell to its slot
    fig.savefig(__import__("io").BytesIO(), format="png")


@pytest.mark.parametrize("make", [
    lambda: tensorviz.tensor(3.5),
    lambda: tensorviz.zeros(0, 3),
    lambda: tensorviz.arange(120).reshape(2, 3, 4, 5),
    lambda: tensorviz.arange(4).expand(3, 4),
    lambda: np.arange(10)[::-2],
    lambda: tensorviz.arange(10**6),
])
def test_plot_handles_every_shape(make):
    t = make()
    fig = tensorviz.plot(t)
    assert fig.axes
    fig.savefig(__import__("io").BytesIO(), format="png")


def test_plot_needs_a_tensor():
    with pytest.raises(TypeError, match="at least one tensor"):
        tensorviz.plot()


def test_four_d_is_a_grid_of_grids_and_strips_share_a_slot_width():
    x = tensorviz.arange(120).reshape(2, 3, 4, 5)
    fig = tensorviz.plot(x.permute(0, 2, 3, 1), tensorviz.arange(3).expand(2, 3))
    grid_ax = fig.axes[2]
    where = {t.get_text(): t.get_position() for t in grid_ax.texts if t.get_text().startswith("[")}
    assert len(where) == 8  # N=2 block rows of C=4 blocks
    (x00, y00), (x10, y10), (x01, y01) = (where["[0, 0, ...]"], where["[1, 0, ...]"],
                                          where["[0, 1, ...]"])
    assert x10 == x00 and y10 < y00  # n+1: the next block row, below
    assert y01 == y00 and x01 > x00  # c+1: the next block, to the right
    strip_a, strip_b = fig.axes[0], fig.axes[1]
    assert strip_a.get_xlim() == strip_b.get_xlim()


def test_a_widget_exports_its_current_picture(tmp_path):
    from tensorviz.viz import show

    a = tensorviz.arange(6).reshape(2, 3)
    w = show(a, labels=["a"])
    a[0, 0] = 55
    w.scroll(0, starts=[1, 0])  # the window the learner paged to is what is exported
    svg = w.export(str(tmp_path / "slide.svg")).decode()
    assert svg.startswith("<?xml") and (tmp_path / "slide.svg").read_text() == svg
    assert "<!-- 55 -->" in svg
    assert w.export(format="png").startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="svg or png"):
        w.export(format="gif")
