"""Public API, labels, messages from the front end, static fallbacks and escaping."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("anywidget", reason="the widget tests need anywidget (pip install "
                    "'tensorviz[widgets]')")

import tensorviz
from tensorviz import viz
from tensorviz.viz import Playground, TensorView, show
from tensorviz.viz._assets import asset_dir

from vizhelpers import from_front_end, front_end_sets

EVIL = '<img src=x onerror="alert(1)">&<script>alert(2)</script>'


def test_public_api_and_hooks():
    a = tensorviz.arange(6)
    assert isinstance(tensorviz.show(a), TensorView)
    assert isinstance(a.show(), TensorView)
    assert isinstance(tensorviz.playground(a), Playground)
    assert tensorviz.viz.show is viz.show
    assert set(viz.__all__) >= {"show", "playground", "plot", "TensorView", "Playground"}
    with pytest.raises(TypeError, match="at least one tensor"):
        show()
    with pytest.raises(TypeError, match="draws tensorviz tensors"):
        show([1, 2, 3])
    with pytest.raises(ValueError, match="2 labels for 1 tensors"):
        show(a, labels=["x", "y"])


def test_labels_come_from_the_call():
    a = tensorviz.arange(12).reshape(3, 4)
    w = tensorviz.show(a,
                       a.t(),
                       a[1:, ::2])
    assert [t["label"] for t in w.tensors] == ["a", "a.t()", "a[1:, ::2]"]
    assert a.t().show().tensors[0]["label"] == "a.t()"
    args = [a, a]
    # starred arguments: no expression per tensor; inside a function locals are not searched
    assert [t["label"] for t in show(*args).tensors] == ["tensor 0", "tensor 1"]
    assert show(a, labels=["mine"]).tensors[0]["label"] == "mine"
    long = show(a[0:1, 0:1][0:1, 0:1][0:1, 0:1][0:1, 0:1][0:1, 0:1][0:1, 0:1]).tensors[0]
    assert len(long["label"]) <= 60 and long["label"].endswith("…")


def test_importing_stays_light():
    code = ("import sys, tensorviz, tensorviz.viz\n"
            "heavy = [m for m in ('anywidget', 'ipywidgets', 'matplotlib', 'torch') "
            "if m in sys.modules]\n"
            "assert not heavy, heavy")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


def test_front_end_messages_are_validated():
    a = tensorviz.arange(1000)
    w = show(a)
    from_front_end(w, {"type": "page_strip", "strip": 0, "start": 500})
    assert w.strips[0]["start"] == 500
    from_front_end(w, {"type": "page_tensor", "tensor": 0, "starts": [100]})
    assert w.tensors[0]["starts"] == [100]
    rev = w.revision
    for bad in [None, "x", [], {"type": "page_strip", "strip": "0", "start": 1},
                {"type": "page_strip", "strip": 0, "start": float("nan")},
                {"type": "page_strip", "strip": 0, "start": 10**30},
                {"type": "page_strip", "strip": 7, "start": 1},
                {"type": "page_tensor", "tensor": 0, "starts": "1"},
                {"type": "page_tensor", "tensor": 0, "starts": [True]},
                {"type": "page_tensor", "tensor": 9, "starts": [1]},
                {"type": "page_tensor", "tensor": 0, "starts": list(range(100))},
                {"type": "nonsense"}, {"type": "apply", "op": "t"}]:
        from_front_end(w, bad)
    assert w.revision == rev and w.strips[0]["start"] == 500


def test_mimebundle_has_a_static_html_snapshot():
    a = tensorviz.arange(6).reshape(2, 3)
    w = show(a, a.t())
    data, _meta = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"].startswith("TensorView(a: shape (2, 3), stride (3, 1)")
    html = data["text/html"]
    assert "storage #1" in html and "a.t()" in html and "@5" in html
    assert "<script" not in html
    flags = show(tensorviz.tensor([True, False]))
    assert "(1 byte)" in flags.to_html() and "bool (1 bytes)" not in flags.to_html()
    big = show(tensorviz.arange(10**4).view(100, 100)).to_html()
    assert "showing slots 0–31" in big and "a window of the values" in big
    six = show(tensorviz.arange(2 * 3 * 2 * 2 * 2 * 3).reshape(2, 3, 2, 2, 2, 3)).to_html()
    assert "[0, 0, 0, 0, :, :]" in six and "a window of the values" in six


def test_every_rendered_string_is_escaped():
    a = tensorviz.arange(4)
    w = show(a, labels=[EVIL])
    assert w.tensors[0]["label"] == EVIL  # data stays data: the front end uses textContent
    html = w.to_html()
    assert "<img" not in html and "<script" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    p = Playground(a, label=EVIL)
    p.apply("index", "<b>")
    assert "<b>" in p.error  # shown as text by the front end
    assert "<img" not in p.to_html()
    assert "<" not in repr(w).replace(EVIL, "")


def test_js_never_parses_strings_as_html():
    js = (asset_dir() / "tensorviz.js").read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "new Function"):
        assert sink not in js


def test_assets_resolve_for_a_checkout_and_for_a_wheel(tmp_path, monkeypatch):
    here = asset_dir()
    assert (here / "tensorviz.js").is_file() and (here / "tensorviz.css").is_file()
    # an installed wheel: tensorviz/_static next to tensorviz/viz
    pkg = tmp_path / "site" / "tensorviz"
    (pkg / "viz").mkdir(parents=True)
    (pkg / "_static").mkdir()
    (pkg / "_static" / "tensorviz.js").write_text("export default {}")
    import tensorviz.viz._assets as assets

    monkeypatch.setattr(assets, "__file__", str(pkg / "viz" / "_assets.py"))
    assert assets.asset_dir() == pkg / "_static"
    (pkg / "_static" / "tensorviz.js").unlink()
    with pytest.raises(FileNotFoundError, match="widget assets are missing"):
        assets.asset_dir()


def test_byte_strides_toggle_is_synced():
    w = show(np.arange(6, dtype=np.int16).reshape(2, 3))
    assert w.byte_strides is False
    front_end_sets(w, byte_strides=True)  # the checkbox in the page
    assert w.byte_strides is True and w.get_state()["byte_strides"] is True
    assert w.tensors[0]["byte_strides"] == [6, 2] and w.tensors[0]["itemsize"] == 2
