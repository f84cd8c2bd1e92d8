"""Seeded whole two-player games against a shipped table, from any of its phases.

Plays N games (game i from seed SEED + i) of two seats' plays - the table's optimal policy or
a per-turn objective - through the game engine on the table's dice, both players starting at
PHASE with 0 points, and compares seat 0's mean result (1 a win, 1/2 a tie) with the table's
value of that start, and the result of the seat that began with its worth
(`phase10math.game.duelgames.simulate_duel`). Prints z = (mean - exact) / SE for both and exits
1 if either |z| > 4.

This is a check, not a timing. The test command plays 800 games of each pairing from phase
10 of the 9-10 table; this script plays from the color phases of the 6-10 table, where every
turn of a player at phase 8 costs an exact solve of the phase (about 3-4 s a game here), or
(``--layout recorded``) of the table solved on the recorded dice, the end game 8-10: there a
per-turn pairing reads the per-turn policies' best holds (about a second a game once they are
solved), and optimal play a float stage of the 7**10 hold tensor at every roll of phase 8
(tens of seconds, a few GB).

    python benchmarks/montecarlo_duel.py [--phases 6-10] [--phase 8] [--games 400]
        [--plays optimal,optimal] [--seed 0] [--workers 2] [--layout compact|recorded]
        [--totals 0,0]

``--totals T0,T1`` starts the players with those points (a game solved from phase 1 keeps
only totals a game from there can have at ``--phase``; a packed table keeps the per-turn
matchups at its start only, so there only optimal against optimal).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from phase10math.dice.layouts import LAYOUTS
from phase10math.game.duel import Play, read_table
from phase10math.game.duelgames import DuelSample, simulate_duel

FIELDS = ("got", "want", "ties", "first")  # a sample's per-game arrays, joined across the workers


def _games(args: tuple) -> DuelSample:
    phases, plays, games, seed, phase, layout, totals = args
    dice = None if layout == "compact" else LAYOUTS[layout]  # the tables' own dice, or others
    sol, _ = read_table(phases=phases, dice=dice)
    return simulate_duel(
        sol, plays, games=games, seed=seed, phase=phase, layout=dice, totals=totals
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", default="6-10")
    ap.add_argument("--phase", type=int, default=8)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--plays", default="optimal,optimal")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--layout", choices=["compact", "recorded"], default="compact")
    ap.add_argument("--totals", default="0,0", help="both players' points at the start")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.phases.split("-"))
    labels = {p.label: p for p in Play}
    plays = tuple(labels[x] for x in a.plays.split(","))
    per = -(-a.games // a.workers)
    totals = tuple(int(x) for x in a.totals.split(","))
    tasks = [
        ((lo, hi), plays, min(per, a.games - w * per), a.seed + w * per, a.phase, a.layout, totals)
        for w in range(a.workers)
        if a.games - w * per >= 2
    ]
    t0 = time.monotonic()
    with ProcessPoolExecutor(len(tasks)) as pool:
        parts = list(pool.map(_games, tasks))
    s = DuelSample(
        plays, a.phase, *(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS)
    )
    print(
        f"phases {lo}-{hi} ({a.layout} dice), from phase {a.phase} at "
        f"{totals[0]}:{totals[1]}, seat 0 {plays[0].label} vs seat 1 "
        f"{plays[1].label}: {s.games} games in {time.monotonic() - t0:.0f} s"
    )
    print(f"  seat 0's mean result {s.mean:.4f} +- {s.se:.4f}; table {s.expected:.4f}")
    print(f"  z = {s.z:+.2f}; ties {s.ties.mean():.4f}")
    print(
        f"  the first seat's mean result {s.first_mean:.4f} +- {s.first_se:.4f}; its worth "
        f"{s.first_expected:.4f}; z = {s.first_z:+.2f}"
    )
    return 0 if max(abs(s.z), abs(s.first_z)) < 4 else 1


if __name__ == "__main__":
    sys.exit(main())
