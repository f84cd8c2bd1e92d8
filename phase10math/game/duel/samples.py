"""Seeded games' results against a table's values: their mean, the mean the table expects,
the standard error and the difference in standard errors, shared by the samples of whole
games (:class:`~phase10math.game.duelgames.DuelSample`) and of a win rule's games
(:class:`~phase10math.game.duel.winrules.RuleSample`)."""

from __future__ import annotations

import math

import numpy as np


def z_score(diff: float, se: float) -> float:
    """A difference in standard errors. Where the games did not vary at all (``se`` 0): 0
    where the difference is 0, else infinite, so that a disagreement is never hidden.

    >>> z_score(0.02, 0.01), z_score(0.0, 0.0), z_score(-0.5, 0.0)
    (2.0, 0.0, -inf)
    """
    if se == 0:
        return math.copysign(math.inf, diff) if diff != 0 else 0.0
    return diff / se


class ResultSample:
    """The statistics of per-game results ``got`` (1 a win, 1/2 a tie, 0 a loss) against the
    table's values of the same games ``want``; a base of dataclasses that hold both."""

    got: np.ndarray
    want: np.ndarray

    @property
    def games(self) -> int:
        return len(self.got)

    @property
    def mean(self) -> float:
        """The mean result (its share of the games, ties counted half)."""
        return float(self.got.mean())

    @property
    def expected(self) -> float:
        """What the table says the mean result should be, over the same games."""
        return float(self.want.mean())

    @property
    def se(self) -> float:
        """The standard error of :attr:`mean`."""
        return float(self.got.std(ddof=1) / math.sqrt(self.games))

    @property
    def z(self) -> float:
        """(mean - expected) in standard errors (:func:`z_score`)."""
        return z_score(self.mean - self.expected, self.se)
