"""Benchmark: optimal two-player 10,000, the proven layered solver beside plain value iteration.

    python benchmarks/bench_tenk_duel.py [TARGET ...]          # default: 5000 10000
    python benchmarks/bench_tenk_duel.py --layered-only 10000  # skip the slow reference

For each target, in the same run: the layered solver (score layers, 2x2 pair solves, proven
interval) and the Jacobi value iteration it replaces (to a change below 1e-9, no proof). Prints
the first player's chance, the proven interval, passes/sweeps, wall and CPU time (the machine
is shared: CPU time is the fairer figure), the time ratios and the peak memory of the process.
The cache is bypassed so the times are those of full solves. Run it under
``nice flock /work/heavy.lock`` on the shared machine.
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
    args = sys.argv[1:]
    ref = "--layered-only" not in args
    nums = [int(a) for a in args if a != "--layered-only"]
    main(nums or [5000, 10000], ref)
