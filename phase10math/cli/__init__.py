"""The ``phase10math`` command line.

Each module that offers commands has a function ``add_commands(subparsers)`` that adds its
sub-commands; each sub-command sets ``func``, a handler ``(args) -> int``. Bad input raises a
:class:`~phase10math.errors.Phase10MathError`, shown here on stderr with exit code 2. Exit
codes: 0 done, 1 internal error (a bug), 2 bad input or refused, 70 a result outside its range
(an internal error caught before anything was printed), 74 the output could not be written
(standard output closed or full), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from phase10math._base import startup
from phase10math._base.checks import OneLineParser, missing_command
from phase10math.errors import Phase10MathError, ResultOutOfRangeError

# modules whose add_commands() contribute sub-commands, in help order
COMMAND_MODULES = [
    "phase10math.cli.dice",
    "phase10math.cli.turn",
    "phase10math.cli.game",
    "phase10math.cli.duel",
    "phase10math.cards.cli",
    "phase10math.tenthousand.cli",
    "phase10math.cli.handouts",
    "phase10math.cli.card",
]


class _Version(argparse.Action):
    """``--version``: the installed version, read only when asked (importlib.metadata takes a
    while to import)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **_) -> None:
        help_text = "show program's version number and exit"
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, help=help_text)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from phase10math.version import package_version

        print(f"phase10math {package_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="phase10math",
        description="Exact probabilities and optimal strategies for Phase 10 Dice.",
    )

    parser.add_argument("--version", action=_Version)
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


#: Exit code when the output cannot be written (stdout closed, the disk full): EX_IOERR.
EXIT_OUTPUT = 74
#: Exit code of a result outside its range (:mod:`phase10math.guards`): EX_SOFTWARE.
EXIT_INTERNAL = 70


class OutputError(Exception):
    """Standard output cannot be written (closed, the disk full, an I/O error)."""


class _CheckedStdout:
    """Standard output whose write errors are :class:`OutputError` (a closed pipe stays a
    ``BrokenPipeError``: a quiet exit, as ``head`` expects)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise OutputError(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise OutputError(exc) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None) -> int:
    """Run one command. Bad input: one line on stderr, exit code 2; Ctrl-C (at any point, the
    workers of a command included): "interrupted", exit code 130; a closed pipe
    (``phase10math table | head -1``): a quiet exit; standard output closed or full: one
    line on stderr, exit code 74."""
    startup.interrupts_raise()
    startup.watch_interrupts()
    try:
        return _run(argv)
    except KeyboardInterrupt:
        if startup.claim_interrupted_line():
            _say(startup.INTERRUPTED)
        startup.forget_interrupt()
        return startup.EXIT_INTERRUPTED
    finally:
        startup.interrupts_exit()  # Ctrl-C while the process exits: the same one line


def _run(argv: list[str] | None) -> int:
    stdout = sys.stdout
    if stdout is None:  # started with standard output closed (>&-)
        return _fail("standard output is closed; nothing can be printed", EXIT_OUTPUT)
    sys.stdout = _CheckedStdout(stdout)
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # usage error (one line printed, 2), --help or --version (0)
            sys.stdout.flush()
            return exc.code if isinstance(exc.code, int) else 2
        if getattr(args, "func", None) is None:
            return missing_command(parser)
        code = int(args.func(args) or 0)
        sys.stdout.flush()
        return code
    except OutputError as exc:
        _quiet_stdout(stdout)
        why = exc.args[0]
        why = why.strerror if isinstance(why, OSError) and why.strerror else why
        return _fail(f"cannot write the output ({why})", EXIT_OUTPUT)
    except Phase10MathError as exc:
        return _fail(str(exc))
    except ResultOutOfRangeError as exc:
        _say(f"phase10math: internal error: {exc}; the answer is not printed (please report it)")
        return EXIT_INTERNAL
    except BrokenPipeError:
        _quiet_stdout(stdout)
        return 0
    except MemoryError:
        return _fail("out of memory; try smaller numbers (see docs/cli-bounds.md)")
    except RecursionError:
        return _fail("the input is too deeply nested to handle")
    except Exception as exc:  # a bug: still one line, no traceback (PHASE10MATH_DEBUG=1 shows it)
        if startup.interrupt_taken():  # numpy's import broken by the Ctrl-C: "a bad install"
            raise KeyboardInterrupt from None
        if os.environ.get("PHASE10MATH_DEBUG"):
            raise
        _say(
            f"phase10math: internal error: {type(exc).__name__}: {exc} (please report it; "
            "PHASE10MATH_DEBUG=1 shows the traceback)"
        )
        return 1
    finally:
        if isinstance(sys.stdout, _CheckedStdout):
            sys.stdout = stdout


def _say(line: str) -> None:
    """One line on stderr, unless stderr is closed or cannot be written."""
    if sys.stderr is None:
        return
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):
        pass


MESSAGE = 600  # the longest error line


def _fail(message: str, code: int = 2) -> int:
    """One line on stderr, exit ``code``: a long message has its long words (a value typed)
    shortened, then is cut at a word."""
    line = " ".join(message.split())
    if len(line) > MESSAGE:
        line = " ".join(w if len(w) <= 60 else w[:57] + "..." for w in line.split())
    if len(line) > MESSAGE:
        line = line[:MESSAGE].rsplit(" ", 1)[0] + " ..."
    _say(f"phase10math: error: {line}")
    return code


def _quiet_stdout(stream) -> None:
    """After a closed pipe or a failed write: point the process's standard output at
    /dev/null, so that the final flush at exit (of what is still buffered) is silent."""
    try:
        if stream is sys.__stdout__:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
