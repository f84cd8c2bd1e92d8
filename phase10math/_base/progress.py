"""Progress bars that stay quiet when nobody is watching.

Every long computation of the kit (the 20-phase table, optimal solitaire, card counts, the
10,000 duel) reports progress through :func:`progress_bar`, one helper, so that one switch
decides for all of them. A bar is drawn (with ``tqdm``) only when the caller asks for it **and**
someone can watch:

- ``PHASE10MATH_PROGRESS=off`` (or ``0``, ``no``, ``false``) silences every bar; use it when
  executing notebooks to be committed or exported, so that no frozen "0%" bar is stored;
- ``PHASE10MATH_PROGRESS=on`` (or ``1``, ``yes``, ``true``) always draws them;
- unset: bars are drawn in an interactive session, i.e. when stderr is a terminal or the code
  runs in a Jupyter kernel.

A silenced bar is a :class:`QuietBar`: it has the methods the kit calls (``update``,
``close``, ``set_postfix``, iteration) and does nothing.

A long first solve on the command line (``advise --phase 8`` on a cold cache) shows a
:class:`ProgressLine` instead: one line with the step, the time so far and an estimate of the
time left, drawn under the same switch and erased when the solve is done.

>>> import os
>>> os.environ["PHASE10MATH_PROGRESS"] = "off"
>>> bar = progress_bar(total=3, desc="demo")
>>> isinstance(bar, QuietBar), progress_enabled()
(True, False)
>>> bar.update(); bar.close()
>>> list(progress_bar([1, 2, 3]))        # wrapping an iterable passes it through
[1, 2, 3]
>>> del os.environ["PHASE10MATH_PROGRESS"]
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any

ENV_VAR = "PHASE10MATH_PROGRESS"
#: seconds a :class:`ProgressLine` waits before it shows (a short solve shows nothing)
DELAY = 1.0
_OFF = {"off", "0", "no", "false"}
_ON = {"on", "1", "yes", "true"}


def _interactive() -> bool:
    """True in a terminal or a Jupyter kernel."""
    try:
        if sys.stderr is not None and sys.stderr.isatty():
            return True
    except (AttributeError, ValueError):  # closed or replaced streams
        pass
    return "ipykernel" in sys.modules


def progress_enabled(requested: bool = True) -> bool:
    """Whether a bar that the caller ``requested`` is drawn (see the module docstring).

    >>> import os
    >>> os.environ["PHASE10MATH_PROGRESS"] = "on"
    >>> progress_enabled(), progress_enabled(requested=False)
    (True, False)
    >>> del os.environ["PHASE10MATH_PROGRESS"]
    """
    if not requested:
        return False
    setting = os.environ.get(ENV_VAR, "").strip().lower()
    if setting in _OFF:
        return False
    if setting in _ON:
        return True
    return _interactive()


class QuietBar:
    """A progress bar that shows nothing (the same methods as the tqdm bar the kit uses)."""

    def __init__(self, iterable: Iterable | None = None, **_: Any) -> None:
        self.iterable = iterable
        self.n = 0

    def __iter__(self) -> Iterator:
        return iter(self.iterable if self.iterable is not None else ())

    def update(self, n: int = 1) -> None:
        """Count ``n`` more steps (silently)."""
        self.n += n

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        """Ignored."""

    def set_description(self, *args: Any, **kwargs: Any) -> None:
        """Ignored."""

    def set_postfix_str(self, *args: Any, **kwargs: Any) -> None:
        """Ignored."""

    def close(self) -> None:
        """Nothing to close."""

    def __enter__(self) -> QuietBar:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress_bar(iterable: Iterable | None = None, *, enabled: bool = True, **kwargs: Any):
    """A ``tqdm.auto`` bar (keyword arguments as for tqdm: ``total``, ``desc``, ``unit``), or a
    :class:`QuietBar` when ``enabled`` is false or :func:`progress_enabled` says no one watches.
    """
    if not progress_enabled(enabled):
        return QuietBar(iterable, **kwargs)
    from tqdm.auto import tqdm

    return tqdm(iterable, **kwargs)


class ProgressLine:
    """One line on the terminal, rewritten in place while a long answer is computed: what is
    computed, the time so far and, once a solve reports its steps, the step of ``steps`` and
    an estimate of the time left (as the app shows before a phase's first solve). A
    callable: ``line(message)`` counts a step, so it is the ``progress`` callback of
    :func:`~phase10math.turn.tables.cached_solution` (an answer from the cache calls none).

    Drawn only when ``enabled`` and someone watches (:func:`progress_enabled`: standard error
    is a terminal), once ``delay`` seconds (:data:`DELAY`) have passed: a quick answer shows
    nothing. A thread refreshes it every ``interval`` seconds; closing it (the end of a
    ``with`` block) erases it. ``label`` names the steps (e.g. "first solve, step").

    >>> import io
    >>> out = io.StringIO()
    >>> with ProgressLine("phase 8", 3, stream=out, delay=0, interval=60) as line:
    ...     line("rolls left 1")
    >>> out.getvalue().split("\\r")[1]
    'phase 8: step 1 of 3, 0:00 so far, finishing\\x1b[K'
    >>> quiet = io.StringIO()
    >>> with ProgressLine("solving", 3, enabled=False, stream=quiet, delay=0) as line:
    ...     line("rolls left 1")
    >>> quiet.getvalue()
    ''
    """

    def __init__(
        self,
        title: str,
        steps: int,
        *,
        enabled: bool = True,
        stream: Any = None,
        delay: float | None = None,
        interval: float = 1.0,
        label: str = "step",
    ) -> None:
        self.title, self.steps, self.interval, self.label = title, steps, interval, label
        self.delay = DELAY if delay is None else delay
        self.stream = stream
        self.enabled = progress_enabled(enabled) if stream is None else enabled
        self._clock = time.monotonic
        self.start = self._clock()
        self.done = 0
        self._last = self.start  # when the latest step came
        self._shown = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if self.enabled:
            self._ticker = threading.Thread(target=self._tick, name="progress-line", daemon=True)
            self._ticker.start()

    def __call__(self, message: str = "") -> None:
        """One step done (``message``, e.g. the engine's "rolls left 1", is not shown)."""
        with self._lock:
            self.done += 1
            self._last = self._clock()
        self._draw()

    def text(self, now: float) -> str:
        """The line at time ``now``: the step, the time so far and the estimate left (the
        mean time of a step so far times the steps to come; "finishing" once that is spent).
        """
        spent = now - self.start
        line = f"{self.title}: "
        if self.done:
            line += f"{self.label} {min(self.done, self.steps)} of {self.steps}, "
        line += f"{_duration(spent)} so far"
        if 0 < self.done < self.steps:
            left = (self._last - self.start) / self.done * (self.steps - self.done)
            left -= now - self._last
            line += f", about {_duration(left)} left" if left >= 1 else ", finishing"
        return line

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            now = self._clock()
            if now - self.start < self.delay or self._stop.is_set():
                return
            stream = self.stream if self.stream is not None else sys.stderr
            self._write("\r" + self.text(now)[: _columns(stream) - 1] + "\x1b[K")
            self._shown = True

    def _write(self, text: str) -> None:
        stream = self.stream if self.stream is not None else sys.stderr
        try:
            stream.write(text)
            stream.flush()
        except (OSError, ValueError, AttributeError):  # a closed or replaced stream
            self.enabled = False

    def close(self) -> None:
        """Stop the refreshes and erase the line."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            if self._shown:
                self._write("\r\x1b[K")
                self._shown = False

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _duration(seconds: float) -> str:
    """A duration as a clock shows it: ``0:42``, ``3:20``, ``1:02:03``.

    >>> _duration(42.4), _duration(200), _duration(3723), _duration(-1)
    ('0:42', '3:20', '1:02:03', '0:00')
    """
    m, s = divmod(max(0, round(seconds)), 60)
    return f"{m}:{s:02d}" if m < 60 else f"{m // 60}:{m % 60:02d}:{s:02d}"


def _columns(stream: Any) -> int:
    """The width of the terminal ``stream`` writes to (80 where it cannot be read)."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        columns = shutil.get_terminal_size((80, 24)).columns
    return columns if columns >= 20 else 80
