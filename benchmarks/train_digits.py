"""Training benchmark of issue 14: seconds per epoch on the 8x8 digits, tensorviz vs PyTorch.

    python benchmarks/train_digits.py            # the full run (20 epochs per model)
    python benchmarks/train_digits.py --quick    # a smoke run (2 epochs, seconds)
    python benchmarks/train_digits.py --only mlp_sgd --epochs 5

Data: scikit-learn's bundled ``load_digits`` (1797 images, no download), pixels scaled to
[0, 1], one fixed train/test split (1437/360, seed 0) and, per epoch, one fixed shuffled
batch order (batch 64) that every library sees.

Models, each started from one PyTorch ``state_dict`` copied into tensorviz:

- ``mlp_sgd``: Linear(64, 64) -> ReLU -> Linear(64, 10), SGD(lr=0.05, momentum=0.9);
- ``mlp_adam``: the same MLP, Adam(lr=1e-3);
- ``cnn``: Conv2d(1, 8, 3, padding=1) -> ReLU -> MaxPool2d(2) -> Flatten -> Linear(128, 10)
  on 1x8x8 images, SGD(lr=0.05, momentum=0.9).

Loss: ``F.cross_entropy``. One epoch is, for every batch: ``zero_grad``, forward, loss,
``backward``, ``step``. The batches are tensors made before timing (data loading is
``benchmarks/data_loader.py``'s subject).

tensorviz (NumPy's BLAS held to one thread with threadpoolctl when it is installed, as
scikit-learn installs it) and PyTorch on one thread train side by side, epoch by epoch, in
alternating order. Each epoch is timed twice: in the calling thread's CPU time
(``time.thread_time``: all that either spends, and what other processes on a shared machine
do not inflate) and in wall time. A ratio is the median of the per-epoch ratios (each pair
of epochs ran back to back), so a busy machine moves the times more than the ratios. The
first epoch is a warm-up and is not counted. Test accuracy is measured after the last
epoch. Then PyTorch on its default thread pool trains ``--pool-epochs`` epochs of its own
(after a warm-up one), in wall time, apart: its workers spin after each parallel op and,
interleaved, would slow the other two. Nothing here asserts.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import tensorviz as tv  # noqa: E402

try:  # noqa: E402
    import torch
except ImportError:  # PyTorch is optional: its columns stay empty
    torch = None

BATCH = 64
MODELS = ("mlp_sgd", "mlp_adam", "cnn")


def digits() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The digits, scaled to [0, 1], split 1437/360 by one fixed permutation."""
    from sklearn.datasets import load_digits  # (bundled with scikit-learn: no download)
    x, y = load_digits(return_X_y=True)
    x = (x / 16.0).astype(np.float32)
    y = y.astype(np.int64)
    perm = np.random.default_rng(0).permutation(len(x))
    tr, te = perm[:1437], perm[1437:]
    return x[tr], y[tr], x[te], y[te]


def batch_orders(n: int, epochs: int) -> list[list[np.ndarray]]:
    """For each epoch, the index arrays of its batches (one shuffled order per epoch)."""
    rng = np.random.default_rng(1)
    out = []
    for _ in range(epochs):
        p = rng.permutation(n)
        out.append([p[i:i + BATCH] for i in range(0, n, BATCH)])
    return out


def build(lib, name: str):
    """The model of ``name`` in ``lib`` (tensorviz or torch)."""
    nn = lib.nn
    if name.startswith("mlp"):
        return nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(8 * 4 * 4, 10))


def optimizer(lib, name: str, params):
    if name == "mlp_adam":
        return lib.optim.Adam(params, lr=1e-3)
    return lib.optim.SGD(params, lr=0.05, momentum=0.9)


class Trainer:
    """One library's model, optimizer and pre-made batches; ``epoch(e)`` trains one epoch."""

    def __init__(self, lib, name: str, state: dict, data, orders, threads: int | None = None):
        self.lib, self.threads = lib, threads
        self.model = build(lib, name)
        self.model.load_state_dict({k: lib.tensor(v) for k, v in state.items()})
        self.opt = optimizer(lib, name, self.model.parameters())
        xtr, ytr, xte, yte = data
        shape = (-1, 1, 8, 8) if name == "cnn" else (-1, 64)
        self.batches = [[(lib.from_numpy(np.ascontiguousarray(xtr[i].reshape(shape))),
                          lib.from_numpy(ytr[i])) for i in order] for order in orders]
        self.xte = lib.from_numpy(np.ascontiguousarray(xte.reshape(shape)))
        self.yte = yte
        self.losses: list[float] = []

    def epoch(self, e: int) -> tuple[float, float]:
        """Train epoch ``e``; return its (thread CPU, wall) time in seconds."""
        lib, model, opt = self.lib, self.model, self.opt
        ce = lib.nn.functional.cross_entropy
        if self.threads is not None:
            torch.set_num_threads(self.threads)
        with _blas_one_thread() if lib is tv else _nothing():
            cpu, wall = time.thread_time(), time.perf_counter()
            for xb, yb in self.batches[e]:
                opt.zero_grad()
                loss = ce(model(xb), yb)
                loss.backward()
                opt.step()
            cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        self.losses.append(float(loss.item()))
        return cpu, wall

    def accuracy(self) -> float:
        with self.lib.no_grad():
            pred = self.model(self.xte).argmax(1).numpy()
        return float((pred == self.yte).mean())


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _blas_one_thread():
    """NumPy's BLAS on one thread (threadpoolctl), so tensorviz's CPU time is all of it."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - scikit-learn brings it
        return _nothing()
    return threadpool_limits(1, user_api="blas")


def run_model(name: str, epochs: int, data, pool_epochs: int = 3) -> dict:
    """Train ``name`` for ``epochs`` epochs in tensorviz and PyTorch on one thread,
    interleaved, then PyTorch's default pool for ``pool_epochs``; the results."""
    orders = batch_orders(len(data[0]), epochs)
    if torch is not None:
        torch.manual_seed(0)
        state = {k: v.detach().numpy().copy() for k, v in build(torch, name).state_dict().items()}
    else:
        tv.manual_seed(0)
        state = {k: v.detach().numpy().copy() for k, v in build(tv, name).state_dict().items()}
    trainers = {"tensorviz": Trainer(tv, name, state, data, orders)}
    if torch is not None:
        default_threads = torch.get_num_threads()
        trainers["torch_1t"] = Trainer(torch, name, state, data, orders, threads=1)
    cpu: dict[str, list[float]] = {k: [] for k in trainers}
    wall: dict[str, list[float]] = {k: [] for k in trainers}
    keys = list(trainers)
    for e in range(epochs):
        order = keys if e % 2 == 0 else keys[::-1]
        for k in order:
            c, w = trainers[k].epoch(e)
            cpu[k].append(c)
            wall[k].append(w)
    if torch is not None and pool_epochs:
        pool = Trainer(torch, name, state, data, orders, threads=default_threads)
        for e in range(min(pool_epochs, epochs - 1) + 1):
            c, w = pool.epoch(e)
            cpu.setdefault("torch", []).append(c)
            wall.setdefault("torch", []).append(w)
    if torch is not None:
        torch.set_num_threads(default_threads)
    cpu = {k: v[1:] if len(v) > 1 else v for k, v in cpu.items()}
    wall = {k: v[1:] if len(v) > 1 else v for k, v in wall.items()}
    out = {"model": name, "epochs": epochs,
           "batches_per_epoch": len(orders[0]),
           "cpu_seconds_per_epoch": {k: statistics.median(v) for k, v in cpu.items()},
           "seconds_per_epoch": {k: statistics.median(v) for k, v in wall.items()},
           "best_seconds_per_epoch": {k: min(v) for k, v in wall.items()},
           "accuracy": {k: t.accuracy() for k, t in trainers.items()},
           "pool_epochs": len(wall.get("torch", ())),
           "final_loss": {k: t.losses[-1] for k, t in trainers.items()}}
    if torch is not None:
        out["threads_default"] = default_threads
        # (one thread each: CPU time; PyTorch's pool: wall time, both sides)
        out["ratio_torch_1t"] = statistics.median(
            a / b for a, b in zip(cpu["tensorviz"], cpu["torch_1t"]))
        out["ratio_torch_1t_wall"] = statistics.median(
            a / b for a, b in zip(wall["tensorviz"], wall["torch_1t"]))
        if "torch" in wall:  # (not paired: PyTorch's pool ran apart)
            out["ratio_torch"] = statistics.median(wall["tensorviz"]) / statistics.median(
                wall["torch"])
    return out


TARGETS = {"mlp_sgd": 0.7, "mlp_adam": 0.7, "cnn": 1.5}


def report(results: list[dict]) -> str:
    """The results as a Markdown table."""
    lines = ["| model | tensorviz CPU s/epoch | torch 1 thread CPU | tv/torch 1 thread (CPU) "
             "| (wall) | tensorviz wall | torch default pool wall | tv/torch pool (wall) | "
             "target | accuracy tv | accuracy torch |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    fmt = lambda x: f"{x * 1e3:.1f} ms"  # noqa: E731
    for r in results:
        c, w, acc = r["cpu_seconds_per_epoch"], r["seconds_per_epoch"], r["accuracy"]
        if "torch_1t" not in acc:
            lines.append(f"| {r['model']} | {fmt(c['tensorviz'])} | - | - | - | "
                         f"{fmt(w['tensorviz'])} | - | - | - | {acc['tensorviz']:.1%} | - |")
            continue
        r1, r1w, rd = r["ratio_torch_1t"], r["ratio_torch_1t_wall"], r.get("ratio_torch")
        target = TARGETS[r["model"]]
        met = "met" if r1 <= target else "NOT met"
        lines.append(
            f"| {r['model']} | {fmt(c['tensorviz'])} | {fmt(c['torch_1t'])} | **{r1:.2f}x** | "
            f"{r1w:.2f}x | {fmt(w['tensorviz'])} | "
            f"{fmt(w['torch']) + ' (x%d)' % r['threads_default'] if 'torch' in w else '-'} | "
            f"{'-' if rd is None else f'{rd:.2f}x'} | <= {target}x: {met} | "
            f"{acc['tensorviz']:.1%} | {acc['torch_1t']:.1%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="2 epochs per model: a smoke run")
    p.add_argument("--epochs", type=int, default=None, help="epochs per model (default 20)")
    p.add_argument("--only", action="append", choices=MODELS, help="one model (repeatable)")
    p.add_argument("--pool-epochs", type=int, default=None,
                   help="epochs timed for PyTorch's default thread pool (default 3, quick 1)")
    p.add_argument("--json", metavar="PATH", help="also write every number as JSON here")
    args = p.parse_args(argv)
    epochs = args.epochs or (2 if args.quick else 20)
    data = digits()
    results = []
    for name in args.only or MODELS:
        r = run_model(name, epochs, data, args.pool_epochs if args.pool_epochs is not None
                      else (1 if args.quick else 3))
        results.append(r)
        print(f"{name}: done", file=sys.stderr, flush=True)
    print(f"## Training on the digits: seconds per epoch ({epochs} epochs, batch {BATCH}, "
          f"{results[0]['batches_per_epoch']} batches per epoch; median of epochs 2..)\n")
    print(report(results))
    if args.json:
        Path(args.json).write_text(json.dumps({"quick": args.quick, "results": results},
                                              indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
