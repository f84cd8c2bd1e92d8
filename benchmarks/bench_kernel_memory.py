"""An app kernel's own memory, phase by phase: the play model driven as the app drives it.

A kernel of the play app (``app/play.ipynb``) holds a :class:`phase10math.play.models.TurnState`
and, at every roll, ranks the roll's holds (the advisor's panel, ``TurnState.advice``),
marks the hold chosen (``current_option``), compares two holds (``compare``) and, for the
aim "Win the game", asks the two-player table (``play.win.win_line``). This script does
that for a few seeded turns of each phase and aim, in a fresh process, and samples the
process's PSS (``/proc/self/smaps_rollup``: shared pages counted once, divided among the
processes that map them) every 10 ms: the peak and the PSS at the end of each phase.

Three ways, each in a process of its own, on the same cached solutions, each a whole game's
phases 1-10 (by default) with every aim:

- ``lookup`` (the kit): a roll's ``2**10`` sub-holds valued from the stored margins of the
  roll values and sums over the faces of the dice a hold rerolls
  (:mod:`phase10math.turn.tensor.margins`); the memory cache keeps the solutions of the
  last phases asked for (``tables.MEMORY_KEEP``) and a color phase's 0/1 utilities as
  their bits (``cache.PackedBits``);
- ``kept`` (the memory before): the same lookups, with every solution kept in the memory
  cache and the 0/1 utilities unpacked on loading, as the kit did before;
- ``transform`` (the reference of the rankings, the way before that): every ranking by the
  restricted transform over every stored roll value.

All must rank every roll alike (checked: each hold's state and exact values, in order).

    python benchmarks/bench_kernel_memory.py [--phases 1-10] [--aims complete score win]
        [--turns 3] [--modes lookup kept transform]

The phases are solved (and cached) first, in a process of their own, where they are not
cached yet: the figures are those of a kernel once its phase is cached.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path


def smaps() -> dict[str, float]:
    """This process's Pss, Pss_Anon, Pss_File and Rss in MB."""
    out = {}
    for line in Path("/proc/self/smaps_rollup").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("Pss", "Pss_Anon", "Pss_File", "Rss"):
            out[name] = int(rest.split()[0]) / 1024
    return out


class Peak:
    """The largest PSS seen by a thread that reads it every 10 ms (reset per phase)."""

    def __init__(self) -> None:
        self.peak = 0.0
        self.stop = False
        threading.Thread(target=self.run, daemon=True).start()

    def run(self) -> None:
        while not self.stop:
            self.peak = max(self.peak, smaps()["Pss"])
            time.sleep(0.01)

    def take(self) -> float:
        peak, self.peak = max(self.peak, smaps()["Pss"]), 0.0
        return peak


def ranking(adv) -> list:
    """What a ranking shows: each hold's state and exact values, best first."""
    return [(o.state, o.numerator, o.numerator2) for o in adv.options]


def play_turn(phase: int, aim: str, seed: int, game) -> tuple[list, list[float]]:
    """One seeded turn as the app plays it: roll, rank, hold the best, compare it with the
    second best, roll, rank, stop. Returns the rankings and the seconds of each."""
    from phase10math.play.models import TurnState
    from phase10math.play.win import win_line

    objective = "complete" if aim == "win" else aim
    st = TurnState(phase, objective, seed=seed)
    shown, secs = [], []
    for _ in range(2):
        st.roll()
        t = time.perf_counter()
        adv = st.advice()
        secs.append(time.perf_counter() - t)
        shown.append(ranking(adv))
        st.current_option()
        if aim == "win":
            game.players[0].phase = game.players[1].phase = phase
            win_line(game, 0, [0, 1], st)
        best = st.option_dice(adv.options[0])
        if len(adv.options) > 1:
            st.compare(best, st.option_dice(adv.options[1]))
        st.hold_option(adv.options[0])
        if len(st.held) == st.n_dice:
            break
    st.stop()
    return shown, secs


def kernel(mode: str, phases: list[int], aims: list[str], turns: int) -> dict:
    """One kernel's session: every phase in turn, each aim, ``turns`` seeded turns."""
    import numpy as np

    from phase10math import cache
    from phase10math.game.engine import Game
    from phase10math.game.strategies import StopStrategy
    from phase10math.turn import tables
    from phase10math.turn.tensor import holdvalues

    if mode == "transform":  # every ranking by the restricted transform

        def transform(self, gids):
            return self.transform(np.atleast_1d(np.asarray(gids, np.int64)), np.ndim(gids) == 0)

        holdvalues.LazyHoldValues.__getitem__ = transform
    if mode == "kept":  # every solution kept, the 0/1 utilities unpacked on loading
        tables.MEMORY_KEEP = 1 << 30
        load = cache.load_large
        cache.load_large = lambda key, expect=None, packed=False: load(key, expect)
    peak = Peak()
    start = smaps()
    game = Game([StopStrategy(), StopStrategy()], seed=1)
    rows, shown = [], []
    for p in phases:
        secs = []
        for aim in aims:
            for seed in range(turns):
                s, t = play_turn(p, aim, seed, game)
                shown += s
                secs += t
        now = smaps()
        rows.append({"phase": p, "peak": peak.take(), "ms": 1e3 * statistics.median(secs), **now})
    peak.stop = True
    return {"start": start, "rows": rows, "shown": shown}


def prepare(phases: list[int], aims: list[str]) -> None:
    """Solve (and cache) the phases' turns for the aims (the win aim plays complete)."""
    from phase10math.turn.tables import cached_solution

    for p in phases:
        for o in {"complete" if a == "win" else a for a in aims}:
            cached_solution(p, o)


def child(args: list) -> dict:
    cmd = [sys.executable, __file__, "--child", json.dumps(args)]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def phase_list(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phases", default="1-10")
    ap.add_argument("--aims", nargs="+", default=["complete", "score", "win"])
    ap.add_argument("--turns", type=int, default=3, help="seeded turns per phase and aim")
    ap.add_argument("--modes", nargs="+", default=["lookup", "kept", "transform"])
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        what, *rest = json.loads(a.child)
        if what == "prepare":
            prepare(*rest)
            print("{}")
        else:
            print(json.dumps(kernel(what, *rest)))
        return
    phases = phase_list(a.phases)
    t = time.perf_counter()
    child(["prepare", phases, a.aims])
    print(f"solved or read from the cache first: {time.perf_counter() - t:.1f} s")
    got = {m: child([m, phases, a.aims, a.turns]) for m in a.modes}
    if len(got) > 1:
        one, *others = got.values()
        assert all(one["shown"] == o["shown"] for o in others), "the rankings differ"
        print(f"the same {len(one['shown'])} rankings every way (every hold's values, in order)")
    print(f"aims {', '.join(a.aims)}; {a.turns} turns each; MB of the kernel's own memory:")
    print("phase | " + " | ".join(f"{m}: ranking ms, PSS peak, PSS end (anon, file)" for m in got))
    for i, p in enumerate(phases):
        cells = []
        for g in got.values():
            r = g["rows"][i]
            cells.append(
                f"{r['ms']:8.1f} {r['peak']:6.0f} {r['Pss']:6.0f} "
                f"({r['Pss_Anon']:.0f}, {r['Pss_File']:.0f})"
            )
        print(f"{p:5d} | " + " | ".join(cells))
    top = {m: max(r["peak"] for r in g["rows"]) for m, g in got.items()}
    for m, g in got.items():
        print(f"{m}: started at {g['start']['Pss']:.0f} MB PSS; peak {top[m]:.0f} MB")
    if "lookup" in top and "kept" in top:
        print(
            f"the whole game's peak: {top['lookup']:.0f} MB, against {top['kept']:.0f} MB "
            "with every solution kept and the 0/1 utilities unpacked (the kit before)"
        )


if __name__ == "__main__":
    main()
