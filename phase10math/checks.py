"""One validation layer for what the command line and the public API accept (the checks of
rules and layouts are beside their types: :func:`phase10math.dice.rules.check_rules`,
:func:`phase10math.dice.faces.check_layout`).

- :data:`BOUNDS`: every whole-number option of the command line with its documented range
  (``docs/cli-bounds.md`` lists them); :func:`int_arg` makes the argparse ``type=`` for one.
  Numbers are plain ASCII digits with an optional sign (no ``²``, no 5000-digit numbers), so a
  bad number is refused by argparse with one line on stderr and exit code 2.
- :func:`read_layout_file`: a layout file read safely (size cap, UTF-8 text only).
- :func:`check_int`, :func:`check_seed`, :func:`check_type`: type checks at the public API
  boundary that raise the package's own errors (ValueError subclasses), never TypeError.

>>> int_arg("players")("3")
3
>>> int_arg("players")("9")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 9 is out of range; allowed 1..8
>>> check_seed(-1)
Traceback (most recent call last):
...
phase10math.errors.InvalidRulesError: seed=-1; allowed: a whole number 0..4294967295
"""

from __future__ import annotations

import argparse
import numbers
import os
import re
from typing import Any

from phase10math.errors import InvalidLayoutError, InvalidRulesError, Phase10MathError

MAX_SEED = 2**32 - 1

# option -> (lowest, highest): the documented bounds of the command line
BOUNDS: dict[str, tuple[int, int]] = {
    "seed": (0, MAX_SEED),
    "players": (1, 8),  # phase10math game
    "games": (1, 100_000),  # phase10math headtohead
    "simulate": (0, 1_000_000),  # phase10math solitaire (0 = none; 1 is refused: no spread)
    "max-turns": (1, 10_000),  # phase10math turns
    "rolls-left": (0, 5),  # phase10math advise (also < the rolls of the rules)
    "top": (0, 10_000),  # phase10math advise (0 = all)
    "cards-players": (2, 6),  # phase10math cards game
    "hand-size": (1, 30),  # phase10math cards dealt
    "draws": (0, 98),  # phase10math cards draws
    "trials": (1, 1_000_000),  # phase10math cards draws
    "tenk-dice": (1, 6),  # phase10math tenk ev --dice
    "turn-total": (0, 100_000),  # phase10math tenk ev --turn-total
    "points": (0, 10_000),  # tenk --straight/--three-pairs/--open
    "target": (100, 20_000),  # phase10math tenk duel --target
    "tenk-score": (0, 20_000),  # phase10math tenk advise --me/--opponent
}

MAX_LAYOUT_BYTES = 64 * 1024
_INT_RE = re.compile(r"[+-]?[0-9]{1,25}")


def parse_bounded(text: str, name: str) -> int:
    """``text`` as a whole number within ``BOUNDS[name]`` (ArgumentTypeError otherwise)."""
    lo, hi = BOUNDS[name]
    t = text.strip()
    if not _INT_RE.fullmatch(t):
        shown = t if len(t) <= 20 else t[:20] + "..."
        raise argparse.ArgumentTypeError(
            f"{shown!r} is not a whole number; write one from {lo} to {hi} in digits 0-9"
        )
    v = int(t)
    if not lo <= v <= hi:
        raise argparse.ArgumentTypeError(f"{v} is out of range; allowed {lo}..{hi}")
    return v


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr (exit code 2)."""

    def error(self, message: str):  # type: ignore[override]
        line = " ".join(str(message).split())
        if len(line) > 400:
            line = line[:400].rsplit(" ", 1)[0] + " ..."
        self.exit(2, f"{self.prog}: error: {line} (see {self.prog} --help)\n")


def int_arg(name: str):
    """The argparse ``type=`` for the whole-number option ``name`` of :data:`BOUNDS`."""

    def conv(text: str) -> int:
        return parse_bounded(text, name)

    conv.__name__ = name  # argparse names the type in its messages
    return conv


def read_layout_file(path: str) -> str:
    """The text of a layout file: at most 64 KiB of UTF-8 text (no NUL bytes)."""
    try:
        size = os.path.getsize(path)
        if size > MAX_LAYOUT_BYTES:
            raise InvalidLayoutError(
                f"layout file {path!r} has {size:,} bytes; a layout is at most "
                f"{MAX_LAYOUT_BYTES // 1024} KiB of text"
            )
        with open(path, "rb") as fh:
            data = fh.read(MAX_LAYOUT_BYTES + 1)
    except OSError as exc:
        raise InvalidLayoutError(
            f"cannot read layout file {path!r}: {exc.strerror or exc}"
        ) from None
    if b"\0" in data:
        raise InvalidLayoutError(
            f"layout file {path!r} is not a text file (write one die a line, e.g. "
            "'5r 6o 7b 8g 9r 10o')"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidLayoutError(
            f"layout file {path!r} is not UTF-8 text (byte {exc.start + 1} cannot be read)"
        ) from None
    return text


# --------------------------------------------------------------------------- API boundary


def check_int(
    value: Any,
    name: str,
    lo: int | None = None,
    hi: int | None = None,
    error: type[Phase10MathError] = InvalidRulesError,
) -> int:
    """``value`` if it is a whole number (not a bool) within ``lo..hi``, else ``error``."""

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(f"{name}={value!r}; allowed: a whole number{_range(lo, hi)}")
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise error(f"{name}={value!r}; allowed: a whole number{_range(lo, hi)}")
    return value


def _range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f" {lo}..{hi}"
    if lo is not None:
        return f" >= {lo}"
    if hi is not None:
        return f" <= {hi}"
    return ""


def check_seed(seed: Any, name: str = "seed") -> int | None:
    """A seed for numpy's generator: None or a whole number 0..2**64-1."""
    if seed is None:
        return None
    return check_int(seed, name, 0, MAX_SEED)


def check_type(
    value: Any,
    types: type | tuple[type, ...],
    name: str,
    error: type[Phase10MathError] = InvalidRulesError,
    what: str = "",
) -> Any:
    """``value`` if it is an instance of ``types``, else ``error`` naming what is expected."""
    if not isinstance(value, types):
        if not what:
            ts = types if isinstance(types, tuple) else (types,)
            what = " or ".join(t.__name__ for t in ts)
        raise error(f"{name}: expected {what}; got {type(value).__name__} {_short(value)}")
    return value


def _short(value: Any) -> str:
    r = repr(value)
    return r if len(r) <= 60 else r[:57] + "..."
