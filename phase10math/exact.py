"""Exact numbers: how they are shown and serialised.

Every probability or expectation the kit calls exact is a :class:`fractions.Fraction`.
These helpers show it with its float beside it and put both into JSON.

>>> from fractions import Fraction
>>> show(Fraction(1, 3))
'1/3 (0.333333)'
>>> to_json(Fraction(1, 3))
{'fraction': '1/3', 'float': 0.3333333333333333}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def as_fraction(x: Any) -> Fraction:
    """Convert an int, Fraction, sympy Rational or ``"p/q"`` string to a Fraction."""
    if isinstance(x, Fraction):
        return x
    if hasattr(x, "p") and hasattr(x, "q"):  # sympy Rational
        return Fraction(int(x.p), int(x.q))
    return Fraction(x)


def show(x: Any, digits: int = 6) -> str:
    """``'p/q (0.xxxxxx)'``: the exact value with its float beside it."""
    f = as_fraction(x)
    return f"{f} ({float(f):.{digits}f})"


def percent(x: Any, digits: int = 2) -> str:
    """The value as a percentage string, e.g. ``'33.33%'``."""
    return f"{100 * float(as_fraction(x)):.{digits}f}%"


def to_json(x: Any) -> dict[str, Any]:
    """``{"fraction": "p/q", "float": ...}`` for JSON output."""
    f = as_fraction(x)
    return {"fraction": f"{f.numerator}/{f.denominator}", "float": float(f)}


def from_json(d: dict[str, Any]) -> Fraction:
    """Inverse of :func:`to_json`."""
    return Fraction(d["fraction"])
