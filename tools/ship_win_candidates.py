"""Compute the win strategy's candidate turns at the costly color phases of the shipped dice
(the recorded and the compact set: their outcome distributions,
:mod:`phase10math.game.duel.candidates`) and write them as the package data the strategy reads
at once, with the file's SHA-256 in the package's manifest.

    python tools/ship_win_candidates.py           # write phase10math/game/data/win_candidates.json
    python tools/ship_win_candidates.py --check   # compare with the shipped file (exit 1)
    python tools/ship_win_candidates.py --layout compact   # recompute one layout's entry only

Each candidate is solved (or read from the disk cache) and pushed forward once: on the
recorded dice through the hold tensor (about 4.5 GB and a few minutes a phase on the 2-core
machine), on the compact dice through its 9.7 million grouped holds (the solves take a few
minutes, the pass seconds).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from phase10math.dice.layouts import LAYOUTS
from phase10math.dice.rules import DEFAULT_RULES
from phase10math.game.duel.candidates import (
    DATA_FILE,
    RECOMPUTE,
    candidate_phase,
    compute_candidates,
    setting,
    to_json,
)
from phase10math.game.duel.files import MANIFEST

DATA = Path(__file__).resolve().parent.parent / "phase10math" / "game" / "data"
TARGET = DATA / DATA_FILE
PHASES_IN_TABLES = range(1, 11)  # the shipped two-player tables: phases 1-10
SHIPPED = ("recorded", "compact")  # the layouts of the shipped two-player tables


def entry(name: str) -> dict:
    """One layout's candidates at each of its costly color phases."""
    layout = LAYOUTS[name]
    phases = [k for k in PHASES_IN_TABLES if candidate_phase(k, layout, DEFAULT_RULES)]
    return {
        "setting": setting(DEFAULT_RULES, layout),
        "phases": {str(k): to_json(compute_candidates(k, DEFAULT_RULES, layout)) for k in phases},
    }


def payload(only: str | None = None) -> dict:
    """The whole file; with ``only``, that layout recomputed and the others as shipped."""
    old = {}
    if only is not None and TARGET.is_file():
        shipped = json.loads(TARGET.read_text())["layouts"]
        old = {
            n: e
            for n in SHIPPED
            for e in shipped
            if e["setting"]["layout"] == LAYOUTS[n].fingerprint()
        }
    return {
        "command": RECOMPUTE,
        "layouts": [old[n] if only is not None and n != only else entry(n) for n in SHIPPED],
    }


def write(data: dict) -> None:
    """The file and its SHA-256 in the manifest."""
    text = json.dumps(data, indent=1) + "\n"
    TARGET.write_text(text)
    manifest = json.loads((DATA / MANIFEST).read_text())
    manifest["sha256"][DATA_FILE] = hashlib.sha256(text.encode()).hexdigest()
    manifest["sha256"] = dict(sorted(manifest["sha256"].items()))
    (DATA / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the shipped file")
    ap.add_argument("--layout", choices=SHIPPED, help="recompute this layout's entry only")
    args = ap.parse_args()
    data = payload(args.layout)
    if args.check:
        same = json.loads(TARGET.read_text()) == data
        print("the shipped candidates are " + ("the same" if same else "DIFFERENT"))
        return 0 if same else 1
    write(data)
    print(f"wrote {TARGET} and its SHA-256 in {MANIFEST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
