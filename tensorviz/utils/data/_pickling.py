"""Sending a dataset (and collate_fn, worker_init_fn) to worker processes.

Under the ``fork`` start method a worker is a copy of the main process and nothing is sent.
Under ``spawn`` and ``forkserver`` (the default on macOS and Windows, and on Linux from
Python 3.14) the worker is a fresh interpreter that gets these objects pickled.  Plain pickle
sends a class by its module and name, and a class defined in a notebook cell lives in the
kernel's ``__main__``, which a fresh worker does not have: PyTorch's workers then fail with
``Can't get attribute 'MyDataset' on <module '__main__'>``.

# Note: tensorviz pickles such classes and functions *by value* (their code travels with them,
# through cloudpickle), so a notebook-defined Dataset works under every start method.  An
# object that cannot be pickled at all (an open file, a lock, a database connection) gets an
# error that names it and says what to do.
"""
from __future__ import annotations

import pickle
from typing import Any


def _cloudpickle():
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - cloudpickle is a dependency
        return None
    return cloudpickle


def result_pickler_base(start_method: str) -> type:
    """The pickler class a worker sends its results with.

    After ``spawn`` the worker's notebook classes are rebuilt copies; cloudpickle sends them
    back by value tagged with the id the main process gave them, so instances come back as
    instances of the main process's own class."""
    if start_method != "fork":
        cp = _cloudpickle()
        if cp is not None:
            return cp.Pickler
    return pickle.Pickler


class ByValue:
    """What a spawned worker receives: ``obj``, pickled (by cloudpickle) when the worker
    process is started, so multiprocessing's own objects in it (an Event, a Queue) may be
    sent too, as they may only be while a process is being started."""

    def __init__(self, obj):
        self.obj = obj

    def __reduce__(self):
        cp = _cloudpickle()
        dumps = cp.dumps if cp is not None else pickle.dumps
        return (Packed, (dumps(self.obj, protocol=pickle.HIGHEST_PROTOCOL),))


class Packed:
    """The pickled payload as the worker receives it: unpickled by the worker loop itself,
    so a failure there (a module the worker cannot import) is reported like any worker
    error, with its traceback."""

    def __init__(self, blob: bytes):
        self.blob = blob

    def load(self) -> dict:
        return pickle.loads(self.blob)


def explain_failure(payload: dict, start_method: str, error: Exception) -> Exception:
    """The error to raise when the workers' payload cannot be pickled: it names the
    offending attribute and says what to do."""
    cp = _cloudpickle()
    dumps = cp.dumps if cp is not None else pickle.dumps
    culprit = _find_unpicklable(payload, dumps)
    where = culprit[0] if culprit else "the DataLoader's arguments"
    what = f" (a {type(culprit[1]).__name__})" if culprit else ""
    msg = (f"DataLoader cannot send {where}{what} to its worker processes: {error}. Workers "
           f"started with the {start_method!r} start method receive a pickled copy of the "
           f"dataset, collate_fn and worker_init_fn. Open files, connections and locks "
           f"inside the worker instead (in __getitem__/__iter__, or in worker_init_fn), "
           f"or use num_workers=0")
    if start_method != "fork":
        msg += ", or multiprocessing_context='fork' where the platform has it"
    msg += "."
    try:
        return type(error)(msg)
    except Exception:
        return RuntimeError(msg)


def _find_unpicklable(root: dict, dumps, depth: int = 4) -> tuple[str, Any] | None:
    """The deepest attribute path under ``root`` that fails to pickle, e.g.
    ``dataset.source.handle``."""

    def fails(obj) -> bool:
        try:
            dumps(obj)
            return False
        except Exception:
            return True

    def children(obj):
        if isinstance(obj, dict):
            return [(f"[{k!r}]", v) for k, v in obj.items()]
        if isinstance(obj, (list, tuple)):
            return [(f"[{i}]", v) for i, v in enumerate(obj)]
        state = getattr(obj, "__dict__", None)
        if isinstance(state, dict):
            return [(f".{k}", v) for k, v in state.items()]
        return []

    found = None
    for key, value in root.items():
        if value is not None and fails(value):
            found = (key, value)
            break
    if found is None:
        return None
    for _ in range(depth):
        path, obj = found
        for suffix, child in children(obj):
            if fails(child):
                found = (path + suffix, child)
                break
        else:
            break
    return found


