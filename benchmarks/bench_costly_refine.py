"""How many exact solves the first pass of a two-player solve spends on a color phase's last
chances when each solve is costly (the recorded dice: about 25 s): every wide turn solved (the
straightforward form, the reference), against the rows left checked again after each pair of
solves, in state order and spread out (bisection order, ``spread_order``), in the same run.

The compact dice' end game (phases 8-10, ``--target`` for the start), up to the end of phase
8's last chances, three times: its family marked costly or not, the order patched. Prints the
exact solves and the seconds of each variant. (On the compact dice a solve takes 1-2 s, so
the seconds say little; the counts carry over to the recorded dice, where the solves are
nearly all the time.) Then a reduced game on four of the recorded dice solved to a target of
1e-5 through rounds, their costly picks left checked again by weight times width or all
solved.

    python benchmarks/bench_costly_refine.py [--target 5e-5]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import phase10math.game.duel as duel
from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import parse_phase
from phase10math.dice.rules import Rules
from phase10math.game.duel import DuelGame, solve_duel
from phase10math.turn.family import TensorFamily, TurnFamily

REDUCED = ("2 of one color", "1 set of 3", "1 set of 4")
REDUCED_RULES = Rules(five_phase_threshold=15, five_phase_bonus=5, first_finish_bonus=3)


class LastChancesDone(Exception):
    """Raised once phase 8's last chances are solved: the count is in."""


def run(target: float, costly: bool, spread: bool) -> tuple[int, float]:
    real_last, real_order, real_costly = (
        duel.layers.solve_last,
        duel.refinement.spread_order,
        TurnFamily.costly,
    )

    def last(sol, k, *args, **kwargs):
        real_last(sol, k, *args, **kwargs)
        if k == 8:
            raise LastChancesDone

    duel.layers.solve_last = last
    TurnFamily.costly = costly
    if not spread:
        duel.refinement.spread_order = np.arange
    game = DuelGame.standard(8, 10)
    t = time.perf_counter()
    try:
        solve_duel(game, target=target)
    except LastChancesDone:
        pass
    finally:
        duel.layers.solve_last, duel.refinement.spread_order, TurnFamily.costly = (
            real_last,
            real_order,
            real_costly,
        )
    return game.turns[8].exact_solves, time.perf_counter() - t


def rounds(target: float, recheck: bool) -> tuple[int, float, float]:
    """Exact solves of a reduced game on four of the recorded low dice ("2 of one color",
    "1 set of 3", "1 set of 4"; its color phase on the tensor engine) to ``target``, the
    rounds' picks left checked again by weight times width (``recheck``) or not."""
    real = duel.rounds.still_picked
    if not recheck:
        duel.rounds.still_picked = lambda *args: None
    try:
        dice = tuple(RECORDED_LAYOUT.dice[i] for i in (6, 7, 8, 9))
        phases = {4 + i: parse_phase(t) for i, t in enumerate(REDUCED)}
        fam = TensorFamily.for_phase(phases[4], REDUCED_RULES, dice, tol=1e-9)
        game = DuelGame(phases, REDUCED_RULES, dice, turns={4: fam}, reachable=True)
        t = time.perf_counter()
        sol = solve_duel(game, target=target)
        return fam.exact_solves, time.perf_counter() - t, sol.error(game.start())
    finally:
        duel.rounds.still_picked = real


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", type=float, default=5e-5)
    args = ap.parse_args()
    rows = [
        ("every wide turn (the reference)", False, False),
        ("checked again after each pair, state order", True, False),
        ("checked again after each pair, spread out", True, True),
    ]
    base = None
    for name, costly, spread in rows:
        n, sec = run(args.target, costly, spread)
        base = base or n
        print(f"{name:<46} {n:>4} exact solves ({n / base:.2f} x), {sec:.0f} s")
    for recheck in (False, True):
        n, sec, err = rounds(1e-5, recheck)
        how = "checked again by weight times width" if recheck else "all solved (the reference)"
        print(f"reduced game, rounds' picks {how}: {n} exact solves, {sec:.1f} s, start {err:.1e}")


if __name__ == "__main__":
    main()
