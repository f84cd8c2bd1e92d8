"""Seeded Monte Carlo of the optimal turn of the color phases, on the recorded or compact dice.

For each phase (default 8, 14, 15, 18) and both objectives: solve the turn exactly on the
layout (the recorded dice: ten different dice, so the color-aware phases run on the 7**10
tensor engine; the compact dice: five kinds, the per-type engine), then play N turns with
physical dice - each die shows a uniform side of its own six, the solved policy picks the hold,
the kept dice stay, the others are rolled again - and score the final faces with the meld
engine (not with the solver's state space). The simulated mean must agree with the exact value
within 4 standard errors; the script prints z = (mean - exact) / SE and exits 1 if any |z| > 4.

This is a check, not a timing: a cold solve of one color phase on the recorded dice takes tens
of seconds and a few GB, and its policy's best holds about as long again. The test command
simulates a sample with the same seeds (tests/turn/test_solver_montecarlo.py and notebook 3b);
this script all of them (its figures are in docs/benchmarks.md, "Speed").

    python benchmarks/montecarlo_color_phases.py [--layout recorded|compact] [--phases 8,14,15,18]
        [--turns 20000]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from phase10math.dice.layouts import LAYOUTS
from phase10math.dice.meld import best_scores
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import DEFAULT_RULES
from phase10math.turn.policy import play_physical_turns
from phase10math.turn.tables import cached_solution


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", default="8,14,15,18")
    ap.add_argument("--turns", type=int, default=20_000)
    ap.add_argument("--layout", choices=["recorded", "compact"], default="recorded")
    args = ap.parse_args()
    layout = LAYOUTS[args.layout]
    print(f"the {args.layout} dice, {args.turns} turns each", flush=True)
    worst = 0.0
    for k in (int(x) for x in args.phases.split(",")):
        for objective in ("complete", "score"):
            t0 = time.perf_counter()
            sol = cached_solution(PHASES[k], objective, DEFAULT_RULES, layout)
            t1 = time.perf_counter()
            prof = play_physical_turns(
                sol, layout, args.turns, seed=1000 * k + (objective == "score")
            )
            best = best_scores(PHASES[k], prof)
            out = (best >= 0).astype(float) if objective == "complete" else np.maximum(best, 0)
            exact = float(sol.value())
            se = out.std(ddof=1) / np.sqrt(args.turns)
            z = (out.mean() - exact) / se
            worst = max(worst, abs(z))
            print(
                f"phase {k:2d} {objective:8s} exact {exact:.6f}  simulated {out.mean():.6f}"
                f" +- {se:.6f}  z = {z:+.2f}  (solve {t1 - t0:.0f} s)",
                flush=True,
            )
    print(f"largest |z| = {worst:.2f} ({'ok' if worst <= 4 else 'FAILED'}: limit 4)")
    return 0 if worst <= 4 else 1


if __name__ == "__main__":
    sys.exit(main())
