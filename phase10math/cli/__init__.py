"""The ``phase10math`` command line.

Each module that offers commands has a function ``add_commands(subparsers)`` that adds its
sub-commands; each sub-command sets ``func``, a handler ``(args) -> int``. Bad input raises a
:class:`~phase10math.errors.Phase10MathError`, shown here on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from phase10math import __version__
from phase10math.errors import Phase10MathError

# modules whose add_commands() contribute sub-commands, in help order
COMMAND_MODULES = [
    "phase10math.cli.dice",
    "phase10math.cli.turn",
    "phase10math.cli.game",
    "phase10math.cards.cli",
    "phase10math.tenthousand.cli",
    "phase10math.cli.handouts",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="phase10math",
        description="Exact probabilities and optimal strategies for Phase 10 Dice.",
    )

    parser.add_argument("--version", action="version", version=f"phase10math {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a part of the kit not built yet
            if exc.name == name:
                continue
            raise
        module.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except Phase10MathError as exc:
        print(f"phase10math: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
