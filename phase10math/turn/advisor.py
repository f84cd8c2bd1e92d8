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
import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from phase10math._base.checks import check_int, check_type, public
from phase10math.dice.faces import Die, Face, Layout, check_layout, parse_faces
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import require_colors
from phase10math.dice.partial import describe_progress
from phase10math.dice.phases import Phase, as_phase
from phase10math.dice.rolls import dice_showing, first_unplaced, match_roll
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules, check_rules
from phase10math.errors import InvalidDiceError, InvalidHoldError, InvalidRulesError
from phase10math.exact import percent, to_json
from phase10math.guards import check_expected_score, check_probability
from phase10math.turn.kernels import TIE_RULE, hold_order_key
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_solution

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = [
    "Advice",
    "HoldOption",
    "advise",
    "best_hold",
    "deciding_face",
    "placed_faces",
    "roll_fits",
    "turn_solution",
    "way_text",
    "ways_text",
]


class AmbiguousRollError(InvalidDiceError):
    """The faces of a roll could lie on different kinds of dice, which changes the advice."""


def turn_solution(
    phase: Phase,
    objective: Objective | str,
    rules: Rules,
    layout: Layout,
    progress: Callable[[str], None] | None = None,
):
    """The solved turn for a phase (the memory and disk caches of
    :func:`~phase10math.turn.tables.cached_solution`; ``progress`` hears each step of a solve
    that is not cached)."""
    return cached_solution(phase, objective, rules, layout, progress=progress)


# --------------------------------------------------------------------------- faces -> states


def type_counts(
    space: StateSpace, faces: Sequence[Face], layout: Layout, by_die: bool = False
) -> list[list[int]]:
    """Per-type face counts of a roll, in the projected space of the solver.

    Raises AmbiguousRollError when the faces could lie on different kinds of dice (give the
    faces in layout order with ``by_die=True`` then)."""
    return space.counts_for(roll_types(space, faces, layout, by_die))


def roll_types(
    space: StateSpace, faces: Sequence[Face], layout: Layout, by_die: bool = False
) -> list[tuple[int, Face]]:
    """For each face of the roll, the solver's die type it lies on and the die's own face.

    Raises AmbiguousRollError as :func:`type_counts`."""
    owners = by_die_owners(faces, layout) if by_die else match_roll(faces, layout)
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


def by_die_owners(faces: Sequence[Face], layout: Layout) -> list[int]:
    """The die of each face when the faces are given in the order of the layout's dice (face
    ``i`` on die ``i``), checked: one face per die, each a face of its die."""
    if len(faces) != len(layout.dice):
        raise InvalidDiceError(f"by_die needs one face per die ({len(layout.dice)})")
    for i, (f, die) in enumerate(zip(faces, layout.dice), 1):
        if die.show(f) is None:
            raise InvalidDiceError(f"die {i} ({die}) has no face {f}")
    return list(range(len(faces)))


def placed_faces(
    faces: Sequence[Face],
    layout: Layout,
    by_die: bool = False,
    dice_of: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """``{face index: die index}`` of the faces whose die is known, for :func:`roll_fits`:
    ``dice_of`` checked (:func:`check_dice_of`), or with ``by_die`` every face on its own die
    (:func:`by_die_owners`); not both."""
    pinned = check_dice_of(dice_of, faces, layout)
    if not by_die:
        return pinned
    if pinned:
        raise InvalidDiceError("give either by_die (every face by die) or dice_of, not both")
    return dict(enumerate(by_die_owners(faces, layout)))


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
    #: which of the roll's faces (their indices, in the order given) the hold keeps: where two
    #: different dice show the same face, the face alone does not say which die to keep
    positions: tuple[int, ...] = ()
    #: the kept faces as shown: a face that another kind of die in the roll also shows, and
    #: that the hold keeps on one die and not the other, gets its die, e.g. ``6b (die 5)``
    labels: tuple[str, ...] = ()

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
        return " ".join(self.labels or [str(f) for f in self.keep]) or "(nothing)"

    def to_dict(self) -> dict:
        return {
            "keep": [str(f) for f in self.keep],
            "keep_positions": [i + 1 for i in self.positions],
            "rerolled": self.rerolled,
            "value": to_json(self.value),
            "second_value": to_json(self.value2),
            "best": self.best,
            "tie_with_best": self.tie,
        }


@public
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
    #: the ways the faces fit the dice, when they change the advice (see :func:`advise`)
    fits: tuple[Fit, ...] = field(default=())
    #: a word on how the faces fit the dice ("" when they fit in one way)
    note: str = ""
    #: which die shows the face ``decider`` - asked when the best hold depends on it
    question: str = ""
    decider: int | None = None

    @property
    def ambiguous(self) -> bool:
        """The best hold depends on which die shows which face (see ``fits``, ``question``);
        ``options`` are then those of the first of ``fits``."""
        return bool(self.question)

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
        # faces written without their color ("10 10" for 10r 10g): the holds they can name
        named = [o for o in self.options if _names(keep, o.keep)]
        if named and all(o.value == named[0].value for o in named):
            return named[0]
        if named:
            raise InvalidHoldError(
                f"keep {' '.join(map(str, keep))}: say which dice, e.g. "
                + " or ".join(" ".join(map(str, o.keep)) for o in named[:3])
            )
        raise InvalidHoldError(
            f"cannot keep {' '.join(map(str, keep))} from {' '.join(map(str, self.dice))}"
            + (
                f" (dice set aside must stay: {' '.join(map(str, self.set_aside))})"
                if self.set_aside
                else ""
            )
        )

    def check_ranges(self) -> None:
        """Every option's values in their ranges (:mod:`phase10math.guards`): called before
        the advice is formatted."""
        complete = self.objective == Objective.COMPLETE
        for o in (*self.options, *(f.best for f in self.fits)):
            p, e = (o.value, o.value2) if complete else (o.value2, o.value)
            check_probability(p, f"P(complete) keeping {o.keep_text}")
            check_expected_score(e, f"E[score] keeping {o.keep_text}")

    def to_dict(self) -> dict:
        self.check_ranges()
        return {
            "phase": self.phase.number,
            "phase_text": self.phase.text,
            "objective": self.objective,
            "second_key": self.second_name,
            "tie_rule": TIE_RULE,
            "rolls_left": self.rolls_left,
            "dice": [str(f) for f in self.dice],
            "reason": self.reason,
            "note": self.note,
            "question": self.question,
            "deciding_face": None if self.decider is None else self.decider + 1,
            "fits": [f.to_dict() for f in self.fits],
            "options": [o.to_dict() for o in self.options],
        }

    def fit_lines(self) -> list[str]:
        """Per way the faces fit the dice: where the deciding face is, and the best hold then."""
        if not self.ambiguous or self.decider is None:
            return []
        i = self.decider
        return [
            way_text(
                k,
                str(self.dice[i]),
                [d + 1 for d in f.on[i]],
                f"keep {f.best.keep_text}, reroll {f.best.rerolled} -> "
                f"{_value_text(f.best.value, self.objective)}",
            )
            for k, f in enumerate(self.fits, 1)
        ]

    def table(self, top: int | None = 10) -> str:
        self.check_ranges()
        unit = "P(complete)" if self.objective == "complete" else "E[score]"
        lines = [
            f"phase {self.phase.number or ''} ({self.phase.text}), roll "
            f"{' '.join(map(str, self.dice))}, {self.rolls_left} roll(s) left",
            f"{'rank':>4}  {'keep':<32} {'reroll':>6}  {unit:>12}  {'then ' + self.second_name:>16}"
            "  exact",
        ]
        if self.ambiguous:
            lines[1:1] = ways_text(self.question, self.fit_lines())
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
        if self.note and not self.ambiguous:
            lines.append(f"note: {self.note}")
        return "\n".join(lines)

    __str__ = table


def _names(keep: Sequence[Face], faces: Sequence[Face]) -> bool:
    """Whether ``keep`` names exactly ``faces``: one to one, each face of ``keep`` matching
    its die (:meth:`Face.matches`; a face without a color matches any color). Faces with a
    color take theirs first, then those without take what is left."""
    if len(keep) != len(faces):
        return False
    left = list(faces)
    for f in sorted(keep, key=lambda f: f.color is None):
        exact = [g for g in left if f.matches(g) and g.color == f.color]
        some = exact or [g for g in left if f.matches(g)]
        if not some:
            return False
        left.remove(some[0])
    return True


def _display_key(f: Face, dice) -> Hashable:
    # a face written without color matches the roll's faces of that number
    return f.value if f.color is None or all(g.color is None for g in dice) else (f.value, f.color)


# --------------------------------------------------------------------------- ways to fit

#: The most ways, distinct for the solver, that typed faces may fit the dice: past it the
#: advisor refuses (AmbiguousRollError) and asks which die shows which face.
MAX_FITS = 24


@dataclass(frozen=True)
class RollFit:
    """One way the faces of a roll fit the dice, as the solver tells ways apart (the per-type
    projected faces): ``typed`` the (type, die's own face) of each face, ``dice`` one
    assignment (die index per face), ``on`` for each face every die it lies on in some
    assignment of this way, ``ways`` how many assignments (identical dice alike) it has."""

    typed: tuple[tuple[int, Face], ...]
    dice: tuple[int, ...]
    on: tuple[frozenset[int], ...]
    ways: int


def check_dice_of(dice_of: Mapping[int, int] | None, faces: Sequence[Face], layout: Layout):
    """``dice_of`` checked against the faces and the layout: ``{face index: die index}``."""
    if dice_of is None:
        return {}
    check_type(dice_of, Mapping, "dice_of", InvalidDiceError, "a dict {face index: die index}")
    n, out = len(layout.dice), {}
    for k, v in dice_of.items():
        for x, what in ((k, "face"), (v, "die")):
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < n:
                raise InvalidDiceError(
                    f"dice_of {{{k!r}: {v!r}}}: a {what} index is 0 to {n - 1} (counted from 0)"
                )
        die = layout.dice[v]
        if die.show(faces[k]) is None:
            raise InvalidDiceError(
                f"face {k + 1} ({faces[k]}) cannot be on die {v + 1}: it shows {die}"
            )
        other = next((a for a, b in out.items() if b == v), None)
        if other is not None:
            raise InvalidDiceError(
                f"faces {other + 1} ({faces[other]}) and {k + 1} ({faces[k]}) are both given "
                f"on die {v + 1}: a die shows one face"
            )
        out[k] = v
    return out


def roll_fits(
    space: StateSpace,
    faces: Sequence[Face],
    layout: Layout,
    dice_of: Mapping[int, int] | None = None,
) -> list[RollFit]:
    """Every way the faces fit the dice (each face on its own die, ``dice_of`` respected)
    that the solver tells apart, at most :data:`MAX_FITS`. The way in which face ``i`` lies
    on die ``i`` (faces in the order of the dice), if there is one, comes first.

    >>> from phase10math.dice.layouts import RECORDED_LAYOUT
    >>> from phase10math.turn.projection import VALUE
    >>> space = StateSpace.build(RECORDED_LAYOUT, VALUE)
    >>> fits = roll_fits(space, parse_faces("5 6 7 8 9 10 1 2 3 4"), RECORDED_LAYOUT)
    >>> len(fits), fits[0].ways
    (1, 17280)
    """
    pinned = check_dice_of(dice_of, faces, layout)
    dice = layout.dice
    type_of_die = space.die_types(layout)
    key = space.projection.key
    same = [tuple(j for j, e in enumerate(dice) if e == d) for d in dice]
    cand = [
        [d for d in range(len(dice)) if dice[d].show(f) is not None]
        if i not in pinned
        else [pinned[i]]
        for i, f in enumerate(faces)
    ]
    own = [[dice[d].show(f) for d in range(len(dice))] for f in faces]
    used = [False] * len(dice)
    assign = [0] * len(faces)

    pair = [
        [(type_of_die[d], key(g)) if g is not None else None for d, g in enumerate(o)] for o in own
    ]
    way = [[(same[d][0], g) for d, g in enumerate(o)] for o in own]

    def ways_of(part: list[int]) -> dict[tuple, list]:
        """The ways the faces ``part`` (a part of the matching: no die shared with the other
        faces) fit their dice: class key -> [first assignment, on-sets, distinct ones]."""
        classes: dict[tuple, list] = {}

        def rec(j: int) -> None:
            if j == len(part):
                cls = tuple(sorted(pair[k][assign[k]] for k in part))
                entry = classes.get(cls)
                if entry is None:
                    entry = classes[cls] = [
                        tuple(assign[k] for k in part),
                        {k: set() for k in part},
                        set(),
                    ]
                on = entry[1]
                for k in part:
                    on[k].update(same[assign[k]])
                entry[2].add(tuple(sorted(way[k][assign[k]] for k in part)))
                return
            i = part[j]
            tried: set[int] = set()
            for d in cand[i]:
                if used[d] or (i not in pinned and (d in pinned.values() or same[d][0] in tried)):
                    continue
                tried.add(same[d][0])  # identical dice: one of them is enough
                used[d], assign[i] = True, d
                rec(j + 1)
                used[d] = False

        rec(0)
        return classes

    # faces that can share a die are one part; the parts fit their dice independently, so
    # the ways of all the faces are every combination of the parts' ways (a roll of ten
    # different numbers: 720 and 24 assignments of the high and the low dice, not 17,280)
    parts = fit_parts(cand)
    per_part = [ways_of(part) for part in parts]
    classes: dict[tuple, list] = {}
    if all(per_part):
        n_classes = math.prod(len(c) for c in per_part)
        if n_classes > MAX_FITS:
            raise AmbiguousRollError(
                f"these faces fit the dice in more than {MAX_FITS} ways that change the "
                "advice; say which die shows which face (dice_of=, --die FACE=DIE on the "
                "command line) or give the faces in the order of the dice (--by-die)"
            )
        combos = []
        for pick in itertools.product(*[list(c.items()) for c in per_part]):
            first = [0] * len(faces)
            on: dict[int, set[int]] = {}
            for part, (_, (a, o, _d)) in zip(parts, pick):
                for k, d in zip(part, a):
                    first[k] = d
                on.update(o)
            cls = tuple(sorted(itertools.chain.from_iterable(c for c, _ in pick)))
            n_ways = math.prod(len(d) for _, (_a, _o, d) in pick)
            combos.append((tuple(first), cls, [on[k] for k in range(len(faces))], n_ways))
        # in the order of their first assignments, as one search over all the faces finds them
        for first, cls, on_sets, n_ways in sorted(combos):
            classes[cls] = [first, on_sets, n_ways]
    if not classes:
        if pinned:
            said = ", ".join(f"face {k + 1} ({faces[k]}) on die {v + 1}" for k, v in pinned.items())
            raise InvalidDiceError(f"with {said}, the other faces cannot all fit the other dice")
        match_roll(faces, layout)  # names the face that does not fit
        raise InvalidDiceError("these faces cannot all show at once on the dice")
    fits = [
        RollFit(
            tuple((type_of_die[d], own[k][d]) for k, d in enumerate(a)),
            a,
            tuple(frozenset(s) for s in on),
            n_ways,
        )
        for a, on, n_ways in classes.values()
    ]
    ident = tuple(range(len(faces)))
    first = next((k for k, f in enumerate(fits) if all(i in s for i, s in enumerate(f.on))), None)
    if first is not None and all(dice[i].show(f) is not None for i, f in enumerate(faces)):
        f = fits.pop(first)
        fits.insert(
            0, RollFit(tuple((type_of_die[i], own[i][i]) for i in ident), ident, f.on, f.ways)
        )
    return fits


def fit_parts(cand: Sequence[Sequence[int]]) -> list[list[int]]:
    """The faces grouped into parts that share no die (``cand``: the dice each face may lie
    on), each part's faces in order, the parts by their first face: :func:`roll_fits` fits
    each part to its dice on its own.

    >>> fit_parts([[0, 1], [2, 3], [1], [3]])  # faces 0 and 2 share die 1; 1 and 3 die 3
    [[0, 2], [1, 3]]
    """
    owner = list(range(len(cand)))

    def root(i: int) -> int:
        while owner[i] != i:
            owner[i] = owner[owner[i]]
            i = owner[i]
        return i

    first_on: dict[int, int] = {}
    for i, ds in enumerate(cand):
        for d in ds:
            if d in first_on:
                owner[root(i)] = root(first_on[d])
            else:
                first_on[d] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(cand)):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values())


@dataclass(frozen=True)
class Fit:
    """One way the faces fit the dice that changes the advice: ``dice`` the die index of each
    face (one assignment), ``on`` each face's possible dice in this way, ``best`` the best
    hold then, ``ways`` how many assignments (identical dice alike) it stands for."""

    dice: tuple[int, ...]
    on: tuple[frozenset[int], ...]
    best: HoldOption
    ways: int

    def to_dict(self) -> dict:
        return {
            "dice": [d + 1 for d in self.dice],
            "ways": self.ways,
            "best": self.best.to_dict(),
        }


def dice_words(dice: Sequence[Die] | Layout, which: Iterable[int]) -> str:
    """``die 4 (5r 6g 7o 8b 9r 10b)`` or ``dice 1, 2 (5o ...) or die 6 (...)``: dice counted
    from 1, identical dice together."""
    dice = dice.dice if isinstance(dice, Layout) else dice
    seen: dict[Die, list[int]] = {}
    for i in sorted(which):
        seen.setdefault(dice[i], []).append(i + 1)
    return " or ".join(
        (f"die {ns[0]}" if len(ns) == 1 else f"dice {', '.join(map(str, ns))}") + f" ({d})"
        for d, ns in seen.items()
    )


def deciding_face(
    ways: Sequence[tuple[Hashable, Sequence[frozenset[int]]]],
    faces: Sequence[Face],
    layout: Layout,
) -> tuple[int | None, str]:
    """The face whose die decides the best hold, and the question to ask about it. ``ways``:
    for each way the faces fit the dice, its best hold (any key that is equal for equal
    holds) and each face's possible dice (``on``, as :class:`RollFit`)."""
    groups: dict[Hashable, list[Sequence[frozenset[int]]]] = {}
    for keep, on in ways:
        groups.setdefault(keep, []).append(on)
    best = None
    for i in range(len(faces)):
        sets = [frozenset().union(*(on[i] for on in ons)) for ons in groups.values()]
        if len(set(sets)) == 1:
            continue
        disjoint = all(a.isdisjoint(b) for a, b in itertools.combinations(sets, 2))
        score = (disjoint, -len(frozenset().union(*sets)), -i)
        if best is None or score > best[0]:
            best = (score, i, sets)
    if best is None:  # pragma: no cover - distinct ways always differ in some face's die
        return None, "which die shows which face?"
    _, i, sets = best
    opts: list[frozenset[int]] = []
    for s in sets:
        if s not in opts:
            opts.append(s)
    return i, f"is your {faces[i]} on " + " or ".join(dice_words(layout, s) for s in opts) + "?"


@public
def advise(
    dice: Sequence[Face | str] | str,
    rolls_left: int,
    phase: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    set_aside: Sequence[Face | str] | str = (),
    by_die: bool = False,
    dice_of: Mapping[int, int] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Advice:
    """Rank every distinct hold of the ten dice in front of the player.

    ``rolls_left`` is how many rolls the player still has (1 or 2 in a 3-roll turn); with
    sticky holds, ``set_aside`` are the dice set aside before (they stay).

    Faces typed in any order may fit the dice in several ways (:func:`roll_fits`). Where
    every way gives the same best hold the advice says so in ``note``; where they differ,
    ``fits`` lists the best hold of each way and ``question`` names the face whose die
    decides it. ``dice_of`` says which die shows a face: ``{face index: die index}``, both
    counted from 0 (face ``i`` of ``dice``, die ``j`` of ``layout.dice``); ``by_die=True``
    says it for every face (the faces are in the order of the layout's dice). ``progress``
    hears each step of the phase's solve when it is not cached yet (the command line's
    :class:`~phase10math._base.progress.ProgressLine`).
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
            "set_aside only applies with sticky holds; with free holds every die may be rolled"
        )
    objective = Objective.parse(objective)
    if aside and rolls_left == rules.rolls - 1:
        raise InvalidHoldError(
            f"no die can be set aside yet: with {rolls_left} rolls left this is the first roll "
            "of the turn (give --set-aside only after a reroll)"
        )
    pinned = placed_faces(faces, layout, by_die, dice_of)
    sol = turn_solution(ph, objective, rules, layout, progress)
    space = sol.space
    fits = roll_fits(space, faces, layout, pinned)
    per_fit = [_ranked_options(sol, faces, aside, fit.typed, rolls_left, fit.dice) for fit in fits]
    options = per_fit[0]
    reason = describe_progress(ph, options[0].keep, faces, rules)
    adv = Advice(ph, objective, rolls_left, tuple(faces), options, reason, tuple(aside))
    ways = sum(fit.ways for fit in fits)
    if len(fits) == 1:
        if ways > 1:
            adv.note = f"these faces fit the dice in {ways} ways; the best hold is the same for all"
        return adv
    adv.fits = tuple(Fit(fit.dice, fit.on, opts[0], fit.ways) for fit, opts in zip(fits, per_fit))
    if len({_keep_key(f.best.keep) for f in adv.fits}) == 1:
        values = sorted({f.best.value for f in adv.fits})
        spread = (
            ""
            if len(values) == 1
            else f" (its value is {_value_text(values[0], objective)} to "
            f"{_value_text(values[-1], objective)}, by the dice the faces lie on)"
        )
        adv.note = (
            f"these faces fit the dice in {ways} ways; the best hold is the same for all{spread}"
        )
        return adv
    adv.decider, adv.question = deciding_face(
        [(_keep_key(f.best.keep), f.on) for f in adv.fits], faces, layout
    )
    adv.note = (
        f"these faces fit the dice in {ways} ways, and the best hold depends on which die "
        f"shows which face: {adv.question}"
    )
    return adv


def _keep_key(keep: Sequence[Face]) -> tuple[str, ...]:
    return tuple(sorted(str(f) for f in keep))


def way_text(k: int, face: str, on: Iterable[int], hold: str) -> str:
    """One way typed faces fit the dice, in words: ``way 2: your 6o on dice 5, 6: keep ...``
    (``on``: the dice that show the deciding face then, counted from 1; ``hold``: the best
    hold of that way and its value, in the words of the advice).

    >>> way_text(2, "6o", [6, 5], "keep 6o -> 41.2%")
    'way 2: your 6o on dice 5, 6: keep 6o -> 41.2%'
    """
    on = sorted(on)
    where = ("die " if len(on) == 1 else "dice ") + ", ".join(map(str, on))
    return f"way {k}: your {face} on {where}: {hold}"


def ways_text(question: str, ways: list[str]) -> list[str]:
    """The lines a text advice puts above its ranking where the best hold depends on which
    die shows a typed face: the question, each way (:func:`way_text`), which way the
    ranking is for."""
    return (
        [f"the best hold depends on the dice: {question}"]
        + ["  " + x for x in ways]
        + ["the ranking below is for way 1; say which die shows it (--die FACE=DIE)"]
    )


def _value_text(v: Fraction, objective: str) -> str:
    return percent(v) if objective == "complete" else f"{float(v):.4f}"


def _ranked_options(sol, faces, aside, typed, rolls_left, dice=None) -> list[HoldOption]:
    """Every hold of the roll with the faces lying on the dice as ``typed`` says (``dice``:
    one assignment, the die index of each face), best first."""
    space = sol.space
    counts = space.counts_for(typed)
    # the set-aside dice: matched to faces of the roll, which carry their die types; they go
    # first, so a hold's shown faces include them
    aside = list(aside)
    aside_at = dice_showing(faces, aside, matches=Face.matches)
    if aside_at is None:  # the first set-aside face that does not fit names the problem
        k = first_unplaced(faces, aside, matches=Face.matches)
        raise InvalidHoldError(f"set-aside die {aside[k]} is not among the dice {faces}")
    base = space.counts_for([typed[i] for i in aside_at])
    order = aside_at + [i for i in range(len(faces)) if i not in aside_at]
    # every sub-multiset of the roll (at least the set-aside dice), type by type, as state ids
    kept: list[list[tuple[Face, ...]]] = []
    per_type: list[np.ndarray] = []
    for t, (cnt, lo) in enumerate(zip(counts, base)):
        combos = list(itertools.product(*[range(a, c + 1) for a, c in zip(lo, cnt)]))
        per_type.append(np.array(combos, dtype=np.int64).reshape(len(combos), len(cnt)))
        # the roll's faces (their positions) of this type for each key, set-aside ones first
        by_key: dict = {k: [] for k in space.types[t].faces}
        for i in order:
            tt, own = typed[i]
            if tt == t:
                by_key[space.projection.key(own)].append(i)
        kept.append(
            [
                tuple(i for k, c in zip(space.types[t].faces, combo) for i in by_key[k][:c])
                for combo in combos
            ]
        )
    grid = np.indices([len(c) for c in per_type]).reshape(len(per_type), -1)
    gids = space.ids_of([c[g] for c, g in zip(per_type, grid)])
    num_list = sol.hold_num[rolls_left][gids].tolist()
    second = sol.keys[1] if len(sol.keys) > 1 else None
    num2_list = second.hold_num[rolls_left][gids].tolist() if second else [0] * len(gids)
    den, den2 = sol.denominator(rolls_left), sol.denominator(rolls_left, key=1)
    spots = [
        tuple(sorted(itertools.chain.from_iterable(parts), key=lambda i: _face_order(faces[i])))
        for parts in itertools.product(*kept)
    ]
    keeps = [tuple(faces[i] for i in sp) for sp in spots]
    # a face shown by dice of different kinds: name the die where the hold keeps it
    shared = {
        i
        for i in range(len(faces))
        for j in range(len(faces))
        if i != j and faces[i] == faces[j] and typed[i][0] != typed[j][0]
    }

    def labels(sp: tuple[int, ...]) -> tuple[str, ...]:
        # only where the hold keeps some but not all of the dice showing a face
        kept = set(sp)
        part = {
            i for i in shared & kept if any(faces[j] == faces[i] and j not in kept for j in shared)
        }
        if dice is None or not part:
            return ()
        return tuple(f"{faces[i]} (die {dice[i] + 1})" if i in part else str(faces[i]) for i in sp)

    n_total = space.n_dice
    ranked = ranked_holds(space, gids, num_list, num2_list)
    top = num_list[ranked[0]]
    return [
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
            positions=spots[i],
            labels=labels(spots[i]),
        )
        for j, i in enumerate(ranked)
    ]


def ranked_holds(
    space: StateSpace, gids: Sequence[int], nums: Sequence[int], nums2: Sequence[int]
) -> list[int]:
    """Positions of the holds ``gids`` (values ``nums``, second key ``nums2``, over common
    denominators) from best to worst, in the solver's one order of holds
    (:func:`~phase10math.turn.kernels.hold_ranks`): first key, second key, more dice, state
    id. The first is the hold the solver's policy keeps."""
    size = space.sizes_of(gids)
    return sorted(
        range(len(gids)),
        key=lambda i: hold_order_key((nums[i], nums2[i]), size[i], gids[i]),
        reverse=True,
    )


def _face_order(f: Face):
    return (-f.value if f.value else 0.5, f.color or "")


@public
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
