"""Compute the win strategy's candidate turns at the color phases of the recorded dice (their
outcome distributions, :mod:`phase10math.game.duel.candidates`) and write them as the package
data the strategy reads at once.

    python tools/ship_win_candidates.py           # write phase10math/game/data/win_candidates.json
    python tools/ship_win_candidates.py --check   # compare with the shipped file (exit 1)

Each candidate is solved (or read from the disk cache) and pushed forward through the hold
tensor once: about 4.5 GB and a few minutes a phase on the 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.rules import DEFAULT_RULES
from phase10math.game.duel.candidates import (
    DATA_FILE,
    compute_candidates,
    setting,
    tensor_phase,
    to_json,
)

TARGET = Path(__file__).resolve().parent.parent / "phase10math" / "game" / "data" / DATA_FILE
PHASES_IN_TABLES = range(1, 11)  # the shipped two-player tables: phases 1-10


def payload() -> dict:
    phases = [k for k in PHASES_IN_TABLES if tensor_phase(k, RECORDED_LAYOUT, DEFAULT_RULES)]
    return {
        "setting": setting(DEFAULT_RULES, RECORDED_LAYOUT),
        "command": "python tools/ship_win_candidates.py",
        "phases": {
            str(k): to_json(compute_candidates(k, DEFAULT_RULES, RECORDED_LAYOUT)) for k in phases
        },
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = ap.parse_args()
    data = payload()
    if args.check:
        same = json.loads(TARGET.read_text()) == data
        print("the shipped candidates are " + ("the same" if same else "DIFFERENT"))
        return 0 if same else 1
    TARGET.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
