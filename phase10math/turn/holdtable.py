"""Decisions by lookup: the best hold of every roll state of a solved turn, read per decision.

A solved turn's policy is one hold per roll state and number of rolls left. A
:class:`HoldTable` keeps it as it was solved - hold ids on a per-type space, two-byte hold
codes on ten different dice (:class:`~phase10math.turn.tensor.codes.HoldIds`: 121 MB a
stage for the recorded dice' color phases, memory-mapped read-only from the disk cache, so
processes share one copy) - and answers "the best hold for this roll with ``r`` rolls left"
by reading one entry: the roll's position is arithmetic on ten different dice
(:meth:`~phase10math.turn.statespace.StateSpace.positions`), no table of 60 million ids.

Every decision of the kit goes through :meth:`HoldTable.best_hold` (or its batch form
:meth:`HoldTable.best_holds`): the strategies (complete, score, greedy, solitaire), the
advisor's best hold, the app and the simulations. ``benchmarks/bench_decisions.py`` times it
against the restricted transform over a roll's ``2**10`` sub-holds (the way a decision was
made before). The advisor's ranking of every hold with its value reads the stored margins of
the roll values (:mod:`phase10math.turn.tensor.margins`), also without a pass over the
tensor.

>>> from phase10math.turn.tables import cached_holds
>>> from phase10math.dice.layouts import COMPACT_LAYOUT
>>> table = cached_holds(1, "complete", layout=COMPACT_LAYOUT)
>>> roll = int(table.space.full_ids[0])
>>> table.best_hold(roll, 2) == int(table.arg[2][0])
True
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from phase10math._base.checks import check_int
from phase10math.errors import InvalidArgumentError, InvalidHoldError
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.codes import HoldIds

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = ["HoldTable"]

Policy = Mapping[int, "np.ndarray | HoldIds"]


@dataclass
class HoldTable:
    """One hold per roll state (``full_ids`` order) per number of rolls left: ``arg[r]`` hold
    ids (an array) or :class:`~phase10math.turn.tensor.codes.HoldIds` (codes); ``label`` says
    whose policy it is (e.g. ``"phase 8 complete"``), for messages."""

    space: StateSpace
    arg: dict[int, np.ndarray | HoldIds] = field(repr=False)
    label: str = ""

    @property
    def rolls_left(self) -> tuple[int, ...]:
        """The numbers of rolls left a decision can have (1 .. rolls - 1)."""
        return tuple(sorted(self.arg))

    def _stage(self, rolls_left: int) -> np.ndarray | HoldIds:
        ok = isinstance(rolls_left, numbers.Integral) and not isinstance(rolls_left, bool)
        stage = self.arg.get(int(rolls_left)) if ok else None
        if stage is None:
            raise InvalidArgumentError(
                f"rolls_left={rolls_left!r}; this policy decides with "
                f"{', '.join(map(str, self.rolls_left))} rolls left"
            )
        return stage

    def best_hold(self, roll: int, rolls_left: int) -> int:
        """The hold (state id) of the roll state ``roll`` with ``rolls_left`` rerolls: one
        lookup."""
        roll = check_int(roll, "roll", 0, self.space.n_states - 1, InvalidHoldError)
        stage = self._stage(rolls_left)
        return int(stage[int(self.space.positions(np.array([roll]))[0])])

    def best_holds(self, rolls: np.ndarray, rolls_left: int) -> np.ndarray:
        """The holds of many roll states at once (int64 state ids)."""
        stage = self._stage(rolls_left)
        ids = np.asarray(rolls) if isinstance(rolls, (np.ndarray, list, tuple)) else None
        if ids is None or ids.ndim != 1 or ids.dtype.kind not in "iu":
            raise InvalidHoldError(
                f"rolls={rolls!r:.40}; allowed: a one-dimensional array of roll state ids"
            )
        return np.asarray(stage[self.space.positions(ids)], dtype=np.int64)

    def as_arrays(self) -> dict[int, np.ndarray]:
        """Every stage as an array of hold ids (for a policy evaluation or a pass over all
        roll states; 8 bytes a roll state: 480 MB a stage on ten different dice)."""
        return {r: np.asarray(a) for r, a in self.arg.items()}
