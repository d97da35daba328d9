"""A Dataset, collate_fn and namedtuple defined in notebook cells, loaded by worker processes
under every start method, in a real Jupyter kernel (nbclient + ipykernel).

PyTorch's workers cannot find such classes under spawn/forkserver (they live in the kernel's
``__main__``); tensorviz pickles them by value.  The notebook also interrupts a loop whose
worker is stuck, as a teacher pressing the stop button would, and checks that no worker and
no shared-memory segment is left behind."""
from __future__ import annotations

import json
import multiprocessing
import sys
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")
pytest.importorskip("psutil")

REPO = Path(__file__).resolve().parents[3]
METHODS = [m for m in ("fork", "spawn", "forkserver")
           if m in multiprocessing.get_all_start_methods()]

SETUP = '''
import collections, glob, os, signal, threading
import multiprocessing as mp
import psutil
import tensorviz as torch
from tensorviz.utils.data import DataLoader, Dataset

def workers_alive():
    """Worker processes of this kernel still running (not the helpers multiprocessing
    keeps: its resource tracker and forkserver)."""
    me = psutil.Process()
    found = []
    for p in me.children(recursive=True):
        try:
            cmd = " ".join(p.cmdline())
            if p.status() == psutil.STATUS_ZOMBIE or "resource_tracker" in cmd:
                continue
            if "forkserver import main" in cmd and p.ppid() == me.pid:
                continue
        except psutil.NoSuchProcess:
            continue
        found.append(p.pid)
    return found
'''

DEFINE = '''
Pair = collections.namedtuple("Pair", "x pid")

class Squares(Dataset):          # defined in a cell: it lives in the kernel's __main__
    def __len__(self):
        return 10
    def __getitem__(self, i):
        return Pair(torch.tensor([float(i * i)]), os.getpid())

def collate(batch):              # a notebook-defined collate_fn too
    return Pair(torch.cat([p.x for p in batch]), [p.pid for p in batch])
'''

LOAD = '''
loader = DataLoader(Squares(), batch_size=4, num_workers=2, multiprocessing_context=METHOD,
                    collate_fn=collate, worker_init_fn=lambda worker_id: None)
batches = list(loader)
print("types", all(type(b) is Pair for b in batches))
print("values", [b.x.tolist() for b in batches])
pids = {p for b in batches for p in b.pid}
print("workers", len(pids), os.getpid() in pids)
print("left", workers_alive(), glob.glob(f"/dev/shm/tvz{os.getpid()}_*"))
'''

INTERRUPT = '''
started = mp.get_context(METHOD).Event()

class Stuck(Dataset):
    def __init__(self, started):
        self.started = started
    def __len__(self):
        return 8
    def __getitem__(self, i):
        if i == 0:
            self.started.set()
            threading.Event().wait()   # never returns
        return i

stopped = threading.Event()

def press_stop():                      # the interrupt button, once a worker is stuck
    started.wait()
    while True:                        # (an interrupt landing in a finalizer is dropped
        os.kill(os.getpid(), signal.SIGINT)   # by Python: press it again, as a user would)
        if stopped.wait(10.0):        # (well past the stopping loader's 1 s grace)
            return

threading.Thread(target=press_stop).start()
try:
    for batch in DataLoader(Stuck(started), batch_size=2, num_workers=2,
                            multiprocessing_context=METHOD):
        pass
finally:
    stopped.set()
'''

CHECK = '''
print("after interrupt", workers_alive(), glob.glob(f"/dev/shm/tvz{os.getpid()}_*"))
'''


@pytest.fixture(scope="module")
def jupyter_path(tmp_path_factory):
    """A data dir whose ``kernels/python3`` runs this interpreter with this checkout."""
    from ipykernel.kernelspec import write_kernel_spec
    root = tmp_path_factory.mktemp("jupyter")
    spec_dir = Path(write_kernel_spec(str(root / "kernels" / "python3")))
    spec = json.loads((spec_dir / "kernel.json").read_text())
    spec["argv"][0] = sys.executable
    spec["env"] = {"PYTHONPATH": str(REPO)}
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    return root


def outputs(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", [])
                   if o.get("output_type") == "stream")


def errors(cell) -> list[str]:
    return [f"{o['ename']}: {o['evalue']}" for o in cell.get("outputs", [])
            if o.get("output_type") == "error"]


@pytest.mark.parametrize("method", METHODS)
def test_notebook_dataset_under_each_start_method(method, jupyter_path, tmp_path,
                                                  monkeypatch):
    if "/dev/shm" and not Path("/dev/shm").is_dir():
        pytest.skip("needs /dev/shm to check for leftover segments")
    monkeypatch.setenv("JUPYTER_PATH", str(jupyter_path))
    # (With fork a worker is on its first batch, and the interrupt comes, while the kernel
    # is still filling the index queues: the case where an interrupt used to leave a
    # queue's lock held, stall the stop for seconds and leave the workers running.)
    cells = [SETUP, f"METHOD = {method!r}", DEFINE, LOAD, INTERRUPT, CHECK]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.cells[4].metadata["tags"] = ["raises-exception"]
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    for i in (0, 1, 2, 3, 5):
        assert errors(nb.cells[i]) == [], (i, errors(nb.cells[i]))
    text = outputs(nb.cells[3])
    assert "types True" in text
    assert "values [[0.0, 1.0, 4.0, 9.0], [16.0, 25.0, 36.0, 49.0], [64.0, 81.0]]" in text
    assert "workers 2 False" in text
    assert "left [] []" in text
    assert [e.split(":")[0] for e in errors(nb.cells[4])] == ["KeyboardInterrupt"]
    assert "after interrupt [] []" in outputs(nb.cells[5])
