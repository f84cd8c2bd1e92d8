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
import sys
from collections.abc import Iterable, Iterator
from typing import Any

ENV_VAR = "PHASE10MATH_PROGRESS"
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
