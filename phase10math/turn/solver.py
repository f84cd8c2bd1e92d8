"""The exact optimal turn: dynamic programming over holds.

After a roll with ``r`` rerolls left, the player keeps a hold ``K`` (a sub-multiset of the ten
dice) and rerolls the rest. With ``U`` the utility of the final ten dice:

- ``V_0(S) = U(S)`` for a final roll ``S``;
- ``W_r(K) = E[V_{r-1}(K + roll of the other dice)]`` - the value of holding ``K``;
- ``V_r(S) = max over K within S of W_r(K)`` (free holds).

The objective is lexicographic (``U`` is a pair of utilities, e.g. completion then score):
both keys are expectations, linear, computed side by side as integer numerators; the maximum
compares the pairs exactly (first key, then second key), and holds equal on both are ordered
by one fixed rule, more dice kept first (:func:`~phase10math.turn.kernels.hold_ranks`).

``W_r`` is computed by adding one die at a time (the expectation over one die of the first
type that is not complete), ``V_r`` by a running maximum along each face count. With sticky
holds the dice already set aside stay, so the maximum runs only over dice added to them.

Exactness: every number is an integer numerator over a known power of 6 (``W_r`` over
``6**(10 r)``, times the common denominator of the utility), held in int64 when it provably
fits and in Python integers otherwise; all comparisons are exact, so the holds reported as
optimal are optimal and equal values are reported as ties.

>>> sol = solve_turn(1, objective="complete")
>>> sol.value()            # P(completing phase 1 in a turn of three rolls)
Fraction(...)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from phase10math._base.checks import public
from phase10math.dice.faces import Die, Face, Layout, check_layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import check_solvable
from phase10math.dice.phases import Phase, as_phase
from phase10math.dice.rules import DEFAULT_RULES, Holds, Objective, Rules, check_rules
from phase10math.errors import InvalidLayoutError, InvalidRulesError
from phase10math.turn.engine import (
    OPTIMAL,
    LazyHoldValues,
    backward_induction,
    engine_for,
    final_scores,
)
from phase10math.turn.holdtable import HoldTable
from phase10math.turn.kernels import TIE_RULE, lexicographic_utilities
from phase10math.turn.projection import FULL, Projection, projection_for
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.memory import smallest_int

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = ["solve_custom", "solve_turn", "solve_utility"]

HoldValues = np.ndarray | LazyHoldValues  # a tensor solve computes hold values on demand


# --------------------------------------------------------------------------- the solution


@dataclass
class KeyValues:
    """One key of a solution: ``hold_num[r][gid] / denominator(r)`` is the exact value of
    holding state ``gid`` when ``r`` rolls remain after the hold (r = 1 .. rolls-1);
    ``roll_num[r]`` likewise the value of a roll state when ``r`` rerolls remain after it
    (r = 0 .. rolls-1, ``full_ids`` order); ``turn_num`` the turn before its first roll."""

    n_dice: int
    utility_den: int
    hold_num: dict[int, HoldValues] = field(repr=False)
    roll_num: dict[int, np.ndarray] = field(repr=False)
    turn_num: int = 0

    def denominator(self, r: int) -> int:
        return self.utility_den * 6 ** (self.n_dice * r)

    def value(self, rolls: int) -> Fraction:
        return Fraction(self.turn_num, self.denominator(rolls))


@dataclass
class TurnSolution:
    """Values of every hold with every number of rolls left, for one phase and objective.

    The objective is lexicographic: ``keys[0]`` is maximised, then among exact ties
    ``keys[1]`` (when there is a second key), both under the same policy ``roll_arg``
    (``roll_arg[r]``: the best hold per roll state, ``full_ids`` order); holds equal on both
    keys are ordered by :func:`~phase10math.turn.kernels.hold_ranks` (:data:`TIE_RULE`)."""

    space: StateSpace
    rules: Rules
    label: str
    keys: list[KeyValues] = field(repr=False)
    roll_arg: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    # what was solved (phase and objective are None for a custom utility; layout is None for
    # a list of dice): the same whether solved now or loaded from the disk cache
    phase: Phase | None = None
    objective: Objective | None = None
    layout: Layout | None = None
    worst_second: bool = False
    tie_rule: str = TIE_RULE

    @property
    def rolls(self) -> int:
        return self.rules.rolls

    @property
    def holds(self) -> Holds:
        """The hold rule solved for (free or sticky)."""
        return self.rules.holds

    # the first key's fields, read often
    @property
    def utility_den(self) -> int:
        return self.keys[0].utility_den

    @property
    def hold_num(self) -> dict[int, HoldValues]:
        return self.keys[0].hold_num

    @property
    def roll_num(self) -> dict[int, np.ndarray]:
        return self.keys[0].roll_num

    @property
    def turn_num(self) -> int:
        return self.keys[0].turn_num

    def _key(self, j: int) -> KeyValues | None:
        return self.keys[j] if j < len(self.keys) else None

    def denominator(self, r: int, key: int = 0) -> int:
        k = self._key(key)
        return k.denominator(r) if k else 6 ** (self.space.n_dice * r)

    def value(self, key: int = 0) -> Fraction:
        """The exact value of a turn before the first roll (of key ``key``; 0 for a key the
        solution does not have)."""
        k = self._key(key)
        return k.value(self.rolls) if k else Fraction(0)

    def value2(self) -> Fraction:
        """The exact second key of a turn before the first roll (e.g. the expected score of
        the completion-optimal turn), under the same lexicographic policy."""
        return self.value(1)

    def hold_table(self) -> HoldTable:
        """The policy as a :class:`~phase10math.turn.holdtable.HoldTable`: a decision is one
        lookup."""
        return HoldTable(self.space, self.roll_arg, self.label)

    def best_hold_id(self, gid: int, rolls_left: int) -> int:
        """The best hold (state id) for roll state ``gid`` with ``rolls_left`` >= 1 rerolls:
        the lexicographic best, remaining ties to the larger hold (see
        :func:`~phase10math.turn.kernels.hold_ranks`); one lookup
        (:meth:`HoldTable.best_hold <phase10math.turn.holdtable.HoldTable.best_hold>`)."""
        return self.hold_table().best_hold(gid, rolls_left)

    def hold_value(self, gid: int, rolls_left: int, key: int = 0) -> Fraction:
        """Exact value of holding ``gid`` when ``rolls_left`` rerolls remain (rolls_left >= 1)."""
        k = self._key(key)
        if k is None:
            return Fraction(0)
        return Fraction(int(k.hold_num[rolls_left][gid]), k.denominator(rolls_left))

    def roll_value(self, gid: int, rolls_left: int, key: int = 0) -> Fraction:
        """Exact value of facing roll state ``gid`` with ``rolls_left`` rerolls still allowed."""
        k = self._key(key)
        if k is None:
            return Fraction(0)
        if rolls_left not in k.roll_num:  # not kept (tensor engine): its best hold's value
            return self.hold_value(self.best_hold_id(gid, rolls_left), rolls_left, key)
        pos = int(self.space.positions(np.array([gid]))[0])
        return Fraction(int(k.roll_num[rolls_left][pos]), k.denominator(rolls_left))


def check_size(space: StateSpace, rules: Rules = DEFAULT_RULES, second: bool = True) -> None:
    """Refuse (StateSpaceTooLargeError) a turn whose holds would not fit in memory (with a
    ``second`` key, the lexicographic solve that :func:`solve_turn` runs)."""
    engine_for(space, rules).check_size(rules.rolls, second)


# --------------------------------------------------------------------------- driver


def solve_utility(
    space: StateSpace,
    final_values: Sequence[int | Fraction] | np.ndarray,
    rules: Rules = DEFAULT_RULES,
    label: str = "utility",
    progress: Callable[[str], None] | None = None,
    second: Sequence[int | Fraction] | np.ndarray | None = None,
) -> TurnSolution:
    """Solve a turn for any utility given on the roll states of ``space`` (in ``full_ids``
    order): ints or Fractions. Values are exact.

    With ``second`` (a second utility on the roll states) the objective is lexicographic:
    maximise the first utility, then among exact ties the second, a dynamic program over
    value pairs (each key's expectation is linear, the maximum compares the pairs)."""
    engine = engine_for(space, rules)
    R = rules.rolls
    engine.check_size(R, second is not None)
    utilities = [final_values] + ([] if second is None else [second])
    finals = [
        engine.final_utility(u, R, "utility's" if j == 0 else "second utility's")
        for j, u in enumerate(utilities)
    ]
    run = backward_induction(engine, [f for _, f in finals], R, OPTIMAL, progress)
    keys = [
        KeyValues(space.n_dice, den, run.hold[j], run.roll[j], run.total[j])
        for j, (den, _) in enumerate(finals)
    ]
    return TurnSolution(space=space, rules=rules, label=label, keys=keys, roll_arg=run.arg)


@public
def solve_turn(
    phase: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout | Sequence[Die] = DEFAULT_LAYOUT,
    projection: Projection | None = None,
    progress: Callable[[str], None] | None = None,
    worst_second: bool = False,
) -> TurnSolution:
    """The optimal turn for a phase, lexicographic: objective 'complete' maximises the
    probability of making the phase, then among exact ties the expected score (0 when not
    made); 'score' maximises the expected score, then the probability of making the phase.
    ``worst_second`` minimises the second key instead (to show what the tie rule is worth).

    Raises InvalidRulesError for a projection that drops what the second key needs (the
    color-only projection has no scores)."""
    if isinstance(layout, (list, tuple)):  # ten dice, as solve_custom accepts them
        layout = Layout(tuple(layout))
    check_layout(layout)
    check_rules(rules)
    phase = as_phase(phase)
    check_solvable(phase)
    objective = Objective.parse(objective)
    proj = projection or projection_for(phase, objective)
    if proj.name == "color":
        raise InvalidRulesError(
            "the color projection has no scores, which the second key (the score) needs; "
            "use the full projection"
        )
    space = StateSpace.build(layout, proj)
    check_size(space, rules)
    best = final_scores(phase, space, rules)
    # on distinct dice the utilities stay small (int16) while the tensor engine runs
    small = space.distinct and best.dtype.itemsize <= 2
    first, second = lexicographic_utilities(
        best, objective, worst_second, np.int16 if small else np.int64
    )
    if small:  # in the dtype the engine keeps them in now: no second copy while it solves
        first, second = smallest_int(first), smallest_int(second)
    sol = solve_utility(
        space, first, rules, label=f"{phase} {objective}", progress=progress, second=second
    )
    return replace(sol, phase=phase, objective=objective, layout=layout, worst_second=worst_second)


def _utility_value(utility: Callable, faces: Sequence[Face]) -> Fraction:
    u = utility(faces)
    if isinstance(u, bool) or not isinstance(u, int | Fraction):
        raise InvalidRulesError(
            f"the utility returned {u!r} for {' '.join(map(str, faces))}; it must return "
            "an int or a Fraction"
        )
    return Fraction(u)


@public
def solve_custom(
    utility: Callable[[Sequence[Face]], int | Fraction],
    rules: Rules = DEFAULT_RULES,
    layout: Layout | Sequence[Die] = DEFAULT_LAYOUT,
    projection: Projection = FULL,
    second: Callable[[Sequence[Face]], int | Fraction] | None = None,
) -> TurnSolution:
    """The optimal turn for any utility of the final dice (a callable on faces), then among
    exact ties the best ``second`` utility if given; ``layout`` may also be any list of dice,
    e.g. a reduced game."""
    check_rules(rules)
    for name, fn in (("utility", utility), ("second", second)):
        if fn is not None and not callable(fn):
            raise InvalidRulesError(f"{name}: expected a function of the final faces; got {fn!r}")
    if not isinstance(layout, Layout):
        if not isinstance(layout, (list, tuple)) or not layout:
            raise InvalidLayoutError(
                "layout: expected a Layout or a non-empty list of dice; got "
                f"{type(layout).__name__}"
            )
        if not all(isinstance(d, Die) for d in layout):
            raise InvalidLayoutError("layout: every die must be a Die (see parse_layout)")
        if len(layout) > 10:
            raise InvalidLayoutError(f"layout: at most 10 dice; got {len(layout)}")
    space = StateSpace.build(layout, projection)
    check_size(space, rules, second is not None)
    faces = [
        [projection.representative(k) for _, k in space.faces_of(int(gid))]
        for gid in space.full_ids
    ]
    vals = [_utility_value(utility, f) for f in faces]
    vals2 = None if second is None else [_utility_value(second, f) for f in faces]
    sol = solve_utility(space, vals, rules, label="custom utility", second=vals2)
    return replace(sol, layout=layout if isinstance(layout, Layout) else None)
