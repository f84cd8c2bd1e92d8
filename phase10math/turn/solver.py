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

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from phase10math.checks import public
from phase10math.dice.faces import Die, Face, Layout, check_layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import check_solvable
from phase10math.dice.phases import Phase, as_phase
from phase10math.dice.rules import DEFAULT_RULES, Holds, Objective, Rules, check_rules
from phase10math.errors import InvalidLayoutError, InvalidRulesError, StateSpaceTooLargeError
from phase10math.exact import fits_int64
from phase10math.turn.kernels import (
    expect_rerolls,
    final_scores,
    first_roll_total,
    hold_ranks,
    lexicographic_utilities,
    normalise,
    subset_max,
)
from phase10math.turn.projection import FULL, Projection, projection_for
from phase10math.turn.statespace import StateSpace
from phase10math.turn.sticky import MAX_STICKY_PAIRS, sticky_layer, sticky_pairs
from phase10math.turn.tensor import (
    LazyHoldValues,
    best_sub_hold_values,
    check_tensor_fits,
    is_tensor_space,
    smallest_int,
    solve_tensor,
)

MAX_STATES = 60_000_000  # holds; beyond this the arrays do not fit in 24 GiB with margin
TIE_RULE = "both keys, then ties to the larger hold"


# --------------------------------------------------------------------------- the solution


@dataclass
class TurnSolution:
    """Values of every hold with every number of rolls left, for one phase and objective.

    ``hold_num[r][gid] / denominator(r)`` is the exact value of holding state ``gid`` when
    ``r`` rolls remain after the hold (r = 1 .. rolls-1); ``roll_num[r]`` likewise the value
    of a roll state when ``r`` rerolls remain after it (r = 0 .. rolls-1), over full-state order.

    The objective is lexicographic: the first key (``hold_num``, ``roll_num``, ``turn_num``)
    is maximised, then among exact ties the second key (``hold_num2``, ``roll_num2``,
    ``turn_num2``, over ``denominator2``), both under the same policy ``roll_arg``; holds equal
    on both keys are ordered by :func:`~phase10math.turn.kernels.hold_ranks` (more dice kept,
    then a fixed numbering). Without a second key the second arrays are zeros.
    """

    space: StateSpace
    rules: Rules
    label: str
    utility_den: int
    hold_num: dict[int, np.ndarray] = field(repr=False)
    roll_num: dict[int, np.ndarray] = field(repr=False)
    turn_num: int = 0
    roll_arg: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    utility_den2: int = 1
    hold_num2: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    roll_num2: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    turn_num2: int = 0
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

    def denominator(self, r: int) -> int:
        return self.utility_den * 6 ** (self.space.n_dice * r)

    def denominator2(self, r: int) -> int:
        return self.utility_den2 * 6 ** (self.space.n_dice * r)

    def value(self) -> Fraction:
        """The exact value of a turn before the first roll."""
        return Fraction(self.turn_num, self.denominator(self.rolls))

    def value2(self) -> Fraction:
        """The exact second key of a turn before the first roll (e.g. the expected score of
        the completion-optimal turn), under the same lexicographic policy."""
        return Fraction(self.turn_num2, self.denominator2(self.rolls))

    def best_hold_id(self, gid: int, rolls_left: int) -> int:
        """The best hold (state id) for roll state ``gid`` with ``rolls_left`` >= 1 rerolls:
        the lexicographic best, remaining ties to the larger hold (see
        :func:`~phase10math.turn.kernels.hold_ranks`)."""
        pos = int(np.searchsorted(self.space.full_ids, gid))
        return int(self.roll_arg[rolls_left][pos])

    def hold_value(self, gid: int, rolls_left: int) -> Fraction:
        """Exact value of holding ``gid`` when ``rolls_left`` rerolls remain (rolls_left >= 1)."""
        return Fraction(int(self.hold_num[rolls_left][gid]), self.denominator(rolls_left))

    def hold_value2(self, gid: int, rolls_left: int) -> Fraction:
        """Exact second key of holding ``gid`` when ``rolls_left`` rerolls remain."""
        return Fraction(int(self.hold_num2[rolls_left][gid]), self.denominator2(rolls_left))

    def roll_value(self, gid: int, rolls_left: int) -> Fraction:
        """Exact value of facing roll state ``gid`` with ``rolls_left`` rerolls still allowed."""
        if rolls_left not in self.roll_num:  # not kept (tensor engine): its best hold's value
            num, _ = best_sub_hold_values(
                self.space, self.hold_num[rolls_left], self.hold_num2.get(rolls_left), gid
            )
            return Fraction(num, self.denominator(rolls_left))
        pos = int(np.searchsorted(self.space.full_ids, gid))
        return Fraction(int(self.roll_num[rolls_left][pos]), self.denominator(rolls_left))

    def roll_value2(self, gid: int, rolls_left: int) -> Fraction:
        """Exact second key of facing roll state ``gid`` with ``rolls_left`` rerolls allowed."""
        if rolls_left not in self.roll_num2:  # not kept: its best hold's value
            _, num = best_sub_hold_values(
                self.space, self.hold_num[rolls_left], self.hold_num2[rolls_left], gid
            )
            return Fraction(num, self.denominator2(rolls_left))
        pos = int(np.searchsorted(self.space.full_ids, gid))
        return Fraction(int(self.roll_num2[rolls_left][pos]), self.denominator2(rolls_left))


def _uses_tensor(space: StateSpace, sticky: bool) -> bool:
    """Free holds on distinct dice run on the in-place tensor engine (:mod:`.tensor`)."""
    return not sticky and is_tensor_space(space)


def check_size(space: StateSpace, sticky: bool, rolls: int = 3, second: bool = True) -> None:
    """Refuse (StateSpaceTooLargeError) a turn whose holds would not fit in memory (with a
    ``second`` key, the lexicographic solve that :func:`solve_turn` runs)."""
    if _uses_tensor(space, sticky):
        check_tensor_fits(space, rolls, second)
        return
    n = space.n_states
    if sticky:
        n = sticky_pairs(space)
    if n > (MAX_STICKY_PAIRS if sticky else MAX_STATES) or space.n_states > MAX_STATES:
        raise StateSpaceTooLargeError(
            f"this turn has {n:,} {'(held, rolled) pairs' if sticky else 'holds'} under this "
            f"layout ({len(space.types)} different kinds of dice as this phase sees them); the "
            f"limit on this machine is {MAX_STICKY_PAIRS if sticky else MAX_STATES:,}. "
            "Use a layout with more identical dice or the other hold rule."
        )


# --------------------------------------------------------------------------- driver


def _numerators(values) -> tuple[int, np.ndarray | list[int], int]:
    """(common denominator, integer numerators, largest |numerator|) of utilities; an integer
    array is returned as it is (no int64 copy of 60 million utilities)."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        return 1, values, max(int(values.max()), -int(values.min())) if len(values) else 0
    fr = [Fraction(v) for v in values]
    den = math.lcm(*[f.denominator for f in fr]) if fr else 1
    nums = [int(f * den) for f in fr]
    return den, nums, max((abs(v) for v in nums), default=0)


def _tensor_utility(values, space: StateSpace, rolls: int, which: str) -> tuple[int, np.ndarray]:
    """(denominator, numerators) of a utility for the distinct-dice engine: refused unless its
    numerators times ``6**(n_dice * (rolls - 1))`` fit in int64; kept in the smallest integer
    dtype (a color phase of the recorded dice has 60 million rolls: 1 byte each, not 8)."""
    den, nums, umax = _numerators(values)
    if not fits_int64(umax, 6 ** (space.n_dice * (rolls - 1))):
        raise StateSpaceTooLargeError(
            f"the {which} numerators (up to {umax:,}) times 6**{space.n_dice * rolls} do not "
            "fit in 64-bit integers; the distinct-dice engine needs them to"
        )
    return den, smallest_int(np.asarray(nums))


def _solve_on_tensor(space, final_values, rules, label, progress, second) -> TurnSolution:
    """Free holds on distinct dice: the in-place engine of :mod:`.tensor`, lexicographic in
    both keys with the kit's one order of holds (the same policy, values and hold values as the
    per-type solver). Hold values (``hold_num``, ``hold_num2``) are computed on demand
    (:class:`~phase10math.turn.tensor.LazyHoldValues`); without ``second`` the second-key
    arrays are empty."""
    R = rules.rolls
    den, top = _tensor_utility(final_values, space, R, "utility's")
    den2, top2 = (
        (1, None) if second is None else _tensor_utility(second, space, R, "second utility's")
    )
    roll_num, roll_arg, turn, roll_num2, turn2 = solve_tensor(space, top, R, progress, second=top2)
    hold_lazy = {r: LazyHoldValues(space, roll_num[r - 1]) for r in range(1, R)}
    hold_lazy2 = {r: LazyHoldValues(space, roll_num2[r - 1]) for r in range(1, R) if roll_num2}
    return TurnSolution(
        space=space,
        rules=rules,
        label=label,
        utility_den=den,
        hold_num=hold_lazy,
        roll_num=roll_num,
        turn_num=turn,
        roll_arg=roll_arg,
        utility_den2=den2,
        hold_num2=hold_lazy2,
        roll_num2=roll_num2,
        turn_num2=turn2,
    )


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
    sticky = rules.holds == "sticky"
    check_size(space, sticky, rules.rolls, second is not None)
    if _uses_tensor(space, sticky):
        return _solve_on_tensor(space, final_values, rules, label, progress, second)
    R = rules.rolls
    scale = 6 ** (space.n_dice * (R - 1))
    den, nums, umax = _numerators(final_values)
    if second is None:
        den2, nums2, umax2 = 1, np.zeros(len(nums), dtype=np.int64), 0
    else:
        den2, nums2, umax2 = _numerators(second)
    tops = [
        np.array(v, dtype=np.int64 if fits_int64(m, scale) else object)
        for v, m in ((nums, umax), (nums2, umax2))
    ]
    hold_num: list[dict[int, np.ndarray]] = [{}, {}]
    roll_num: list[dict[int, np.ndarray]] = [{0: tops[0]}, {0: tops[1]}]
    roll_arg: dict[int, np.ndarray] = {}
    rank_prev = None
    for r in range(1, R):
        if progress:
            progress(f"rolls left {r}")
        if sticky and r >= 2:
            Ts = sticky_layer(space, rank_prev, [hold_num[j][r - 1] for j in (0, 1)])
        else:
            Ts = [expect_rerolls(space, roll_num[j][r - 1]) for j in (0, 1)]
        for j in (0, 1):
            hold_num[j][r] = normalise(space, Ts[j])
        rank_prev = hold_ranks(space, [hold_num[0][r], hold_num[1][r]])
        _, arg = subset_max(space, rank_prev, space.full_ids)
        roll_arg[r] = arg
        for j in (0, 1):
            roll_num[j][r] = hold_num[j][r][arg]
    turn = [first_roll_total(space, roll_num[j][R - 1]) for j in (0, 1)]
    return TurnSolution(
        space=space,
        rules=rules,
        label=label,
        utility_den=den,
        hold_num=hold_num[0],
        roll_num=roll_num[0],
        turn_num=turn[0],
        roll_arg=roll_arg,
        utility_den2=den2,
        hold_num2=hold_num[1],
        roll_num2=roll_num[1],
        turn_num2=turn[1],
    )


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
    check_size(space, rules.holds == "sticky", rules.rolls)
    best = final_scores(phase, space, rules)
    # on distinct dice the utilities stay small (int16) while the tensor engine runs
    small = space.distinct and best.dtype.itemsize <= 2
    first, second = lexicographic_utilities(
        best, objective, worst_second, np.int16 if small else np.int64
    )
    if small:
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
    check_size(space, rules.holds == "sticky", rules.rolls, second is not None)
    faces = [
        [projection.representative(k) for _, k in space.faces_of(int(gid))]
        for gid in space.full_ids
    ]
    vals = [_utility_value(utility, f) for f in faces]
    vals2 = None if second is None else [_utility_value(second, f) for f in faces]
    sol = solve_utility(space, vals, rules, label="custom utility", second=vals2)
    return replace(sol, layout=layout if isinstance(layout, Layout) else None)
