"""Exact single-roll statistics of 10,000, by counting all 6**n ordered rolls.

>>> s = roll_stats(1)
>>> s.p_no_score, s.expected_best
(Fraction(2, 3), Fraction(25, 1))
>>> roll_stats(6).p_no_score
Fraction(5, 216)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from phase10math._base.checks import public
from phase10math.tenthousand.errors import TenKRollError
from phase10math.tenthousand.rules import UNIT, TenKRules, check_rules
from phase10math.tenthousand.scoring import (
    check_roll,
    is_six_of_a_kind,
    is_wipe,
    options_for_key,
    roll_outcomes,
)

KINDS = ("score", "none", "wipe")


@public
@dataclass(frozen=True)
class RollGroup:
    """Rolls of ``n`` dice that act alike: ``weight`` ordered rolls out of 6**n.

    ``kind`` is ``"score"``, ``"none"`` (nothing scores) or ``"wipe"`` (four or more 2s with the
    wipe rule); ``six`` marks six of a kind. ``options`` holds, for each number of dice left,
    the most points a set-aside leaving that many dice can score, as ``(points, dice_left)``.
    """

    weight: int
    kind: str
    six: bool
    options: tuple[tuple[int, int], ...]


@lru_cache(maxsize=64)
def _groups(n: int, key: tuple) -> tuple[RollGroup, ...]:
    rules = TenKRules.from_scoring_key(key)
    acc: dict[tuple, int] = defaultdict(int)
    for dice, w in roll_outcomes(n):
        if is_wipe(dice, rules):
            sig: tuple = ("wipe", is_six_of_a_kind(dice), ())
        else:
            best: dict[int, int] = {}
            for o in options_for_key(dice, key):
                best[o.dice_left] = max(best.get(o.dice_left, 0), o.points)
            opts = tuple(sorted((p, m) for m, p in best.items()))
            sig = ("score" if opts else "none", is_six_of_a_kind(dice), opts)
        acc[sig] += w
    return tuple(RollGroup(w, k, six, opts) for (k, six, opts), w in sorted(acc.items()))


@public
def roll_groups(n: int, rules: TenKRules | None = None) -> tuple[RollGroup, ...]:
    """The rolls of ``n`` dice grouped by what they allow (the data the solvers run on).

    >>> g = roll_groups(1)
    >>> [(x.weight, x.kind, x.options) for x in g]
    [(4, 'none', ()), (1, 'score', ((50, 0),)), (1, 'score', ((100, 0),))]
    """
    rules = check_rules(rules)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= rules.dice:
        raise TenKRollError(f"n={n!r} dice; allowed: 1..{rules.dice}")
    return _groups(n, rules.scoring_key())


def duel_roll_data(
    n: int, rules: TenKRules
) -> tuple[int, int, int, list[tuple[int, tuple[tuple[int, int], ...]]]]:
    """The rolls of ``n`` dice as the duel solvers read them: the weights (out of ``6**n``) of
    the rolls that score nothing, that wipe, that win at once (six of a kind with the six-wins
    rule), and per scoring group ``(weight, ((points in units of 50, dice rolled next), ...))``
    (all dice again after a set-aside that uses them all).

    >>> duel_roll_data(1, TenKRules())
    (4, 0, 0, [(1, ((1, 6),)), (1, ((2, 6),))])
    """
    none = wipe = win = 0
    scoring = []
    for g in roll_groups(n, rules):
        if g.six and rules.six_wins:
            win += g.weight
        elif g.kind == "wipe":
            wipe += g.weight
        elif g.kind == "none":
            none += g.weight
        else:
            scoring.append((g.weight, tuple((p // UNIT, k or rules.dice) for p, k in g.options)))
    return none, wipe, win, scoring


@public
@dataclass(frozen=True)
class RollStats:
    """Exact statistics of one roll of ``n`` dice (probabilities over the 6**n rolls).

    - ``p_no_score``: nothing can be set aside (the turn is lost).
    - ``p_wipe``: four or more 2s (0 without the wipe rule); ``p_bust`` = either of the two.
    - ``p_six_of_a_kind``: six dice of one face.
    - ``p_hot_dice``: every die can be set aside (and the roll is no wipe).
    - ``expected_best``: expected most points one set-aside can take (0 for a bust).
    - ``expected_best_if_scoring``: the same, given the roll is no bust.
    """

    n: int
    p_no_score: Fraction
    p_wipe: Fraction
    p_bust: Fraction
    p_six_of_a_kind: Fraction
    p_hot_dice: Fraction
    expected_best: Fraction
    expected_best_if_scoring: Fraction


@public
def roll_stats(n: int, rules: TenKRules | None = None) -> RollStats:
    """Exact :class:`RollStats` for ``n`` dice under ``rules``.

    >>> roll_stats(2).p_no_score   # both dice in {2, 3, 4, 6}
    Fraction(4, 9)
    """
    rules = check_rules(rules)
    groups = roll_groups(n, rules)
    total = 6**n
    none = sum(g.weight for g in groups if g.kind == "none")
    wipe = sum(g.weight for g in groups if g.kind == "wipe")
    six = sum(g.weight for g in groups if g.six)
    hot = sum(g.weight for g in groups if g.kind == "score" and any(m == 0 for _, m in g.options))
    best = sum(g.weight * max(p for p, _ in g.options) for g in groups if g.kind == "score")
    return RollStats(
        n=n,
        p_no_score=Fraction(none, total),
        p_wipe=Fraction(wipe, total),
        p_bust=Fraction(none + wipe, total),
        p_six_of_a_kind=Fraction(six, total),
        p_hot_dice=Fraction(hot, total),
        expected_best=Fraction(best, total),
        expected_best_if_scoring=Fraction(best, total - none - wipe),
    )


def best_points(roll: tuple[int, ...], rules: TenKRules | None = None) -> int:
    """Most points one set-aside of ``roll`` can take (0 if nothing scores or a wipe)."""
    rules = check_rules(rules)
    dice = check_roll(roll, rules)
    if is_wipe(dice, rules):
        return 0
    opts = options_for_key(dice, rules.scoring_key())
    return opts[0].points if opts else 0
