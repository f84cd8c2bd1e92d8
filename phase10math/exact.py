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

import decimal
import math
import numbers
import re
from fractions import Fraction
from typing import Any

from phase10math._base.checks import check_int, public
from phase10math.errors import InvalidArgumentError, WrongTypeError

#: Numerators are kept in int64 only below this bound (sums of a few of them stay in range).
INT64_LIMIT = 2**62


def fits_int64(largest: int, scale: int = 1) -> bool:
    """Whether numerators up to ``largest * scale`` (and sums of six of them) fit in int64.

    >>> fits_int64(62, 6**20), fits_int64(62, 6**30)
    (True, False)
    """
    return largest * scale * 6 < INT64_LIMIT


#: The most decimals :func:`show`, :func:`percent` and :func:`readable` print.
MAX_DIGITS = 30
_NUMBER_TEXT = re.compile(r"\s*[+-]?(\d{1,60}(/\d{1,60})?|\d{0,60}\.\d{1,60})\s*")


def as_fraction(x: Any) -> Fraction:
    """Convert an int, Fraction, finite float, sympy Rational or ``"p/q"`` string to a Fraction.

    Anything else is refused with the package's errors (a boolean is not a number):

    >>> as_fraction("2/6"), as_fraction(0.5)
    (Fraction(1, 3), Fraction(1, 2))
    >>> as_fraction(True)
    Traceback (most recent call last):
    ...
    phase10math.errors.WrongTypeError: x=True (bool); accepts a Fraction, int, finite float, \
sympy Rational or 'p/q' text (a boolean is not a number)
    """
    if isinstance(x, Fraction):
        return x
    accepts = "a Fraction, int, finite float, sympy Rational or 'p/q' text"
    if isinstance(x, bool):
        raise WrongTypeError(f"x={x!r} (bool); accepts {accepts} (a boolean is not a number)")
    if isinstance(x, numbers.Rational):
        return Fraction(int(x.numerator), int(x.denominator))
    if isinstance(x, float | numbers.Real) and not isinstance(x, numbers.Rational):
        if not math.isfinite(float(x)):
            raise InvalidArgumentError(
                f"x={x!r}; accepts {accepts} (NaN and infinities are refused)"
            )
        return Fraction(float(x))
    if hasattr(x, "p") and hasattr(x, "q"):  # sympy Rational
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, str):
        if not _NUMBER_TEXT.fullmatch(x) or re.fullmatch(r"\s*[+-]?\d+/0+\s*", x):
            raise InvalidArgumentError(f"x={x[:40]!r}; accepts {accepts}")
        return Fraction(x.strip())
    raise WrongTypeError(f"x={repr(x)[:40]} ({type(x).__name__}); accepts {accepts}")


def int_text(n: int) -> str:
    """The decimal digits of a whole number, however many (``str`` refuses past 4,300
    digits, Python's limit on int-to-string conversion).

    >>> int_text(-42), len(int_text(10**5000))
    ('-42', 5001)
    """
    try:
        return str(n)
    except ValueError:  # past the conversion limit: decimal converts without it
        return format(decimal.Decimal(n), "f")


def text_int(text: str) -> int:
    """The whole number written in ``text`` (digits, an optional sign), however long.

    >>> text_int(int_text(3**20000)) == 3**20000
    True
    """
    try:
        return int(text)
    except ValueError:
        t = text.strip()
        if not t.lstrip("+-").isdigit() or not t.isascii():
            raise
        return int(decimal.Decimal(t))


def fraction_text(x: Any) -> str:
    """``'p/q'`` (``'p'`` for a whole number), however many digits."""
    f = as_fraction(x)
    top = int_text(f.numerator)
    return top if f.denominator == 1 else f"{top}/{int_text(f.denominator)}"


def _float(f: Fraction) -> float:
    """``float(f)``, or a signed infinity where ``f`` is beyond the float range."""
    try:
        return float(f)
    except OverflowError:
        return math.inf if f > 0 else -math.inf


def _digits(digits: int | None, default: int) -> int:
    if digits is None:
        return default
    return check_int(digits, "digits", 0, MAX_DIGITS, InvalidArgumentError)


@public
def show(x: Any, digits: int = 6) -> str:
    """``'p/q (0.xxxxxx)'``: the exact value with its float beside it."""
    f = as_fraction(x)
    return f"{fraction_text(f)} ({_float(f):.{_digits(digits, 6)}f})"


@public
def percent(x: Any, digits: int = 2) -> str:
    """The value as a percentage string, e.g. ``'33.33%'``."""
    return f"{100 * _float(as_fraction(x)):.{_digits(digits, 2)}f}%"


def to_json(x: Any) -> dict[str, Any]:
    """``{"fraction": "p/q", "float": ...}`` for JSON output."""
    f = as_fraction(x)
    return {"fraction": f"{int_text(f.numerator)}/{int_text(f.denominator)}", "float": float(f)}


def from_json(d: dict[str, Any]) -> Fraction:
    """Inverse of :func:`to_json` (however many digits)."""
    text = d["fraction"]
    try:
        return Fraction(text)
    except ValueError:
        top, _, bottom = str(text).partition("/")
        return Fraction(text_int(top), text_int(bottom or "1"))


#: Fractions whose text is at most this long are shown in full beside the decimal.
SHORT_FRACTION = 15


class Exact:
    """An exact value shown for people: the decimal (or percentage) first, the fraction beside
    it only when it is short; a long one is summarised and kept in ``.fraction``.

    >>> Exact(Fraction(139241, 279936), as_percent=True)
    49.74% = 139241/279936
    >>> p = Exact(Fraction(253616767122053, 257073640316928), as_percent=True)
    >>> p
    98.66% (exact fraction, 30 digits: see .fraction)
    >>> p.fraction
    Fraction(253616767122053, 257073640316928)
    >>> Exact(Fraction(5, 648)), float(Exact(Fraction(1, 4)))
    (0.007716 = 5/648, 0.25)
    """

    def __init__(self, x: Any, as_percent: bool = False, digits: int | None = None) -> None:
        _digits(digits, 0)
        self.fraction = as_fraction(x)
        self.as_percent = as_percent
        self.digits = digits

    def __float__(self) -> float:
        return _float(self.fraction)

    @property
    def decimal(self) -> str:
        """The value as a percentage (2 decimals) or a decimal (4 significant digits)."""
        if self.as_percent:
            return percent(self.fraction, 2 if self.digits is None else self.digits)
        return f"{_float(self.fraction):.{4 if self.digits is None else self.digits}g}"

    @property
    def n_digits(self) -> int:
        """Digits of the numerator and the denominator together."""
        f = self.fraction
        return len(int_text(abs(f.numerator))) + len(int_text(f.denominator))

    def __str__(self) -> str:
        text = fraction_text(self.fraction)
        if self.fraction.denominator == 1 or len(text) <= SHORT_FRACTION:
            return f"{self.decimal} = {text}" if self.fraction.denominator != 1 else text
        return f"{self.decimal} (exact fraction, {self.n_digits} digits: see .fraction)"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Exact):
            return self.fraction == other.fraction
        return self.fraction == other

    def __hash__(self) -> int:
        return hash(self.fraction)


@public
def readable(x: Any, as_percent: bool = True, digits: int | None = None) -> Exact:
    """``x`` as an :class:`Exact`: a percentage (or decimal with ``as_percent=False``) with the
    exact fraction beside it when short, else a note where to find it.

    >>> readable(Fraction(71, 81))
    87.65% = 71/81
    >>> readable(Fraction(2539, 11664), as_percent=False)
    0.2177 = 2539/11664
    >>> str(readable(Fraction(10**20 + 1, 3 * 10**20)))
    '33.33% (exact fraction, 42 digits: see .fraction)'
    """
    return Exact(x, as_percent=as_percent, digits=digits)
