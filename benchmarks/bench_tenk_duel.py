"""Benchmark: optimal two-player 10,000, the proven layered solver beside plain value iteration.

    python benchmarks/bench_tenk_duel.py [TARGET ...]          # default: 5000 10000
    python benchmarks/bench_tenk_duel.py --layered-only 10000  # skip the slow reference
    python benchmarks/bench_tenk_duel.py --reference-max 10000 # Jacobi at 10000 too (20-30 min)

For each target, in the same run: the layered solver (score layers, 2x2 pair solves, proven
interval) and the Jacobi value iteration it replaces (to a change below 1e-9, no proof), the
reference only up to ``--reference-max`` (default 5000: at 10,000 it takes 20-30 minutes on the
shared two-core machine; the line says when it was skipped). Prints
the first player's chance, the proven interval, passes/sweeps, wall and CPU time (the machine
is shared: CPU time is the fairer figure), the time ratios and the peak memory of the process.
The cache is bypassed so the times are those of full solves. Run it under
``nice flock /work/heavy.lock`` on the shared machine.
"""

from __future__ import annotations

import argparse
import resource
import time

from phase10math.tenthousand import TenKRules
from phase10math.tenthousand.duel import DuelMethod, solve_duel


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(targets: list[int], reference: bool, reference_max: int = 5000) -> None:
    for target in targets:
        rules = TenKRules(target=target)
        start, cpu = time.perf_counter(), time.process_time()
        sol = solve_duel(rules, use_cache=False, progress=False)
        lay, lay_cpu = time.perf_counter() - start, time.process_time() - cpu
        lo, hi = sol.interval
        print(
            f"target {target} layered: P(first wins) = {sol.first_player_wins:.12f}, proven "
            f"[{lo:.12f}, {hi:.12f}] (width {hi - lo:.1e}), {sol.sweeps} passes, "
            f"{sol.states:,} states, {lay:.1f} s ({lay_cpu:.1f} s CPU), "
            f"peak RSS {peak_mb():,.0f} MB",
            flush=True,
        )
        if not reference:
            continue
        if target > reference_max:
            print(
                f"target {target} jacobi:  skipped (above --reference-max {reference_max}; "
                "the reference at 10,000 takes 20-30 min here)",
                flush=True,
            )
            continue
        start, cpu = time.perf_counter(), time.process_time()
        jac = solve_duel(rules, use_cache=False, progress=False, method=DuelMethod.JACOBI)
        jt, jt_cpu = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"target {target} jacobi:  P(first wins) = {jac.first_player_wins:.12f}, "
            f"{jac.sweeps} sweeps (last change {jac.last_change:.1e}), {jt:.1f} s "
            f"({jt_cpu:.1f} s CPU), peak RSS {peak_mb():,.0f} MB; layered/jacobi time = "
            f"{lay / jt:.3f} (CPU {lay_cpu / jt_cpu:.3f}), "
            f"|difference| = {abs(jac.first_player_wins - sol.first_player_wins):.1e}, "
            f"jacobi inside the proven interval: {lo <= jac.first_player_wins <= hi}",
            flush=True,
        )


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("targets", type=int, nargs="*", default=[5000, 10000])
    ap.add_argument("--layered-only", action="store_true", help="no Jacobi reference")
    ap.add_argument(
        "--reference-max", type=int, default=5000, help="largest target of the Jacobi reference"
    )
    a = ap.parse_args()
    main(a.targets, not a.layered_only, a.reference_max)
