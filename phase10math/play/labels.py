"""How the play app judges and words a choice, without widgets: percentages a player reads
(:func:`pct`, :func:`value_words`, :func:`cost_words`), the mistake labels by what a choice
cost (:func:`mistake_label`, :data:`MISTAKE_LABELS`) and a choice judged (:class:`Choice`,
:func:`judge`). :mod:`phase10math.play.models` gives the same names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from phase10math.guards import check_probability
from phase10math.turn.advisor import HoldOption


def tie_ranks(options: Sequence[HoldOption]) -> list[int]:
    """Competition ranks of holds sorted best first: equal values share a rank (1, 1, 3, ...).

    >>> from phase10math.turn.advisor import advise
    >>> adv = advise("8 8 8 10 10 10 1 2 3 4", 1, 1)
    >>> tie_ranks(adv.options)[:3]
    [1, 1, 1]
    """
    ranks: list[int] = []
    for i, o in enumerate(options):
        if i and o.numerator * options[i - 1].denominator == (
            options[i - 1].numerator * o.denominator
        ):
            ranks.append(ranks[-1])
        else:
            ranks.append(i + 1)
    return ranks


def pct(x: float | Fraction) -> str:
    """A chance as a player reads it: a whole or one-decimal percentage, never scientific
    notation; a chance above 0 that rounds to 0 is "under 0.1%", one below 1 that rounds to
    100 "over 99.9%". A chance outside [0, 1] (beyond a float's rounding) is never shown as a
    number: it is an internal error (:func:`phase10math.guards.check_probability`), which the
    app shows as such (:func:`~phase10math.play.panels.internal_error_html`).

    >>> [pct(x) for x in (0, 1, Fraction(1, 3), 1e-6, 0.99999, 0.5)]
    ['0%', '100%', '33.3%', 'under 0.1%', 'over 99.9%', '50.0%']
    >>> pct(Fraction(4078, 100))
    Traceback (most recent call last):
    ...
    phase10math.errors.ResultOutOfRangeError: a chance = 2039/50 (40.780000) lies outside [0, 1]
    """
    check_probability(x, "a chance")
    p = float(x) * 100
    if p <= 0:
        return "0%"
    if p >= 100:
        return "100%"
    if p < 0.05:
        return "under 0.1%"
    if p >= 99.95:
        return "over 99.9%"
    return f"{p:.1f}%"


def value_words(x: Fraction, objective: str) -> str:
    """A value as a player reads it: ``93.3%`` or ``38.2 points``."""
    if objective in CHANCE_AIMS:
        return pct(x)
    return f"{float(x):.1f} points"


#: the value of "Win the game" in the aim menu (the per-turn aims are Objective values); a
#: choice judged by it costs chance to win (:func:`~phase10math.play.win.win_cost`)
WIN_AIM = "win"
#: the aims whose values and costs are chances (the others' are points)
CHANCE_AIMS = ("complete", WIN_AIM)


def cost_words(gap: Fraction, objective: str) -> str:
    """A difference between two holds: percentage points (not percent) of chance (the aims
    to make the phase and to win) or points."""
    if objective in CHANCE_AIMS:
        pp = float(gap) * 100
        if 0 < pp < 0.05:  # never scientific notation (was "6.6e-06 percentage points")
            return "under 0.1 percentage points"
        shown = f"{pp:.1f}"
        return f"{shown} percentage point{'' if shown == '1.0' else 's'}"
    return f"{float(gap):.2f} points"


#: Mistake labels of a hold by its cost against the best: (label, cost below), in percentage
#: points of chance when the aim is to make the phase, in points when the aim is the score.
#: A hold costing nothing is ``best``; under 1 point ``fine``; under 5 ``mistake``; 5 or more
#: ``blunder`` (the score aim: 0.5, 2.5). The aim to win the game: as for the chance, in
#: percentage points of the chance to win.
MISTAKE_LABELS = {
    "complete": (("fine", Fraction(1, 100)), ("mistake", Fraction(5, 100))),
    "score": (("fine", Fraction(1, 2)), ("mistake", Fraction(5, 2))),
}
MISTAKE_LABELS[WIN_AIM] = MISTAKE_LABELS["complete"]


def mistake_label(cost: Fraction, objective: str) -> str:
    """``best``, ``fine``, ``mistake`` or ``blunder`` for a hold costing ``cost`` (a chance
    for the aims "complete" and "win", points for "score"); thresholds in
    :data:`MISTAKE_LABELS`.

    >>> [mistake_label(Fraction(c, 1000), "complete") for c in (0, 5, 30, 91)]
    ['best', 'fine', 'mistake', 'blunder']
    >>> [mistake_label(Fraction(c, 1000), "win") for c in (0, 5, 30, 91)]
    ['best', 'fine', 'mistake', 'blunder']
    """
    if cost <= 0:
        return "best"
    for label, below in MISTAKE_LABELS[str(objective)]:
        if cost < below:
            return label
    return "blunder"


def severity(cost: Fraction, objective: str) -> Fraction:
    """A cost measured in its aim's mistake threshold (:data:`MISTAKE_LABELS`): a number
    without unit, so that costs judged by different aims (points and chance) compare. Within
    one aim it orders as the cost.

    >>> float(severity(Fraction(3, 100), "complete")), float(severity(Fraction(3, 2), "score"))
    (0.6, 0.6)
    """
    return cost / MISTAKE_LABELS[str(objective)][1][1]


@dataclass(frozen=True)
class Choice:
    """One choice of a turn and what it cost: the hold (or the stop) chosen after roll
    ``roll``, its mistake label (:func:`mistake_label`) and its cost against the best, for the
    aim it was judged by; its phase; in a game also who chose it and at which of their turns
    (counted from 1).

    >>> c = Choice(1, "mistake", Fraction(3, 100), "complete")
    >>> c.label, float(c.cost)
    ('mistake', 0.03)
    """

    roll: int
    label: str
    cost: Fraction
    objective: str
    phase: int | None = None
    who: str | None = None
    turn: int | None = None


def judge(roll: int, cost: Fraction, objective: str, phase: int | None = None) -> Choice:
    """The :class:`Choice` made after roll ``roll`` costing ``cost``, labelled."""
    return Choice(roll, mistake_label(cost, objective), cost, str(objective), phase=phase)
