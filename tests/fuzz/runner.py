"""Run many programs in worker subprocesses, so a crash or a hang is a finding, not the end.

The parent hands a worker a range of seeds; the worker generates each program, runs it on both
libraries and prints one JSON line per program. A worker that stays silent past the per-program
time limit is killed (``hang``); one that dies is a ``crash``; either way a fresh worker goes on
with the next seed. Each finding is then shrunk (statements and keyword arguments dropped while
the same kind of disagreement at the same op remains) and printed as a runnable snippet::

    python -m tests.fuzz --programs 100000 --seed 1
"""
from __future__ import annotations

import collections
import json
import os
import select
import subprocess
import sys
import time
from dataclasses import asdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHRUNK = ("silent", "leak", "hang", "crash", "refused")
KINDS = ("silent", "leak", "hang", "crash", "refused", "error-class", "accepted", "torch-crash",
         "torch-hang")
WORKER_LOST = ("hang", "crash", "torch-crash", "torch-hang")


def _load():
    import torch

    import tensorviz

    from .inventory import inventory
    return torch, tensorviz, inventory(torch, tensorviz)


def worker_main() -> None:
    """Worker loop: read a JSON request per line, answer with a JSON line."""
    from .differential import compare
    from .programs import generate
    torch, tv, ops = _load()
    torch.set_num_threads(1)
    # The protocol gets its own copy of fd 1; anything a program prints goes to stderr.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    out.write("{}\n")
    out.flush()
    for raw in sys.stdin:
        req = json.loads(raw)
        if "seed" in req:
            seed = req["seed"]
            prog = generate(seed, ops, torch)
            lines = [s.render() for s in prog]
            names = [s.op for s in prog]
            out.write(json.dumps({"start": seed, "lines": lines, "ops": names}) + "\n")
            out.flush()
        else:
            seed, lines, names = None, req["lines"], req["ops"]
        def phase(name, line=None, _last=[None]):
            if (name, line) != _last[0]:
                _last[0] = (name, line)
                out.write(json.dumps({"phase": name, "line": line}) + "\n")
                out.flush()
        f = compare(lines, torch, tv, names, phase)
        out.write(json.dumps({"seed": seed, "finding": asdict(f) if f else None}) + "\n")
        out.flush()


#: A program may run this many times its CPU-time limit in wall-clock time before it is a
#: hang all the same (one that sleeps or waits uses no CPU time).
WALL_FACTOR = 6


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) process ``pid`` has used, or None where /proc is not."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Worker:
    """One worker subprocess (``python -m tests.fuzz --worker``).

    A program's time limit counts the worker's CPU time from the request on (not its
    start-up, not time the machine spends on other processes), so a loaded machine does not
    turn a slow program into a hang; a program that runs ``WALL_FACTOR`` times the limit in
    wall-clock time is a hang whatever its CPU time."""

    def __init__(self):
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
                   OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
                   PYTHONWARNINGS="ignore")
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.fuzz", "--worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=ROOT, env=env, text=True,
                                     bufsize=1)
        self.buf = ""
        self.phase = None  # the library running when the worker last spoke
        self.line = None   # and the statement it was running

    def send(self, req: dict) -> None:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()

    def recv(self, timeout: float):
        """The next JSON line; ``"hang"`` past ``timeout`` seconds of the worker's CPU time
        (or ``WALL_FACTOR`` times that in wall-clock time), ``"crash"`` at EOF."""
        start = time.monotonic()
        cpu0 = _cpu_seconds(self.proc.pid)
        wall = timeout if cpu0 is None else timeout * WALL_FACTOR
        fd = self.proc.stdout.fileno()
        while True:
            while "\n" not in self.buf:
                left = start + wall - time.monotonic()
                cpu = _cpu_seconds(self.proc.pid) if cpu0 is not None else None
                if left <= 0 or (cpu is not None and cpu - cpu0 > timeout):
                    return "hang" if self.phase != "torch" else "torch-hang"
                ready, _, _ = select.select([fd], [], [], min(left, 0.25))
                if ready:
                    chunk = os.read(fd, 1 << 16).decode()
                    if not chunk:  # (PyTorch itself dies on a few inputs: not ours)
                        return "crash" if self.phase != "torch" else "torch-crash"
                    self.buf += chunk
            line, self.buf = self.buf.split("\n", 1)
            msg = json.loads(line)
            if isinstance(msg, dict) and "phase" in msg:
                self.phase, self.line = msg["phase"], msg.get("line")
                continue
            self.phase = None
            return msg

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:  # (a dead worker's pipe may refuse the final flush)
                pass


def _run_lines(worker_box: list, lines: list, ops: list, timeout: float):
    """Run one explicit program; the finding dict, None, or "hang"/"crash"."""
    if worker_box[0] is None:
        worker_box[0] = Worker()
        if worker_box[0].recv(120) in WORKER_LOST:  # the ready line
            raise RuntimeError("fuzz worker failed to start")
    w = worker_box[0]
    w.send({"lines": lines, "ops": ops})
    res = w.recv(timeout)
    if res in WORKER_LOST:
        w.kill()
        worker_box[0] = None
        return res
    return res["finding"]


def _kind(res) -> tuple | None:
    if res is None:
        return None
    if isinstance(res, str):
        return (res, None)
    return (res["kind"], res["op"])


def shrink(lines: list, ops: list, target: tuple, worker_box: list, timeout: float,
           budget: int = 40) -> tuple:
    """Drop statements (then keyword arguments) while the finding keeps its kind and op."""
    tries = 0

    def still(ls, os_):
        nonlocal tries
        tries += 1
        res = _run_lines(worker_box, ls, os_, timeout)
        k = _kind(res)
        if k is None:
            return False
        return k[0] == target[0] and (target[1] is None or k[1] == target[1])

    changed = True
    while changed and tries < budget:
        changed = False
        for i in range(len(lines) - 1, -1, -1):
            if tries >= budget:
                break
            ls, os_ = lines[:i] + lines[i + 1:], ops[:i] + ops[i + 1:]
            if ls and still(ls, os_):
                lines, ops, changed = ls, os_, True
    # keyword arguments, one at a time
    import re
    for i, line in enumerate(lines):
        for m in list(re.finditer(r", (\w+)=([^,()]+|\([^()]*\))(?=[,)])", line)):
            if tries >= budget:
                break
            cand = line.replace(m.group(0), "", 1)
            ls = lines[:i] + [cand] + lines[i + 1:]
            if still(ls, ops):
                lines[i] = line = cand
    return lines, ops


class Report:
    """Counts per kind and the distinct findings (kind, op) with their smallest program."""

    def __init__(self):
        self.counts = collections.Counter()
        self.examples: dict = {}
        self.programs = 0

    def add(self, kind: str, op: str, detail: str, lines: list, ops: list, seed: int) -> None:
        self.counts[kind] += 1
        key = (kind, op)
        if key not in self.examples:
            self.examples[key] = {"seed": seed, "detail": detail, "lines": lines, "ops": ops,
                                  "count": 0}
        self.examples[key]["count"] += 1

    def summary(self) -> str:
        out = [f"{self.programs} programs: " + ", ".join(
            f"{k} {self.counts.get(k, 0)}" for k in KINDS)]
        return "\n".join(out)


def run(programs: int, seed: int, timeout: float = 10.0, do_shrink: bool = True,
        kinds=KINDS, progress=None, verbose: bool = True) -> Report:
    """Fuzz ``programs`` programs from seeds ``seed, seed+1, ...`` in one worker at a time."""
    report = Report()
    box = [None]
    seeds = iter(range(seed, seed + programs))
    cur = None
    while True:
        if box[0] is None:
            box[0] = Worker()
            if box[0].recv(120) in WORKER_LOST:
                raise RuntimeError("fuzz worker failed to start")
        w = box[0]
        cur = next(seeds, None)
        if cur is None:
            break
        w.send({"seed": cur})
        head = w.recv(timeout * 3)
        if head in WORKER_LOST:
            w.kill()
            box[0] = None
            report.programs += 1  # (generating runs PyTorch only)
            report.add("torch-" + head.replace("torch-", ""), "generate",
                       "PyTorch, while generating", [], [], cur)
            continue
        lines, ops = head["lines"], head["ops"]
        res = w.recv(timeout)
        report.programs += 1
        if res in WORKER_LOST:
            # (put on the statement that was running, not the program's last one)
            n = len(lines) if w.line is None else w.line + 1
            w.kill()
            box[0] = None
            report.add(res, ops[n - 1] if ops[:n] else "", res, lines[:n], ops[:n], cur)
            continue
        f = res["finding"]
        if f is not None:
            n = f["line"] + 1
            report.add(f["kind"], f["op"], f["detail"], lines[:n], ops[:n], cur)
        if progress and report.programs % progress == 0:
            print(report.summary(), file=sys.stderr, flush=True)
    if box[0] is not None:
        box[0].kill()
        box[0] = None
    if do_shrink:
        for key, ex in report.examples.items():
            if key[0] in kinds and key[0] in SHRUNK:
                tgt = (key[0], key[1] if key[0] not in ("hang", "crash") else None)
                ex["lines"], ex["ops"] = shrink(ex["lines"], ex["ops"], tgt, box, timeout)
        if box[0] is not None:
            box[0].kill()
    return report


def format_findings(report: Report, kinds=KINDS) -> str:
    out = [report.summary()]
    for (kind, op), ex in sorted(report.examples.items(), key=lambda kv: (
            KINDS.index(kv[0][0]), -kv[1]["count"])):
        if kind not in kinds:
            continue
        out.append(f"\n# [{kind}] {op} x{ex['count']} (seed {ex['seed']}): {ex['detail'][:300]}")
        out.append("import torch as T  # then: import tensorviz as T")
        out.extend(ex["lines"])
    return "\n".join(out)
