"""DataLoader benchmarks: tensorviz against PyTorch, ratios from one run.

    python benchmarks/data_loader.py           # the full run (about a minute)
    python benchmarks/data_loader.py --quick   # a smoke run (seconds)

1. Per-batch overhead in the main process: a DataLoader over a TensorDataset of the 8x8
   digits (scikit-learn's bundled ``load_digits``: 1797 x 64 float32 images, int64 labels),
   ``batch_size=64, shuffle=True, num_workers=0``: the time of one epoch divided by its 29
   batches.  Target: tensorviz at most 0.5x PyTorch's time.
2. Worker throughput: a dataset whose ``__getitem__`` sleeps 1 ms (I/O-bound, as reading
   files is), ``batch_size=16``: samples per second with ``num_workers=2`` against
   ``num_workers=0``, both in steady state (persistent workers, after a warm-up epoch) and
   including the workers' start.  Target: at least 1.8x in steady state.

The libraries' repeats alternate and a ratio is the median of the per-repeat ratios, so a busy
machine moves the times more than the ratios.  Nothing here asserts.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import tensorviz as tv  # noqa: E402
from tensorviz.utils import data as tvdata  # noqa: E402

try:  # noqa: E402
    import torch
    import torch.utils.data as tdata
except ImportError:  # PyTorch is optional: its column stays empty
    torch = tdata = None


def digits() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits  # (bundled with scikit-learn: no download)
    x, y = load_digits(return_X_y=True)
    return x.astype(np.float32), y.astype(np.int64)


def epoch_time(loader) -> float:
    start = time.perf_counter()
    for _ in loader:
        pass
    return time.perf_counter() - start


def per_batch_overhead(repeat: int) -> dict:
    x, y = digits()
    loaders = {"tensorviz": tvdata.DataLoader(
        tvdata.TensorDataset(tv.from_numpy(x), tv.from_numpy(y)), batch_size=64, shuffle=True)}
    if torch is not None:
        loaders["torch"] = tdata.DataLoader(
            tdata.TensorDataset(torch.from_numpy(x), torch.from_numpy(y)), batch_size=64,
            shuffle=True)
    n = len(loaders["tensorviz"])
    times = {k: [] for k in loaders}
    for loader in loaders.values():
        epoch_time(loader)  # warm-up
    for r in range(repeat):
        order = list(loaders) if r % 2 == 0 else list(reversed(loaders))
        for k in order:
            times[k].append(epoch_time(loaders[k]) / n)
    out = {k: statistics.median(v) for k, v in times.items()}
    if "torch" in times:
        out["ratio"] = statistics.median(a / b for a, b in zip(times["tensorviz"],
                                                               times["torch"]))
    out["batches"] = n
    return out


class Sleepy(tvdata.Dataset):
    """Each sample takes 1 ms to read (``time.sleep``), as a file would."""

    def __init__(self, n: int):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        time.sleep(0.001)
        return np.full(4, i, dtype=np.float32)


def worker_throughput(n: int, repeat: int, module=tvdata) -> dict:
    ds = Sleepy(n)
    single = module.DataLoader(ds, batch_size=16)
    pooled = module.DataLoader(ds, batch_size=16, num_workers=2, persistent_workers=True)
    epoch_time(single)
    epoch_time(pooled)  # starts the workers
    steady, cold = [], []
    for _ in range(repeat):
        t0 = epoch_time(single)
        t2 = epoch_time(pooled)
        steady.append(t0 / t2)
        fresh = module.DataLoader(ds, batch_size=16, num_workers=2)
        cold.append(t0 / epoch_time(fresh))
    return {"steady": statistics.median(steady),
            "with_start": statistics.median(cold)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    args = ap.parse_args(argv)
    repeat = 3 if args.quick else 15
    o = per_batch_overhead(repeat)
    print("### DataLoader per-batch overhead: 8x8 digits, batch 64, shuffled, num_workers=0 "
          "(target: tensorviz <= 0.5x torch)")
    print("| | tensorviz | torch | ratio |\n|---|---|---|---|")
    t = f"{o['torch'] * 1e6:.1f} us" if "torch" in o else "-"
    r = f"{o['ratio']:.2f}x" if "ratio" in o else "-"
    print(f"| per batch ({o['batches']} batches) | {o['tensorviz'] * 1e6:.1f} us | {t} | {r} |")
    n = 128 if args.quick else 1024
    rep = 2 if args.quick else 5
    print()
    print(f"### DataLoader workers: {n} samples that sleep 1 ms each, batch 16 "
          "(target: num_workers=2 >= 1.8x the throughput of num_workers=0)")
    print("| library | steady state (persistent workers) | including the workers' start |")
    print("|---|---|---|")
    ours = worker_throughput(n, rep)
    print(f"| tensorviz | {ours['steady']:.2f}x | {ours['with_start']:.2f}x |")
    if torch is not None:
        theirs = worker_throughput(n, rep, tdata)
        print(f"| torch | {theirs['steady']:.2f}x | {theirs['with_start']:.2f}x |")
    met = [o.get("ratio", 0) <= 0.5, ours["steady"] >= 1.8]
    print(f"\nTargets met: {sum(met)}/{len(met)}")


if __name__ == "__main__":
    main()
