"""Benchmark: optimal two-player 10,000, the proven layered solver beside plain value iteration.

    python benchmarks/bench_tenk_duel.py [TARGET ...]          # default: 5000 10000
    python benchmarks/bench_tenk_duel.py --layered-only 10000  # skip the slow reference

For each target, in the same run: the layered solver (score layers, 2x2 pair solves, proven
interval) and the Jacobi value iteration it replaces (to a change below 1e-9, no proof). Prints
the first player's chance, the proven interval, passes/sweeps, time, the time ratio and the peak
memory of the process. The cache is bypassed so the times are those of full solves. Run it
under ``nice flock /work/heavy.lock`` on the shared machine.
"""

from __future__ import annotations

import resource
import sys
import time

from phase10math.tenthousand import TenKRules
from phase10math.tenthousand.duel import DuelMethod, solve_duel


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(targets: list[int], reference: bool) -> None:
    for target in targets:
        rules = TenKRules(target=target)
        start = time.perf_counter()
        sol = solve_duel(rules, use_cache=False, progress=False)
        lay = time.perf_counter() - start
        lo, hi = sol.interval
        print(
            f"target {target} layered: P(first wins) = {sol.first_player_wins:.12f}, proven "
            f"[{lo:.12f}, {hi:.12f}] (width {hi - lo:.1e}), {sol.sweeps} passes, "
            f"{sol.states:,} states, {lay:.1f} s, peak RSS {peak_mb():,.0f} MB",
            flush=True,
        )
        if not reference:
            continue
        start = time.perf_counter()
        jac = solve_duel(rules, use_cache=False, progress=False, method=DuelMethod.JACOBI)
        jt = time.perf_counter() - start
        print(
            f"target {target} jacobi:  P(first wins) = {jac.first_player_wins:.12f}, "
            f"{jac.sweeps} sweeps (last change {jac.last_change:.1e}), {jt:.1f} s, "
            f"peak RSS {peak_mb():,.0f} MB; layered/jacobi time = {lay / jt:.3f}, "
            f"|difference| = {abs(jac.first_player_wins - sol.first_player_wins):.1e}, "
            f"jacobi inside the proven interval: {lo <= jac.first_player_wins <= hi}",
            flush=True,
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    ref = "--layered-only" not in args
    nums = [int(a) for a in args if a != "--layered-only"]
    main(nums or [5000, 10000], ref)
