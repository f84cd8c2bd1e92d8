"""Time the turn solver on the real workloads, beside a straightforward reference.

Reports, in one run:
- cold time and peak memory of the full 20-phase table (both objectives, free holds);
- the same with sticky holds;
- warm (cached) time of the table;
- advice latency for one roll (warm);
- the reference: a plain-Python dynamic program (dicts and floats, every hold and every
  outcome enumerated) on phase 1 with two rolls, beside our exact solver on the same game, as a
  ratio.

    python benchmarks/bench_solver.py [--phases 1-20] [--skip-sticky] [--layout compact]

(sticky holds on the recorded dice refuse the color phases: use ``--layout compact`` for them)
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
import tempfile
import time
from math import factorial

CHILD = r"""
import sys, time, resource
from phase10math.dice.rules import Rules
from phase10math.dice.layouts import get_layout
from phase10math.turn.tables import phase_table
lo, hi, holds = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
t = time.perf_counter()
layout, workers = get_layout(sys.argv[5]), int(sys.argv[4])
phase_table(range(lo, hi + 1), Rules(holds=holds), layout, workers=workers, shipped=False)
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def timed_table(
    lo: int, hi: int, holds: str, cache_dir: str, workers: int = 2, layout: str = "recorded"
):
    env = dict(os.environ, PHASE10MATH_CACHE_DIR=cache_dir)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(lo), str(hi), holds, str(workers), layout],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    secs, child_kb, self_kb = out.stdout.split()
    return float(secs), max(int(child_kb), int(self_kb)) / 1024**2


def naive_phase1() -> tuple[float, float]:
    """Plain-Python DP for phase 1 with two rolls (one reroll), over value multisets: a dict per
    layer, every hold of every roll enumerated, every outcome of the rerolled dice enumerated
    with its multinomial probability (floats: the plain reference is slow enough as it is)."""
    from phase10math.dice.faces import Face
    from phase10math.dice.meld import best_scores, profile
    from phase10math.dice.phases import PHASES

    high, low = (5, 6, 7, 8, 9, 10), (1, 2, 3, 4, 0)
    low_w = {1: 1, 2: 1, 3: 1, 4: 1, 0: 2}

    def outcomes(nh, nl):
        for hs in itertools.combinations_with_replacement(high, nh):
            ph = factorial(nh) / 6**nh
            for v in set(hs):
                ph /= factorial(hs.count(v))
            for ls in itertools.combinations_with_replacement(low, nl):
                pl = factorial(nl) / 6**nl
                for v in set(ls):
                    pl = pl / factorial(ls.count(v)) * low_w[v] ** ls.count(v)
                yield hs + ls, ph * pl

    t = time.perf_counter()
    U = {}
    for roll, _ in outcomes(6, 4):
        key = tuple(sorted(roll))
        prof = profile([Face(v, "r") for v in key])
        U[key] = int(best_scores(PHASES[1], prof[None])[0] >= 0)
    W: dict[tuple, float] = {}
    V = {}
    for roll in U:
        best = -1.0
        for mask in itertools.product((0, 1), repeat=len(roll)):
            hold = tuple(v for v, m in zip(roll, mask) if m)
            if hold not in W:
                nh = 6 - sum(1 for v in hold if v >= 5)
                nl = 4 - (len(hold) - (6 - nh))
                W[hold] = sum(p * U[tuple(sorted(hold + o))] for o, p in outcomes(nh, nl))
            best = max(best, W[hold])
        V[roll] = best
    total = sum(p * V[tuple(sorted(o))] for o, p in outcomes(6, 4))
    return time.perf_counter() - t, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--phases", default="1-20")
    ap.add_argument("--skip-sticky", action="store_true")
    ap.add_argument("--skip-naive", action="store_true")
    ap.add_argument("--layout", default="recorded", help="recorded (default) or compact")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.phases.split("-"))
    print(f"machine: {os.cpu_count()} cores; phases {lo}-{hi}")
    with tempfile.TemporaryDirectory() as cache_dir:
        cold, mem = timed_table(lo, hi, "free", cache_dir, layout=args.layout)
        warm, _ = timed_table(lo, hi, "free", cache_dir, layout=args.layout)
        print(f"free holds, cold:   {cold:8.1f} s   peak memory {mem:5.1f} GiB   (target <= 60 s)")
        print(f"free holds, warm:   {warm:8.3f} s   (target <= 1 s)")
        if not args.skip_sticky:
            s_cold, s_mem = timed_table(lo, hi, "sticky", cache_dir, layout=args.layout)
            print(f"sticky holds, cold: {s_cold:8.1f} s   peak memory {s_mem:5.1f} GiB")
        env_cache = os.environ.get("PHASE10MATH_CACHE_DIR")
        os.environ["PHASE10MATH_CACHE_DIR"] = cache_dir
        from phase10math.dice.faces import parse_faces
        from phase10math.turn.advisor import advise

        roll = parse_faces("10 10 W 5 6 7 1 2 3 8")
        advise(roll, 2, 1)  # load the cached solution
        t = time.perf_counter()
        reps = 20
        for _ in range(reps):
            advise(roll, 2, 1)
        lat = (time.perf_counter() - t) / reps
        print(f"advice latency (warm, phase 1, 768 holds): {1000 * lat:6.1f} ms  (target <= 50 ms)")
        if env_cache is None:
            del os.environ["PHASE10MATH_CACHE_DIR"]
    if not args.skip_naive:
        os.environ["PHASE10MATH_CACHE_DIR"] = "off"
        from phase10math.dice.rules import Rules
        from phase10math.turn.solver import solve_turn

        t = time.perf_counter()
        ours = solve_turn(1, rules=Rules(rolls=2)).value()
        t_ours = time.perf_counter() - t
        t_naive, naive = naive_phase1()
        assert abs(naive - float(ours)) < 1e-9, (naive, ours)
        print(
            f"phase 1, two rolls: ours {t_ours:.2f} s (exact {ours}), plain-Python reference "
            f"{t_naive:.1f} s (float {naive:.12f}), ratio {t_naive / t_ours:.0f}x"
        )


if __name__ == "__main__":
    main()
