"""Write a two-player table of rows of JSON (``.json.gz``, the shipped tables of few phases
before 2026-12-06) again as a packed table that keeps everything
(:class:`~phase10math.game.duel.files.TableForm` FULL: every matchup's values at every state
and every error as float64, the same numbers), with its solve's code version, command and
time.

    python tools/convert_duel_table.py OLD.json.gz NEW.npz
"""

from __future__ import annotations

import argparse
import sys

from phase10math.game.duel import read_table, write_packed
from phase10math.game.duel.files import TableForm


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old", help="the table of rows of JSON")
    p.add_argument("new", help="the packed table to write (.npz)")
    args = p.parse_args(argv)
    sol, data = read_table(args.old)
    write_packed(sol, args.new, data["command"], TableForm.FULL, provenance=data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
