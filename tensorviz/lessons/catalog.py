"""The lessons' exercises, by key (``"<lesson>/<name>"``), in one place so they are tested.

Each entry's ``setup`` and ``solution`` are code: run together with ``torch`` bound to
tensorviz (or to PyTorch), they leave the right answer in ``answer``.  ``tests/lessons`` runs
every solution and checks it against the stated answer, on tensorviz and, where it is
installed, on PyTorch, so a lesson can never teach a wrong stride.
"""
from __future__ import annotations

from typing import Any, Callable

from ._answers import DType
from ._exercise import Exercise

__all__ = ["CATALOG", "exercise", "exercises", "handle"]

CATALOG: dict[str, dict[str, Any]] = {}


def _add(key: str, prompt: str, **spec: Any) -> None:
    """Register one exercise.  ``revealed_by``: text in its lesson (code or prose) that gives
    a prediction's answer away, so the lesson must ask the question first (tested)."""
    if key in CATALOG:
        raise ValueError(f"duplicate exercise key {key!r}")
    CATALOG[key] = dict(prompt=prompt, key=key, **spec)


def exercise(key: str) -> Exercise:
    """A fresh :class:`Exercise` from the catalog, e.g. ``exercise("01/offset")``."""
    try:
        spec = CATALOG[key]
    except KeyError:
        near = ", ".join(k for k in CATALOG if k.split("/")[0] == key.split("/")[0]) or \
            ", ".join(CATALOG)
        raise KeyError(f"no exercise {key!r}; this lesson has: {near}") from None
    spec = {k: v for k, v in spec.items() if k not in ("requires", "revealed_by")}
    return Exercise(**spec, name=handle(key))


def handle(key: str) -> str:
    """The variable a lesson keeps exercise ``key`` in: ``"01/storage-index"`` ->
    ``ex_storage_index``.  One name per exercise, so after Run All each ``.check`` still
    checks its own exercise (one shared ``ex`` would hold only the last one)."""
    name = key.split("/", 1)[-1].lower()
    return "ex_" + "".join(c if c.isalnum() else "_" for c in name)


def exercises(lesson: str) -> list[Exercise]:
    """All exercises of one lesson (``"02"``), in order."""
    return [exercise(k) for k in CATALOG if k.split("/")[0] == lesson]


def _checks(*checks: Callable[[Any], "str | None"]) -> Callable[[Any], "str | None"]:
    """Run checks in order; the first problem found is the feedback."""
    def run(value: Any) -> "str | None":
        for check in checks:
            problem = check(value)
            if problem:
                return problem
        return None
    return run


def _is_tensor(value: Any) -> "str | None":
    if not (hasattr(value, "stride") and hasattr(value, "storage_offset")):
        return f"expected a tensor, got {type(value).__name__}."
    return None


# ---------------------------------------------------------------------------- 00 welcome
POINTS = "points = torch.tensor([[5, 7, 4], [1, 3, 2], [7, 3, 8]])"

_add("00/read-index",
     "`points` keeps its 9 numbers in one flat storage, row after row. "
     "Which **storage index** does `points[2, 1]` read?",
     setup=POINTS, answer=7,
     mistakes={3: "3 is the value stored there; the question asks where it lives.",
               5: "5 is where `points[1, 2]` lives. Row 2 starts at 2 × 3 = 6."},
     hint="Row i starts at i × 3 (that is `points.stride()[0]`); column j adds j × 1.",
     explanation="Index = offset + 2 × stride[0] + 1 × stride[1] = 0 + 2·3 + 1·1 = 7.",
     solution="answer = points.storage_offset() + 2 * points.stride()[0] "
              "+ 1 * points.stride()[1]")

# ---------------------------------------------------------------------------- 01 storage
_add("01/offset",
     "What is `points[1:, 1].storage_offset()`?",
     setup=POINTS, answer=4,
     mistakes={3: "3 is where row 1 starts; column 1 is one more step.",
               1: "The slice `1:` skips row 0 too: that is 3 elements."},
     hint="The view's first element is `points[1, 1]`. Where does it live in the storage?",
     explanation="The first element `points[1, 1]` lives at 1 × 3 + 1 × 1 = 4; "
                 "the view starts there and steps by 3 (one row) per element.",
     solution="answer = points[1:, 1].storage_offset()")

_add("01/stride-3d",
     "What is `torch.zeros(2, 3, 4).stride()`?",
     answer=(12, 4, 1),
     mistakes={(1, 2, 6): "That is column-major (Fortran) order; PyTorch stores the last "
                          "dim contiguously.",
               (1, 4, 12): "Those are the right strides in reverse order: the last dim has "
                           "stride 1, the first the biggest.",
               (4, 3, 2): "Strides are not sizes: each is the product of the sizes after it."},
     hint="The last dim has stride 1. Each dim's stride is the product of the sizes after it.",
     explanation="Stepping the last index moves 1 element, the middle one a row of 4, "
                 "the first a whole 3 × 4 block: (12, 4, 1).",
     solution="answer = torch.zeros(2, 3, 4).stride()")

_add("01/zero-dim",
     "`points[0, 0]` is still a tensor. What is its `shape`?",
     setup=POINTS, answer=(),
     mistakes={(1,): "Indexing with an integer removes that dim, and both indices are "
                     "integers.",
               (1, 1): "Indexing with an integer removes that dim, and both indices are "
                       "integers."},
     placeholder="e.g. (2, 3)",
     hint="Each integer index removes one dimension.",
     explanation="A 0-dim tensor: `torch.Size([])`, one element, `dim() == 0`. "
                 "`.item()` turns it into a Python number.",
     solution="answer = points[0, 0].shape")

_add("01/Tensor-dtype",
     "What dtype does `torch.Tensor([1, 2, 3])` (capital T) have?",
     answer=DType("float32"),
     mistakes={DType("int64"): "That is what `torch.tensor([1, 2, 3])` infers. The class "
                               "`torch.Tensor(...)` always uses the default float dtype."},
     hint="`torch.Tensor` is the class; calling it does not look at the data's type.",
     explanation="`torch.Tensor(data)` always makes float32 (the default dtype); "
                 "`torch.tensor(data)` infers the dtype from the data. Prefer `torch.tensor`.",
     solution="answer = torch.Tensor([1, 2, 3]).dtype",
     revealed_by=["torch.Tensor([1, 2, 3])", "always makes the default float"])


def _storage_index_checker(fn: Any) -> "str | None":
    import tensorviz

    if not callable(fn):
        return "pass your function itself: `ex_storage_index.check(storage_index)`."
    x = tensorviz.arange(60).reshape(3, 4, 5)  # each value is its own storage index
    cases = [(x, (2, 1, 3)), (x[1], (2, 4)), (x[1:, 2], (1, 3)), (x.transpose(0, 2), (4, 0, 2)),
             (x[:, ::2, 1:], (2, 1, 0)), (x[2, 3, 4], ())]
    for t, idx in cases:
        want = t[idx].item()
        got = fn(t, idx)
        if got != want:
            return (f"for a tensor with offset {t.storage_offset()} and stride "
                    f"{tuple(t.stride())}, index {idx} should give {want}, not {got!r}.")
    return None


_add("01/storage-index",
     "Write `storage_index(t, index)`: where in `t`'s storage does `t[index]` live? "
     "`index` is a tuple of ints (one per dim). Use only `t.storage_offset()` and "
     "`t.stride()`, then check it with `ex_storage_index.check(storage_index)`: it is tried "
     "on views with offsets, transposes and steps.",
     checker=_storage_index_checker,
     hint="Start at the offset; each index i along dim d adds i × stride[d].",
     explanation="`storage_offset() + Σ index[d] × stride()[d]` is all indexing is: "
                 "every view op only changes the offset and the strides.",
     solution="def storage_index(t, index):\n"
              "    return t.storage_offset() + sum(i * s for i, s in zip(index, t.stride()))\n"
              "answer = storage_index")

# ---------------------------------------------------------------------------- 02 views
_add("02/permute-stride",
     "What is `torch.zeros(2, 3, 4).permute(2, 0, 1).stride()`?",
     answer=(1, 12, 4),
     mistakes={(12, 4, 1): "That is the stride before permuting: permute reorders the "
                           "strides together with the sizes.",
               (4, 1, 12): "The strides moved the other way round: new dim i is old dim "
                           "`dims[i]`.",
               (6, 3, 1): "That is the stride of a contiguous copy of shape (4, 2, 3). "
                          "Permute does not copy: the data stays where it was, so the strides "
                          "are the old ones, reordered."},
     hint="The original stride is (12, 4, 1). New dim i takes old dim `dims[i]`'s stride.",
     explanation="New dims are old dims (2, 0, 1), so the strides are (1, 12, 4). No data "
                 "moves; only the metadata is reordered, and the result is not contiguous.",
     solution="answer = torch.zeros(2, 3, 4).permute(2, 0, 1).stride()")

_COPY_CHOICES = ["x.contiguous()", "x.t().contiguous()", "x.t().t().contiguous()",
                 "x.view(2, 6).contiguous()"]
_add("02/which-copies",
     "Only one of these allocates a new storage. Which?",
     setup="x = torch.arange(12).reshape(3, 4)",
     choices=_COPY_CHOICES, answer="x.t().contiguous()",
     mistakes={"x.contiguous()": "`x` is contiguous already, so `contiguous()` returns `x` "
                                 "itself.",
               "x.t().t().contiguous()": "Transposing twice swaps the strides back to "
                                         "(4, 1): contiguous, so nothing is copied.",
               "x.view(2, 6).contiguous()": "`view` on a contiguous tensor gives contiguous "
                                            "strides (6, 1): nothing to copy."},
     hint="`contiguous()` copies only when the tensor is not contiguous already. "
          "Which of the tensors it is called on has non-row-major strides?",
     explanation="`x.t()` has stride (1, 4): not contiguous, so `contiguous()` copies. "
                 "`x.t().t()` is back to stride (4, 1) and `x.view(2, 6)` is contiguous, "
                 "so those return the same storage.",
     solution="candidates = {\n"
              "    'x.contiguous()': x.contiguous(),\n"
              "    'x.t().contiguous()': x.t().contiguous(),\n"
              "    'x.t().t().contiguous()': x.t().t().contiguous(),\n"
              "    'x.view(2, 6).contiguous()': x.view(2, 6).contiguous(),\n"
              "}\n"
              "copies = [code for code, t in candidates.items()\n"
              "          if t.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()]\n"
              "answer, = copies")

_VIEW_CHOICES = ["x.view(4, 3)", "x.t().view(12)", "x.t().reshape(12)", "x[1:].view(-1)"]
_add("02/view-error",
     "Which one raises an error?",
     setup="x = torch.arange(12).reshape(3, 4)",
     choices=_VIEW_CHOICES, answer="x.t().view(12)",
     mistakes={"x.view(4, 3)": "`x` is contiguous: any shape with 12 elements is a view.",
               "x.t().reshape(12)": "`reshape` copies when a view is impossible, so it "
                                    "never raises for a valid shape.",
               "x[1:].view(-1)": "`x[1:]` is rows 1–2, 8 elements in a row in memory "
                                 "(offset 4): contiguous, so it can be viewed."},
     hint="`view` never copies, so it needs strides that can walk the new shape. "
          "`reshape` copies when it has to.",
     explanation="Reading `x.t()` in row-major order jumps around the storage (0, 4, 8, 1, "
                 "…), which no single stride can express, so `view` raises a RuntimeError. "
                 "`reshape` makes a copy instead; `x[1:]` is contiguous, so it can be viewed.",
     solution="answer = None\n"
              "for code in ['x.view(4, 3)', 'x.t().view(12)', 'x.t().reshape(12)', "
              "'x[1:].view(-1)']:\n"
              "    try:\n"
              "        eval(code)\n"
              "    except RuntimeError:\n"
              "        answer = code")


def _expand_checker(rows: Any) -> "str | None":
    problem = _is_tensor(rows)
    if problem:
        return problem
    if tuple(rows.shape) != (4, 3):
        return f"its shape is {tuple(rows.shape)}; it should be (4, 3)."
    if rows.tolist() != [[1, 2, 3]] * 4:
        return f"its values are {rows.tolist()}; every row should be [1, 2, 3]."
    if rows.stride()[0] != 0:
        return (f"it has stride {tuple(rows.stride())}, so each row has its own memory: a "
                "copy. A row that is not copied is reused with stride 0.")
    return None


_add("02/expand",
     "Make `rows`, a (4, 3) tensor whose every row is `r`, **without copying** `r`'s "
     "data. Check it with `ex_expand.check(rows)`.",
     setup="r = torch.tensor([1, 2, 3])",
     checker=_expand_checker,
     hint="Which view op repeats a dim by giving it stride 0? First make `r` 2-D.",
     explanation="`r.expand(4, 3)` (or `r.unsqueeze(0).expand(4, -1)`) has stride (0, 1): "
                 "all four rows read the same 3 numbers. Broadcasting does the same thing "
                 "behind `a + b`.",
     solution="rows = r.expand(4, 3)\nanswer = rows")

_add("02/step-slice",
     "What is `x[1:, ::2].stride()`?",
     setup="x = torch.arange(12).reshape(3, 4)",
     answer=(4, 2),
     mistakes={(4, 1): "The step `::2` skips every other column: one step now moves 2 "
                       "elements.",
               (8, 2): "The slice `1:` only moves the start (the offset), not the stride.",
               (2, 4): "Stride is per dim, in order: rows first, then columns."},
     hint="A slice `start:stop:step` multiplies that dim's stride by `step` and moves the "
          "offset by `start × stride`.",
     explanation="Rows still step by 4; columns step by 1 × 2 = 2. The offset is 1 × 4 = 4. "
                 "Still a view: no data is copied.",
     solution="answer = x[1:, ::2].stride()")

_add("02/fancy-copy",
     "`x = torch.arange(12).reshape(3, 4)`. Rows 0 and 2 are evenly spaced in storage. Does "
     "`x[[0, 2]]` share `x`'s memory, i.e. is "
     "`x[[0, 2]].untyped_storage().data_ptr() == x.untyped_storage().data_ptr()`?",
     setup="x = torch.arange(12).reshape(3, 4)",
     answer=False,
     mistakes={True: "A stride of 8 could describe these two rows, but indexing with a list "
                     "(advanced indexing) always gathers into a new storage: even `x[[0, 1]]`."},
     hint="Which kind of indexing is it: ints and slices (a view), or a list, tensor or bool "
          "mask of indices?",
     explanation="Advanced indexing (a list or tensor of indices, or a bool mask) picks "
                 "elements that in general no offset and strides can describe, so it always "
                 "copies them into a new storage.",
     solution="answer = x[[0, 2]].untyped_storage().data_ptr() == "
              "x.untyped_storage().data_ptr()",
     revealed_by=["picked = x[[0, 2]]", "always gathers"])

# ---------------------------------------------------------------------------- 03 dtypes
_add("03/int-division",
     "What dtype does `torch.tensor([1, 2]) / 2` have?",
     answer=DType("float32"),
     mistakes={DType("int64"): "`/` is true division and always gives floats; "
                               "`//` is floor division and keeps integers.",
               DType("float64"): "PyTorch uses its default float dtype, float32 (NumPy "
                                 "would give float64)."},
     hint="`/` is true division. Which floating dtype is PyTorch's default?",
     explanation="True division of integers promotes to the default float dtype: float32.",
     solution="answer = (torch.tensor([1, 2]) / 2).dtype")

_add("03/uint8-wrap",
     "Pixels are `uint8` (0–255). What is `(pixels + 100)[0].item()`?",
     setup="pixels = torch.tensor([200], dtype=torch.uint8)",
     answer=44,
     mistakes={300: "uint8 cannot hold 300, and a Python int does not promote a uint8 "
                    "tensor (same category), so the result is still uint8.",
               255: "PyTorch does not clamp (saturate) integer overflow; it wraps around."},
     hint="The result stays uint8 (the scalar 100 is also an integer). "
          "What is 300 modulo 256?",
     explanation="300 mod 256 = 44: integer arithmetic wraps around. Convert first "
                 "(`pixels.float() + 100`, or `.to(torch.int16)`) and clamp to 0–255.",
     solution="answer = (pixels + 100)[0].item()")

_add("03/half-rounding",
     "What is `torch.tensor(2049.0, dtype=torch.float16).item()`?",
     answer=2048.0,
     mistakes={2049: "float16 has 11 significant bits: between 2048 and 4096 only even "
                     "integers exist.",
               2050: "Close! 2049 lies exactly halfway; ties round to the even significand."},
     hint="float16 has 10 stored mantissa bits (11 significant). What is the spacing of "
          "float16 numbers between 2048 and 4096?",
     explanation="Between 2048 and 4096 float16 numbers are 2 apart; 2049 is a tie and "
                 "rounds to even, 2048.",
     solution="answer = torch.tensor(2049.0, dtype=torch.float16).item()")

_add("03/chw-stride",
     "The image `img` is 600 × 512 pixels, height × width × channels (HWC), contiguous, "
     "so its stride is (1536, 3, 1). What is the stride of the CHW view "
     "`img.permute(2, 0, 1)`?",
     setup="img = torch.zeros(600, 512, 3, dtype=torch.uint8)",
     answer=(1, 1536, 3),
     mistakes={(307200, 512, 1): "That is the stride of `img.permute(2, 0, 1).contiguous()`: "
                                 "a copy. The view keeps the pixels where they are.",
               (3, 1536, 1): "Match the dims: new dim 0 is old dim 2 (channels), "
                             "stride 1."},
     hint="permute(2, 0, 1) makes the new dims (old 2, old 0, old 1).",
     explanation="The view only reorders the strides: (1, 1536, 3). Channels of one pixel "
                 "are neighbours in memory; a contiguous CHW copy would have stride "
                 "(307200, 512, 1).",
     solution="answer = img.permute(2, 0, 1).stride()")

_add("03/channels-last-stride",
     "A batch of 8 RGB images of 32 × 32 pixels has the NCHW shape (8, 3, 32, 32) and is "
     "stored **channels last** (NHWC in memory). What is its stride?",
     answer=(3072, 1, 96, 3),
     mistakes={(3072, 1024, 32, 1): "That is the contiguous NCHW stride, one plane per "
                                    "channel. Channels last keeps a pixel's 3 channels "
                                    "side by side.",
               (3072, 96, 3, 1): "That is the stride of the NHWC tensor of shape "
                                 "(8, 32, 32, 3). List the strides in the order of the "
                                 "NCHW dims: N, C, H, W."},
     hint="In memory the order is N, H, W, C: C steps 1, W steps over 3 channels, H over a "
          "row of 32 pixels. Then list the strides for the dims N, C, H, W.",
     explanation="Memory order NHWC gives N 3072, H 96, W 3, C 1; for the dims (N, C, H, W) "
                 "that is (3072, 1, 96, 3). In PyTorch "
                 "`x.contiguous(memory_format=torch.channels_last)` makes this layout.",
     solution="answer = torch.zeros(8, 32, 32, 3).permute(0, 3, 1, 2).stride()")

# ---------------------------------------------------------------------------- 04 numpy
_add("04/from-numpy-dtype",
     "What dtype does `torch.from_numpy(np.linspace(0, 1, 5))` have?",
     answer=DType("float64"),
     mistakes={DType("float32"): "`from_numpy` shares NumPy's memory, so it cannot "
                                 "convert: it keeps NumPy's default float, float64."},
     hint="What is NumPy's default float dtype, and can a zero-copy view change it?",
     explanation="NumPy defaults to float64 and `from_numpy` keeps the dtype (it shares the "
                 "memory). Call `.float()` (a copy) before mixing with float32 tensors.",
     solution="import numpy as np\n"
              "answer = torch.from_numpy(np.linspace(0, 1, 5)).dtype",
     revealed_by=["arrives as float64", "torch.from_numpy(rng"])

_add("04/numpy-strides",
     "`n = np.zeros((2, 3))` has NumPy strides `n.strides == (24, 8)`. "
     "What is `torch.from_numpy(n.T).stride()`?",
     setup="import numpy as np\nn = np.zeros((2, 3))",
     answer=(1, 3),
     mistakes={(8, 24): "Those are NumPy's strides of `n.T`, in bytes; PyTorch counts "
                        "elements (8 bytes each here).",
               (3, 1): "`n.T` is transposed: stepping its first dim moves one element.",
               (24, 8): "Those are `n`'s strides in bytes; the question is about `n.T`, "
                        "in elements."},
     hint="NumPy counts bytes, PyTorch counts elements: divide by `n.itemsize` (8).",
     explanation="`n.T.strides` is (8, 24) bytes = (1, 3) elements. from_numpy keeps the "
                 "layout: no copy, a non-contiguous tensor.",
     solution="answer = torch.from_numpy(n.T).stride()")

_add("04/who-changes",
     "After these lines, what are `t[0].item()` and `c[0].item()`? Answer as a pair, "
     "e.g. `(0.0, 0.0)`.",
     setup="t = torch.zeros(3)\na = t.numpy()\na += 1\nc = torch.tensor(a)\na += 1",
     answer=(2.0, 1.0),
     mistakes={(2.0, 2.0): "`torch.tensor(a)` copies the data: `c` does not see later "
                           "writes to `a`.",
               (0.0, 1.0): "`t.numpy()` shares memory, so `a += 1` (in place) writes into "
                           "`t`.",
               (1.0, 1.0): "Both `a += 1` write into `t`'s memory (in place, shared)."},
     hint="`t.numpy()` and `torch.from_numpy` share memory; `torch.tensor(...)` always "
          "copies.",
     explanation="`a` is `t`'s memory seen by NumPy, so both in-place additions reach `t` "
                 "(2.0); `c` was copied after the first one (1.0).",
     solution="answer = (t[0].item(), c[0].item())")

# ---------------------------------------------------------------------------- 05 saving
_SIZE_CHOICES = ["about 24 bytes of data: the 3 elements", "about 8 MB: the whole storage",
                 "nothing: a view cannot be saved"]
_add("05/view-file-size",
     "`big` holds a million int64 numbers (8 MB). How much data does `torch.save(big[:3], f)` "
     "write?",
     setup="big = torch.arange(1_000_000)",
     choices=_SIZE_CHOICES, answer="about 8 MB: the whole storage",
     mistakes={"about 24 bytes of data: the 3 elements": "`big[:3]` is a view: the file "
                                                         "keeps its storage, offset and "
                                                         "strides, so the whole storage "
                                                         "goes in.",
               "nothing: a view cannot be saved": "Views save fine: as their storage plus "
                                                  "shape, stride and offset."},
     hint="What does a view consist of? The file has to be able to rebuild exactly that.",
     explanation="A saved tensor is its storage plus (shape, stride, offset), so a view "
                 "drags its whole storage along. Save `big[:3].clone()` to write 24 bytes.",
     solution="import io\n"
              "buffer = io.BytesIO()\n"
              "torch.save(big[:3], buffer)\n"
              "size = buffer.tell()          # about 8_000_000 bytes\n"
              "answer = ('about 8 MB: the whole storage' if size > 8_000_000 else\n"
              "          'about 24 bytes of data: the 3 elements')")

_add("05/layout-survives",
     "After a round trip through a file, what is `back['b'].stride()`?",
     setup="import io\nx = torch.arange(6).reshape(2, 3)\nbuffer = io.BytesIO()\n"
           "torch.save({'a': x, 'b': x.t()}, buffer)\nbuffer.seek(0)\n"
           "back = torch.load(buffer)",
     answer=(1, 3),
     mistakes={(2, 1): "`load` does not make things contiguous: `back['b']` is still the "
                       "transpose of `back['a']`, a view with swapped strides.",
               (3, 1): "That is `x`'s stride; `x.t()` swaps it."},
     hint="The file stores one storage and, per tensor, its shape, stride and offset.",
     explanation="The file keeps one storage and each tensor's layout, so `back['b']` is "
                 "again a transposed view of `back['a']`: stride (1, 3), same storage.",
     solution="answer = back['b'].stride()")

# ---------------------------------------------------------------------------- 06 devices
_add("06/to-same-device",
     "On the CPU, is `t.to('cpu') is t` True or False?",
     setup="t = torch.ones(2)",
     answer=True,
     mistakes={False: "When nothing has to change, `to` returns the tensor itself: no copy."},
     hint="Does `to` copy when the tensor is already on that device with that dtype?",
     explanation="`to` returns `self` when device and dtype already match; otherwise it "
                 "returns a new tensor, a copy on the target device.",
     solution="answer = t.to('cpu') is t",
     revealed_by=["returns the tensor itself", 't.to("cpu") is t', "unless already there"])

_CROSS_CHOICES = ["a CPU tensor", "a CUDA tensor", "a RuntimeError",
                  "it moves `a` to the GPU for good"]
_add("06/cross-device",
     "On a machine with a GPU: what does `a + b` give?",
     setup="a = torch.ones(2)\nb = torch.ones(2, device='cuda')",
     choices=_CROSS_CHOICES, answer="a RuntimeError",
     mistakes={"a CPU tensor": "PyTorch never copies a GPU tensor back implicitly.",
               "a CUDA tensor": "PyTorch never copies `a` to the GPU implicitly (only a "
                                "0-dim CPU tensor is accepted, like a number).",
               "it moves `a` to the GPU for good": "Operations never move their inputs."},
     hint="PyTorch never moves data between devices behind your back.",
     explanation="Operands must live on the same device (\"Expected all tensors to be on the "
                 "same device\"); move one explicitly with `.to(b.device)`. The one "
                 "exception is a 0-dim CPU tensor, which is treated like a Python number.",
     solution="try:\n    a + b\n    answer = 'a CUDA tensor'\n"
              "except RuntimeError:\n    answer = 'a RuntimeError'",
     requires="cuda")

_add("06/move-copies",
     "On a GPU machine: what is `t[0].item()` after these lines?",
     setup="t = torch.ones(3)\ng = t.cuda()\ng[0] = 5",
     answer=1.0,
     mistakes={5.0: "`t.cuda()` copies the data to GPU memory: a new storage on another "
                    "device. Writing to `g` does not touch `t`."},
     hint="Can a GPU tensor share memory with a CPU tensor?",
     explanation="A move between devices is always a copy: `g` has its own storage in GPU "
                 "memory.",
     solution="answer = t[0].item()",
     requires="cuda")

# ---------------------------------------------------------------------------- 07 API tour
_add("07/reduce-shape",
     "What is `torch.zeros(2, 3, 4).sum(dim=1).shape`?",
     answer=(2, 4),
     mistakes={(2, 1, 4): "That is with `keepdim=True`; by default the reduced dim goes "
                          "away.",
               (3,): "`dim=1` is the dim that disappears; the others stay.",
               (2, 3): "Dims count from 0: dim 1 is the one of size 3."},
     hint="A reduction over `dim` removes that dimension (unless `keepdim=True`).",
     explanation="Summing over dim 1 (size 3) removes it: (2, 4). With `keepdim=True` it "
                 "stays as size 1, (2, 1, 4), which broadcasts back against the input.",
     solution="answer = torch.zeros(2, 3, 4).sum(dim=1).shape")

_add("07/matmul-shape",
     "What is `(torch.ones(5, 2, 3) @ torch.ones(3, 4)).shape`?",
     answer=(5, 2, 4),
     mistakes={(2, 4): "The leading dim 5 is a batch: `@` multiplies each of the 5 matrices.",
               (5, 3, 4): "A (2, 3) matrix times a (3, 4) matrix is (2, 4): the inner 3s "
                          "meet and vanish."},
     hint="`@` multiplies the last two dims as matrices; earlier dims are batch dims and "
          "broadcast.",
     explanation="Each of the 5 matrices (2 × 3) is multiplied by the (3 × 4) matrix: "
                 "(5, 2, 4). The (3, 4) operand is broadcast over the batch.",
     solution="answer = (torch.ones(5, 2, 3) @ torch.ones(3, 4)).shape")

_MEMORY_CHOICES = ["Y = Y + X", "Y[:] = Y + X", "Y += X", "torch.add(Y, X, out=Y)"]
_add("07/new-memory",
     "After which statement is `Y.data_ptr()` different from before?",
     setup="X = torch.arange(3.0)\nY = torch.ones(3)",
     choices=_MEMORY_CHOICES, answer="Y = Y + X",
     mistakes={"Y[:] = Y + X": "Slice assignment writes into Y's existing memory (the sum "
                               "itself is a temporary, but Y keeps its storage).",
               "Y += X": "`+=` on a tensor is the in-place `add_`: same memory.",
               "torch.add(Y, X, out=Y)": "`out=` writes the result into the given tensor's "
                                         "memory."},
     hint="Which one binds the name `Y` to a brand-new result tensor?",
     explanation="`Y = Y + X` computes a new tensor in new memory and rebinds the name; the "
                 "old memory is freed once nothing refers to it. The other three write into "
                 "Y's storage.",
     solution="answer = None\n"
              "for code in ['Y = Y + X', 'Y[:] = Y + X', 'Y += X', "
              "'torch.add(Y, X, out=Y)']:\n"
              "    scope = {'torch': torch, 'X': torch.arange(3.0), 'Y': torch.ones(3)}\n"
              "    before = scope['Y'].data_ptr()\n"
              "    exec(code, scope)\n"
              "    if scope['Y'].data_ptr() != before:\n"
              "        answer = code")

# ---------------------------------------------------------------------------- 08 autograd
LEAVES = ("x = torch.tensor([1., 2., 3.], requires_grad=True)\n"
          "w = torch.tensor([0.5, -1., 2.], requires_grad=True)")
_NODE_CHOICES = ["MulBackward0", "AddBackward0", "torch::autograd::AccumulateGrad", "None"]
_add("08/grad-fn-name",
     "What is `(x * w + 1).grad_fn.name()`?",
     setup=LEAVES, choices=_NODE_CHOICES, answer="AddBackward0",
     mistakes={"MulBackward0": "That node is in the graph, one step further down: `grad_fn` "
                               "is the node of the *last* op that made the tensor, the `+ 1`.",
               "torch::autograd::AccumulateGrad": "That is the node of a leaf (`x` or `w`), "
                                                  "reached through `next_functions`.",
               "None": "Only leaves (and tensors made without recording) have no grad_fn; "
                       "this one was computed from tensors that require grad."},
     hint="`grad_fn` is the node of the op that produced the tensor. Which op ran last?",
     explanation="The last op was `+ 1`, so `grad_fn` is `AddBackward0`; its "
                 "`next_functions` lead to `MulBackward0`, and from there to the leaves' "
                 "`AccumulateGrad` nodes.",
     solution="answer = (x * w + 1).grad_fn.name()")

_add("08/none-inputs",
     "How many `None` entries does `(x * 2.0).grad_fn.next_functions` have?",
     setup=LEAVES, answer=1,
     mistakes={0: "`2.0` is an input of the multiplication too. It needs no gradient, so its "
                  "edge is `(None, 0)`: a `None` stub in the widget.",
               2: "`x` requires grad: its edge leads to `x`'s AccumulateGrad, not to None."},
     hint="`next_functions` has one entry per input of the op: `x` and `2.0`.",
     explanation="`MulBackward0.next_functions` is `((AccumulateGrad, 0), (None, 0))`: one "
                 "edge per input, and `None` for an input that needs no gradient.",
     solution="answer = sum(fn is None for fn, _ in (x * 2.0).grad_fn.next_functions)")

_add("08/accumulate",
     "`a = torch.tensor(2., requires_grad=True)`, then `(a * a).backward()` is called "
     "three times (each on a new `a * a`). What is `a.grad` after that?",
     answer=12.0,
     mistakes={4.0: "4 is one call's gradient (2a = 4). `.grad` is never replaced: each "
                    "backward adds into it.",
               8.0: "Count the calls: three backward() calls, each adding 4."},
     hint="d(a·a)/da = 2a = 4. What does backward do with a `.grad` that already exists?",
     explanation="Each backward adds its gradient into the same `.grad` tensor: 4 + 4 + 4 = "
                 "12. That is why training loops call `optimizer.zero_grad()` (which sets "
                 "`.grad` to None) before each backward.",
     solution="a = torch.tensor(2., requires_grad=True)\n"
              "for _ in range(3):\n"
              "    (a * a).backward()\n"
              "answer = a.grad.item()",
     revealed_by=["for _ in range(3):\n    (a * a).backward()"])

_add("08/no-grad",
     "Inside `with torch.no_grad():` we compute `z = x * 2` (and `x` requires grad). "
     "What is `z.requires_grad`?",
     setup=LEAVES, answer=False,
     mistakes={True: "`x` requires grad, but under `no_grad` nothing is recorded: `z` has no "
                     "`grad_fn`, so it does not require grad."},
     hint="`no_grad` switches the recorder off for the ops inside the block.",
     explanation="Under `no_grad` ops are not recorded: `z.grad_fn` is None and "
                 "`z.requires_grad` is False. Optimizers update parameters this way.",
     solution="with torch.no_grad():\n"
              "    z = x * 2\n"
              "answer = z.requires_grad",
     revealed_by=["print(z.requires_grad, z.grad_fn)"])

_add("08/saved-version",
     "`loss = (x * w).sum()` saved `x` (at version 0) for backward. Then "
     "`with torch.no_grad(): x.add_(1)`. What is `x._version` now?",
     setup=LEAVES, answer=1,
     mistakes={0: "`no_grad` stops recording, not counting: every in-place write bumps the "
                  "version counter, even under no_grad."},
     hint="Each in-place write adds one to the tensor's version counter.",
     explanation="`x._version` is 1, but `MulBackward0` saved `x` at version 0: its stamp "
                 "turns red, and `loss.backward()` would raise, because the saved values are "
                 "not the ones the forward pass used.",
     solution="loss = (x * w).sum()\n"
              "with torch.no_grad():\n"
              "    x.add_(1)\n"
              "answer = x._version",
     revealed_by=["print(x._version)"])

# ---------------------------------------------------------------------------- 09 nn, training
MLP = ("class MLP(torch.nn.Module):\n"
       "    def __init__(self):\n"
       "        super().__init__()\n"
       "        self.fc1 = torch.nn.Linear(64, 32)\n"
       "        self.act = torch.nn.ReLU()\n"
       "        self.fc2 = torch.nn.Linear(32, 10)\n"
       "\n"
       "    def forward(self, x):\n"
       "        return self.fc2(self.act(self.fc1(x)))\n"
       "\n"
       "model = MLP()")
_add("09/param-count",
     "How many numbers does `MLP` learn: what is `sum(p.numel() for p in model.parameters())`?",
     setup=MLP, answer=2410,
     mistakes={2368: "Those are the two weight matrices only: each `Linear` has a bias too "
                     "(32 and 10 numbers).",
               2048: "That is `fc1.weight` alone (64 × 32). Add its bias and all of `fc2`.",
               106: "That counts the layers' sizes (64 + 32 + 10), not the weights "
                    "connecting them."},
     hint="`Linear(a, b)` holds a weight of shape (b, a) and a bias of shape (b,). "
          "`ReLU` has no parameters.",
     explanation="fc1: 32 × 64 + 32 = 2080; fc2: 10 × 32 + 10 = 330; 2080 + 330 = 2410. "
                 "`ReLU` learns nothing, so it has no parameters.",
     solution="answer = sum(p.numel() for p in model.parameters())",
     revealed_by=["print(sum(p.numel() for p in model.parameters()))"])

_add("09/state-dict-shares",
     "`sd = model.state_dict()`. Does `sd['fc1.weight']` share memory with "
     "`model.fc1.weight` (the same storage)?",
     setup=MLP, answer=True,
     mistakes={False: "`state_dict()` does not copy: its tensors are detached views of the "
                      "parameters (`requires_grad=False`, same storage). Save it, or "
                      "`.clone()` it, to keep a snapshot."},
     hint="Compare `sd['fc1.weight'].data_ptr()` with `model.fc1.weight.data_ptr()`.",
     explanation="`state_dict()` returns each parameter `.detach()`ed: the same storage, "
                 "without autograd. Training the model changes what `sd` shows, so to keep a "
                 "snapshot save it to a file or clone it.",
     solution="sd = model.state_dict()\n"
              "answer = sd['fc1.weight'].untyped_storage().data_ptr() == "
              "model.fc1.weight.untyped_storage().data_ptr()",
     revealed_by=["sd['fc1.weight'].data_ptr() == model.fc1.weight.data_ptr()"])

_ZERO_CHOICES = ["None", "a tensor of zeros", "the previous batch's gradient"]
_add("09/zero-grad",
     "After `loss.backward()` then `optimizer.zero_grad()`, what is `model.fc1.weight.grad`?",
     setup=MLP + "\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                 "model(torch.ones(4, 64)).sum().backward()",
     choices=_ZERO_CHOICES, answer="None",
     mistakes={"a tensor of zeros": "That was true before PyTorch 2.0. Now `zero_grad()` "
                                    "defaults to `set_to_none=True`: the `.grad` tensor is "
                                    "dropped, and the next backward makes a fresh one.",
               "the previous batch's gradient": "That is what you get *without* zero_grad "
                                                "(and backward would add to it)."},
     hint="Look at `optimizer.zero_grad`'s default: `set_to_none=...`.",
     explanation="`zero_grad()` sets every `.grad` to None (`set_to_none=True` by default): "
                 "no memory is kept and the next backward creates the gradient afresh "
                 "instead of adding to an old one. The training view shows it as "
                 "'.grad is None' when each forward pass starts.",
     solution="optimizer.zero_grad()\n"
              "g = model.fc1.weight.grad\n"
              "answer = 'None' if g is None else ('a tensor of zeros' if not g.any() else "
              "\"the previous batch's gradient\")",
     revealed_by=["print(model.fc1.weight.grad)"])

_MOMENTUM_CHOICES = ["equal to the gradient", "0.9 × the gradient", "0.1 × the gradient",
                     "zeros"]
_add("09/momentum-first-step",
     "`SGD(params, lr=0.1, momentum=0.9)`: after the **first** `step()`, what is "
     "`optimizer.state[p]['momentum_buffer']` for a parameter `p`?",
     setup=MLP + "\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)\n"
                 "model(torch.ones(4, 64)).sum().backward()\n"
                 "p = model.fc2.weight",
     choices=_MOMENTUM_CHOICES, answer="equal to the gradient",
     mistakes={"0.9 × the gradient": "The buffer starts as the gradient itself "
                                     "(`buf = g.clone()`); later steps do "
                                     "`buf = 0.9 * buf + g`.",
               "0.1 × the gradient": "0.1 is the learning rate: it scales the step "
                                     "`p -= lr * buf`, not the buffer.",
               "zeros": "There is no zero start: the first step copies the gradient in."},
     hint="On the first step there is no previous buffer to decay.",
     explanation="The first step sets `buf = g` (a copy); each later step does "
                 "`buf = momentum · buf + g`, then `p -= lr · buf`. So the first step is plain "
                 "SGD, and momentum builds up from the second.",
     solution="optimizer.step()\n"
              "buf, g = optimizer.state[p]['momentum_buffer'], p.grad\n"
              "answer = next(c for c, b in [('equal to the gradient', g), "
              "('0.9 × the gradient', 0.9 * g), ('0.1 × the gradient', 0.1 * g), "
              "('zeros', g * 0)] if torch.allclose(buf, b))",
     revealed_by=["print(torch.equal(buf, p.grad)"])

_add("09/adam-first-step",
     "`Adam(params, lr=0.01)`: on its **first** `step()`, by how much does each element of a "
     "parameter move (`(after - before).abs()`, for an element whose gradient is not 0)?",
     setup=MLP + "\noptimizer = torch.optim.Adam(model.parameters(), lr=0.01)\n"
                 "model(torch.ones(4, 64)).sum().backward()\n"
                 "p = model.fc2.weight",
     answer=0.01, tolerance=1e-3,
     mistakes={0.001: "That is Adam's default lr (0.001); this one was given lr=0.01.",
               0.0: "Adam moves every element whose gradient is non-zero."},
     hint="After bias correction the first step is `lr · m̂ / (√v̂ + ε)` with `m̂ = g` and "
          "`v̂ = g²`.",
     explanation="On the first step `m̂ = g` and `√v̂ = |g|`, so every element moves by "
                 "`lr · g / |g|` = ±lr = ±0.01, whatever the size of its gradient: Adam "
                 "rescales each element's step. (The ε = 1e-8 makes it a hair less.)",
     solution="before = p.detach().clone()\n"
              "optimizer.step()\n"
              "moved = (p.detach() - before).abs()[p.grad != 0]\n"
              "answer = moved.max().item()")

_add("09/window-stride",
     "`img = torch.arange(64.).view(8, 8)` and `windows = img.unfold(0, 3, 1).unfold(1, 3, 1)`: "
     "every 3 × 3 window a 3 × 3 kernel sees, as one view. `windows.shape` is (6, 6, 3, 3). "
     "What is `windows.stride()`?",
     setup="img = torch.arange(64.).view(8, 8)\n"
           "windows = img.unfold(0, 3, 1).unfold(1, 3, 1)",
     answer=(8, 1, 8, 1),
     mistakes={(1, 8, 1, 8): "Reversed: the first dim picks the window's row, one image row "
                             "(8 elements) down.",
               (54, 9, 3, 1): "That is the stride of a copy: `unfold` copies nothing, so the "
                              "windows step through the image's own storage.",
               (24, 3, 8, 1): "The windows overlap: moving to the next window is one step of "
                              "the image (8 or 1), not a whole window."},
     hint="Next window down = one image row (8 elements); next window right = 1 element; "
          "inside a window, the same two steps again.",
     explanation="`(8, 1, 8, 1)`: no copy, just a view with two strides repeated. Windows "
                 "overlap, so the same storage slot appears in up to 9 windows. A convolution "
                 "is `(windows * kernel).sum((-1, -2))` over this view.",
     solution="answer = windows.stride()",
     revealed_by=["print(windows.shape, windows.stride()"])

# ---------------------------------------------------------------------------- 11 data
DIGITS = ("class Digits(torch.utils.data.Dataset):\n"
          "    def __init__(self, n=1797):\n"
          "        self.images = torch.rand(n, 8, 8)\n"
          "        self.labels = [k % 10 for k in range(n)]\n"
          "\n"
          "    def __len__(self):\n"
          "        return len(self.images)\n"
          "\n"
          "    def __getitem__(self, i):\n"
          "        return self.images[i].unsqueeze(0), self.labels[i]\n"
          "\n"
          "ds = Digits()")
_add("11/batch-shape",
     "`ds[i]` returns `(image, label)` with an image of shape (1, 8, 8). With "
     "`loader = DataLoader(ds, batch_size=16)` and `xb, yb = next(iter(loader))`, "
     "what is `xb.shape`?",
     setup=DIGITS, answer=(16, 1, 8, 8),
     mistakes={(1, 8, 8): "That is one sample. The loader stacks 16 of them along a new "
                          "first dim.",
               (16, 8, 8): "`collate` keeps each sample's shape whole, channel dim included: "
                           "(1, 8, 8) per sample.",
               (1, 16, 8, 8): "The new batch dim comes first, before the sample's own dims."},
     hint="`default_collate` does `torch.stack(images)`: a new dim 0 of size batch_size.",
     explanation="The batch is `torch.stack` of 16 images of shape (1, 8, 8): (16, 1, 8, 8), "
                 "the (N, C, H, W) layout a `Conv2d` expects.",
     solution="loader = torch.utils.data.DataLoader(ds, batch_size=16)\n"
              "xb, yb = next(iter(loader))\n"
              "answer = xb.shape",
     revealed_by=["print(xb.shape, xb.dtype"])

_add("11/label-dtype",
     "`ds[i]` returns its label as a Python `int`. What is `yb.dtype` in a batch from "
     "`DataLoader(ds, batch_size=16)`?",
     setup=DIGITS, answer=DType("int64"),
     mistakes={DType("int32"): "Python ints become 64-bit: `torch.tensor([3, 1])` is int64.",
               DType("float32"): "Only Python floats become float32 (the default dtype); "
                                 "ints stay integers."},
     hint="`default_collate` turns a list of Python ints into `torch.tensor(ints)`.",
     explanation="`default_collate` makes `torch.tensor(list_of_ints)`: int64, exactly what "
                 "`CrossEntropyLoss` wants as class indices.",
     solution="xb, yb = next(iter(torch.utils.data.DataLoader(ds, batch_size=16)))\n"
              "answer = yb.dtype",
     revealed_by=["print(yb.shape, yb.dtype"])

_add("11/last-batch",
     "1797 samples, `batch_size=64`. How many samples are in the **last** batch?",
     setup=DIGITS, answer=5,
     mistakes={64: "1797 is not a multiple of 64: the last batch gets what is left (unless "
                   "`drop_last=True`, which drops it).",
               28: "28 is how many *full* batches there are; the question is the size of "
                   "the one after them.",
               0: "Without `drop_last=True` the leftover samples still make a batch."},
     hint="28 × 64 = 1792.",
     explanation="1797 = 28 × 64 + 5: 29 batches, the last of 5 samples. `drop_last=True` "
                 "drops it (28 batches), which keeps every batch the same size.",
     solution="batches = list(torch.utils.data.DataLoader(ds, batch_size=64))\n"
              "answer = len(batches[-1][1])",
     revealed_by=["len(loader), len(batches[-1][1])"])

_add("11/stack-copies",
     "Does a batch `xb` share memory with the dataset's `ds.images` (the tensor each "
     "`ds[i]` is a view of)?",
     setup=DIGITS, answer=False,
     mistakes={True: "Each `ds[i]` is a view of `ds.images`, but `torch.stack` copies the "
                     "samples into one new storage: the batch is contiguous, wherever its "
                     "samples lived."},
     hint="Is `ds.images[0]` a view? And what does `torch.stack` return?",
     explanation="`ds[i]` is a view (no copy), but `collate` stacks the samples into a fresh "
                 "tensor: new storage, contiguous. Writing to the batch never changes the "
                 "dataset.",
     solution="xb, yb = next(iter(torch.utils.data.DataLoader(ds, batch_size=4)))\n"
              "answer = xb.untyped_storage().data_ptr() == "
              "ds.images.untyped_storage().data_ptr()",
     revealed_by=["print(first.untyped_storage().data_ptr() == "])

_add("11/worker-of-batch",
     "`DataLoader(ds, batch_size=64, num_workers=2)`: batches 0, 1, 2, … are made by worker "
     "processes 0 and 1. Which worker makes batch **4**?",
     setup=DIGITS, answer=0,
     mistakes={1: "The loader deals the batches out in turn: 0 → worker 0, 1 → worker 1, "
                  "2 → worker 0, … so even batches go to worker 0.",
               4: "There are only 2 workers (ids 0 and 1): each makes every other batch."},
     hint="The main process hands out batch indices round-robin: batch k goes to worker "
          "k % num_workers.",
     explanation="Batch k goes to worker k % num_workers, and the loader yields them in "
                 "order (`in_order=True`), whichever worker finishes first. Each worker "
                 "runs `dataset[i]` and `collate_fn` in its own process; "
                 "`get_worker_info().id` there says which.",
     solution="def whoami(samples):\n"
              "    return torch.utils.data.get_worker_info().id\n"
              "loader = torch.utils.data.DataLoader(ds, batch_size=64, num_workers=2, "
              "collate_fn=whoami)\n"
              "answer = list(loader)[4]",
     revealed_by=["batch_view = torch.show_batches(workers", "collate_fn=whoami"])
# ---------------------------------------------------------------------------- 10 optimizers
SURFACE = "def f(p):\n    return 0.1 * p[0] ** 2 + 2 * p[1] ** 2"
_add("10/sgd-step",
     "`p = torch.tensor([-4., 2.], requires_grad=True)`; `f(p).backward()` gives "
     "`p.grad = (-0.8, 8.0)`. Where is `p` after one `torch.optim.SGD([p], lr=0.1)` step? "
     "(two numbers, e.g. `(-4.0, 2.0)`)",
     setup=SURFACE, answer=(-3.92, 1.2), tolerance=1e-3,
     mistakes={(-4.08, 2.8): "That is a step *up* the slope: SGD subtracts lr × grad "
                             "(the gradient points uphill).",
               (-3.2, -6.0): "That is p − grad: the whole gradient. SGD scales it by the "
                             "learning rate first: lr = 0.1 × grad."},
     hint="SGD's step is p ← p − lr · p.grad, coordinate by coordinate.",
     explanation="p − 0.1 × (−0.8, 8.0) = (−4 + 0.08, 2 − 0.8) = (−3.92, 1.2). The steep "
                 "coordinate moved ten times further than the shallow one.",
     solution="p = torch.tensor([-4., 2.], requires_grad=True)\n"
              "opt = torch.optim.SGD([p], lr=0.1)\n"
              "f(p).backward()\n"
              "opt.step()\n"
              "answer = tuple(p.tolist())",
     revealed_by=['print("after one step:", p.tolist())'])

_DIVERGE_CHOICES = ["lr=0.1", "lr=0.3", "lr=0.45", "lr=0.55"]
_add("10/diverge",
     "Plain SGD on `f(p) = 0.1·p[0]² + 2·p[1]²`. With which learning rate does `p` run away "
     "(grow without bound) instead of settling at (0, 0)?",
     setup=SURFACE, choices=_DIVERGE_CHOICES, answer="lr=0.55",
     mistakes={"lr=0.45": "Close: along p[1] each step multiplies p[1] by 1 − 4·lr = −0.8. It "
                          "flips sign every step (the zig-zag) but shrinks. It grows only once "
                          "|1 − 4·lr| > 1, that is lr > 0.5.",
               "lr=0.1": "That is the slowest one, not a runaway: every step multiplies p[0] "
                         "by 1 − 0.2·lr = 0.98 and p[1] by 1 − 4·lr = 0.6.",
               "lr=0.3": "Along p[1] each step multiplies by 1 − 4·0.3 = −0.2: it shrinks."},
     hint="The gradient of 2·p[1]² is 4·p[1], so one step maps p[1] to p[1] − lr·4·p[1] = "
          "(1 − 4·lr)·p[1]. When does that factor have size above 1?",
     explanation="Along the steep direction one step multiplies p[1] by (1 − 4·lr): for "
                 "lr = 0.55 that is −1.2, so p[1] grows by 20 % per step, flipping sign. The "
                 "largest safe learning rate is set by the steepest direction (2 / 4 = 0.5), "
                 "and then the shallow direction crawls: why plain SGD is slow in valleys.",
     solution="answer = None\n"
              "for lr in (0.1, 0.3, 0.45, 0.55):\n"
              "    p = torch.tensor([-4., 2.], requires_grad=True)\n"
              "    opt = torch.optim.SGD([p], lr=lr)\n"
              "    for _ in range(20):\n"
              "        opt.zero_grad()\n"
              "        f(p).backward()\n"
              "        opt.step()\n"
              "    if abs(p[1].item()) > 2:\n"
              "        answer = f'lr={lr}'",
     revealed_by=['print(f"lr={lr}: p after 20 steps = {end.round(4)}")'])

_add("10/momentum-buffer",
     "`q = torch.tensor([1.0], requires_grad=True)`, loss `(q * q).sum()` (gradient 2q), "
     "`torch.optim.SGD([q], lr=0.1, momentum=0.9)`. Two steps: the first gradient is 2.0 and "
     "moves q to 0.8. What is `opt.state[q]['momentum_buffer']` after the **second** step?",
     answer=3.4, tolerance=1e-4,
     mistakes={1.6: "1.6 is the second step's gradient alone (2 × 0.8). The buffer also "
                    "keeps 0.9 × the previous buffer.",
               3.6: "2 + 1.6 forgets the momentum factor: the old buffer is multiplied by "
                    "momentum = 0.9 before the new gradient is added."},
     hint="buffer ← momentum · buffer + grad. After step 1 the buffer is the first gradient.",
     explanation="Step 1: buffer = 2.0, q = 1 − 0.1·2 = 0.8. Step 2: grad = 1.6, buffer = "
                 "0.9·2.0 + 1.6 = 3.4, q = 0.8 − 0.1·3.4 = 0.46. The buffer remembers past "
                 "gradients: steps in a direction that keeps its sign grow, steps that flip "
                 "sign cancel.",
     solution="q = torch.tensor([1.0], requires_grad=True)\n"
              "opt = torch.optim.SGD([q], lr=0.1, momentum=0.9)\n"
              "for _ in range(2):\n"
              "    opt.zero_grad()\n"
              "    (q * q).sum().backward()\n"
              "    opt.step()\n"
              "answer = opt.state[q]['momentum_buffer'].item()",
     revealed_by=['opt.state[q]["momentum_buffer"].item()'])

_add("10/adam-step",
     "Same start as before: `p = (-4., 2.)` with `p.grad = (-0.8, 8.0)`. Where is `p` after "
     "one `torch.optim.Adam([p], lr=0.1)` step? (two numbers)",
     setup=SURFACE, answer=(-3.9, 1.9), tolerance=1e-3,
     mistakes={(-3.92, 1.2): "That is SGD's step (lr × grad). Adam divides each coordinate's "
                             "gradient by its running size √v̂: on the first step that ratio "
                             "is ±1.",
               (-4.1, 2.1): "Adam still steps downhill: against the sign of the gradient."},
     hint="On the first step Adam's bias-corrected moments are m̂ = g and v̂ = g², so the "
          "step is lr · g / (|g| + eps).",
     explanation="m̂ / √v̂ = g / |g| = ±1 on the first step, so every coordinate moves by lr = "
                 "0.1 against its gradient's sign: (−3.9, 1.9), whatever the gradient's size. "
                 "Adam's steps are about lr in every direction: no zig-zag across the valley, "
                 "no crawling along it.",
     solution="p = torch.tensor([-4., 2.], requires_grad=True)\n"
              "opt = torch.optim.Adam([p], lr=0.1)\n"
              "f(p).backward()\n"
              "opt.step()\n"
              "answer = tuple(p.tolist())",
     revealed_by=['print("Adam\'s first step:", r.tolist())'])

_add("10/steplr",
     "`opt = torch.optim.SGD(params, lr=0.4)` with "
     "`torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)`. After 25 calls of "
     "`opt.step(); sched.step()`, what is `sched.get_last_lr()[0]`?",
     answer=0.1, tolerance=1e-6,
     mistakes={0.05: "That is three halvings. StepLR halves after steps 10 and 20; the third "
                     "halving comes at 30.",
               0.2: "That is one halving: 25 steps have passed two boundaries (10 and 20).",
               0.4: "The scheduler changes the optimizer's lr every step_size calls of "
                    "sched.step()."},
     hint="StepLR multiplies the lr by gamma every step_size scheduler steps.",
     explanation="lr = 0.4 × 0.5^⌊25 / 10⌋ = 0.4 × 0.25 = 0.1.",
     solution="opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.4)\n"
              "sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)\n"
              "for _ in range(25):\n"
              "    opt.step()\n"
              "    sched.step()\n"
              "answer = sched.get_last_lr()[0]",
     revealed_by=['print("StepLR after 25 steps:"'])
