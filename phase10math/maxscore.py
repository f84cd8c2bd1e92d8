"""Highest possible scores: per phase (over every possible final roll) and for a whole game.

>>> max_phase_score(1)
60
>>> game_maximum()
649
"""

from __future__ import annotations

import itertools

import numpy as np

from phase10math.dice import COLORS, Layout
from phase10math.layouts import DEFAULT_LAYOUT
from phase10math.meld import best_scores
from phase10math.phases import PHASES, Phase
from phase10math.phases import phase as as_phase
from phase10math.projection import projection_for
from phase10math.rules import DEFAULT_RULES, Rules
from phase10math.statespace import StateSpace, _sub_multisets

CHUNK = 200_000


def roll_profiles(layout: Layout, ph: Phase, chunk: int = CHUNK):
    """Yield ``(P, 11, 4)`` profiles of every distinct final roll that matters for ``ph``."""
    space = StateSpace.build(layout, projection_for(ph, "score"))
    per_type = []
    for typ in space.types:
        subs = _sub_multisets(len(typ.faces), typ.count)
        full = subs[subs.sum(axis=1) == typ.count]
        prof = np.zeros((len(full), 11, 4), dtype=np.int16)
        for f, key in enumerate(typ.faces):
            rep = space.projection.representative(key)
            prof[:, rep.value, COLORS.index(rep.color)] += full[:, f]
        per_type.append(prof)
    # combine the types: iterate over all but the largest type, vectorise over the largest
    per_type.sort(key=len)
    big = per_type[-1]
    rest = per_type[:-1]
    buf = []
    n = 0
    for combo in itertools.product(*[range(len(p)) for p in rest]):
        base = sum((rest[i][j] for i, j in enumerate(combo)), np.zeros((11, 4), dtype=np.int16))
        buf.append(big + base)
        n += len(big)
        if n >= chunk:
            yield np.concatenate(buf)
            buf, n = [], 0
    if buf:
        yield np.concatenate(buf)


def max_phase_score(
    ph: Phase | int | str, layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> int:
    """The best score of a phase over every possible final roll (-1 if it cannot be made)."""
    ph = as_phase(ph)
    best = -1
    for prof in roll_profiles(layout, ph):
        best = max(best, int(best_scores(ph, prof, rules).max()))
    return best


def phase_maxima(
    phases=range(1, 11), layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> dict[int, int]:
    """``{phase number: maximum score}``."""
    from phase10math.cliargs import check_int, check_layout, check_rules
    from phase10math.errors import InvalidPhaseError

    check_layout(layout)
    check_rules(rules)
    try:
        numbers = [check_int(n, "phase", 1, 20, InvalidPhaseError) for n in phases]
    except TypeError:
        raise InvalidPhaseError(f"phases: expected phase numbers 1..20; got {phases!r}") from None
    return {n: max_phase_score(PHASES[n], layout, rules) for n in numbers}


def game_maximum(
    layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES, phases=range(1, 11)
) -> int:
    """Highest possible game score: every phase at its maximum plus both bonuses.

    The five-phase bonus counts when the total after phase 5 is over the threshold; the
    first-finish bonus when phase 10 is completed first.
    """
    maxima = phase_maxima(phases, layout, rules)
    total = sum(maxima.values())
    after_five = sum(v for n, v in maxima.items() if n <= 5)
    if 5 in maxima and after_five > rules.five_phase_threshold:
        total += rules.five_phase_bonus
    if 10 in maxima:
        total += rules.first_finish_bonus
    return total
