"""tensorviz against NumPy and PyTorch, in one run: median times and their ratios.

    python benchmarks/run.py            # the full run (a few minutes)
    python benchmarks/run.py --quick    # smaller sizes and fewer repeats (seconds): a smoke run
    python benchmarks/run.py --json results.json   # also write every number as JSON

Every timing is the median over repeats, after a warm-up, of a ``timeit`` loop whose length
is calibrated to the op (so a 100 ns op and a 50 ms op are both timed well).  The same
statement text runs for each library where the APIs agree (``a + b``, ``a.sum()``), with the
closest NumPy spelling otherwise (``a.T`` for ``a.t()``, ``a.astype`` for ``a.to``).

The libraries' repeats are interleaved (in alternating order), and a ratio is the median of
the per-repeat ratios (each pair ran back to back), so a busy machine moves the times but much
less the ratios; "(best of)" is the ratio of the fastest repeats, the least disturbed ones.
Per-call overheads (tiny ops, views, widgets) are timed in this thread's CPU time, which
other processes do not inflate; everything else in wall time.  PyTorch's large ops are
timed on their own, after the others: its OpenMP workers spin after each parallel op and
would slow down whatever ran next.

Sections (and the targets of issue 8):

- tiny ops on 3x3 float32 tensors: per-call overhead, target at most 0.7x PyTorch eager;
- large elementwise ops and reductions on 4M float32 elements: within 1.1x of NumPy;
- matmul 256 and 1024: within 1.05x of NumPy;
- ``contiguous()`` of a transposed 4M tensor: copy bandwidth, within 1.1x of NumPy;
- view ops from 10^3 to 10^8 elements: O(1) (time must not grow with size) and no bytes
  copied (the view shares the storage; ``tracemalloc`` sees no data allocation);
- ``import tensorviz`` in a fresh interpreter: at most 1.5x ``import numpy``;
- widget state (``show(t)``) from 10^2 to 10^7 elements: build at most 20 ms, payload at
  most 64 KB (JSON plus binary buffers, as anywidget sends it);
- a cuda section (tensorviz vs CuPy vs PyTorch) when a GPU is present;
- autograd (``benchmarks/autograd.py``, last: it installs recording): a tiny op that records
  a node, at most 1.0x PyTorch; forward + backward of a 64-64-10 MLP, at most 0.7x PyTorch;
  the no-grad tiny ops again with recording installed.

Nothing here asserts: the table says which targets are met.
"""
from __future__ import annotations

import argparse
import math
import datetime
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import tracemalloc
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # measure the checkout this script lives in
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import tensorviz as tv  # noqa: E402

try:  # noqa: E402
    import torch
except ImportError:  # PyTorch is optional: its columns stay empty
    torch = None


# ---------------------------------------------------------------- timing
@dataclass
class Config:
    quick: bool
    target_s: float  # wall time of one repeat (the loop length is calibrated to it)
    repeat: int  # repeats per measurement (the median is reported)
    big_repeat: int  # repeats for ops of milliseconds
    view_sizes: tuple[int, ...]
    widget_sizes: tuple[int, ...]
    import_repeat: int
    matmul_sizes: tuple[int, ...]


FULL = Config(False, 0.02, 15, 25, tuple(10 ** k for k in range(3, 9)),
              tuple(10 ** k for k in range(2, 8)), 11, (256, 1024))
QUICK = Config(True, 0.002, 3, 3, (10 ** 3, 10 ** 5), (10 ** 2, 10 ** 4), 1, (128,))


WALL = time.perf_counter
CPU = time.thread_time  # this thread's CPU time: blind to other processes on a busy machine


def measure_set(jobs: list[tuple[str, dict]], cfg: Config, repeat: int | None = None,
                clock=WALL, samples_out: list | None = None) -> list[float]:
    """Median seconds per execution of each ``(stmt, globals)``, as ``timeit`` runs them.

    Each loop is warmed up and calibrated to take ``cfg.target_s``; then the repeats are
    interleaved (tensorviz, numpy, torch, tensorviz, ...) so a change in the machine's load
    hits every library alike.  ``samples_out`` receives every job's per-repeat times.
    """
    timers, numbers = [], []
    for stmt, env in jobs:
        timer = timeit.Timer(stmt, timer=clock, globals=env)
        number = 1
        while True:  # warm-up and calibration: grow the loop until one pass takes target_s
            t = timer.timeit(number)
            if t >= cfg.target_s or number >= 1 << 20:
                break
            number = max(number * 2, int(number * cfg.target_s / max(t, 1e-9) * 1.2))
        timers.append(timer)
        numbers.append(number)
    samples: list[list[float]] = [[] for _ in jobs]
    order = list(range(len(jobs)))
    for r in range(repeat or cfg.repeat):
        # every other repeat runs the jobs in reverse: no library always runs first (after a
        # pause) or right after one that left BLAS or OpenMP threads spinning
        for k in (order if r % 2 == 0 else order[::-1]):
            samples[k].append(timers[k].timeit(numbers[k]) / numbers[k])
    if samples_out is not None:
        samples_out.extend(samples)
    return [statistics.median(s) for s in samples]


def paired_ratio(a: list[float], b: list[float]) -> float:
    """Median over repeats of ``a[k] / b[k]``: the two ran back to back in each repeat, so a
    change of the machine's load between repeats cancels out."""
    return statistics.median(x / y for x, y in zip(a, b))


def measure(stmt: str, env: dict, cfg: Config, repeat: int | None = None, clock=WALL) -> float:
    return measure_set([(stmt, env)], cfg, repeat, clock)[0]


def fmt_time(s: float | None) -> str:
    if s is None:
        return "-"
    if s < 1e-6:
        return f"{s * 1e9:.0f} ns"
    if s < 1e-3:
        return f"{s * 1e6:.2f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


def fmt_ratio(r: float | None) -> str:
    return "-" if r is None else f"{r:.2f}x"


# ---------------------------------------------------------------- results
@dataclass
class Row:
    section: str
    case: str
    tv: float | None = None  # seconds (or the section's unit)
    np: float | None = None
    torch: float | None = None
    target: str = ""  # e.g. "<= 0.7x torch"
    ratio: float | None = None  # the ratio the target is about
    ok: bool | None = None  # None: no target
    extra: dict = field(default_factory=dict)


RESULTS: list[Row] = []


def ratio_row(section: str, case: str, t_tv, t_np, t_torch, against: str, limit: float,
              r: float | None = None) -> Row:
    if r is None:
        base = t_torch if against == "torch" else t_np
        r = None if base is None else t_tv / base
    ok = None if r is None else r <= limit
    row = Row(section, case, t_tv, t_np, t_torch, f"<= {limit}x {against}", r, ok)
    RESULTS.append(row)
    return row


def print_table(title: str, headers: list[str], rows: list[list[str]]) -> None:
    print(f"\n### {title}\n")
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |")
    sys.stdout.flush()


def mark(ok: bool | None) -> str:
    return "-" if ok is None else ("yes" if ok else "NO")


def compare_section(title: str, section: str, cases, cfg: Config, against: str, limit: float,
                    repeat: int | None = None, clock=WALL, isolate_torch: bool = False) -> None:
    """Time each ``(name, env_tv, stmt_tv, env_np, stmt_np, env_torch, stmt_torch)``.

    ``isolate_torch``: time PyTorch on its own after the others, then pause.  Its OpenMP
    workers keep spinning for a while after a parallel op; interleaved, they would take a
    core from whatever runs next (on a 2-core machine, 20-50% slower NumPy and tensorviz).
    """
    rows = []
    for name, env_tv, s_tv, env_np, s_np, env_torch, s_torch in cases:
        jobs = [(s_tv, env_tv)]
        if s_np:
            jobs.append((s_np, env_np))
        with_torch = torch is not None and bool(s_torch)
        if with_torch and not isolate_torch:
            jobs.append((s_torch, env_torch))
        samples: list[list[float]] = []
        times = iter(measure_set(jobs, cfg, repeat, clock, samples))
        t_tv = next(times)
        t_np = next(times) if s_np else None
        r_np = paired_ratio(samples[0], samples[1]) if s_np else None
        t_torch = r_torch = None
        if with_torch:
            if isolate_torch:
                t_torch = measure_set([(s_torch, env_torch)], cfg, repeat, clock)[0]
                time.sleep(0.3)  # let its worker threads go idle
                r_torch = t_tv / t_torch
            else:
                t_torch = next(times)
                r_torch = paired_ratio(samples[0], samples[-1])
        row = ratio_row(section, name, t_tv, t_np, t_torch, against, limit,
                        r_torch if against == "torch" else r_np)
        r_best = min(samples[0]) / min(samples[1]) if s_np else None
        row.extra = {"tv/numpy": r_np, "tv/torch": r_torch, "tv/numpy best": r_best}
        rows.append([name, fmt_time(t_tv), fmt_time(t_np), fmt_time(t_torch), fmt_ratio(r_np),
                     fmt_ratio(r_best), fmt_ratio(r_torch), mark(row.ok)])
    print_table(f"{title} (target: tensorviz {row.target})",
                ["op", "tensorviz", "numpy", "torch", "tv/numpy", "(best of)", "tv/torch",
                 "met"], rows)


# ---------------------------------------------------------------- sections
def tiny_ops(cfg: Config) -> None:
    rng = np.random.default_rng(0)
    a_np = rng.standard_normal((3, 3)).astype(np.float32)
    b_np = rng.standard_normal((3, 3)).astype(np.float32)
    e_tv = {"a": tv.tensor(a_np), "b": tv.tensor(b_np), "tv": tv}
    e_np = {"a": a_np.copy(), "b": b_np.copy(), "np": np}
    e_th = {"a": torch.tensor(a_np), "b": torch.tensor(b_np), "torch": torch} if torch else {}
    cases = [
        ("add  a + b", e_tv, "a + b", e_np, "a + b", e_th, "a + b"),
        ("mul  a * b", e_tv, "a * b", e_np, "a * b", e_th, "a * b"),
        ("sum  a.sum()", e_tv, "a.sum()", e_np, "a.sum()", e_th, "a.sum()"),
        ("matmul  a @ b", e_tv, "a @ b", e_np, "a @ b", e_th, "a @ b"),
        ("transpose  a.t()", e_tv, "a.t()", e_np, "a.T", e_th, "a.t()"),
        ("index  a[1, 2]", e_tv, "a[1, 2]", e_np, "a[1, 2]", e_th, "a[1, 2]"),
        ("setitem  a[1, 2] = 1.0", e_tv, "a[1, 2] = 1.0", e_np, "a[1, 2] = 1.0", e_th,
         "a[1, 2] = 1.0"),
        ("to(float64)", e_tv, "a.to(tv.float64)", e_np, "a.astype(np.float64)", e_th,
         "a.to(torch.float64)"),
    ]
    compare_section("Tiny ops: 3x3 float32, per call (thread CPU time)", "tiny", cases, cfg,
                    "torch", 1.1, clock=CPU)
    ratios = [r.ratio for r in RESULTS if r.section == "tiny" and r.ratio]
    if ratios:  # (the second target: the tiny ops' geometric mean)
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        row = ratio_row("tiny", "geometric mean of the tiny ops", None, None, None, "torch",
                        0.85, geo)
        print(f"\nGeometric mean of tv/torch over the {len(ratios)} tiny ops: "
              f"{fmt_ratio(geo)} (target {row.target}: {mark(row.ok)})")
    tiny_floor(cfg, e_tv, e_np, e_th)


def tiny_floor(cfg: Config, e_tv: dict, e_np: dict, e_th: dict) -> None:
    """What no Python layer over NumPy can go below: NumPy's own call, NumPy's floating-point
    warnings switched off (PyTorch gives inf/nan silently) and building the result tensor,
    with tensorviz's own primitives (the quiet context, a result whose storage comes on first
    use) and no checks at all."""
    from tensorviz._tensor import _contig, _fresh
    from tensorviz.backends._numpy import quiet_run

    def adopt(r, dt):
        return _fresh(dt, r.shape, _contig(r.shape), r)

    def floor_add(a, b):
        return adopt(quiet_run(np.add, a._a, b._a), a._dtype)

    def floor_mul(a, b):
        return adopt(quiet_run(np.multiply, a._a, b._a), a._dtype)

    def floor_sum(a):
        out = np.empty((), a._dtype._np)
        quiet_run(np.add.reduce, a._a, None, None, out)
        return adopt(out, a._dtype)

    def floor_matmul(a, b):
        return adopt(quiet_run(a._a.dot, b._a), a._dtype)

    env = dict(e_tv, floor_add=floor_add, floor_mul=floor_mul, floor_sum=floor_sum,
               floor_matmul=floor_matmul)
    env["a"]._arr, env["b"]._arr  # noqa: B018  (make the cached arrays the floor reads)
    rows = []
    for name, s_tv, s_floor, s_np in (("add", "a + b", "floor_add(a, b)", "a + b"),
                                      ("mul", "a * b", "floor_mul(a, b)", "a * b"),
                                      ("sum", "a.sum()", "floor_sum(a)", "a.sum()"),
                                      ("matmul", "a @ b", "floor_matmul(a, b)", "a @ b")):
        jobs = [(s_tv, env), (s_floor, env), (s_np, e_np)]
        if torch is not None:
            jobs.append((s_np, e_th))
        samples: list[list[float]] = []
        t = measure_set(jobs, cfg, clock=CPU, samples_out=samples)
        r_floor = paired_ratio(samples[1], samples[3]) if torch is not None else None
        r_tv = paired_ratio(samples[0], samples[3]) if torch is not None else None
        RESULTS.append(Row("floor", name, t[0], t[2], t[3] if torch is not None else None,
                           "", r_floor, None, {"floor": t[1], "floor/torch": r_floor,
                                               "tv/torch": r_tv}))
        rows.append([name, fmt_time(t[0]), fmt_time(t[1]), fmt_time(t[2]),
                     fmt_time(t[3]) if torch is not None else "-", fmt_ratio(r_tv),
                     fmt_ratio(r_floor)])
    print_table("The floor of a tiny op: NumPy's call + quiet floating point + building the "
                "result tensor (no checks, no dispatch)",
                ["op", "tensorviz", "floor", "numpy alone", "torch", "tv/torch", "floor/torch"],
                rows)


def large_ops(cfg: Config) -> None:
    n = 4 * 1024 * 1024 if not cfg.quick else 256 * 1024
    rng = np.random.default_rng(0)
    a_np = rng.standard_normal(n).astype(np.float32)
    b_np = rng.standard_normal(n).astype(np.float32)
    # c is the in-place target (it grows with every add_; a and b stay as they are)
    e_tv = {"a": tv.from_numpy(a_np.copy()), "b": tv.from_numpy(b_np.copy()),
            "c": tv.from_numpy(a_np.copy()), "tv": tv}
    e_np = {"a": a_np.copy(), "b": b_np.copy(), "c": a_np.copy(), "np": np}
    e_th = {"a": torch.from_numpy(a_np.copy()), "b": torch.from_numpy(b_np.copy()),
            "c": torch.from_numpy(a_np.copy()), "torch": torch} if torch else {}
    cases = [
        ("add  a + b", e_tv, "a + b", e_np, "a + b", e_th, "a + b"),
        ("mul  a * b", e_tv, "a * b", e_np, "a * b", e_th, "a * b"),
        ("add_  c.add_(b)", e_tv, "c.add_(b)", e_np, "np.add(c, b, out=c)", e_th, "c.add_(b)"),
        ("exp  a.exp()", e_tv, "a.exp()", e_np, "np.exp(a)", e_th, "a.exp()"),
        ("sum  a.sum()", e_tv, "a.sum()", e_np, "a.sum()", e_th, "a.sum()"),
        ("mean  a.mean()", e_tv, "a.mean()", e_np, "a.mean()", e_th, "a.mean()"),
        ("max  a.max()", e_tv, "a.max()", e_np, "a.max()", e_th, "a.max()"),
    ]
    compare_section(f"Large ops: {n:,} float32 elements", "large", cases, cfg, "numpy", 1.1,
                    cfg.big_repeat, isolate_torch=True)
    noise_control("large", "a + b", e_np, cfg)


def matmul_ops(cfg: Config) -> None:
    rng = np.random.default_rng(0)
    cases = []
    for n in cfg.matmul_sizes:
        a_np = rng.standard_normal((n, n)).astype(np.float32)
        b_np = rng.standard_normal((n, n)).astype(np.float32)
        e_tv = {"a": tv.from_numpy(a_np.copy()), "b": tv.from_numpy(b_np.copy())}
        e_np = {"a": a_np.copy(), "b": b_np.copy()}
        e_th = {"a": torch.from_numpy(a_np.copy()), "b": torch.from_numpy(b_np.copy())} \
            if torch else {}
        cases.append((f"matmul {n}x{n} float32", e_tv, "a @ b", e_np, "a @ b", e_th, "a @ b"))
    compare_section("Matrix multiply", "matmul", cases, cfg, "numpy", 1.05, cfg.big_repeat,
                    isolate_torch=True)
    noise_control("matmul", "a @ b", cases[-1][3], cfg)


def noise_control(section: str, stmt: str, env: dict, cfg: Config) -> None:
    """NumPy timed against itself, as tensorviz is against NumPy: how far from 1.00x a ratio
    of two identical computations lands on this machine right now."""
    samples: list[list[float]] = []
    measure_set([(stmt, env), (stmt, dict(env))], cfg, cfg.big_repeat, samples_out=samples)
    r = paired_ratio(*samples)
    RESULTS.append(Row("control", f"{section}: numpy {stmt} vs itself", None, None, None, "",
                       r, None))
    print(f"\nNoise control: NumPy's `{stmt}` timed against itself the same way: {r:.2f}x")


def contiguous_copy(cfg: Config) -> None:
    n = 2048 if not cfg.quick else 512
    a_np = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    e_tv = {"a": tv.from_numpy(a_np.copy()).t()}
    e_np = {"a": a_np.copy().T, "np": np}
    e_th = {"a": torch.from_numpy(a_np.copy()).t()} if torch else {}
    samples: list[list[float]] = []
    t_tv, t_np = measure_set([("a.contiguous()", e_tv), ("np.ascontiguousarray(a)", e_np)], cfg,
                             cfg.big_repeat, samples_out=samples)
    t_th = measure("a.contiguous()", e_th, cfg, cfg.big_repeat) if torch else None  # alone, as
    # in compare_section(isolate_torch=True)
    moved = 2 * n * n * 4  # bytes read + written

    def gbs(t):
        return "-" if t is None else f"{moved / t / 1e9:.2f} GB/s"
    row = ratio_row("contiguous", f"t().contiguous() {n}x{n} float32", t_tv, t_np, t_th,
                    "numpy", 1.1, paired_ratio(*samples))
    row.extra = {"bytes_moved": moved}
    print_table("contiguous() of a transposed tensor: copy bandwidth (target: tensorviz "
                "<= 1.1x numpy's time)",
                ["case", "tensorviz", "numpy", "torch", "tv/numpy", "tv/torch", "met"],
                [[row.case, f"{fmt_time(t_tv)} ({gbs(t_tv)})", f"{fmt_time(t_np)} ({gbs(t_np)})",
                  f"{fmt_time(t_th)} ({gbs(t_th)})", fmt_ratio(row.ratio),
                  fmt_ratio(None if t_th is None else t_tv / t_th), mark(row.ok)]])


VIEW_OPS = [  # (name, tensorviz statement, numpy statement, torch statement)
    ("view(-1)", "t.view(-1)", "a.reshape(-1)", "t.view(-1)"),
    ("t()", "t.t()", "a.T", "t.t()"),
    ("t[1:, ::2]", "t[1:, ::2]", "a[1:, ::2]", "t[1:, ::2]"),
    ("unsqueeze(0)", "t.unsqueeze(0)", "a[None]", "t.unsqueeze(0)"),
    ("permute(1, 0)", "t.permute(1, 0)", "a.transpose(1, 0)", "t.permute(1, 0)"),
    ("expand(4, -1, -1)", "t.expand(4, -1, -1)",
     "np.broadcast_to(a, (4,) + a.shape)", "t.expand(4, -1, -1)"),
    ("reshape(m*n) of t()", "u.reshape(-1)", "", ""),  # not viewable: a copy (reference)
]
VIEW_GROWTH_LIMIT = 1.5  # time at the largest size over time at the smallest (noise allowance)


def _shape_for(n: int) -> tuple[int, int]:
    rows = 10 ** (len(str(n)) // 2)
    return rows, n // rows


def _data_bytes_allocated(fn) -> int:
    """Bytes of array data that ``fn()`` allocates and its result keeps: NumPy reports its data
    buffers to tracemalloc in their own domain, so Python objects (the new tensor's metadata)
    do not count."""
    domain = tracemalloc.DomainFilter(True, np.lib.tracemalloc_domain)
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot().filter_traces([domain])
        keep = fn()
        after = tracemalloc.take_snapshot().filter_traces([domain])
    finally:
        tracemalloc.stop()
    del keep
    return sum(st.size_diff for st in after.compare_to(before, "filename"))


def view_ops(cfg: Config) -> None:
    times: dict[str, dict[int, float]] = {name: {} for name, *_ in VIEW_OPS}
    np_times: dict[str, dict[int, float]] = {name: {} for name, *_ in VIEW_OPS}
    th_times: dict[str, dict[int, float]] = {name: {} for name, *_ in VIEW_OPS}
    shared: dict[str, bool] = {name: True for name, *_ in VIEW_OPS}
    copied: dict[str, int] = {name: 0 for name, *_ in VIEW_OPS}
    # Every size is alive at once and the sizes are timed interleaved (as the libraries in
    # the other sections), so a change of the machine's load does not pass for growth.
    envs = {}
    for n in cfg.view_sizes:
        shape = _shape_for(n)
        t = tv.zeros(shape, dtype=tv.float32)
        envs[n] = ({"t": t, "u": t.t(), "tv": tv}, {"a": np.zeros(shape, np.float32), "np": np},
                   {"t": torch.zeros(shape), "torch": torch} if torch else {})
    big = max(cfg.view_sizes)
    for name, stmt, s_np, s_th in VIEW_OPS:
        reference = name.startswith("reshape")
        sizes = [n for n in cfg.view_sizes if not (reference and n > 10 ** 6)]
        jobs = [(stmt, envs[n][0]) for n in sizes]
        if s_np:
            jobs.append((s_np, envs[big][1]))
        if s_th and torch is not None:
            jobs.append((s_th, envs[big][2]))
        res = iter(measure_set(jobs, cfg, clock=CPU))
        for n in sizes:
            times[name][n] = next(res)
        if s_np:
            np_times[name][big] = next(res)
        if s_th and torch is not None:
            th_times[name][big] = next(res)
        if not reference:
            code = compile(stmt, "<view>", "eval")
            for n in sizes:
                env = envs[n][0]
                v = eval(code, env)
                shared[name] &= v.untyped_storage() is env["t"].untyped_storage()
                copied[name] = max(copied[name],
                                   _data_bytes_allocated(lambda: eval(code, env)))
    del envs
    gc.collect()
    sizes = cfg.view_sizes
    rows = []
    for name, stmt, *_ in VIEW_OPS:
        ts = times[name]
        lo, hi = min(ts), max(ts)
        growth = ts[hi] / ts[lo]
        reference = name.startswith("reshape")
        ok = None if reference else (growth <= VIEW_GROWTH_LIMIT and shared[name]
                                     and copied[name] == 0)
        row = Row("views", name, ts[hi], np_times[name].get(hi), th_times[name].get(hi),
                  f"growth <= {VIEW_GROWTH_LIMIT}, 0 bytes copied", growth, ok,
                  {"times": {str(k): v for k, v in ts.items()},
                   "numpy": {str(k): v for k, v in np_times[name].items()},
                   "torch": {str(k): v for k, v in th_times[name].items()},
                   "shares_storage": shared[name], "bytes_allocated": copied[name]})
        RESULTS.append(row)
        label = name + (" (copies: reference)" if reference else "")
        cells = [fmt_time(ts.get(n)) for n in sizes]
        big = max(np_times[name]) if np_times[name] else None
        rows.append([label] + cells + [
            fmt_ratio(growth),
            "-" if reference else f"{copied[name]} B" + ("" if shared[name] else " (NEW STORAGE)"),
            fmt_time(np_times[name][big]) if big else "-",
            fmt_time(th_times[name][big]) if big and th_times[name] else "-", mark(ok)])
    print_table(f"View ops: tensorviz time by size (target: O(1), growth <= "
                f"{VIEW_GROWTH_LIMIT}x, 0 bytes copied); numpy/torch at the largest size",
                ["op"] + [f"{n:.0e}".replace("+0", "") for n in sizes]
                + ["growth", "allocated", "numpy", "torch", "met"], rows)


IMPORT_SNIPPET = ("import sys, time; sys.path.insert(0, {root!r}); w0 = time.perf_counter(); "
                  "c0 = time.process_time(); import {mod}; "
                  "print(time.perf_counter() - w0, time.process_time() - c0)")


def import_time(cfg: Config) -> None:
    """``import X`` in fresh interpreters, with bytecode cached as after ``pip install``.

    The children write and read their bytecode in a private folder (``PYTHONPYCACHEPREFIX``),
    even where ``PYTHONDONTWRITEBYTECODE`` is set: otherwise tensorviz (a checkout) would be
    compiled from source on every run while NumPy (installed) would not.  The target is
    judged on the process's CPU time, which other work on the machine does not inflate; the
    wall time is shown beside it.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="tv-bench-pyc-") as pyc:
        env["PYTHONPYCACHEPREFIX"] = pyc

        def once(mod: str) -> tuple[float, float]:
            out = subprocess.run([sys.executable, "-c",
                                  IMPORT_SNIPPET.format(root=str(ROOT), mod=mod)],
                                 capture_output=True, text=True, check=True, env=env)
            wall, cpu = out.stdout.strip().splitlines()[-1].split()
            return float(wall), float(cpu)

        mods = ["numpy", "tensorviz"] + (["torch"] if torch is not None and not cfg.quick
                                         else [])
        for m in mods:  # compile and cache the bytecode, warm the file cache
            once(m)
        runs: dict[str, list[tuple[float, float]]] = {m: [] for m in mods}
        for _ in range(cfg.import_repeat):  # interleaved, as the other sections
            for m in mods:
                runs[m].append(once(m))
    wall = {m: statistics.median(w for w, _ in runs[m]) for m in mods}
    cpu = {m: statistics.median(c for _, c in runs[m]) for m in mods}
    r = cpu["tensorviz"] / cpu["numpy"]
    row = Row("import", "import tensorviz", cpu["tensorviz"], cpu["numpy"], cpu.get("torch"),
              "<= 1.5x numpy", r, r <= 1.5, {"wall": wall, "cpu": cpu})
    RESULTS.append(row)
    print_table("Import time, fresh interpreter, bytecode cached (target: import tensorviz "
                "<= 1.5x import numpy in CPU time; tensorviz's time includes importing numpy)",
                ["import", "CPU time", "vs numpy", "wall time", "vs numpy", "met"],
                [[m, fmt_time(cpu[m]), fmt_ratio(cpu[m] / cpu["numpy"]), fmt_time(wall[m]),
                  fmt_ratio(wall[m] / wall["numpy"]),
                  mark(row.ok) if m == "tensorviz" else "-"] for m in mods])


def _payload_bytes(state) -> tuple[int, int]:
    """(JSON bytes, binary buffer bytes) of synced state, as ipywidgets sends it: ``bytes``
    values travel as binary buffers beside the JSON."""
    buffers = 0

    def strip(o):
        nonlocal buffers
        if isinstance(o, (bytes, bytearray, memoryview)):
            buffers += len(o)
            return None
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items()}
        if isinstance(o, (list, tuple)):
            return [strip(v) for v in o]
        return o
    text = json.dumps(strip(state), separators=(",", ":"))
    return len(text.encode()), buffers


def widget_state(cfg: Config) -> None:
    try:
        from tensorviz.viz._scene import Scene
    except ImportError as e:  # anywidget/traitlets missing: the widgets cannot be built
        print(f"\n### Widget state: skipped ({e})")
        return
    try:
        from tensorviz.viz._widgets import TensorView
    except ImportError:
        TensorView = None
    rows = []
    for n in cfg.widget_sizes:
        shape = _shape_for(n)
        t = tv.arange(n, dtype=tv.float32).reshape(shape)
        for label, objs in (("t", [t]), ("t, t.t(), t[::2, 1:]", [t, t.t(), t[::2, 1:]])):
            labels = [f"x{k}" for k in range(len(objs))]
            scene = Scene(objs, labels)
            env = {"scene": scene}
            t_build = measure("scene.build()", env, cfg, cfg.big_repeat, CPU)
            strips, tensors = scene.build()
            js, buf = _payload_bytes({"strips": strips, "tensors": tensors})
            total = js + buf
            t_widget = None
            if TensorView is not None:
                env_w = {"TensorView": TensorView, "objs": objs, "labels": labels}
                t_widget = measure("TensorView(*objs, labels=labels, live=False).close()",
                                   env_w, cfg, cfg.big_repeat, CPU)
            ok = t_build <= 0.020 and total <= 64 * 1024 and (t_widget is None
                                                              or t_widget <= 0.020)
            RESULTS.append(Row("widget", f"{n:.0e} elements: show({label})", t_build, None,
                               None, "build <= 20 ms, payload <= 64 KB", None, ok,
                               {"widget_s": t_widget, "json_bytes": js, "buffer_bytes": buf}))
            rows.append([f"{n:.0e}".replace("+0", ""), f"show({label})", fmt_time(t_build),
                         fmt_time(t_widget), f"{total / 1024:.1f} KB ({js} B JSON + {buf} B "
                         "buffers)", mark(ok)])
        del t
        gc.collect()
    print_table("Widget state (target: build <= 20 ms and payload <= 64 KB at every size)",
                ["elements", "widget", "Scene.build()", "TensorView(...)", "payload", "met"],
                rows)


def cuda_ops(cfg: Config) -> None:
    if not tv.cuda.is_available():
        print("\n### CUDA: skipped (no GPU, or CuPy is not installed)")
        return
    import cupy as cp
    th_cuda = torch is not None and torch.cuda.is_available()
    rng = np.random.default_rng(0)

    def envs(shape):
        a = rng.standard_normal(shape).astype(np.float32)
        b = rng.standard_normal(shape).astype(np.float32)
        e_tv = {"a": tv.tensor(a, device="cuda"), "b": tv.tensor(b, device="cuda"),
                "sync": tv.cuda.synchronize, "tv": tv}
        e_cp = {"a": cp.asarray(a), "b": cp.asarray(b),
                "sync": cp.cuda.Stream.null.synchronize, "cp": cp}
        e_th = {"a": torch.tensor(a, device="cuda"), "b": torch.tensor(b, device="cuda"),
                "sync": torch.cuda.synchronize, "torch": torch} if th_cuda else {}
        return e_tv, e_cp, e_th

    def case(name, envs3, s_tv, s_cp, s_th):
        e_tv, e_cp, e_th = envs3
        return (name, e_tv, s_tv + "; sync()", e_cp, s_cp + "; sync()", e_th,
                (s_th + "; sync()") if th_cuda else "")

    tiny = envs((3, 3))
    compare_section("CUDA tiny ops: 3x3 float32, per call (numpy column: CuPy)", "cuda-tiny",
                    [case("add  a + b", tiny, "a + b", "a + b", "a + b"),
                     case("sum  a.sum()", tiny, "a.sum()", "a.sum()", "a.sum()"),
                     case("matmul  a @ b", tiny, "a @ b", "a @ b", "a @ b")],
                    cfg, "torch", 0.7)
    big = envs((4 * 1024 * 1024,))
    mm = envs((1024, 1024))
    compare_section("CUDA large ops (numpy column: CuPy)", "cuda-large",
                    [case("add 4M  a + b", big, "a + b", "a + b", "a + b"),
                     case("sum 4M  a.sum()", big, "a.sum()", "a.sum()", "a.sum()"),
                     case("matmul 1024", mm, "a @ b", "a @ b", "a @ b")],
                    cfg, "numpy", 1.1, cfg.big_repeat, isolate_torch=True)


# ---------------------------------------------------------------- main
def autograd_ops(cfg: Config) -> None:
    """Recording and backward (benchmarks/autograd.py); runs last: it installs recording."""
    from benchmarks import autograd as ag
    e_tv = ag.envs(tv)
    e_th = ag.envs(torch) if torch else {}
    e_np = ag.numpy_env()  # (the same arithmetic in NumPy alone: the kernels' floor)
    groups: dict = {}
    for name, stmt, limit, whole in ag.CASES:
        groups.setdefault((whole, limit), []).append((name, e_tv, stmt, e_np, stmt, e_th, stmt))
    for (whole, limit), cases in groups.items():
        if whole:
            # PyTorch timed on one thread (its pool spinning on this shared 2-core machine
            # made the 64x64 step 20-70x slower than on one thread), in wall time, apart
            threads = torch.get_num_threads() if torch else None
            if torch:
                torch.set_num_threads(1)
            try:
                compare_section("Autograd: forward + backward, PyTorch on one thread (wall "
                                "time)", "autograd", cases, cfg, "torch", limit,
                                isolate_torch=True)
            finally:
                if torch:
                    torch.set_num_threads(threads)
        else:
            compare_section("Autograd: per call (thread CPU time)", "autograd", cases, cfg,
                            "torch", limit, clock=CPU)


def machine() -> dict:
    model = platform.processor() or platform.machine()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "torch": getattr(torch, "__version__", None),
            "tensorviz": tv.__version__,
            "date": datetime.date.today().isoformat(), "platform": platform.platform()}


SECTIONS = {"tiny": tiny_ops, "large": large_ops, "matmul": matmul_ops,
            "contiguous": contiguous_copy, "views": view_ops, "import": import_time,
            "widget": widget_state, "cuda": cuda_ops, "autograd": autograd_ops}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes, few repeats (seconds)")
    p.add_argument("--json", metavar="PATH", help="also write every result as JSON here")
    p.add_argument("--only", metavar="SECTION", action="append", choices=list(SECTIONS),
                   help="run only these sections (repeatable)")
    args = p.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    info = machine()
    print(f"tensorviz {info['tensorviz']} benchmarks, {info['date']}"
          + (" (--quick: smoke run, numbers are rough)" if cfg.quick else ""))
    print(f"{info['cpu']}, {info['cores']} cores; Python {info['python']}, NumPy "
          f"{info['numpy']}, PyTorch {info['torch'] or 'not installed'}")
    for name, fn in SECTIONS.items():
        if args.only and name not in args.only:
            continue
        fn(cfg)
    targeted = [r for r in RESULTS if r.ok is not None]
    missed = [r for r in targeted if not r.ok]
    print(f"\nTargets met: {len(targeted) - len(missed)} of {len(targeted)}")
    for r in missed:
        print(f"  not met: [{r.section}] {r.case}: {fmt_ratio(r.ratio) if r.ratio else ''} "
              f"(target {r.target})")
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": info, "quick": cfg.quick,
                                               "results": [asdict(r) for r in RESULTS]},
                                              indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
