"""What one exact solve of a color phase on the recorded dice costs the two-player solver: the
tensor family's solve (float64 stages, proven margin, and the policy's outcome distribution
pushed forward) against the kit's exact integer solve of the same turn (value only: the
straightforward reference), in the same run.

Phase ``--phase`` (default 8, "7 of one color") on the recorded dice (ten different dice, 7**10
holds). ``--repeat`` utilities over the turn's outcomes (integers 0..99, seeded), each solved
both ways; prints the seconds of each (min/median/max), their ratio, the family's margin, the
largest difference from the exact value (it must lie within the margin), the first policy's
outcome distribution against a seeded simulation of 100,000 turns of it on the physical dice
(largest z over the outcomes), and the peak memory of the process (``ru_maxrss``).

    python benchmarks/bench_tensor_family.py [--phase 8] [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.game.length import simulate_turns
from phase10math.turn.family import TensorFamily, TurnFamily
from phase10math.turn.solver import solve_utility

TURNS = 100_000  # simulated turns of the first policy


def stats(xs: list[float]) -> str:
    return f"{min(xs):.1f} / {statistics.median(xs):.1f} / {max(xs):.1f} s"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phase", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    t = time.perf_counter()
    fam = TurnFamily.for_phase(PHASES[args.phase], layout=RECORDED_LAYOUT)
    assert isinstance(fam, TensorFamily)
    print(
        f"phase {args.phase} on the recorded dice: {fam.space.n_states:,} holds, "
        f"{fam.n_outcomes} outcomes; family built in {time.perf_counter() - t:.1f} s"
    )
    rng = np.random.default_rng(1)
    U = rng.integers(0, 100, size=(args.repeat, fam.n_outcomes))
    fam_s, ref_s, worst, margins = [], [], 0.0, []
    mc = []  # the first policy's distribution against simulated turns of it
    for u in U:
        t = time.perf_counter()
        res = fam.exact(u[None].astype(float), keep_holds=not mc)
        fam_s.append(time.perf_counter() - t)
        t = time.perf_counter()
        exact = solve_utility(fam.space, u[fam.outcome].astype(np.int64)).value()
        ref_s.append(time.perf_counter() - t)
        diff = abs(float(res.values[0]) - float(exact))
        assert diff <= res.margin[0], (diff, res.margin[0])
        worst = max(worst, diff)
        margins.append(float(res.margin[0]))
        if not mc:
            holds = {r: h[:, 0] for r, h in res.holds.items()}
            got = simulate_turns(fam.space, fam.outcome, holds, fam.rolls, TURNS, rng)
            freq = np.bincount(got, minlength=fam.n_outcomes) / TURNS
            sd = np.sqrt(res.dist[0] * (1 - res.dist[0]) / TURNS) + 1e-12
            mc.append(float(np.max(np.abs(freq - res.dist[0]) / sd)))
        assert abs(res.dist[0] @ u - res.values[0]) <= 1e-9 * np.abs(u).max()
    print(f"tensor family exact solve (value, margin, distribution): {stats(fam_s)}")
    print(f"exact integer solve, value only (the reference):          {stats(ref_s)}")
    print(f"ratio (median): {statistics.median(fam_s) / statistics.median(ref_s):.2f}")
    print(
        f"largest difference from the exact value {worst:.2e} within margins "
        f"{min(margins):.2e}-{max(margins):.2e}; distribution margin {fam.dist_margin:.2e}"
    )
    print(
        f"the first policy's outcome distribution against {TURNS:,} simulated turns of it: "
        f"largest |z| {mc[0]:.2f} over {fam.n_outcomes} outcomes"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"peak memory of the process: {peak:.2f} GiB")


if __name__ == "__main__":
    main()
