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

``--out DIR --chunk C`` plays the games in seeded chunks of C (chunk j: games from seed SEED +
j C), each written to DIR as it ends (``.npz`` arrays, read back without pickle) and skipped
when the command is run again: a long run can be stopped and resumed, or its workers changed;
the summary joins every chunk in DIR (all of one setting, kept in DIR/setting.json). A worker's
memory grows with the states its games met (a few hundred MB a chunk at phase 1): run a long
check as several calls of growing ``--games`` (each call fresh workers), e.g. ``for g in $(seq
500 500 10000); do ...; done``. Where a
player plays candidate turns (a color phase of ten different dice), the summary also gives
the chance to win each seat's choices gave up per game (proven) and the interval the first
seat's mean belongs to with it (``DuelSample.first_range``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path

import numpy as np

from phase10math.dice.layouts import LAYOUTS
from phase10math.game.duel import Play, read_table
from phase10math.game.duelgames import DuelSample, simulate_duel

# a sample's per-game arrays, joined across the workers and chunks
FIELDS = ("got", "want", "ties", "first", "given_up")


@lru_cache(maxsize=2)
def _table(phases: tuple[int, int], layout: str):
    dice = None if layout == "compact" else LAYOUTS[layout]  # the tables' own dice, or others
    return read_table(phases=phases, dice=dice)[0], dice


def _games(args: tuple) -> DuelSample:
    phases, plays, games, seed, phase, layout, totals, out = args
    sol, dice = _table(phases, layout)
    t0 = time.monotonic()
    s = simulate_duel(sol, plays, games=games, seed=seed, phase=phase, layout=dice, totals=totals)
    if out is not None:
        path = Path(out) / f"seed-{seed:09d}.npz"
        np.savez(path.with_suffix(".part.npz"), **{f: getattr(s, f) for f in FIELDS})
        path.with_suffix(".part.npz").replace(path)  # whole chunks only
        print(f"  chunk seed {seed}: {games} games in {time.monotonic() - t0:.0f} s", flush=True)
    return s


def _chunks(a, lo: int, hi: int, plays, totals) -> tuple[list[tuple], list[DuelSample]]:
    """The chunks still to play and the samples of those already in ``--out``."""
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    setting = {k: getattr(a, k) for k in ("phases", "phase", "plays", "layout", "totals")}
    meta = out / "setting.json"
    if meta.is_file() and json.loads(meta.read_text()) != setting:
        raise SystemExit(f"{out} holds games of another setting: {meta.read_text().strip()}")
    meta.write_text(json.dumps(setting) + "\n")
    todo, done = [], []
    for j in range(-(-a.games // a.chunk)):
        seed, n = a.seed + j * a.chunk, min(a.chunk, a.games - j * a.chunk)
        path = out / f"seed-{seed:09d}.npz"
        if path.is_file():
            with np.load(path, allow_pickle=False) as z:
                done.append(DuelSample(plays, a.phase, *(z[f] for f in FIELDS)))
        elif n >= 2:
            todo.append(((lo, hi), plays, n, seed, a.phase, a.layout, totals, a.out))
    return todo, done


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
    ap.add_argument("--out", help="a folder for the games played, chunk by chunk (resumable)")
    ap.add_argument("--chunk", type=int, default=100, help="games in a chunk (with --out)")
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.phases.split("-"))
    labels = {p.label: p for p in Play}
    plays = tuple(labels[x] for x in a.plays.split(","))
    per = -(-a.games // a.workers)
    totals = tuple(int(x) for x in a.totals.split(","))
    tasks = [
        ((lo, hi), plays, min(per, a.games - w * per), a.seed + w * per, a.phase, a.layout)
        + (totals, None)
        for w in range(a.workers)
        if a.games - w * per >= 2
    ]
    done: list[DuelSample] = []
    if a.out is not None:
        tasks, done = _chunks(a, lo, hi, plays, totals)
        print(f"{len(done)} chunk(s) done in {a.out}, {len(tasks)} to play", flush=True)
    t0 = time.monotonic()
    parts = list(done)
    if tasks:
        with ProcessPoolExecutor(min(a.workers, len(tasks))) as pool:
            parts += list(pool.map(_games, tasks))
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
    lo_, hi_ = s.first_range
    if hi_ > lo_:
        print(
            f"  candidate turns gave up per game (proven, against the table's values): the "
            f"first seat {s.gave_up(True):.2e}, the other {s.gave_up(False):.2e}; the first "
            f"seat's expected result lies in [{lo_:.4f}, {hi_:.4f}]: z = {s.first_z_range:+.2f} "
            "outside it"
        )
    return 0 if max(abs(s.z), abs(s.first_z_range)) < 4 else 1


if __name__ == "__main__":
    sys.exit(main())
