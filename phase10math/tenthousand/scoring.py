"""Scoring of one roll of 10,000: every legal way to set dice aside.

A roll scores only with its own dice (dice of different rolls never combine). A set-aside is a
sub-multiset of the roll made of whole scoring groups: single 1s (100) and 5s (50), three or
more of a kind (see :meth:`TenKRules.of_a_kind_value`), and, with six dice, the straight and
three different pairs. Setting aside all dice rolled gives *hot dice*: six fresh dice.

>>> r = TenKRules()
>>> best_option((1, 1, 2, 3, 3, 5), r)
ScoringOption(kept=(1, 1, 5), points=250, dice_left=3)
>>> [o.points for o in score_options((3, 4), r)]
[]
>>> score_options((1, 2, 3, 4, 5, 6), r)[0]
ScoringOption(kept=(1, 2, 3, 4, 5, 6), points=3000, dice_left=0)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import factorial, prod

from phase10math._base.checks import public
from phase10math.tenthousand.errors import TenKRollError
from phase10math.tenthousand.rules import TenKRules, check_rules

FACES = (1, 2, 3, 4, 5, 6)


@public
@dataclass(frozen=True, order=True)
class ScoringOption:
    """One legal set-aside: the dice kept (sorted), their points and the dice left to roll."""

    kept: tuple[int, ...]
    points: int
    dice_left: int

    @property
    def hot_dice(self) -> bool:
        """All dice rolled were set aside: the next roll is of all the dice again."""
        return self.dice_left == 0

    def next_dice(self, rules: TenKRules) -> int:
        """Dice the player rolls next if they go on (all dice again after hot dice)."""
        return rules.dice if self.dice_left == 0 else self.dice_left


def check_roll(roll: Iterable[int], rules: TenKRules | None = None) -> tuple[int, ...]:
    """The roll as a sorted tuple, or :class:`TenKRollError` naming the bad value."""
    rules = check_rules(rules)
    try:
        dice = tuple(roll)
    except TypeError:
        raise TenKRollError(f"roll={roll!r}; allowed: a sequence of dice faces 1..6") from None
    if not 1 <= len(dice) <= rules.dice:
        raise TenKRollError(f"roll {dice!r} has {len(dice)} dice; allowed: 1..{rules.dice} dice")
    for i, d in enumerate(dice):
        if isinstance(d, bool) or not isinstance(d, int) or d not in FACES:
            raise TenKRollError(f"die {i + 1} of roll {dice!r} is {d!r}; allowed: 1..6")
    return tuple(sorted(dice))


def is_wipe(roll: Sequence[int], rules: TenKRules) -> bool:
    """Four or more 2s in one roll, with the wipe rule on.

    >>> is_wipe((2, 2, 2, 2, 5), TenKRules()), is_wipe((2, 2, 2, 2, 5), TenKRules(wipe=False))
    (True, False)
    """
    return rules.wipe and sum(1 for d in roll if d == 2) >= 4


def is_six_of_a_kind(roll: Sequence[int]) -> bool:
    """Six dice showing one face (wins at once with the ``six_wins`` rule)."""
    return len(roll) == 6 and len(set(roll)) == 1


@lru_cache(maxsize=4096)
def options_for_key(dice: tuple[int, ...], key: tuple) -> tuple[ScoringOption, ...]:
    rules = TenKRules.from_scoring_key(key)
    straight, three_pairs = rules.straight, rules.three_pairs
    counts = Counter(dice)
    n = len(dice)
    per_face: list[list[tuple[int, int]]] = []  # (k, points) choices for each face
    for face in FACES:
        choices = []
        for k in range(counts[face] + 1):
            pts = rules.of_a_kind_value(face, k)
            if pts is not None:
                choices.append((k, pts))
        per_face.append(choices)
    best: dict[tuple[int, ...], int] = {}
    for combo in itertools.product(*per_face):
        points = sum(p for _, p in combo)
        if points == 0:
            continue
        kept = tuple(f for f, (k, _) in zip(FACES, combo, strict=True) for _ in range(k))
        best[kept] = max(best.get(kept, 0), points)
    if n == 6:
        if straight and len(counts) == 6:
            best[dice] = max(best.get(dice, 0), straight)
        shape = sorted(counts.values())
        if three_pairs and (shape == [2, 2, 2] or (rules.four_and_pair and shape == [2, 4])):
            best[dice] = max(best.get(dice, 0), three_pairs)
        if rules.two_triplets and shape == [3, 3]:
            best[dice] = max(best.get(dice, 0), rules.two_triplets)
    opts = [ScoringOption(kept, pts, n - len(kept)) for kept, pts in best.items()]
    opts.sort(key=lambda o: (-o.points, o.dice_left, o.kept))
    return tuple(opts)


@public
def score_options(roll: Iterable[int], rules: TenKRules | None = None) -> list[ScoringOption]:
    """Every legal set-aside of ``roll``, best points first (empty list: nothing scores).

    >>> [(o.kept, o.points) for o in score_options((1, 1, 1, 1), TenKRules())]
    [((1, 1, 1, 1), 1100), ((1, 1, 1), 1000), ((1, 1), 200), ((1,), 100)]
    """
    rules = check_rules(rules)
    return list(options_for_key(check_roll(roll, rules), rules.scoring_key()))


@public
def best_option(roll: Iterable[int], rules: TenKRules | None = None) -> ScoringOption | None:
    """The set-aside with most points (fewest dice kept on a tie), None if nothing scores."""
    opts = score_options(roll, rules)
    return opts[0] if opts else None


@public
def roll_outcomes(n: int) -> list[tuple[tuple[int, ...], int]]:
    """Every sorted roll of ``n`` dice with the number of the 6**n ordered rolls giving it.

    >>> outs = roll_outcomes(2)
    >>> len(outs), sum(w for _, w in outs), outs[:2]
    (21, 36, [((1, 1), 1), ((1, 2), 2)])
    """
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 6:
        raise TenKRollError(f"n={n!r} dice; allowed: 1..6")
    out = []
    for dice in itertools.combinations_with_replacement(FACES, n):
        c = Counter(dice)
        out.append((dice, factorial(n) // prod(factorial(v) for v in c.values())))
    return out


@dataclass(frozen=True)
class TurnStep:
    """One roll of a played turn: the roll, the dice set aside and the running turn total."""

    roll: tuple[int, ...]
    kept: tuple[int, ...]
    points: int
    turn_total: int
    dice_left: int


# no @public: play_turn checks every step itself and names the step and the die at fault
def play_turn(
    steps: Sequence[tuple[Sequence[int], Sequence[int]]], rules: TenKRules | None = None
) -> tuple[int, list[TurnStep]]:
    """Score a turn given as ``[(roll, kept), ...]``; returns (points banked, steps).

    Each ``kept`` must be a legal set-aside of its own roll; the roll must use the dice left by
    the previous step. A roll with nothing to score (``kept`` must then be empty) ends the turn
    with 0, as does a wipe. Otherwise the turn is banked after the last step. The seed's
    example: 1,1,2,3,3,5 keep 1,1,5; then 1,2,4 keep 1; then 3,4 scores nothing: 350 lost.

    >>> play_turn([((1, 1, 2, 3, 3, 5), (1, 1, 5)), ((1, 2, 4), (1,)), ((3, 4), ())])[0]
    0
    >>> play_turn([((1, 1, 2, 3, 3, 5), (1, 1, 5)), ((1, 2, 4), (1,))])[0]
    350
    """
    rules = check_rules(rules)
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Sequence):
        raise TenKRollError(f"steps={steps!r}; allowed: a list of (roll, kept) pairs")
    for i, step in enumerate(steps):
        if isinstance(step, (str, bytes)) or not isinstance(step, Sequence) or len(step) != 2:
            raise TenKRollError(f"steps[{i}]={step!r}; allowed: a (roll, kept) pair")
    total, dice, out = 0, rules.dice, []
    for i, (roll, kept) in enumerate(steps):
        r = check_roll(roll, rules)
        if len(r) != dice:
            raise TenKRollError(f"roll {i + 1} {tuple(roll)!r} has {len(r)} dice; allowed: {dice}")
        if isinstance(kept, (str, bytes)) or not isinstance(kept, Iterable):
            raise TenKRollError(f"kept {kept!r} of roll {i + 1}; allowed: a sequence of dice")
        if any(isinstance(d, bool) or not isinstance(d, int) or d not in FACES for d in kept):
            raise TenKRollError(f"kept {tuple(kept)!r} of roll {i + 1}; allowed: dice faces 1..6")
        k = tuple(sorted(kept))
        opts = {o.kept: o for o in score_options(r, rules)}
        if is_wipe(r, rules) or not opts:
            if k:
                raise TenKRollError(f"roll {i + 1} {r!r} scores nothing; kept must be empty")
            if i != len(steps) - 1:
                raise TenKRollError(f"roll {i + 1} {r!r} ends the turn; no later rolls allowed")
            out.append(TurnStep(r, (), 0, 0, 0))
            return 0, out
        if k not in opts:
            allowed = ", ".join(str(o) for o in sorted(opts))
            raise TenKRollError(f"kept {k!r} from roll {i + 1} {r!r}; allowed: {allowed}")
        o = opts[k]
        total += o.points
        dice = o.next_dice(rules)
        out.append(TurnStep(r, k, o.points, total, o.dice_left))
    return total, out
