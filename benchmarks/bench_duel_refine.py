"""Where the two-player solve spends a color phase's exact solves: the first pass by estimated
visits and the rounds that solve again only what weighs, against closing every interval (the
straightforward form, the reference), in the same run.

A reduced color game (``--dice`` dice with faces 5r 5o 6b 6g Wr Wo, "2 of one color" then "1
set of 3" then "1 set of 4"; the rules' bonuses scaled down) is solved both ways: with every
family interval wider than its ``tol`` solved exactly, and with ``--target`` for the start's
proven error. For each it prints the exact solves, the wall seconds (min/median/max of
``--repeat`` runs, each a fresh game), the start's value and proven error, and for the
targeted solve the rounds (exact solves, states solved again of those in their steps). The
two start values must agree within the two errors.

    python benchmarks/bench_duel_refine.py [--dice 4] [--target 1e-5] [--repeat 3]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time

from phase10math.dice.faces import Die, parse_faces
from phase10math.dice.phases import parse_phase
from phase10math.dice.rules import Rules
from phase10math.game.duel import DuelGame, solve_duel
from phase10math.turn.family import TurnFamily

FACES = "5r 5o 6b 6g Wr Wo"
RULES = Rules(five_phase_threshold=15, five_phase_bonus=5, first_finish_bonus=3)
PHASES = ("2 of one color", "1 set of 3", "1 set of 4")


def game(n_dice: int, tol: float) -> DuelGame:
    """The reduced color game, its color phase (the first) a family refined to ``tol``."""
    dice = (Die("low", parse_faces(FACES)),) * n_dice
    phases = {4 + i: parse_phase(p) for i, p in enumerate(PHASES)}
    fam = TurnFamily.for_phase(phases[4], RULES, dice, tol=tol)
    return DuelGame(phases, RULES, dice, turns={4: fam}, reachable=True)


def run(n_dice: int, target: float | None) -> dict:
    g = game(n_dice, 1e-11 if target is None else 1e-9)
    lines: list[str] = []
    t = time.perf_counter()
    sol = solve_duel(g, target=target, log=lines.append)
    sec = time.perf_counter() - t
    rounds = [
        (int(m.group(1)), int(m.group(2)))
        for m in (re.search(r"(\d+) exact solves; solving again (\d+)", ln) for ln in lines)
        if m
    ]
    key = g.start()
    return {
        "seconds": sec,
        "exact": g.turns[4].exact_solves,
        "value": sol.value(key)[0],
        "error": sol.error(key),
        "rounds": rounds,
        "pairs": len(sol.values[next(iter(sol.values))]) // 2,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dice", type=int, default=4, help="at least 4 (the last phase is a set of 4)")
    ap.add_argument("--target", type=float, default=1e-5)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    out = {}
    for name, target in (("every interval closed", None), (f"target {a.target:g}", a.target)):
        runs = [run(a.dice, target) for _ in range(a.repeat)]
        secs = sorted(r["seconds"] for r in runs)
        r = runs[0]
        out[name] = r
        print(
            f"{name:>22}: {r['exact']:5d} exact solves, {secs[0]:7.1f} / "
            f"{statistics.median(secs):7.1f} / {secs[-1]:7.1f} s (min/median/max of "
            f"{a.repeat}), start {r['value']:.9f} +- {r['error']:.1e}, {r['pairs']} pairs"
        )
        for n_exact, again in r["rounds"]:
            print(f"{'':>24}round: {n_exact} exact solves, {again} states solved again")
    ref, tgt = out.values()
    diff = abs(ref["value"] - tgt["value"])
    print(
        f"start values differ by {diff:.1e} (errors {ref['error']:.1e} + {tgt['error']:.1e}); "
        f"exact solves {tgt['exact'] / ref['exact']:.3f} of the reference"
    )
    assert diff <= ref["error"] + tgt["error"]


if __name__ == "__main__":
    main()
