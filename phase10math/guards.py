"""Range guards where results leave the kit: a probability outside [0, 1], an expected score
outside [0, the most points ten dice can show], a chance to win outside [0, 1] is an internal
error (:class:`ResultOutOfRangeError`: a bug, or damage no other check caught), never an
answer. The formatters of results call these checks before they build any text, so such a
value is never printed; the command line reports it as an internal error (one line on
stderr, exit code 70).

>>> check_probability(Fraction(1, 3), "P(complete)")
>>> check_probability(Fraction(4, 3), "P(complete)")
Traceback (most recent call last):
...
phase10math.errors.ResultOutOfRangeError: P(complete) = 4/3 (1.333333) lies outside [0, 1]
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from numbers import Real

from phase10math.dice.faces import HIGH_VALUES
from phase10math.errors import ResultOutOfRangeError

#: How far a float computed by iteration (the two-player game's chances) may stray from the
#: range by rounding alone.
FLOAT_SLACK = 1e-9

#: The most points a phase can score: ten dice, each at most its highest face.
MOST_POINTS = 10 * max(HIGH_VALUES)


def _check(x: Real, low: Real, high: Real, what: str) -> None:
    slack = FLOAT_SLACK if isinstance(x, float) else 0
    if not low - slack <= x <= high + slack:  # NaN fails too
        shown = f"{x} ({float(x):.6f})" if isinstance(x, Fraction) else f"{x!r}"
        raise ResultOutOfRangeError(f"{what} = {shown:.80} lies outside [{low}, {high}]")


def check_probability(x: Real, what: str) -> None:
    """:class:`ResultOutOfRangeError` unless ``0 <= x <= 1`` (a float within
    :data:`FLOAT_SLACK`)."""
    _check(x, 0, 1, what)


def check_probabilities(xs: Iterable[Real], what: str) -> None:
    """:func:`check_probability` for each of ``xs`` (a chance to win, a tie, a matchup)."""
    for x in xs:
        check_probability(x, what)


def check_expected_score(x: Real, what: str) -> None:
    """:class:`ResultOutOfRangeError` unless ``0 <= x <= MOST_POINTS`` (no phase scores
    more)."""
    _check(x, 0, MOST_POINTS, what)
