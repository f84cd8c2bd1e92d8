"""Ctrl-C in the command process: one line and exit code 130, within a second, wherever it lands.

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
import time

INTERRUPTED = "phase10math: interrupted"
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command ended by Ctrl-C
COMMAND_MODULES = ("phase10math", "phase10math.cli")
GRACE = 1.0  # seconds a Ctrl-C waits for the main thread before the watch answers it

_ANSWER = threading.Lock()
_LINE_SAID: list[bool] = []  # one entry once the interrupted line is printed
_TAKEN: list[int] = []  # one entry per Ctrl-C the main thread has taken


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


def raise_interrupt(signum=None, frame=None) -> None:
    """The SIGINT handler during the command's run: ``KeyboardInterrupt``, as Python's own,
    noted for :func:`watch_interrupts`."""
    note_interrupt_taken()
    raise KeyboardInterrupt


def note_interrupt_taken() -> None:
    """Tell the watch that the main thread has a Ctrl-C in hand (raised, or held to be raised
    in a moment: ``_base.workers.sigint_held``)."""
    _TAKEN.append(1)


def claim_interrupted_line() -> bool:
    """Whether the caller is the one to print the line of a Ctrl-C: true once, whoever asks
    first (the command line or the watch)."""
    with _ANSWER:
        first = not _LINE_SAID
        _LINE_SAID.append(True)
        return first


def interrupt_taken() -> bool:
    """Whether the main thread has taken a Ctrl-C in this run: an error that follows one (an
    import that a Ctrl-C broke, reported by the importer as a bad install) is the Ctrl-C's."""
    return bool(_TAKEN)


def watch_interrupts() -> bool:
    """In the command process's main thread: start a thread that answers a Ctrl-C itself (the
    one line, exit code 130) when the main thread has not taken it within :data:`GRACE`
    seconds: Python handles a signal between two steps of the main thread, so a compiled
    kernel that runs for a minute, or a wait that the signal did not wake, would leave the
    command deaf. Workers end with their parent (``_base.workers``) and files are written
    whole or not at all, so nothing is left half done. Whether the watch started (only in
    the command process, where SIGINT is handled)."""
    if not (_main_thread() and running_as_command()):
        return False
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except ValueError:
        os.close(read_end)
        os.close(write_end)
        return False
    threading.Thread(
        target=_watch, args=(read_end,), daemon=True, name="phase10math-ctrl-c"
    ).start()
    sys.unraisablehook = _lost_interrupt_or(sys.unraisablehook)
    return True


def _lost_interrupt_or(hook):
    """An unraisable-exception hook that takes back a ``KeyboardInterrupt`` raised where
    Python can only ignore it (a weakref callback, a ``__del__``: the signal's handler ran
    there), so that the watch answers the Ctrl-C instead of a traceback and a command that
    runs on; anything else goes to ``hook``."""

    def unraisable(info) -> None:
        if info.exc_type is KeyboardInterrupt:
            if _TAKEN:
                _TAKEN.pop()
            return
        hook(info)

    return unraisable


def _watch(read_end: int) -> None:
    """The watch's loop: each SIGINT that reaches the process, then :data:`GRACE` seconds for
    the main thread to take it."""
    seen = 0
    while True:
        try:
            data = os.read(read_end, 512)
        except OSError:
            return
        if not data:
            return
        if signal.SIGINT not in data:
            continue
        seen = len(_TAKEN) + 1
        end = time.monotonic() + GRACE
        while time.monotonic() < end and len(_TAKEN) < seen:
            time.sleep(0.02)
        if len(_TAKEN) < seen:
            if claim_interrupted_line():
                try:
                    os.write(2, (INTERRUPTED + "\n").encode())
                except OSError:
                    pass
            os._exit(EXIT_INTERRUPTED)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def interrupts_raise() -> None:
    """Ctrl-C raises ``KeyboardInterrupt`` again (where :func:`quiet_exit` was installed), by
    :func:`raise_interrupt`."""
    _TAKEN.clear()  # a new run: no Ctrl-C taken, its line not yet printed
    _LINE_SAID.clear()
    if _main_thread() and signal.getsignal(signal.SIGINT) is quiet_exit:
        signal.signal(signal.SIGINT, raise_interrupt)


def interrupts_exit() -> None:
    """Ctrl-C exits quietly from now on, when this process is the command line (and SIGINT is
    not ignored: a command started in the background keeps ignoring it)."""
    if (
        _main_thread()
        and running_as_command()
        and signal.getsignal(signal.SIGINT) in (signal.default_int_handler, raise_interrupt)
    ):
        signal.signal(signal.SIGINT, quiet_exit)


interrupts_exit()
