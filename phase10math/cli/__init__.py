"""The ``phase10math`` command line.

Each module that offers commands has a function ``add_commands(subparsers)`` that adds its
sub-commands; each sub-command sets ``func``, a handler ``(args) -> int``. Bad input raises a
:class:`~phase10math.errors.Phase10MathError`, shown here on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from phase10math import __version__
from phase10math.checks import OneLineParser, missing_command
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
    parser = OneLineParser(
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
    """Run one command. Bad input: one line on stderr, exit code 2; Ctrl-C: "interrupted",
    exit code 130; a closed pipe (``phase10math table | head -1``): a quiet exit."""
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # usage error (one line printed, 2), --help or --version (0)
            return exc.code if isinstance(exc.code, int) else 2
        if getattr(args, "func", None) is None:
            return missing_command(parser)
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except Phase10MathError as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        print("phase10math: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except MemoryError:
        return _fail("out of memory; try smaller numbers (see docs/cli-bounds.md)")
    except RecursionError:
        return _fail("the input is too deeply nested to handle")
    except Exception as exc:  # a bug: still one line, no traceback (PHASE10MATH_DEBUG=1 shows it)
        if os.environ.get("PHASE10MATH_DEBUG"):
            raise
        print(
            f"phase10math: internal error: {type(exc).__name__}: {exc} (please report it; "
            "PHASE10MATH_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return 1


def _fail(message: str) -> int:
    """One line on stderr (a long message is cut at a word, never mid-word), exit code 2."""
    line = " ".join(message.split())
    if len(line) > 600:
        line = line[:600].rsplit(" ", 1)[0] + " ..."
    try:
        print(f"phase10math: error: {line}", file=sys.stderr)
    except (BrokenPipeError, OSError):
        pass
    return 2


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so the final flush at exit is silent."""
    try:
        if sys.stdout is sys.__stdout__:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
