"""Solve the per-phase table of the recorded dice (phases 1-20, default rules) and write it
as the package data that ``phase_row`` and ``phase10math table`` read at once.

    python tools/ship_phase_rows.py            # solve, write phase10math/turn/data/phase_rows.json
    python tools/ship_phase_rows.py --check    # solve, compare with the shipped file (exit 1)

Every row is solved, not read from the shipped file (``shipped=False``; the disk cache of
solved turns is used where it holds them): about six minutes and under 2 GB on the 2-core
machine from an empty cache, most of it the four color phases. Each row's fractions are
written as ``numerator/denominator``, with the completion chance for 1, 2 and 3 rolls.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

from phase10math.cache import package_version
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import DEFAULT_RULES
from phase10math.turn.tables import (
    RECOMPUTE_ROWS,
    ROWS_FILE,
    phase_table,
    rows_setting,
    values_by_rolls_left,
)

TARGET = Path(__file__).resolve().parent.parent / "phase10math" / "turn" / "data" / ROWS_FILE


def fraction_text(v: Fraction) -> str:
    return f"{v.numerator}/{v.denominator}"


def payload(phases=range(1, 21)) -> dict:
    """The shipped file's content, every row solved now."""
    rows = phase_table(phases, DEFAULT_RULES, DEFAULT_LAYOUT, shipped=False)
    out = {}
    for n in phases:
        by_rolls = values_by_rolls_left(n, "complete", DEFAULT_RULES, DEFAULT_LAYOUT, shipped=False)
        out[str(n)] = {
            "phase": str(PHASES[n].key()),
            "requirement": PHASES[n].text,
            "row": {k: fraction_text(v) for k, v in rows[n].items()},
            "by_rolls": {str(r): fraction_text(v) for r, v in by_rolls.items()},
        }
    return {
        "format": 1,
        "setting": rows_setting(DEFAULT_RULES, DEFAULT_LAYOUT),
        "command": RECOMPUTE_ROWS,
        "phases": out,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file")
    a = ap.parse_args()
    data = payload()
    if a.check:
        shipped = json.loads(TARGET.read_text(encoding="utf-8"))
        same = shipped["phases"] == data["phases"] and shipped["setting"] == data["setting"]
        print("the shipped rows equal the rows solved now" if same else "the rows DIFFER")
        return 0 if same else 1
    data["code_version"] = package_version()
    TARGET.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
