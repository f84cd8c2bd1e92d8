"""Highest possible scores: per phase (over every possible final roll) and for a whole game.

>>> max_phase_score(1)
60
>>> game_maximum()
649
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from phase10math import cache
from phase10math._base.checks import check_int, public
from phase10math.dice.faces import (
    COLOR_NAMES,
    COLORS,
    WILD,
    Layout,
    check_layout,
    parse_faces,
)
from phase10math.dice.layouts import DEFAULT_LAYOUT, EXAMPLE_HAND
from phase10math.dice.meld import best_scores, placements
from phase10math.dice.phases import PHASES, Phase, as_phase
from phase10math.dice.rolls import match_roll
from phase10math.dice.rules import DEFAULT_RULES, Rules, check_rules
from phase10math.errors import InvalidDiceError, InvalidPhaseError
from phase10math.turn.engine import final_scores
from phase10math.turn.projection import projection_for
from phase10math.turn.statespace import StateSpace, sub_multisets

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = [
    "game_maximum",
    "layout_report",
    "max_phase_score",
    "min_phase_score",
    "phase_maxima",
    "phase_scores",
]

CHUNK = 200_000


def roll_profiles(layout: Layout, phase: Phase, chunk: int = CHUNK):
    """Yield ``(P, 11, 4)`` profiles of every distinct final roll that matters for ``phase``."""
    space = StateSpace.build(layout, projection_for(phase, "score"))
    per_type = []
    for typ in space.types:
        subs = sub_multisets(len(typ.faces), typ.count)
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
    phase: Phase | int | str, layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> int:
    """The best score of a phase over every possible final roll (-1 if it cannot be made)."""
    phase = as_phase(phase)
    if len(phase.groups) == 1 and phase.groups[0].kind == "color":
        return one_color_group_max(phase.groups[0].size, layout)
    if phase.uses_numbers and sum(g.kind == "color" for g in phase.groups) == 1:
        return assignment_max(phase, layout, rules)
    return max_phase_score_by_rolls(phase, layout, rules)


def assignment_max(
    phase: Phase | int | str, layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> int:
    """The best score of a phase of sets/runs and one color group over every roll, without
    listing the rolls: each die shows the face that serves its slot, so the maximum is, over
    the placements of the sets and runs and the group's color, the best assignment of dice to
    slots (a die on number n scores n, a wild there 0; a die in the color group scores its best
    face of that color). Found by dynamic programming over the dice with the slots still open
    as the state (at most a few hundred states); checked against the enumeration of every roll
    in the tests.

    >>> from phase10math.dice.layouts import COMPACT_LAYOUT as compact
    >>> assignment_max(14, compact) == max_phase_score_by_rolls(14, compact)
    True
    """
    phase = as_phase(phase)
    k = next(g.size for g in phase.groups if g.kind == "color")
    best = -1
    for pl in placements(phase, rules.sets_may_share_number):
        numbers = [n for n in range(1, 11) if pl.demand[n]]
        for color in COLORS:
            need = tuple(pl.demand[n] for n in numbers) + (k,)
            states = {need: 0}
            for die in layout.dice:
                has = {f.value for f in die.faces}
                wild = WILD in has
                col = [f.points for f in die.faces if f.color == color]
                nxt = dict(states)
                for st, pts in states.items():
                    for i, n in enumerate(numbers):
                        if st[i] and (n in has or wild):
                            key = st[:i] + (st[i] - 1,) + st[i + 1 :]
                            v = pts + (n if n in has else 0)
                            if nxt.get(key, -1) < v:
                                nxt[key] = v
                    if st[-1] and col:
                        key = st[:-1] + (st[-1] - 1,)
                        v = pts + max(col)
                        if nxt.get(key, -1) < v:
                            nxt[key] = v
                states = nxt
            done = tuple(0 for _ in need)
            if done in states:
                best = max(best, states[done])
    return best


def max_phase_score_by_rolls(
    phase: Phase | int | str, layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> int:
    """:func:`max_phase_score` by scoring every distinct final roll (the reference)."""
    made = made_scores_by_rolls(as_phase(phase), layout, rules)
    return max((int(s.max()) for s in made if len(s)), default=-1)


def made_scores_by_rolls(phase: Phase, layout: Layout, rules: Rules = DEFAULT_RULES):
    """Yield, a chunk of distinct final rolls at a time, the best scores of those that make
    ``phase`` (every roll scored: the reference for the closed forms)."""
    for prof in roll_profiles(layout, phase):
        s = best_scores(phase, prof, rules)
        yield s[s >= 0]


def phase_scores(
    phase: Phase | int | str, layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> np.ndarray:
    """Every score a made phase can have, ascending (int64): every distinct final roll scored
    (:func:`~phase10math.turn.engine.final_scores`), cached on disk. A color phase of ten
    different dice: 60 million rolls, seconds the first time.

    >>> from phase10math.dice.layouts import COMPACT_LAYOUT as compact
    >>> s = phase_scores(8, compact)
    >>> int(s[-1]) == max_phase_score(8, compact), int(s[0]) == min_phase_score(8, compact)
    (True, True)
    """
    phase = as_phase(phase)
    key = cache.cache_key(
        kind="phase-scores", phase=phase.key(), rules=rules.to_dict(), layout=layout.fingerprint()
    )

    def scores() -> list[int]:
        best = final_scores(phase, StateSpace.build(layout, projection_for(phase, "score")), rules)
        counts = np.bincount(best[best >= 0].astype(np.int64))
        return [int(x) for x in np.flatnonzero(counts)]

    return np.array(cache.cached(key, scores, list), dtype=np.int64)


def one_color_group_max(number: int, layout: Layout = DEFAULT_LAYOUT) -> int:
    """The best score of "k of one color" alone: each die shows at most one face, so for each
    color take the k dice whose best face of that color is highest (-1 if no color is on k
    dice). Checked against the enumeration of every roll in the tests.

    >>> one_color_group_max(7)
    56
    """
    best = -1
    for c in COLORS:
        tops = sorted(
            (
                max(f.points for f in die.faces if f.color == c)
                for die in layout.dice
                if any(f.color == c for f in die.faces)
            ),
            reverse=True,
        )
        if len(tops) >= number:
            best = max(best, sum(tops[:number]))
    return best


def min_phase_score(
    phase: Phase | int | str, layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> int:
    """The least score a made phase can have: over every final roll that makes it, the least
    of that roll's best scores (-1 if it cannot be made). A game's totals from its start lie
    between the sums of these least scores and of the best scores (:func:`max_phase_score`).

    >>> from phase10math.dice.layouts import COMPACT_LAYOUT as compact
    >>> min_phase_score(8, compact) == min_phase_score_by_rolls(8, compact)
    True
    """
    phase = as_phase(phase)
    g = phase.groups[0]
    if len(phase.groups) == 1 and g.kind == "color" and 2 * g.size > len(layout.dice):
        return one_color_group_min(g.size, layout)
    return min_phase_score_by_rolls(phase, layout, rules)


def min_phase_score_by_rolls(
    phase: Phase | int | str, layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> int:
    """:func:`min_phase_score` by scoring every distinct final roll (the reference)."""
    made = made_scores_by_rolls(as_phase(phase), layout, rules)
    return min((int(s.min()) for s in made if len(s)), default=-1)


def one_color_group_min(number: int, layout: Layout = DEFAULT_LAYOUT) -> int:
    """The least score of "k of one color" alone, where k is more than half the dice (so no
    roll shows two colors on k dice): for each color, the roll that shows it on as few dice
    as it can (at least k, and every die with no other color), each on its lowest face of
    that color, scores the k highest of those; the least over the colors (-1 if no color is
    on k dice). Checked against the enumeration of every roll in the tests.

    >>> from phase10math.dice.layouts import COMPACT_LAYOUT as compact
    >>> one_color_group_min(7, compact)
    18
    """
    if 2 * number <= len(layout.dice):
        raise InvalidPhaseError(
            f"{number} of one color on {len(layout.dice)} dice: two colors could both make it; "
            "use min_phase_score"
        )
    least = -1
    for c in COLORS:
        forced, free = [], []
        for die in layout.dice:
            points = [f.points for f in die.faces if f.color == c]
            if points:
                (forced if len(points) == len(die.faces) else free).append(min(points))
        if len(forced) + len(free) < number:
            continue
        shown = sorted(forced)[::-1][:number] + sorted(free)[: max(0, number - len(forced))]
        score = sum(shown)
        least = score if least < 0 else min(least, score)
    return least


@dataclass(frozen=True)
class LayoutReport:
    """What a layout offers: the manual's facts, checked (see :func:`layout_report`)."""

    layout: Layout
    example_hand_rollable: bool
    phase_maxima: dict[int, int]
    game_maximum: int
    faces_per_color: dict[str, int]
    wild_colors: tuple[str, ...]
    kinds_of_dice: int

    def to_dict(self) -> dict:
        return {
            **self.layout.to_dict(),
            "example_hand": EXAMPLE_HAND,
            "example_hand_rollable": self.example_hand_rollable,
            "phase_maxima": {str(k): v for k, v in self.phase_maxima.items()},
            "game_maximum": self.game_maximum,
            "faces_per_color": self.faces_per_color,
            "wild_colors": list(self.wild_colors),
            "kinds_of_dice": self.kinds_of_dice,
        }

    def format(self) -> str:
        lines = [str(self.layout), ""]
        ok = "yes" if self.example_hand_rollable else "NO"
        lines.append(f"the manual's example hand {EXAMPLE_HAND} can be rolled: {ok}")
        per = ", ".join(f"{k}: {v}" for k, v in self.phase_maxima.items())
        lines.append(f"best score per phase: {per}")
        lines.append(f"highest game score: {self.game_maximum} (the manual says 649)")
        cols = ", ".join(f"{COLOR_NAMES[c]} {n}" for c, n in self.faces_per_color.items())
        lines.append(f"faces per color: {cols}")
        lines.append(f"W faces come in: {', '.join(COLOR_NAMES[c] for c in self.wild_colors)}")
        lines.append(f"kinds of dice: {self.kinds_of_dice} (dice that are alike count once)")
        return "\n".join(lines)


def layout_report(layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES) -> LayoutReport:
    """Check a layout against the manual's facts: the example hand can be rolled, the best
    score of every phase 1-10 and of a game (649 in the manual), faces per color, W colors.

    >>> r = layout_report()
    >>> r.example_hand_rollable, r.game_maximum, r.faces_per_color["o"]
    (True, 649, 15)
    """
    try:
        match_roll(parse_faces(EXAMPLE_HAND), layout)
        rollable = True
    except InvalidDiceError:
        rollable = False
    maxima = phase_maxima(range(1, 11), layout, rules)
    wilds = tuple(
        c for c in COLORS if any(f.is_wild and f.color == c for d in layout.dice for f in d.faces)
    )
    return LayoutReport(
        layout,
        rollable,
        maxima,
        game_maximum_from(maxima, rules),
        layout.color_count(),
        wilds,
        len(layout.groups()),
    )


@public
def phase_maxima(
    phases=range(1, 11), layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES
) -> dict[int, int]:
    """``{phase number: maximum score}``."""
    check_layout(layout)
    check_rules(rules)
    try:
        numbers = [check_int(n, "phase", 1, 20, InvalidPhaseError) for n in phases]
    except TypeError:
        raise InvalidPhaseError(f"phases: expected phase numbers 1..20; got {phases!r}") from None
    return {n: max_phase_score(PHASES[n], layout, rules) for n in numbers}


@public
def game_maximum(
    layout: Layout = DEFAULT_LAYOUT, rules: Rules = DEFAULT_RULES, phases=range(1, 11)
) -> int:
    """Highest possible game score: every phase at its maximum plus both bonuses.

    The five-phase bonus counts when the total after phase 5 is over the threshold; the
    first-finish bonus when phase 10 is completed first.
    """
    return game_maximum_from(phase_maxima(phases, layout, rules), rules)


def game_maximum_from(maxima: dict[int, int], rules: Rules = DEFAULT_RULES) -> int:
    """The game maximum from the phase maxima: their sum plus the bonuses that apply."""
    total = sum(maxima.values())
    after_five = sum(v for n, v in maxima.items() if n <= 5)
    if 5 in maxima and after_five > rules.five_phase_threshold:
        total += rules.five_phase_bonus
    if 10 in maxima:
        total += rules.first_finish_bonus
    return total
