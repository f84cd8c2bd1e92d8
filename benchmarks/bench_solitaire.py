"""Benchmark: the optimal solitaire solve, cold (no disk cache for the solitaire itself; the
per-phase turn solutions it starts from are loaded from the disk cache when present).

Run: ``python benchmarks/bench_solitaire.py [--workers N] [--simulate N]``; prints the time,
the peak memory (RSS) and the comparison table.

``--cli``: the command a user types instead, ``phase10math solitaire`` on the recorded dice,
in its own process with a fresh cache folder and ``PHASE10MATH_MEMORY_GB`` (default 3): cold
(every turn solve and the solitaire solve) and then warm (from the cache), each with its time
and peak resident memory (``/usr/bin/time``: the largest process; and all its processes
together, sampled). The reference is the previous form of the code: ``--previous DIR`` runs
the same command from a checkout of it (e.g. ``git archive c6e1392 | tar -x -C DIR``; it
needs about 8 GB), else its figure measured on 2026-12-06 is printed beside.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from phase10math.game.solitaire import comparison, solve_solitaire, store_solution

#: the previous form (commit c6e1392), ``phase10math solitaire`` cold on the recorded dice,
#: measured on the 2-core machine on 2026-12-06 at load 15-21 (`/usr/bin/time -v`)
PREVIOUS = "cold: 2,027 s (load 15-21), peak 7.45 GiB (7,629 MB); 11.8 GB with --simulate 20000"


def cli_runs(memory_gb: str, previous: str | None) -> None:
    """Time ``phase10math solitaire`` cold and warm in fresh processes (see the docstring)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_memory import cli, timed

    folder = Path(tempfile.mkdtemp(prefix="p10-bench-solitaire-"))
    try:
        env = dict(os.environ, PHASE10MATH_CACHE_DIR=str(folder), PHASE10MATH_MEMORY_GB=memory_gb)
        print(f"PHASE10MATH_MEMORY_GB={memory_gb}, load {os.getloadavg()[0]:.1f}")
        for what in ("cold", "warm"):
            secs, peak, together = timed(cli("solitaire"), env)
            print(
                f"phase10math solitaire, {what}: {secs:.1f} s, peak {peak:.2f} GiB, all its "
                f"processes {together:.2f} GiB (target <= 3 GB)"
            )
        if previous is None:
            print(f"previous form (measured, not run now): {PREVIOUS}")
            return
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        env = dict(os.environ, PHASE10MATH_CACHE_DIR=str(folder), PYTHONPATH=previous)
        env.pop("PHASE10MATH_MEMORY_GB", None)
        here = os.getcwd()
        os.chdir(previous)
        try:
            secs, peak, together = timed(cli("solitaire"), env)
        finally:
            os.chdir(here)
        print(
            f"previous form ({previous}), cold: {secs:.1f} s, peak {peak:.2f} GiB, all its "
            f"processes {together:.2f} GiB (load {os.getloadavg()[0]:.1f})"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--simulate", type=int, default=20000)
    ap.add_argument("--cli", action="store_true", help="time `phase10math solitaire` instead")
    ap.add_argument("--memory-gb", default="3")
    ap.add_argument("--previous", default=None, help="a checkout of the previous code")
    args = ap.parse_args()
    if args.cli:
        cli_runs(args.memory_gb, args.previous)
        return
    t = time.time()
    sol = solve_solitaire(use_cache=False, workers=args.workers)
    took = time.time() - t
    from phase10math import cache
    from phase10math.dice.layouts import DEFAULT_LAYOUT
    from phase10math.dice.rules import DEFAULT_RULES

    key = cache.cache_key(
        kind="solitaire", rules=DEFAULT_RULES.to_dict(), layout=DEFAULT_LAYOUT.fingerprint()
    )
    store_solution(key, sol)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"solitaire solve: {took:.1f} s, {len(sol.states)} states, peak RSS {peak:.0f} MB "
        f"(largest worker {kids:.0f} MB)"
    )
    print(f"optimal expected final score: {float(sol.value):.6f}; proven gap {sol.proven_gap:.2e}")
    t = time.time()
    table = comparison(simulate=args.simulate, show_progress=False)
    print(table["text"])
    print(f"comparison + simulation: {time.time() - t:.1f} s")


if __name__ == "__main__":
    main()
