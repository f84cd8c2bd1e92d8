"""One reroll checked by brute force: the chance that rerolling some dice completes a phase.

With one roll left, the value of a hold is the chance that the rerolled dice, added to the kept
ones, make the phase. This module computes that chance without the solver, two ways: by listing
all 6^k equally likely outcomes of the k rerolled dice (exact), and by seeded simulation. The
notebooks use it to check the advisor's numbers independently.

>>> from phase10math.dice.layouts import DEFAULT_LAYOUT
>>> high = DEFAULT_LAYOUT.dice[0]                        # a high die: 5-10
>>> reroll_value(1, "10r 10o 10b 9r 9o", [high])         # phase 1 (2 sets of 3) needs a 9
Fraction(1, 6)
>>> reroll_value(1, "10r 10o 10b 9r 9o", [high, high])   # two tries at a 9: 1 - (5/6)^2
Fraction(11, 36)
>>> simulate_reroll(1, "10r 10o 10b 9r 9o", [high, high], n=20_000, seed=1)  # doctest: +ELLIPSIS
0.30...
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from phase10math._base.checks import check_int, check_seed, public
from phase10math.dice.faces import COLORS, Die, Face, parse_faces
from phase10math.dice.meld import best_scores, profile
from phase10math.dice.phases import Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.errors import InvalidDiceError, StateSpaceTooLargeError

#: Enumeration lists 6^k outcomes; beyond this many rerolled dice use :func:`simulate_reroll`.
MAX_ENUMERATED_DICE = 7

__all__ = ["reroll_profiles", "reroll_value", "simulate_reroll", "MAX_ENUMERATED_DICE"]


def reroll_profiles(kept: Sequence[Face], dice: Sequence[Die], picks: np.ndarray) -> np.ndarray:
    """The ``(n, 11, 4)`` count arrays of the kept faces plus, for row ``r`` of ``picks``
    (shape ``(n, len(dice))``), the face ``picks[r, j]`` (0-5) of each rerolled die ``j``.

    >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
    >>> c = reroll_profiles(parse_faces("W"), DEFAULT_LAYOUT.dice[:1], np.array([[0], [5]]))
    >>> c.shape, int(c[0].sum()), int(c[:, 0].sum())      # two rows of two dice; W in both
    ((2, 11, 4), 2, 2)
    """
    picks = np.asarray(picks, dtype=np.int64).reshape(-1, len(dice))
    n = len(picks)
    counts = np.tile(profile(kept).astype(np.int16), (n, 1, 1))
    rows = np.arange(n)
    for j, die in enumerate(dice):
        value = np.array([f.value for f in die.faces])[picks[:, j]]
        color = np.array([COLORS.index(f.color or COLORS[0]) for f in die.faces])[picks[:, j]]
        np.add.at(counts, (rows, value, color), 1)
    return counts


def _rerolled(dice: Sequence[Die]) -> Sequence[Die]:
    """``dice`` if at least one die is rerolled, else :class:`InvalidDiceError`."""
    if not dice:
        raise InvalidDiceError("dice=[]: give the dice rerolled (at least one)")
    return dice


@public
def reroll_value(
    phase: Phase | int | str,
    kept: Sequence[Face] | str,
    dice: Sequence[Die],
    rules: Rules = DEFAULT_RULES,
) -> Fraction:
    """Exact chance that rerolling ``dice`` completes ``phase`` with ``kept`` held, by
    listing all 6^k outcomes (every side of every die equally likely)."""
    kept = parse_faces(kept) if isinstance(kept, str) else tuple(kept)
    k = len(_rerolled(dice))
    if k > MAX_ENUMERATED_DICE:
        raise StateSpaceTooLargeError(f"{k} rerolled dice: 6^{k} outcomes are too many to list")
    picks = np.indices((6,) * k).reshape(k, -1).T
    made = best_scores(phase, reroll_profiles(kept, dice, picks), rules, complete_only=True) >= 0
    return Fraction(int(made.sum()), len(picks))


@public
def simulate_reroll(
    phase: Phase | int | str,
    kept: Sequence[Face] | str,
    dice: Sequence[Die],
    n: int = 20_000,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
) -> float:
    """Frequency of completing ``phase`` over ``n`` seeded rerolls of ``dice``."""
    kept = parse_faces(kept) if isinstance(kept, str) else tuple(kept)
    n = check_int(n, "n", 1)
    rng = np.random.default_rng(check_seed(seed))
    picks = rng.integers(6, size=(n, len(_rerolled(dice))))
    made = best_scores(phase, reroll_profiles(kept, dice, picks), rules, complete_only=True) >= 0
    return float(made.mean())
