"""Grade the "beat the solver" hand-ins: every hand-in's ``strategy`` evaluated exactly on the
phase, against the optimum computed now, ranked in a class table (Markdown).

    python assignments/beat_the_solver/grade.py handins/*.ipynb handins/*.py
    python assignments/beat_the_solver/grade.py --phase 10 --dice compact handins/* --out table.md
    python assignments/beat_the_solver/grade.py --feedback feedback/ handins/*

A hand-in is a notebook (its code cells tagged ``strategy``, or all of them) or a Python file
that defines ``strategy(roll, rolls_left, phase)``. Its code runs in this process: grade in a
throwaway account or container. A hand-in that does not run, or keeps dice its roll does not
show, gets a row that says why. ``--feedback DIR`` also writes each student's report (the exact
values, the rolls where the strategy loses most, a seeded simulation) as ``DIR/<name>.txt``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
from phase10math.errors import Phase10MathError
from phase10math.turn import assess_strategy, class_table, grade, load_hand_in

DICE = {"recorded": RECORDED_LAYOUT, "compact": COMPACT_LAYOUT}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("hand_ins", nargs="+", type=Path, help="notebooks or Python files")
    p.add_argument("--phase", type=int, default=10, help="the phase graded (default 10)")
    p.add_argument("--dice", choices=sorted(DICE), default="recorded", help="the dice set")
    p.add_argument("--out", type=Path, help="write the class table here too")
    p.add_argument("--feedback", type=Path, metavar="DIR", help="one report per hand-in")
    args = p.parse_args(argv)
    strategies, broken = {}, {}
    for path in args.hand_ins:
        try:
            strategies[path.stem] = load_hand_in(path)
        except (OSError, ValueError) as exc:
            broken[path.stem] = exc
    for name, exc in broken.items():  # a row that says why, like a refused hold
        strategies[name] = _raiser(exc)
    layout = DICE[args.dice]
    try:
        rows = grade(strategies, args.phase, layout)
    except Phase10MathError as exc:
        print(f"grade.py: {exc}", file=sys.stderr)
        return 2
    table = class_table(rows)
    print(table)
    if args.out:
        args.out.write_text(table + "\n", encoding="utf-8")
    if args.feedback:
        args.feedback.mkdir(parents=True, exist_ok=True)
        for row in rows:
            text = row["refused"] or assess_strategy(
                strategies[row["name"]], args.phase, layout
            ).report(top=10)
            (args.feedback / f"{row['name']}.txt").write_text(text + "\n", encoding="utf-8")
    return 0


def _raiser(exc: Exception):
    def strategy(roll, rolls_left, phase):
        raise exc

    return strategy


if __name__ == "__main__":
    sys.exit(main())
