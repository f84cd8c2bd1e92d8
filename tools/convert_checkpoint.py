"""Convert a two-player checkpoint of the older format (a gzip of a pickle) into the safe one
(:mod:`phase10math._base.savefile`: arrays and a JSON header, nothing that runs code).

Reading a pickle can run any code the file holds: convert only a file you wrote yourself (or
one from this repository's history). The game is named as on the command line of ``duel
--solve``; the file is refused unless it was written for that game.

    python tools/convert_checkpoint.py OLD NEW --phases 1-10 --layout recorded
"""

from __future__ import annotations

import argparse
import gzip
import pickle
import sys

from phase10math._base.savefile import write_safe
from phase10math.dice.layouts import COMPACT_LAYOUT, LAYOUTS
from phase10math.game.duel import DuelGame, fingerprint
from phase10math.game.duel.checkpoint import KIND, header


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old", help="the older checkpoint (gzip of a pickle) to read: trusted")
    p.add_argument("new", help="the checkpoint to write in the safe format")
    p.add_argument("--phases", required=True, help="LO-HI, as the solve was given")
    p.add_argument("--layout", default=None, help="the dice' layout name (default: compact)")
    args = p.parse_args(argv)
    lo, hi = (int(x) for x in args.phases.split("-"))
    layout = LAYOUTS[args.layout] if args.layout else COMPACT_LAYOUT
    game = DuelGame.standard(lo, hi, layout=layout)
    with gzip.open(args.old, "rb") as fh:
        data = pickle.load(fh)  # noqa: S301 (the file is trusted: see the docstring)
    if data.pop("fingerprint") != fingerprint(game):
        print(f"{args.old} was not written for {game.describe()}", file=sys.stderr)
        return 2
    write_safe(args.new, KIND, header(game), data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
