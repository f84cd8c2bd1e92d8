"""The hold advisor: every distinct hold of the dice in front of the player, ranked by its
exact value, with the best marked and a one-line reason.

Ranking is lexicographic, as the solver's policy: by the objective (P(complete) or
E[score]), then among exact ties by the other (E[score] or P(complete)) under the same play,
then by :data:`TIE_RULE`. Holds tied with the best on the first key are marked ``tie``
and show their second key, so a player sees why the best one is best.

>>> from phase10math.dice.faces import parse_faces
>>> adv = advise(parse_faces("10 10 W 5 6 7 1 2 3 8"), rolls_left=2, phase=1)
>>> adv.best.keep_text, adv.best.rerolled
('10 10 W', 7)
>>> print(adv.reason)  # doctest: +ELLIPSIS
keeps 10, 10, W: ...
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np

from phase10math.checks import check_int, check_type
from phase10math.dice.faces import Face, Layout, check_layout, match_roll, parse_faces
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import require_colors
from phase10math.dice.partial import describe_progress
from phase10math.dice.phases import Phase
from phase10math.dice.phases import phase as as_phase
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules, check_rules
from phase10math.errors import InvalidDiceError, InvalidHoldError, InvalidRulesError
from phase10math.exact import percent, to_json
from phase10math.turn.kernels import hold_order_key
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_solution


class AmbiguousRollError(InvalidDiceError):
    """The faces of a roll could lie on different kinds of dice, which changes the advice."""


@lru_cache(maxsize=64)
def turn_solution(ph: Phase, objective: Objective | str, rules: Rules, layout: Layout):
    """The solved turn for a phase (memory- and disk-cached)."""
    return cached_solution(ph, objective, rules, layout)


# --------------------------------------------------------------------------- faces -> states


def type_counts(
    space: StateSpace, faces: Sequence[Face], layout: Layout, by_die: bool = False
) -> list[list[int]]:
    """Per-type face counts of a roll, in the projected space of the solver.

    Raises AmbiguousRollError when the faces could lie on different kinds of dice (give the
    faces in layout order with ``by_die=True`` then)."""
    return _counts_of(space, roll_types(space, faces, layout, by_die))


def _counts_of(space: StateSpace, typed: Sequence[tuple[int, Face]]) -> list[list[int]]:
    counts = [[0] * len(t.faces) for t in space.types]
    for t, f in typed:
        counts[t][space.types[t].faces.index(space.projection.key(f))] += 1
    return counts


def roll_types(
    space: StateSpace, faces: Sequence[Face], layout: Layout, by_die: bool = False
) -> list[tuple[int, Face]]:
    """For each face of the roll, the solver's die type it lies on and the die's own face.

    Raises AmbiguousRollError as :func:`type_counts`."""
    if by_die:
        if len(faces) != len(layout.dice):
            raise InvalidDiceError(f"by_die needs one face per die ({len(layout.dice)})")
        owners = []
        for i, (f, die) in enumerate(zip(faces, layout.dice), 1):
            if die.show(f) is None:
                raise InvalidDiceError(f"die {i} ({die}) has no face {f}")
            owners.append(i - 1)
    else:
        owners = match_roll(faces, layout)
    type_of_die = dict(enumerate(space.die_types(layout)))
    typed = [(type_of_die[di], layout.dice[di].show(f)) for f, di in zip(faces, owners)]
    if not by_die:
        alternatives = _alternative_types(space, faces, layout, type_of_die)
        if len(alternatives) > 1:
            raise AmbiguousRollError(
                "these faces could lie on different kinds of dice, which changes the advice; "
                "give the ten faces in the order of the layout's dice (by_die=True, "
                "--by-die on the command line)"
            )
    return typed


def _alternative_types(space, faces, layout, type_of_die) -> set:
    """Distinct per-type projected counts over all ways to put the faces on the dice (stops
    at two)."""
    proj = space.projection
    dice = layout.dice
    # candidate (type, key) per face
    options = []
    for f in faces:
        opts = set()
        for di, die in enumerate(dice):
            for g in die.faces:
                if g.matches(f):
                    opts.add((type_of_die[di], proj.key(g)))
        options.append(sorted(opts, key=str))
    cap = Counter(type_of_die.values())
    found: set = set()

    def rec(i, used: Counter, acc: tuple):
        if len(found) > 1:
            return
        if i == len(faces):
            found.add(tuple(sorted(Counter(acc).items(), key=str)))
            return
        for t, k in options[i]:
            if used[t] < cap[t]:
                used[t] += 1
                rec(i + 1, used, acc + ((t, k),))
                used[t] -= 1

    rec(0, Counter(), ())
    return found


# --------------------------------------------------------------------------- advice


@dataclass(frozen=True)
class HoldOption:
    """One hold: the faces kept, how many dice are rerolled, and its exact value on both keys
    of the objective (``value``: the objective, ``value2``: the tie-breaking second key -
    the expected score for 'complete', P(complete) for 'score')."""

    keep: tuple[Face, ...]
    rerolled: int
    numerator: int
    denominator: int
    state: int
    best: bool = False
    tie: bool = False  # equal in value (first key) to the best
    numerator2: int = 0
    denominator2: int = 1

    @property
    def value(self) -> Fraction:
        """The exact value (probability or expected score) of this hold."""
        return Fraction(self.numerator, self.denominator)

    @property
    def value2(self) -> Fraction:
        """The exact second key of this hold, with the same (lexicographic) play after it."""
        return Fraction(self.numerator2, self.denominator2)

    @property
    def keep_text(self) -> str:
        return " ".join(str(f) for f in self.keep) or "(nothing)"

    def to_dict(self) -> dict:
        return {
            "keep": [str(f) for f in self.keep],
            "rerolled": self.rerolled,
            "value": to_json(self.value),
            "second_value": to_json(self.value2),
            "best": self.best,
            "tie_with_best": self.tie,
        }


@dataclass
class Advice:
    """Ranked holds for one roll."""

    phase: Phase
    objective: Objective
    rolls_left: int
    dice: tuple[Face, ...]
    options: list[HoldOption]
    reason: str
    set_aside: tuple[Face, ...] = field(default=())

    @property
    def best(self) -> HoldOption:
        return self.options[0]

    @property
    def ties(self) -> list[HoldOption]:
        """The other holds as good as the best on the first key (the best is ahead of them
        on the second key, or on the stated rule: more dice kept, then a fixed order)."""
        return [o for o in self.options if o.tie]

    @property
    def second_name(self) -> str:
        """What the second key measures: ``'E[score]'`` or ``'P(complete)'``."""
        return "E[score]" if self.objective == "complete" else "P(complete)"

    def value_of(self, keep: Sequence[Face | str] | str) -> HoldOption:
        """The option that keeps exactly these faces (a sub-multiset of the roll)."""
        keep = parse_faces(keep)
        want = Counter(_display_key(f, self.dice) for f in keep)
        have = Counter(self.dice)
        for f in keep:
            if not any(f.matches(g) for g in have):
                raise InvalidHoldError(
                    f"cannot keep {f}: the roll is {' '.join(map(str, self.dice))}"
                )
        for o in self.options:
            if Counter(_display_key(f, self.dice) for f in o.keep) == want:
                return o
        raise InvalidHoldError(
            f"cannot keep {' '.join(map(str, keep))} from {' '.join(map(str, self.dice))}"
            + (
                f" (dice set aside must stay: {' '.join(map(str, self.set_aside))})"
                if self.set_aside
                else ""
            )
        )

    def to_dict(self) -> dict:
        return {
            "phase": self.phase.number,
            "phase_text": self.phase.text,
            "objective": self.objective,
            "second_key": self.second_name,
            "tie_rule": TIE_RULE,
            "rolls_left": self.rolls_left,
            "dice": [str(f) for f in self.dice],
            "reason": self.reason,
            "options": [o.to_dict() for o in self.options],
        }

    def table(self, top: int | None = 10) -> str:
        unit = "P(complete)" if self.objective == "complete" else "E[score]"
        lines = [
            f"phase {self.phase.number or ''} ({self.phase.text}), roll "
            f"{' '.join(map(str, self.dice))}, {self.rolls_left} roll(s) left",
            f"{'rank':>4}  {'keep':<32} {'reroll':>6}  {unit:>12}  {'then ' + self.second_name:>16}"
            "  exact",
        ]
        if top is not None:
            top = check_int(top, "top", 0) or None  # 0 = all holds
        shown = self.options if top is None else self.options[:top]

        def fmt(v: Fraction, prob: bool) -> str:
            return percent(v) if prob else f"{float(v):.4f}"

        for i, o in enumerate(shown, 1):
            mark = "*" if o.best else ("=" if o.tie else " ")
            val = fmt(o.value, self.objective == "complete")
            val2 = fmt(o.value2, self.objective != "complete")
            lines.append(
                f"{i:>3}{mark}  {o.keep_text:<32} {o.rerolled:>6}  {val:>12}  {val2:>16}  {o.value}"
            )
        if top is not None and len(self.options) > top:
            lines.append(f"  ... {len(self.options) - top} more holds")
        if self.ties:
            lines.append(
                f"= as good as the best on {unit}; among such ties the best is the one with "
                f"the higher {self.second_name} ({TIE_RULE})"
            )
        lines.append(f"best: {self.reason}")
        return "\n".join(lines)

    __str__ = table


def _display_key(f: Face, dice) -> Hashable:
    # a face written without color matches the roll's faces of that number
    return f.value if f.color is None or all(g.color is None for g in dice) else (f.value, f.color)


def advise(
    dice: Sequence[Face | str] | str,
    rolls_left: int,
    phase: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    set_aside: Sequence[Face | str] | str = (),
    by_die: bool = False,
) -> Advice:
    """Rank every distinct hold of the ten dice in front of the player.

    ``rolls_left`` is how many rolls the player still has (1 or 2 in a 3-roll turn); with
    sticky holds, ``set_aside`` are the dice set aside before (they stay).
    """
    check_rules(rules)
    check_layout(layout)
    check_type(by_die, bool, "by_die")
    if not isinstance(objective, str) or objective not in ("complete", "score"):
        raise InvalidRulesError(f"objective {objective!r}; allowed: complete, score")
    ph = as_phase(phase)
    faces = parse_faces(dice)
    aside = parse_faces(set_aside)
    if len(faces) != len(layout.dice):
        raise InvalidDiceError(
            f"give the {len(layout.dice)} dice in front of the player; got {len(faces)}"
        )
    if (
        isinstance(rolls_left, bool)
        or not isinstance(rolls_left, int)
        or not 1 <= rolls_left <= rules.rolls - 1
    ):
        raise InvalidDiceError(
            f"rolls_left={rolls_left!r}: after a roll the player has 1 to {rules.rolls - 1} "
            "rolls left (with 0 the roll is final: use check)"
        )
    require_colors(faces, ph)
    if aside and rules.holds != "sticky":
        raise InvalidHoldError(
            "set_aside only applies with sticky holds; with free holds every die may be rerolled"
        )
    objective = Objective.parse(objective)
    if aside and rolls_left == rules.rolls - 1:
        raise InvalidHoldError(
            f"no die can be set aside yet: with {rolls_left} rolls left this is the first roll "
            "of the turn (give --set-aside only after a reroll)"
        )
    sol = turn_solution(ph, objective, rules, layout)
    space = sol.space
    typed = roll_types(space, faces, layout, by_die)
    counts = _counts_of(space, typed)
    # the set-aside dice: matched to faces of the roll, which carry their die types; they go
    # first, so a hold's shown faces include them
    rest = list(range(len(faces)))
    aside_at: list[int] = []
    for f in aside:
        i = next((i for i in rest if faces[i] == f), None)
        i = i if i is not None else next((i for i in rest if f.matches(faces[i])), None)
        if i is None:
            raise InvalidHoldError(f"set-aside die {f} is not among the dice {faces}")
        rest.remove(i)
        aside_at.append(i)
    base = _counts_of(space, [typed[i] for i in aside_at])
    order = aside_at + rest
    # every sub-multiset of the roll (at least the set-aside dice), type by type, as state ids
    gids = np.zeros(1, dtype=np.int64)
    kept: list[list[tuple[Face, ...]]] = []
    for t, (cnt, lo) in enumerate(zip(counts, base)):
        combos = list(itertools.product(*[range(a, c + 1) for a, c in zip(lo, cnt)]))
        idx = np.array([space.sub_index[t][c] for c in combos], dtype=np.int64)
        gids = (gids[:, None] + space.strides[t] * idx[None, :]).ravel()
        # the roll's faces of this type for each key, set-aside ones first
        by_key: dict = {k: [] for k in space.types[t].faces}
        for i in order:
            tt, own = typed[i]
            if tt == t:
                by_key[space.projection.key(own)].append(faces[i])
        kept.append(
            [
                tuple(f for k, c in zip(space.types[t].faces, combo) for f in by_key[k][:c])
                for combo in combos
            ]
        )
    num_list = sol.hold_num[rolls_left][gids].tolist()
    num2_list = sol.hold_num2[rolls_left][gids].tolist()
    den, den2 = sol.denominator(rolls_left), sol.denominator2(rolls_left)
    keeps = [
        tuple(sorted(itertools.chain.from_iterable(parts), key=_face_order))
        for parts in itertools.product(*kept)
    ]
    n_total = space.n_dice
    order = ranked_holds(space, gids, num_list, num2_list)
    top = num_list[order[0]]
    options = [
        HoldOption(
            keeps[i],
            n_total - len(keeps[i]),
            int(num_list[i]),
            den,
            int(gids[i]),
            best=(j == 0),
            tie=(j > 0 and num_list[i] == top),
            numerator2=int(num2_list[i]),
            denominator2=den2,
        )
        for j, i in enumerate(order)
    ]
    reason = describe_progress(ph, options[0].keep, faces, rules)
    return Advice(ph, objective, rolls_left, tuple(faces), options, reason, tuple(aside))


TIE_RULE = "holds equal on both keys: the one keeping more dice, then a fixed order of the holds"


def ranked_holds(
    space: StateSpace, gids: Sequence[int], nums: Sequence[int], nums2: Sequence[int]
) -> list[int]:
    """Positions of the holds ``gids`` (values ``nums``, second key ``nums2``, over common
    denominators) from best to worst, in the solver's one order of holds
    (:func:`~phase10math.turn.kernels.hold_ranks`): first key, second key, more dice, state
    id. The first is the hold the solver's policy keeps."""
    size = space.size
    return sorted(
        range(len(gids)),
        key=lambda i: hold_order_key((nums[i], nums2[i]), size[gids[i]], gids[i]),
        reverse=True,
    )


def _face_order(f: Face):
    return (-f.value if f.value else 0.5, f.color or "")


def best_hold(
    dice: Sequence[Face | str] | str,
    rolls_left: int,
    phase: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    set_aside: Sequence[Face | str] | str = (),
) -> tuple[Face, ...]:
    """The faces to keep: the best hold (lexicographic: the objective, then its second key,
    then more dice kept; see :data:`TIE_RULE`), the same hold as the solver's policy
    (``TurnSolution.best_hold_id``) - the call every "best hold" goes through."""
    return advise(dice, rolls_left, phase, objective, rules, layout, set_aside).best.keep
