"""Are the two seats of a win-against-win game interchangeable? Each seeded game replayed with
the other seat beginning.

Game i (seed SEED + i) is played as the roll-off decides, then again from the same seed with
the roll-off's dice rolled but the other seat beginning: the dice after it are the same, so
with the same strategy on both seats the second game must be the first with the seats'
labels swapped (every roll, hold, score and bonus, and the winner). Prints the games that are
not, and the first mover's share by the seat that began; exits 1 if any game is not mirrored.
A seat-0 share off 1/2 with every game mirrored is chance (who begins is drawn apart from the
dice of the game): the same check as ``tests/game/test_duel_seats.py``, on any table.

    python benchmarks/duel_seats.py [--phases 9-10] [--phase 9] [--layout compact|recorded]
        [--games 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from phase10math.dice.layouts import LAYOUTS
from phase10math.game.duel import DuelStrategy, read_table
from phase10math.game.engine import Event, Game


class OtherBegins(Game):
    """A game whose roll-off is rolled as usual, but the seat that lost it begins."""

    def roll_off(self) -> list[int]:
        order = super().roll_off()[::-1]
        self.log.append(Event("order", order[0], 0, note="starts; the other seat"))
        return order


def play(kind: type[Game], strategies, phase: int, seed: int, layout) -> tuple[list, list, int]:
    """One game's log (every event but the roll-off's), its winners and the seat that began."""
    g = strategies[0].solution.game
    res = kind(strategies, phases=g.hi, layout=layout, seed=seed, start_phase=phase).play()
    log = [(e.kind, e.player, e.round, e.phase, e.dice, e.points) for e in res.log]
    return [e for e in log if e[0] != "order"], res.winners, res.order[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", default="9-10")
    ap.add_argument("--phase", type=int, default=9)
    ap.add_argument("--layout", choices=["compact", "recorded"], default="compact")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    lo, hi = (int(x) for x in a.phases.split("-"))
    dice = None if a.layout == "compact" else LAYOUTS[a.layout]
    sol = read_table(phases=(lo, hi), dice=dice)[0]
    layout = sol.game.layout if dice is None else dice
    usual = [DuelStrategy(sol), DuelStrategy(sol)]
    other = [DuelStrategy(sol), DuelStrategy(sol)]
    t0, bad, first, got = time.monotonic(), [], [], []
    for seed in range(a.seed, a.seed + a.games):
        log, won, f = play(Game, usual, a.phase, seed, layout)
        log2, won2, f2 = play(OtherBegins, other, a.phase, seed, layout)
        mirrored = [(k, 1 - p if p >= 0 else p, *rest) for k, p, *rest in log]
        if log2 != mirrored or sorted(1 - s for s in won) != sorted(won2) or f2 != 1 - f:
            bad.append(seed)
        first.append(f)
        got.append(1.0 if won == [0] else 0.5 if len(won) == 2 else 0.0)
    first_, got_ = np.array(first), np.array(got)
    print(
        f"phases {lo}-{hi} ({a.layout} dice) from phase {a.phase}, seeds {a.seed}-"
        f"{a.seed + a.games - 1}: {a.games} games, each again with the other seat beginning, "
        f"in {time.monotonic() - t0:.0f} s; not mirrored: {len(bad)} {bad[:10]}"
    )
    for s in (0, 1):
        x = np.where(first_ == s, got_, 1 - got_)[first_ == s]  # the first mover's results
        se = x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else math.nan
        print(
            f"  seat {s} began {len(x)} games: the first mover's share {x.mean():.4f} +- {se:.4f}"
        )
    print(f"  seat 0's share {got_.mean():.4f} (expected 1/2 where every game is mirrored)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
