"""What keeping freed memory (``held_heap``) is worth to a run of exact solves of a color phase
on the recorded dice, as the two-player solver runs them: the same solves in two fresh
processes, one plain (glibc's defaults: each large array a fresh mapping, given back when
freed: the reference), one inside :func:`phase10math.turn.tensor.held_heap`.

Each process builds phase ``--phase``'s tensor family (default 8, "7 of one color", 7**10
holds) and solves ``--solves`` utilities (seeded, the same in both) exactly; prints each
solve's seconds, the kernel's (system) CPU seconds and the peak memory of each process, and
the ratio of the median solve after the first (the first pays the family's first touch in
both). The values of both runs must agree exactly (the same arithmetic).

    python benchmarks/bench_held_heap.py [--phase 8] [--solves 4]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.turn.family import TurnFamily
from phase10math.turn.tensor import held_heap


def worker(phase: int, solves: int, held: bool) -> dict:
    """One process's run: its solves' seconds and values, system seconds, peak GiB."""
    fam = TurnFamily.for_phase(PHASES[phase], layout=RECORDED_LAYOUT)
    U = np.random.default_rng(1).integers(0, 100, size=(solves, fam.n_outcomes))
    seconds, values = [], []
    with held_heap() if held else contextlib.nullcontext():
        for u in U:
            t = time.perf_counter()
            res = fam.exact(u[None].astype(float))
            seconds.append(time.perf_counter() - t)
            values.append(float(res.values[0]))
    use = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "seconds": seconds,
        "values": values,
        "system": use.ru_stime,
        "peak": use.ru_maxrss / 2**20,
    }


def run(phase: int, solves: int, held: bool) -> dict:
    cmd = [sys.executable, __file__, "--phase", str(phase), "--solves", str(solves)]
    out = subprocess.run(
        [*cmd, "--worker", "held" if held else "plain"], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phase", type=int, default=8)
    ap.add_argument("--solves", type=int, default=4)
    ap.add_argument("--worker", choices=["plain", "held"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.solves < 2:
        ap.error("--solves: at least 2 (the first pays the first touch)")
    if args.worker:
        print(json.dumps(worker(args.phase, args.solves, args.worker == "held")))
        return
    plain = run(args.phase, args.solves, held=False)
    held = run(args.phase, args.solves, held=True)
    assert plain["values"] == held["values"], "the same solves must give the same values"
    for name, r in (("plain (the reference)", plain), ("held heap", held)):
        secs = ", ".join(f"{s:.1f}" for s in r["seconds"])
        print(
            f"{name:22s} solves {secs} s; system CPU {r['system']:.1f} s; peak {r['peak']:.2f} GiB"
        )
    med = [statistics.median(r["seconds"][1:]) for r in (plain, held)]
    print(
        f"median solve after the first: {med[0]:.1f} s plain, {med[1]:.1f} s held: "
        f"held takes {med[1] / med[0]:.2f} of the time; values equal"
    )


if __name__ == "__main__":
    main()
