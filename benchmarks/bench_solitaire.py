"""Benchmark: the optimal solitaire solve, cold (no disk cache for the solitaire itself; the
per-phase turn solutions it starts from are loaded from the disk cache when present).

Run: ``python benchmarks/bench_solitaire.py [--workers N] [--simulate N]``; prints the time,
the peak memory (RSS) and the comparison table.
"""

from __future__ import annotations

import argparse
import resource
import time

from phase10math.game.solitaire import comparison, solve_solitaire


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--simulate", type=int, default=20000)
    args = ap.parse_args()
    t = time.time()
    sol = solve_solitaire(use_cache=False, workers=args.workers)
    took = time.time() - t
    from phase10math import cache
    from phase10math.dice.layouts import DEFAULT_LAYOUT
    from phase10math.dice.rules import DEFAULT_RULES

    cache.save(
        cache.cache_key(
            kind="solitaire", rules=DEFAULT_RULES.to_dict(), layout=DEFAULT_LAYOUT.fingerprint()
        ),
        sol,
    )
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
