"""Decisions by lookup against decisions by a pass over the stored values, in the same run.

A strategy's decision on ten different dice (a color phase of the recorded set) is "the best
hold of this roll with r rolls left". Two ways, each in a fresh process of its own (so that
its peak memory is its own):

- ``lookup`` (the kit): one read of the solved policy's hold codes
  (:meth:`phase10math.turn.holdtable.HoldTable.best_hold`, the codes memory-mapped from the
  disk cache, :func:`phase10math.turn.tables.cached_holds`);
- ``transform`` (the reference, how a single decision was made before): the values of the
  roll's ``2**10`` sub-holds by a restricted transform over the stored roll values of both
  keys (:class:`phase10math.turn.tensor.holdvalues.LazyHoldValues`), then the best in the kit's
  order of holds.

Both must pick the same hold for every roll asked (checked). Then whole games: ``--games``
seeded two-player games, complete against complete (``phase10math game``'s engine), in a
fresh process each way: the reference plays its color-phase decisions by the transform.
Prints milliseconds per decision (median and max), seconds per game, the ratios and each
process's peak memory (RSS) and PSS at its end.

    python benchmarks/bench_decisions.py [--phase 8] [--rolls 200] [--reference 10] [--games 3]

The phase is solved (and cached) first where it is not cached yet.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np


def pss_mb() -> float:
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def sample_rolls(space, n: int, seed: int) -> np.ndarray:
    """``n`` seeded roll states (each die a uniformly random face; ten different dice)."""
    rng = np.random.default_rng(seed)
    gid = np.zeros(n, dtype=np.int64)
    for st, t in zip(space.strides, space.types):
        gid += int(st) * (1 + rng.integers(0, len(t.faces), n))
    return gid


def transform_hold(sol, gid: int, r: int) -> int:
    """The reference: the best of the roll's sub-holds from their values (both keys)."""
    from phase10math.turn.tensor.holdvalues import LazyHoldValues, sub_holds

    ids = sub_holds(sol.space, gid)
    keys = [
        np.asarray(LazyHoldValues(sol.space, k.roll_num[r - 1]).transform(ids)) for k in sol.keys
    ]
    order = np.lexsort((ids, sol.space.sizes_of(ids), *reversed(keys)))
    return int(ids[order[-1]])


def decisions(mode: str, phase: int, n: int) -> dict:
    """Time ``n`` decisions with each number of rolls left (seeded rolls) one way."""
    from phase10math.turn.tables import cached_holds, cached_solution

    t0 = time.perf_counter()
    if mode == "lookup":
        table = cached_holds(phase, "complete")
        space = table.space
        decide = table.best_hold
    else:
        sol = cached_solution(phase, "complete")
        space = sol.space
        decide = lambda gid, r: transform_hold(sol, gid, r)  # noqa: E731
    load = time.perf_counter() - t0
    out = {"load_s": load, "ms": [], "holds": []}
    for r in (2, 1):
        for gid in sample_rolls(space, n, seed=r):
            t = time.perf_counter()
            out["holds"].append(decide(int(gid), r))
            out["ms"].append(1e3 * (time.perf_counter() - t))
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["pss_mb"] = pss_mb()
    return out


class TransformStrategy:
    """complete-optimal play whose color-phase decisions are made by the reference."""

    name = "complete"

    def __init__(self):
        from phase10math.game.strategies import OptimalStrategy

        self.plain = OptimalStrategy("complete")

    def hold(self, view):
        from phase10math.game.spacemap import SpaceMap
        from phase10math.turn.tables import cached_solution

        sol = cached_solution(view.number, "complete")
        if not sol.space.distinct:
            return self.plain.hold(view)
        m = SpaceMap(sol.space, view.layout)
        hold = transform_hold(sol, m.roll_id(view.faces), view.rolls_left)
        return m.keep_for(hold, view.faces, view.held)


def games(mode: str, n: int) -> dict:
    from phase10math.game.engine import Game
    from phase10math.game.strategies import get_strategy

    t0 = time.perf_counter()
    logs = []
    for seed in range(1, n + 1):
        if mode == "lookup":
            players = [get_strategy("complete"), get_strategy("complete")]
        else:
            players = [TransformStrategy(), TransformStrategy()]
        result = Game(players, seed=seed).play()
        logs.append(repr(result.log))
    return {
        "s_per_game": (time.perf_counter() - t0) / n,
        "logs": logs,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "pss_mb": pss_mb(),
    }


def child(args: list[str]) -> dict:
    cmd = [sys.executable, __file__, "--child", json.dumps(args)]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phase", type=int, default=8)
    ap.add_argument("--rolls", type=int, default=200, help="lookups per number of rolls left")
    ap.add_argument("--reference", type=int, default=10, help="transforms per rolls left")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        kind, mode, *rest = json.loads(a.child)
        fn = decisions if kind == "decisions" else games
        print(json.dumps(fn(mode, *rest)))
        return
    from phase10math.turn.tables import cached_holds

    cached_holds(a.phase, "complete")  # solve and cache first where needed
    n = {"lookup": a.rolls, "transform": a.reference}
    got = {m: child(["decisions", m, a.phase, n[m]]) for m in n}
    k = min(a.rolls, a.reference)  # the same seeded rolls first: the same holds
    same = [h[:k] + h[n[m] : n[m] + k] for m, h in ((m, got[m]["holds"]) for m in n)]
    assert same[0] == same[1], "the two ways differ"
    print(f"phase {a.phase}, recorded dice, rolls left 2 and 1:")
    for m, g in got.items():
        ms = g["ms"]
        print(
            f"  {m:>9}: {len(ms):4d} decisions, {statistics.median(ms):9.3f} ms each (max "
            f"{max(ms):8.2f}), "
            f"load {g['load_s']:.2f} s, peak RSS {g['rss_mb']:.0f} MB, PSS {g['pss_mb']:.0f} MB"
        )
    ratio = statistics.median(got["transform"]["ms"]) / statistics.median(got["lookup"]["ms"])
    print(f"  the lookup is {ratio:,.0f}x as fast; the same holds on the {2 * k} rolls both asked")
    if a.games:
        play = {m: child(["games", m, a.games]) for m in ("lookup", "transform")}
        assert play["lookup"]["logs"] == play["transform"]["logs"], "the games differ"
        print(f"{a.games} seeded games, complete against complete (the same logs both ways):")
        for m, g in play.items():
            print(
                f"  {m:>9}: {g['s_per_game']:.2f} s a game, peak RSS {g['rss_mb']:.0f} MB, "
                f"PSS {g['pss_mb']:.0f} MB"
            )
        r = play["transform"]["s_per_game"] / play["lookup"]["s_per_game"]
        print(f"  ratio {r:.1f}x")


if __name__ == "__main__":
    main()
