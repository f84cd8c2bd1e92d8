"""Benchmark: optimal two-player 10,000 (value iteration to 1e-9).

    python benchmarks/bench_tenk_duel.py [TARGET ...]     # default: 5000 10000

Prints, per target, the first player's winning chance, sweeps, states, peak memory and time.
The cache is bypassed so the time is that of a full solve.
"""

from __future__ import annotations

import resource
import sys
import time

from phase10math.tenthousand import TenKRules
from phase10math.tenthousand.duel import solve_duel


def main(targets: list[int]) -> None:
    for target in targets:
        start = time.perf_counter()
        sol = solve_duel(TenKRules(target=target), use_cache=False, progress=True)
        seconds = time.perf_counter() - start
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"target {target}: P(first wins) = {sol.first_player_wins:.9f}, "
            f"{sol.sweeps} sweeps (last change {sol.last_change:.1e}), "
            f"{sol.states:,} states, peak RSS {peak_mb:,.0f} MB, {seconds:.1f} s",
            flush=True,
        )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [5000, 10000])
