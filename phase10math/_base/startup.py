"""Ctrl-C outside a command's own run: while the command line starts and while it exits.

Imported first by the package, so that when the process is the ``phase10math`` command (the
console script or ``python -m phase10math``) a Ctrl-C while the package is still imported
prints one line, ``phase10math: interrupted``, and exits with code 130 instead of a
traceback. :func:`interrupts_raise` hands Ctrl-C back to Python (a ``KeyboardInterrupt`` that
the command line answers); :func:`interrupts_exit` restores the quiet exit for the end of the
run (interpreter shutdown, worker processes joined). A program that imports the package as a
library is never touched.

>>> running_as_command(["python", "-m", "phase10math", "table"], "-m")
True
>>> running_as_command(["python", "-c", "import phase10math"], "-c")
False
"""

from __future__ import annotations

import os
import signal
import sys
import threading

INTERRUPTED = "phase10math: interrupted"
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command ended by Ctrl-C
COMMAND_MODULES = ("phase10math", "phase10math.cli")


def running_as_command(orig_argv: list[str] | None = None, argv0: str | None = None) -> bool:
    """Whether this process is the ``phase10math`` command line."""
    orig = list(getattr(sys, "orig_argv", []) if orig_argv is None else orig_argv)
    first = (sys.argv[0] if sys.argv else "") if argv0 is None else argv0
    if os.path.basename(first) == "phase10math":
        return True
    return any(a == "-m" and b in COMMAND_MODULES for a, b in zip(orig, orig[1:]))


def quiet_exit(signum=None, frame=None) -> None:
    """The SIGINT handler outside the command's run: one line on stderr, exit code 130."""
    try:
        os.write(2, (INTERRUPTED + "\n").encode())
    except OSError:
        pass
    os._exit(EXIT_INTERRUPTED)


def forget_interrupt() -> None:
    """After a Ctrl-C that the command line answered (its one line printed), keep the exit
    code 130: CPython remembers a ``KeyboardInterrupt`` that ended an ``exec`` of source text
    (``dataclasses`` builds its methods so while a module is imported) and at the
    interpreter's exit would end the process by SIGINT instead; an ``exec`` that completes
    clears what it remembers."""
    exec("pass", {})


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def interrupts_raise() -> None:
    """Ctrl-C raises ``KeyboardInterrupt`` again (where :func:`quiet_exit` was installed)."""
    if _main_thread() and signal.getsignal(signal.SIGINT) is quiet_exit:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def interrupts_exit() -> None:
    """Ctrl-C exits quietly from now on, when this process is the command line (and SIGINT is
    not ignored: a command started in the background keeps ignoring it)."""
    if (
        _main_thread()
        and running_as_command()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ):
        signal.signal(signal.SIGINT, quiet_exit)


interrupts_exit()
