"""``python -m tests.fuzz --programs 100000 --seed 1``: the long differential fuzz run.

Prints counts per kind, then each distinct finding shrunk to a runnable snippet. Exit status 1
when any silent difference, leak, hang or crash was found.
"""
from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    p.add_argument("--programs", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per program")
    p.add_argument("--no-shrink", action="store_true")
    p.add_argument("--kinds", default="silent,leak,hang,crash,refused,accepted")
    p.add_argument("--progress", type=int, default=1000)
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        from .runner import worker_main
        worker_main()
        return 0
    from .runner import format_findings, run
    kinds = tuple(args.kinds.split(","))
    report = run(args.programs, args.seed, args.timeout, not args.no_shrink, kinds,
                 args.progress)
    print(format_findings(report, kinds))
    bad = sum(report.counts.get(k, 0) for k in ("silent", "leak", "hang", "crash"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
