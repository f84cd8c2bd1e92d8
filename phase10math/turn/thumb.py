"""Rules of thumb: short keep rules a person can play from memory, each a fixed policy whose
exact price the engine computes.

A rule is an ordered list of *lines*; each line names one thing to look at in a hold (the
dice kept) and whether more or less of it is better ("make the biggest set as big as
possible", "keep no 1-4 that fits"). To play the rule after a roll, compare the ways to keep
dice by the first line; among those equal on it, by the second; and so on. Every rule ends
with the same tail (:data:`TAIL`): as many dice as fit the phase, nothing that does not fit,
higher numbers, fewer dice. The empty rule is that tail alone, which is the greedy baseline
("keep the dice that fit the placement using the most dice") in other words.

Machine meaning: every hold ``K`` gets a key, the lexicographic maximum over the phase's
placements (set numbers and run starts, :func:`~phase10math.dice.meld.placements`) of the
lines' values of ``K`` under that placement; the rule's hold for a roll ``S`` is the hold
within ``S`` of the largest key (:func:`~phase10math.turn.kernels.subset_max`; equal keys:
the lower hold id). A line may apply with a given number of rerolls left only ("with one
roll left, ..."). The policy is then evaluated exactly by the one backward induction
(:meth:`~phase10math.turn.engine.Engine.policy_value`): P(complete) and E[score] as
fractions.

Phases with a color group are played by the tail alone (the greedy baseline: the color you
have most of, its wilds with it), evaluated exactly on their own state space.

>>> rule = Rule((Line(Feature.LOW, more=False, rolls_left=2), Line(Feature.SETS)), phase=3)
>>> print(rule.text())
1. With 2 rolls left, keep as few 1-4s as you can (reroll the low dice for wilds).
2. Build the set first: as many numbers in the set as you can.
3. Then keep as many dice as fit the phase (wilds fill gaps), and nothing that does not fit.
>>> price = rule_price(rule)
>>> price.p_complete > Rule((), phase=3).price().p_complete
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from types import SimpleNamespace

import numpy as np

from phase10math._base.checks import check_int
from phase10math.dice.faces import Face, Layout, parse_faces
from phase10math.dice.layouts import DEFAULT_LAYOUT, LAYOUTS
from phase10math.dice.meld import best_scores, placements
from phase10math.dice.partial import greedy_hold
from phase10math.dice.phases import Phase, as_phase
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.errors import InvalidArgumentError, InvalidPhaseError
from phase10math.turn.advisor import advise
from phase10math.turn.engine import engine_for, final_scores
from phase10math.turn.kernels import subset_max, utility_from_scores
from phase10math.turn.policy import play_physical_turns
from phase10math.turn.projection import VALUE
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import completion_utility

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = [
    "COLOR_WORDS",
    "TAIL_WORDS",
    "RuleHint",
    "card_strategy",
    "check_for_turn",
    "hint_for_turn",
    "shipped_rules",
]


class Feature(Enum):
    """What a line looks at in a hold (under the placement the rule aims for)."""

    FIT = "fit"  # dice that fit the phase, wilds filling gaps
    EXTRA = "extra"  # dice kept that do not fit
    NATURAL = "natural"  # numbers (not wilds) that fit
    SETS = "sets"  # numbers that fit the sets
    RUN = "run"  # numbers that fit the run(s)
    BIGSET = "bigset"  # numbers in the fullest set
    HIGH = "high"  # numbers 5-10 that fit (the six high dice)
    LOW = "low"  # numbers 1-4 that fit (the four low dice)
    POINTS = "points"  # sum of the numbers that fit
    WILDS = "wilds"  # wilds kept
    SIZE = "size"  # dice kept
    MIDDLE = "middle"  # numbers 4-7 that fit (they join a run of either kind of die)
    DONE = "done"  # the dice kept make the phase
    OTHERS = "others"  # numbers in the sets besides the fullest set
    LONE = "lone"  # sets besides the fullest with one number alone


#: Plain words per (feature, more is better).
WORDS: dict[tuple[Feature, bool], str] = {
    (Feature.FIT, True): "keep as many dice as fit the phase (wilds fill gaps)",
    (Feature.FIT, False): "keep few dice that fit the phase",
    (Feature.EXTRA, False): "keep nothing that does not fit the phase",
    (Feature.EXTRA, True): "keep spare dice too",
    (Feature.NATURAL, True): "keep as many numbers (not counting wilds) as fit the phase",
    (Feature.NATURAL, False): "lean on wilds rather than numbers",
    (Feature.SETS, True): "build the sets first: as many numbers in sets as you can",
    (Feature.SETS, False): "put as few numbers as you can in the sets",
    (Feature.RUN, True): "build the run first: as many numbers in the run as you can",
    (Feature.RUN, False): "put as few numbers as you can in the run",
    (Feature.BIGSET, True): "make your biggest set as big as possible",
    (Feature.BIGSET, False): "keep your sets small",
    (Feature.HIGH, True): "prefer numbers 5-10 (the six high dice)",
    (Feature.HIGH, False): "keep as few 5-10s as you can",
    (Feature.LOW, False): "keep as few 1-4s as you can (reroll the low dice for wilds)",
    (Feature.LOW, True): "prefer numbers 1-4 (the four low dice)",
    (Feature.POINTS, True): "prefer higher numbers",
    (Feature.POINTS, False): "prefer lower numbers",
    (Feature.WILDS, True): "always keep every wild",
    (Feature.WILDS, False): "reroll wilds you do not need",
    (Feature.SIZE, True): "keep as many dice as you can",
    (Feature.SIZE, False): "keep as few dice as you can",
    (Feature.MIDDLE, True): "prefer the middle numbers 4-7",
    (Feature.MIDDLE, False): "prefer numbers away from the middle (1-3, 8-10)",
    (Feature.DONE, True): "if your dice make the phase, keep them",
    (Feature.OTHERS, False): "keep only your fullest set: start no other set yet",
    (Feature.OTHERS, True): "start every set you can",
    (Feature.LONE, False): "start another set with a pair or more, never with a lone number",
    (Feature.LONE, True): "start other sets even with a lone number",
}

# bits per feature in a hold's key (counts <= 10: 4 bits; points <= 100: 7 bits)
_BITS = {f: (7 if f is Feature.POINTS else 4) for f in Feature}


@dataclass(frozen=True)
class Line:
    """One line of a rule: a feature, whether more of it is better, and the rerolls left it
    applies with (``None``: always).

    >>> Line(Feature.LOW, more=False, rolls_left=1).words()
    'with one roll left, keep as few 1-4s as you can (reroll the low dice for wilds)'
    """

    feature: Feature
    more: bool = True
    rolls_left: int | None = None

    def words(self) -> str:
        text = WORDS[(self.feature, self.more)]
        if self.rolls_left is None:
            return text
        when = "one roll" if self.rolls_left == 1 else f"{self.rolls_left} rolls"
        return f"with {when} left, {text}"

    def to_json(self) -> list:
        return [self.feature.value, self.more, self.rolls_left]

    @classmethod
    def from_json(cls, data: Sequence) -> Line:
        return cls(Feature(data[0]), bool(data[1]), None if data[2] is None else int(data[2]))


THUMB_FILE = "rules_of_thumb.json"
RECOMPUTE_THUMB = "python tools/ship_rules_of_thumb.py"
#: Lines the search leaves out (they only throw fitting dice away or keep useless ones).
POINTLESS = {
    (Feature.FIT, False),
    (Feature.EXTRA, True),
    (Feature.SIZE, True),
    (Feature.NATURAL, False),
    (Feature.HIGH, False),
}

#: The line every rule starts with: a made phase is kept.
HEAD: tuple[Line, ...] = (Line(Feature.DONE),)
#: The tail every rule ends with (the greedy baseline in lines).
TAIL: tuple[Line, ...] = (
    Line(Feature.FIT),
    Line(Feature.EXTRA, more=False),
    Line(Feature.POINTS),
    Line(Feature.SIZE, more=False),
)
TAIL_WORDS = "keep as many dice as fit the phase (wilds fill gaps), and nothing that does not fit"
COLOR_WORDS = (
    "keep the dice that fit the phase using the most dice: for a color group, the color you "
    "have most of (wilds of that color count)"
)


@dataclass(frozen=True)
class Rule:
    """A rule of thumb for one phase: its lines in priority order (the tail follows), the aim
    it was found for ('complete' or 'score'), the rules of the game and the dice."""

    lines: tuple[Line, ...]
    phase: int | str | Phase = 1
    aim: str = "complete"
    rules: Rules = field(default=DEFAULT_RULES, repr=False)
    layout: Layout = field(default=DEFAULT_LAYOUT, repr=False)

    @property
    def the_phase(self) -> Phase:
        return as_phase(self.phase)

    def __len__(self) -> int:
        """Lines to remember, the tail counted as one."""
        return len(self.lines) + 1

    def steps(self) -> list[str]:
        """The rule's lines in plain words, the tail last."""
        if self.the_phase.uses_color:
            return [COLOR_WORDS[0].upper() + COLOR_WORDS[1:] + "."]
        out = [_sentence(_one_set(line.words(), self.the_phase)) for line in self.lines]
        tail = TAIL_WORDS + (", higher numbers first" if self.aim == "score" else "")
        out.append(_sentence(("then " if out else "") + tail))
        return out

    def text(self) -> str:
        return "\n".join(f"{i}. {s}" for i, s in enumerate(self.steps(), 1))

    def holds(self) -> dict[int, np.ndarray]:
        """The rule's hold per roll state (``full_ids`` order of :meth:`space`) for every
        number of rerolls left."""
        return rule_holds(self)

    def space(self) -> StateSpace:
        return rule_space(self.the_phase, self.layout)

    def price(self) -> Price:
        return rule_price(self)

    def to_json(self) -> dict:
        return {"lines": [line.to_json() for line in self.lines], "aim": self.aim}


def _one_set(text: str, phase: Phase) -> str:
    """Words for a phase with one set: 'the set', not 'the sets'."""
    if sum(g.kind == "set" for g in phase.groups) != 1:
        return text
    return text.replace("in sets", "in the set").replace("the sets", "the set")


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


@dataclass(frozen=True)
class Price:
    """A rule's exact P(complete) and E[score] (None where the rule's space sees colors
    only: a pure color phase's score is not priced)."""

    p_complete: Fraction
    e_score: Fraction | None


# --------------------------------------------------------------------------- machine meaning


@lru_cache(maxsize=8)
def rule_space(phase: Phase, layout: Layout) -> StateSpace:
    """The state space a rule is played on: the numbers only (phases without color), or
    the phase's own space for the completion utility (phases with color)."""
    if phase.uses_color:
        return completion_utility(phase, DEFAULT_RULES, layout)[0]
    return StateSpace.build(layout, VALUE)


_COUNTS: dict[tuple, np.ndarray] = {}


def _hold_counts(space: StateSpace) -> np.ndarray:
    """Per hold, how many dice show each number 0 (W) .. 10: ``(n_states, 11)`` int16."""
    key = space.key()
    if key not in _COUNTS:
        _COUNTS.clear()
        _COUNTS[key] = space.profiles(np.arange(space.n_states)).sum(axis=2).astype(np.int16)
    return _COUNTS[key]


def feature_values(
    counts: np.ndarray, phase: Phase, set_numbers: Sequence[int], run_starts: Sequence[int]
) -> dict[Feature, np.ndarray]:
    """Every feature of the holds ``counts`` (``(H, 11)``: dice per number, 0 = W) under one
    placement (numbers of the phase's sets, in its order of set groups, and starts of its
    runs). Numbers go to the sets first, then the runs; wilds fill the gaps left.

    >>> c = np.array([[1, 0, 0, 0, 0, 0, 0, 0, 3, 1, 2]])  # W 8 8 8 9 10 10
    >>> f = feature_values(c, as_phase(1), (8, 10), ())
    >>> [int(f[k][0]) for k in (Feature.FIT, Feature.EXTRA, Feature.SETS, Feature.POINTS)]
    [6, 1, 5, 44]
    """
    counts = np.asarray(counts)
    sets = [g.size for g in phase.groups if g.kind == "set"]
    runs = [g.size for g in phase.groups if g.kind == "run"]
    dset = np.zeros(11, dtype=np.int16)
    drun = np.zeros(11, dtype=np.int16)
    for k, n in zip(sets, set_numbers, strict=True):
        dset[n] += k
    for k, s in zip(runs, run_starts, strict=True):
        drun[s : s + k] += 1
    nums = counts[:, 1:]
    cs = np.minimum(nums, dset[1:])
    cr = np.minimum(nums - cs, drun[1:])
    used = cs + cr
    nat = used.sum(axis=1)
    need = int(dset.sum() + drun.sum())
    wild = counts[:, 0]
    fit = nat + np.minimum(wild, need - nat)
    size = counts.sum(axis=1)
    big = np.zeros(len(counts), dtype=np.int16)
    lone = np.zeros(len(counts), dtype=np.int16)
    for k, n in zip(sets, set_numbers, strict=True):
        big = np.maximum(big, np.minimum(counts[:, n], k))
        lone += counts[:, n] == 1
    lone -= (big == 1) & (lone > 0)  # the fullest set may be a lone number
    values = np.arange(1, 11)
    return {
        Feature.FIT: fit,
        Feature.EXTRA: size - fit,
        Feature.NATURAL: nat,
        Feature.SETS: cs.sum(axis=1),
        Feature.RUN: cr.sum(axis=1),
        Feature.BIGSET: big,
        Feature.HIGH: used[:, 4:].sum(axis=1),
        Feature.LOW: used[:, :4].sum(axis=1),
        Feature.POINTS: used @ values,
        Feature.WILDS: wild,
        Feature.SIZE: size,
        Feature.MIDDLE: used[:, 3:7].sum(axis=1),
        Feature.DONE: (fit == need).astype(np.int16),
        Feature.OTHERS: cs.sum(axis=1) - big,
        Feature.LONE: lone,
    }


FEATURES = tuple(Feature)
_TABLE_LIMIT = 200_000_000  # bytes of one phase's feature table (else computed per rule)
_TABLES: dict[tuple, np.ndarray] = {}


def _feature_table(phase: Phase, counts: np.ndarray, rules: Rules) -> np.ndarray | None:
    """Every feature of every hold under every placement, ``(features, placements, holds)``
    int8 (computed once per phase; None where it would not fit in memory)."""
    pls = placements(phase, rules.sets_may_share_number)
    if len(FEATURES) * len(pls) * len(counts) > _TABLE_LIMIT:
        return None
    key = (phase.key(), rules.sets_may_share_number, counts.shape, int(counts.sum()))
    if key not in _TABLES:
        _TABLES.clear()
        table = np.empty((len(FEATURES), len(pls), len(counts)), dtype=np.int8)
        for j, pl in enumerate(pls):
            feats = feature_values(counts, phase, pl.set_numbers, pl.run_starts)
            for i, f in enumerate(FEATURES):
                table[i, j] = feats[f]
        _TABLES[key] = table
    return _TABLES[key]


def hold_keys(
    lines: Sequence[Line], phase: Phase, counts: np.ndarray, rules: Rules = DEFAULT_RULES
) -> np.ndarray:
    """Every hold's key under ``lines`` (the tail appended): the lexicographic maximum over
    the phase's placements, packed in one int64 per hold (more is better)."""
    lines = list(HEAD) + list(lines) + list(TAIL)
    if sum(_BITS[line.feature] for line in lines) > 62:
        raise InvalidArgumentError(f"a rule of {len(lines)} lines is too long to compare")
    table = _feature_table(phase, counts, rules)
    best = np.full(len(counts), -1, dtype=np.int64)
    for j, pl in enumerate(placements(phase, rules.sets_may_share_number)):
        if table is None:
            feats = feature_values(counts, phase, pl.set_numbers, pl.run_starts)
        key = np.zeros(len(counts), dtype=np.int64)
        for line in lines:
            bits = _BITS[line.feature]
            if table is None:
                v = feats[line.feature].astype(np.int64)
            else:
                v = table[FEATURES.index(line.feature), j].astype(np.int64)
            key <<= bits
            key |= v if line.more else (1 << bits) - 1 - v
        np.maximum(best, key, out=best)
    return best


def _applies(line: Line, r: int) -> bool:
    return line.rolls_left is None or line.rolls_left == r


def rule_holds(rule: Rule) -> dict[int, np.ndarray]:
    """The rule's hold per roll state (``full_ids`` order) for each number of rerolls left
    ``r`` = 1 .. rolls - 1."""
    phase, space = rule.the_phase, rule.space()
    R = rule.rules.rolls
    if phase.uses_color:
        g = engine_for(space, rule.rules).greedy_holds(phase)
        return dict.fromkeys(range(1, R), g)
    counts = _hold_counts(space)
    ids = np.arange(space.n_states, dtype=np.int64)
    out: dict[int, np.ndarray] = {}
    for r in range(1, R):
        lines = tuple(line for line in rule.lines if _applies(line, r))
        memo = (phase.key(), space.key(), rule.rules.sets_may_share_number, lines)
        if memo not in _HOLDS:
            if len(_HOLDS) > 400:
                _HOLDS.clear()
            key = hold_keys(lines, phase, counts, rule.rules)
            # unique values: equal keys go to the lower hold id
            unique = key * space.n_states + (space.n_states - 1 - ids)
            _HOLDS[memo] = subset_max(space, unique, space.full_ids)[1].ravel()
        out[r] = _HOLDS[memo]
    return out


_HOLDS: dict[tuple, np.ndarray] = {}


@lru_cache(maxsize=16)
def utilities(phase: Phase, layout: Layout, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """1/0 completion and the score (0 when not made) on the roll states of the rule's space."""
    space = rule_space(phase, layout)
    best = final_scores(phase, space, rules)
    return (
        utility_from_scores(best, "complete", np.int8 if space.distinct else np.int64),
        utility_from_scores(best, "score", np.int16 if space.distinct else np.int64),
    )


def rule_price(rule: Rule, holds: dict[int, np.ndarray] | None = None) -> Price:
    """The exact P(complete) and E[score] of a rule (``holds``: its policy, if known)."""
    phase = rule.the_phase
    space = rule.space()
    holds = rule_holds(rule) if holds is None else holds
    engine = engine_for(space, rule.rules)
    comp, score = utilities(phase, rule.layout, rule.rules)
    R = rule.rules.rolls
    p = engine.policy_value(comp, holds, R)
    if phase.uses_color and not phase.uses_numbers:
        e = None  # the colors-only space sees no numbers
    else:
        e = engine.policy_value(score, holds, R)
    return Price(p, e)


def simulate_rule(rule: Rule, n: int, seed: int) -> dict[str, float]:
    """A seeded Monte Carlo of ``n`` turns played by the rule on the physical dice (every die
    shows a uniform side of its own six; :func:`~phase10math.turn.policy.play_physical_turns`),
    the final dice scored by the meld engine: P(complete) and E[score] with their standard
    errors. A second way to the price, that never uses the state space for the outcome.

    >>> sim = simulate_rule(Rule((), phase=4), 4000, seed=1)
    >>> exact = Rule((), phase=4).price().p_complete
    >>> abs(sim["p_complete"] - float(exact)) < 4 * sim["p_se"]
    True
    """
    space = rule.space()
    sol = SimpleNamespace(space=space, rolls=rule.rules.rolls, roll_arg=rule_holds(rule))
    prof = play_physical_turns(sol, rule.layout, n, seed)
    best = best_scores(rule.the_phase, prof, rule.rules)
    made = (best >= 0).astype(np.float64)
    score = np.maximum(best, 0).astype(np.float64)
    return {
        "n": n,
        "seed": seed,
        "p_complete": float(made.mean()),
        "p_se": float(made.std(ddof=1) / np.sqrt(n)),
        "e_score": float(score.mean()),
        "e_se": float(score.std(ddof=1) / np.sqrt(n)),
    }


# --------------------------------------------------------------------------- one roll


def rule_hold_faces(rule: Rule, faces: Sequence[Face] | str, rolls_left: int) -> list[Face]:
    """The faces the rule keeps from one roll of all the dice with ``rolls_left`` rerolls
    left (1 or 2), in the roll's order.

    >>> rule = Rule((Line(Feature.LOW, more=False, rolls_left=2), Line(Feature.SETS)), phase=3)
    >>> " ".join(map(str, rule_hold_faces(rule, "5 5 6 7 8 10 1 2 3 4", 2)))
    '5 5 7 8 10'
    >>> " ".join(map(str, rule_hold_faces(Rule((), phase=3), "5 5 6 7 8 10 1 2 3 4", 2)))
    '5 5 1 2 3 4'
    """
    roll = parse_faces(faces) if isinstance(faces, str) else list(faces)
    space = rule.space()
    if rule.the_phase.uses_color:
        return greedy_hold(rule.the_phase, roll, rule.rules)
    gid = space.state_id(space.counts_for(_typed(space, roll)))
    pos = int(np.searchsorted(space.full_ids, gid))
    hold = int(rule_holds(rule)[rolls_left][pos])
    _TABLES.clear()  # a phase's feature table (100 MB) is not kept for one roll
    kept = space.dice_for(hold, _typed(space, roll))
    return [f for i, f in enumerate(roll) if i in kept]


def _typed(space: StateSpace, roll: Sequence[Face]) -> list[tuple[int, Face]]:
    """(type, face) per die of a roll, each face to the type that has its number."""
    return [(next(t for t, typ in enumerate(space.types) if f.value in typ.faces), f) for f in roll]


# --------------------------------------------------------------------------- the search


def candidate_lines(phase: Phase, timed: bool = True) -> list[Line]:
    """The lines a rule for ``phase`` may use: every (feature, direction) that can matter for
    its groups, always and (``timed``) with each number of rerolls left alone."""
    kinds = {g.kind for g in phase.groups}
    sets = sum(g.kind == "set" for g in phase.groups)
    skip = set()
    if "run" not in kinds:
        skip.add(Feature.RUN)
    if "set" not in kinds:
        skip |= {Feature.SETS, Feature.BIGSET}
    if sets < 2 and "run" not in kinds:
        skip.add(Feature.BIGSET)
    if sets < 2:
        skip |= {Feature.OTHERS, Feature.LONE}
    skip.add(Feature.DONE)  # every rule starts with it
    base = [Line(f, m) for (f, m) in WORDS if f not in skip and (f, m) not in POINTLESS]
    if not timed:
        return base
    return base + [Line(b.feature, b.more, r) for r in (2, 1) for b in base]


@dataclass
class Found:
    """A rule the search priced: its lines and its exact values."""

    lines: tuple[Line, ...]
    price: Price


def search_rules(
    phase: int | str | Phase,
    aim: str = "complete",
    target: Fraction | None = None,
    max_lines: int = 4,
    beam: int = 5,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    timed: bool = True,
    log=None,
) -> list[list[Found]]:
    """Beam search for short rules: per number of lines (0 .. ``max_lines``, the tail not
    counted), the best rules found, best first. Each level inserts every candidate line at
    every position of the ``beam`` best rules of the level before. Stops after the first
    level whose best reaches ``target`` (P(complete) for aim 'complete', E[score] for
    'score').

    >>> levels = search_rules(4, max_lines=1, beam=1, timed=False)
    >>> best = levels[1][0]
    >>> best.price.p_complete > levels[0][0].price.p_complete
    True
    """
    phase = as_phase(phase)
    cands = candidate_lines(phase, timed)
    measure = (lambda p: p.p_complete) if aim == "complete" else (lambda p: p.e_score)
    seen: dict[tuple[Line, ...], Found] = {}

    def price(lines: tuple[Line, ...]) -> Found:
        if lines not in seen:
            seen[lines] = Found(lines, rule_price(Rule(lines, phase, aim, rules, layout)))
        return seen[lines]

    levels = [[price(())]]
    for n in range(1, max_lines + 1):
        if target is not None and measure(levels[-1][0].price) >= target:
            break
        level: dict[tuple[Line, ...], Found] = {}
        for parent in levels[-1][:beam]:
            for line in cands:
                if line in parent.lines or Line(line.feature, line.more) in parent.lines:
                    continue
                for pos in range(len(parent.lines) + 1):
                    lines = parent.lines[:pos] + (line,) + parent.lines[pos:]
                    level[lines] = price(lines)
        ranked = sorted(level.values(), key=lambda f: (-measure(f.price), _text_key(f.lines)))
        levels.append(ranked)
        if log:
            best = float(measure(ranked[0].price))
            log(f"phase {phase.number} {aim}: {n} lines, best {best:.5f}")
    return levels


def _text_key(lines: tuple[Line, ...]) -> tuple:
    return tuple(line.to_json()[:2] + [line.rolls_left or 0] for line in lines)


# --------------------------------------------------------------------------- shipped rules


@dataclass(frozen=True)
class ShippedRule:
    """One phase's shipped rules of thumb (:data:`THUMB_FILE`): the rule for completion and
    the rule for points, their exact prices, the optimum's and the greedy's."""

    number: int
    layout_name: str
    data: dict = field(repr=False, compare=False)

    def rule(self, aim: str = "complete") -> Rule:
        lines = tuple(Line.from_json(x) for x in self.data[aim]["lines"])
        return Rule(lines, self.number, aim, DEFAULT_RULES, LAYOUTS[self.layout_name])

    def p_complete(self, aim: str = "complete") -> Fraction:
        return Fraction(self.data[aim]["p_complete"])

    def e_score(self, aim: str = "score") -> Fraction | None:
        v = self.data[aim]["e_score"]
        return None if v is None else Fraction(v)

    @property
    def p_optimal(self) -> Fraction:
        return Fraction(self.data["optimal"]["p_complete"])

    @property
    def e_optimal(self) -> Fraction:
        return Fraction(self.data["optimal"]["e_score"])

    @property
    def p_greedy(self) -> Fraction:
        return Fraction(self.data["greedy"]["p_complete"])

    def words(self, aim: str = "complete") -> list[str]:
        return list(self.data[aim]["words"])

    def monte_carlo(self, aim: str = "complete") -> dict | None:
        return self.data[aim].get("monte_carlo")

    def cost(self) -> Fraction:
        """Points of chance in 100 the completion rule gives up against the optimum."""
        return (self.p_optimal - self.p_complete()) * 100


@lru_cache(maxsize=1)
def shipped_rules() -> dict[str, dict[int, ShippedRule]]:
    """The shipped rules of thumb by dice ('recorded', 'compact') and phase; empty where
    none ship (``python tools/ship_rules_of_thumb.py`` makes them)."""
    ref = resources.files("phase10math.turn.data").joinpath(THUMB_FILE)
    if not ref.is_file():
        return {}
    data = json.loads(ref.read_text(encoding="utf-8"))
    return {
        name: {int(k): ShippedRule(int(k), name, v) for k, v in per.items()}
        for name, per in data["layouts"].items()
    }


@dataclass(frozen=True)
class RuleHint:
    """What the rule of thumb says for one roll: its words, the faces it keeps, the best
    hold's, whether they differ, and what the rule's hold costs (points of chance in 100 for
    'complete', points for 'score')."""

    words: tuple[str, ...]
    keep: tuple[Face, ...]
    best_keep: tuple[Face, ...]
    differs: bool
    cost: Fraction
    objective: str

    def text(self) -> str:
        keep = " ".join(map(str, self.keep)) or "nothing"
        if not self.differs:
            return f"The rule of thumb says: keep {keep} - the best hold too."
        unit = "points of chance in 100" if self.objective == "complete" else "points"
        return (
            f"The rule of thumb says: keep {keep}; the best is "
            f"{' '.join(map(str, self.best_keep)) or 'nothing'}: the rule costs "
            f"{float(self.cost):.2f} {unit} here."
        )


def rule_hint(
    phase: int,
    faces: Sequence[Face] | str,
    rolls_left: int,
    objective: str = "complete",
    layout_name: str = "recorded",
    advice=None,
) -> RuleHint | None:
    """The shipped rule of thumb's hold for one roll of all the dice beside the best hold,
    and what the difference costs (None where no rule ships for this phase and dice).
    ``advice``: the roll's :class:`~phase10math.turn.advisor.Advice`, if already made.

    >>> hint = rule_hint(4, "5 6 7 8 8 10 W 1 2 2", 2)  # doctest: +SKIP
    """
    item = shipped_rules().get(layout_name, {}).get(int(phase))
    if item is None:
        return None
    rule = item.rule(objective if objective in ("complete", "score") else "complete")
    roll = parse_faces(faces) if isinstance(faces, str) else tuple(faces)
    keep = tuple(rule_hold_faces(rule, roll, rolls_left))
    if advice is None:
        advice = advise(roll, rolls_left, rule.the_phase, objective, rule.rules, rule.layout)
    mine = advice.value_of(list(keep))
    best = advice.best
    cost = (best.value - mine.value) * (100 if objective == "complete" else 1)
    return RuleHint(tuple(rule.steps()), keep, tuple(best.keep), cost > 0, cost, objective)


def simplest(
    lines: Sequence[Line],
    phase: int | str | Phase,
    aim: str = "complete",
    target: Fraction | None = None,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
) -> tuple[Line, ...]:
    """The rule with every line dropped that it can do without: a line goes where the rule
    without it still reaches ``target`` (or, short of the target, its own value).

    >>> L = Line(Feature.HIGH)
    >>> simplest((L, Line(Feature.HIGH, rolls_left=1)), 4)  # the second line says it again
    (Line(feature=<Feature.HIGH: 'high'>, more=True, rolls_left=None),)
    """
    measure = (lambda p: p.p_complete) if aim == "complete" else (lambda p: p.e_score)

    def value(ls: tuple[Line, ...]) -> Fraction:
        return measure(rule_price(Rule(ls, phase, aim, rules, layout)))

    lines = tuple(lines)
    now = value(lines)
    goal = target if target is not None and now >= target else now
    dropped = True
    while dropped and lines:
        dropped = False
        for i in range(len(lines)):
            shorter = lines[:i] + lines[i + 1 :]
            if value(shorter) >= goal:
                lines, dropped = shorter, True
                break
    return lines


def card_strategy(phase: int, layout_name: str = "recorded", aim: str = "complete"):
    """The strategy card's rule for a phase as a strategy function ``(roll, rolls_left,
    phase) -> the faces to keep`` (the form :func:`~phase10math.turn.assess.assess_strategy`
    prices), so that a card's price can be found again by another evaluator.

    >>> keep = card_strategy(4)
    >>> keep(["10", "8", "8", "7", "6", "5", "W", "2", "2", "1"], 2, 4)
    ['10', '8', '7', '6', '5', 'W']
    """
    phase = check_int(phase, "phase", 1, 20, InvalidPhaseError)
    if aim not in ("complete", "score"):
        raise InvalidArgumentError(f"aim={aim!r:.40}; allowed: 'complete', 'score'")
    item = shipped_rules().get(layout_name, {}).get(phase) if isinstance(layout_name, str) else None
    if item is None:
        raise InvalidArgumentError(
            f"layout_name={layout_name!r:.40}: no rule of thumb ships for phase {phase} on "
            "these dice (allowed: 'recorded', 'compact')"
        )
    rule = item.rule(aim)

    def strategy(roll, rolls_left, phase_now):
        faces = parse_faces(" ".join(map(str, roll)))
        return [str(f) for f in rule_hold_faces(rule, faces, rolls_left)]

    return strategy


def hint_for_turn(turn) -> str | None:
    """Hint mode's rule of thumb for a turn in play (any object with the play app's
    ``TurnState`` attributes: ``phase``, ``dice``, ``rolls_left``, ``objective``, ``rules``,
    ``layout``, ``aside``): what the shipped rule keeps from the dice showing, in words, or
    None where no rule ships (other dice or rules, sticky holds with dice set aside).

    >>> from types import SimpleNamespace
    >>> from phase10math.dice.faces import parse_faces
    >>> turn = SimpleNamespace(phase=as_phase(4), dice=list(parse_faces("5 6 7 8 8 10 W 1 2 2")),
    ...                        rolls_left=2, objective="complete", rules=DEFAULT_RULES,
    ...                        layout=DEFAULT_LAYOUT, aside=set())
    >>> hint_for_turn(turn)  # doctest: +ELLIPSIS
    'keep 5 6 7 8 10 W ...'
    """
    found = _turn_rule(turn)
    if found is None:
        return None
    rule = found[0]
    keep = rule_hold_faces(rule, list(turn.dice), turn.rolls_left)
    own = [s for s in rule.steps()[:-1]] or ["the basic rule: " + TAIL_WORDS + "."]
    return f"keep {' '.join(map(str, keep)) or 'nothing'} ({' '.join(own)})"


def _turn_rule(turn) -> tuple[Rule, str, str] | None:
    """The shipped rule for a turn in play, its dice's name and aim (None: no rule ships for
    it, or the dice showing are not a roll with 1 or 2 rolls left)."""
    names = {lay.fingerprint(): name for name, lay in LAYOUTS.items()}
    name = names.get(turn.layout.fingerprint())
    number = getattr(turn.phase, "number", None)
    if name is None or turn.rules != DEFAULT_RULES or turn.aside or not number:
        return None
    if any(f is None for f in turn.dice) or turn.rolls_left not in (1, 2):
        return None
    item = shipped_rules().get(name, {}).get(number)
    if item is None:
        return None
    aim = "score" if str(turn.objective) == "score" else "complete"
    return item.rule(aim), name, aim


def check_for_turn(turn) -> RuleHint | None:
    """Hint mode after "Check my hold": the shipped rule's hold for the dice showing beside
    the best hold, whether they differ and what the rule's hold costs (exact), for a turn in
    play (the attributes :func:`hint_for_turn` reads, and ``advice()``, the roll's ranked
    holds, where it has one); None where no rule ships, or the typed faces fit the dice in
    several ways (the best hold then depends on which die is which).

    >>> from types import SimpleNamespace
    >>> from phase10math.dice.faces import parse_faces
    >>> turn = SimpleNamespace(phase=as_phase(4), dice=list(parse_faces("5 6 7 8 8 10 W 1 2 2")),
    ...                        rolls_left=2, objective="complete", rules=DEFAULT_RULES,
    ...                        layout=DEFAULT_LAYOUT, aside=set())
    >>> check_for_turn(turn).text()  # doctest: +ELLIPSIS
    'The rule of thumb says: keep 5 6 7 8 10 W ...'
    """
    found = _turn_rule(turn)
    if found is None:
        return None
    _, name, aim = found
    advice = turn.advice() if callable(getattr(turn, "advice", None)) else None
    if advice is not None and getattr(advice, "ambiguous", False):
        return None
    return rule_hint(turn.phase.number, list(turn.dice), turn.rolls_left, aim, name, advice)
