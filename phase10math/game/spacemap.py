"""Faces of the dice <-> states of a projected state space: the bridge between a game's dice
(layout order) and the turn solver's holds, used by every strategy that looks a roll up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from phase10math.dice.faces import Face, Layout
from phase10math.turn.holdtable import HoldTable
from phase10math.turn.statespace import StateSpace


class SpaceMap:
    """Maps the faces of the ten dice (layout order) to a state id of a projected state space
    and a hold id back to die indices.

    >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
    >>> from phase10math.turn.tables import cached_solution
    >>> sp = cached_solution(1).space
    >>> m = SpaceMap(sp, DEFAULT_LAYOUT)
    >>> faces = tuple(d.faces[0] for d in DEFAULT_LAYOUT.dice)
    >>> sorted(m.keep_for(m.roll_id(faces), faces)) == list(range(10))
    True
    """

    def __init__(self, space: StateSpace, layout: Layout) -> None:
        self.space = space
        self.layout = layout
        self.die_type = space.die_types(layout)

    def typed(self, faces: Sequence[Face]) -> list[tuple[int, Face]]:
        """Each face with the type of the die (layout order) it shows on."""
        return list(zip(self.die_type, faces))

    def counts(self, faces: Sequence[Face]) -> list[list[int]]:
        """Per-type face counts of the faces of the ten dice (layout order)."""
        return self.space.counts_for(self.typed(faces))

    def roll_id(self, faces: Sequence[Face]) -> int:
        return self.space.state_id(self.counts(faces))

    def keep_for(
        self, hold_id: int, faces: Sequence[Face], prefer: frozenset[int] = frozenset()
    ) -> frozenset[int]:
        """Die indices realising a hold (dice in ``prefer`` first)."""
        order = sorted(range(len(faces)), key=lambda i: i not in prefer)
        return self.space.dice_for(hold_id, self.typed(faces), order)


def table_keep(table: HoldTable, view: Any, maps: dict[int, SpaceMap]) -> frozenset[int]:
    """The dice of ``view`` (a :class:`~phase10math.game.engine.TurnView`) that keep
    ``table``'s best hold for its roll: the one decision path of every strategy that plays a
    solved policy (``maps`` caches the faces-to-states bridge per state space)."""
    m = maps.get(id(table.space))
    if m is None:
        m = maps[id(table.space)] = SpaceMap(table.space, view.layout)
    hold = table.best_hold(m.roll_id(view.faces), view.rolls_left)
    return m.keep_for(hold, view.faces, view.held)
