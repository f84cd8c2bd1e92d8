"""Projections: which features of a face a computation needs.

Set and run phases look only at numbers, pure color phases (for completion) only at colors.
Projecting faces onto what matters merges dice that differ only in what does not matter:
every high die is the same die for "2 sets of 3". The solver works on projected dice.

>>> from phase10math.dice.faces import Face
>>> VALUE.key(Face(7, "o")), COLOR.key(Face(7, "o")), FULL.key(Face(7, "o"))
(7, 'o', 7o)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from phase10math.dice.faces import Face
from phase10math.dice.phases import Phase

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = ["FULL", "projection_for"]


@dataclass(frozen=True)
class Projection:
    """``key(face)`` is what is kept of a face; ``representative(key)`` a face with that key
    on which utilities are evaluated (valid because the utility ignores the dropped part)."""

    name: str
    key: Callable[[Face], Hashable]
    representative: Callable[[Hashable], Face]

    def __repr__(self) -> str:
        return f"Projection({self.name})"

    def __reduce__(self):  # pickle the shipped projections by name
        return (by_name, (self.name,))


FULL = Projection("full", lambda f: f, lambda k: k)
VALUE = Projection("value", lambda f: f.value, lambda k: Face(k, "r"))
# for completion of pure color phases: a W and a number of the same color count alike
COLOR = Projection("color", lambda f: f.color, lambda k: Face(1, k))


def by_name(name: str) -> Projection:
    """One of the shipped projections: 'full', 'value' or 'color'."""
    return {"full": FULL, "value": VALUE, "color": COLOR}[name]


def projection_for(phase: Phase, objective: str, second_key: bool = True) -> Projection:
    """The smallest projection a phase and objective ('complete' or 'score') can use.

    The solver's objectives are lexicographic (completion, then score, or the reverse), so
    both need the score; ``second_key=False`` gives the smallest projection for completion
    alone (pure color phases: colors only), used by the greedy and random baselines.

    >>> from phase10math.dice.phases import as_phase
    >>> projection_for(as_phase(1), "score").name, projection_for(as_phase(8), "complete").name
    ('value', 'full')
    >>> projection_for(as_phase(8), "complete", second_key=False).name
    'color'
    """
    if not phase.uses_color:
        return VALUE
    if objective == "complete" and not phase.uses_numbers and not second_key:
        return COLOR
    return FULL
