"""The exact optimal turn: dynamic programming over holds.

After a roll with ``r`` rerolls left, the player keeps a hold ``K`` (a sub-multiset of the ten
dice) and rerolls the rest. With ``U`` the utility of the final ten dice:

- ``V_0(S) = U(S)`` for a final roll ``S``;
- ``W_r(K) = E[V_{r-1}(K + roll of the other dice)]`` - the value of holding ``K``;
- ``V_r(S) = max over K within S of W_r(K)`` (free holds).

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
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from phase10math.dice.faces import Die, Face, Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import Phase
from phase10math.dice.phases import phase as as_phase
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules
from phase10math.errors import StateSpaceTooLargeError
from phase10math.turn.kernels import (
    expect_rerolls,
    final_scores,
    first_roll_total,
    fits_int64,
    normalise,
    subset_max,
    utility_from_scores,
)
from phase10math.turn.projection import FULL, Projection, projection_for
from phase10math.turn.statespace import StateSpace
from phase10math.turn.sticky import MAX_STICKY_PAIRS, sticky_layer, sticky_pairs
from phase10math.turn.tensor import (
    LazyHoldValues,
    check_tensor_fits,
    is_tensor_space,
    solve_tensor,
)

MAX_STATES = 60_000_000  # holds; beyond this the arrays do not fit in 24 GiB with margin


# --------------------------------------------------------------------------- the solution


@dataclass
class TurnSolution:
    """Values of every hold with every number of rolls left, for one phase and objective.

    ``hold_num[r][gid] / denominator(r)`` is the exact value of holding state ``gid`` when
    ``r`` rolls remain after the hold (r = 1 .. rolls-1); ``roll_num[r]`` likewise the value
    of a roll state when ``r`` rerolls remain after it (r = 0 .. rolls-1), over full-state order.
    """

    space: StateSpace
    rules: Rules
    label: str
    utility_den: int
    hold_num: dict[int, np.ndarray] = field(repr=False)
    roll_num: dict[int, np.ndarray] = field(repr=False)
    turn_num: int = 0
    roll_arg: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def rolls(self) -> int:
        return self.rules.rolls

    def denominator(self, r: int) -> int:
        return self.utility_den * 6 ** (self.space.n_dice * r)

    def value(self) -> Fraction:
        """The exact value of a turn before the first roll."""
        return Fraction(self.turn_num, self.denominator(self.rolls))

    def best_hold_id(self, gid: int, rolls_left: int) -> int:
        """The optimal hold (state id) for roll state ``gid`` with ``rolls_left`` >= 1 rerolls
        (free holds; ties go to the hold found first, which favours keeping more dice)."""
        pos = int(np.searchsorted(self.space.full_ids, gid))
        return int(self.roll_arg[rolls_left][pos])

    def hold_value(self, gid: int, rolls_left: int) -> Fraction:
        """Exact value of holding ``gid`` when ``rolls_left`` rerolls remain (rolls_left >= 1)."""
        return Fraction(int(self.hold_num[rolls_left][gid]), self.denominator(rolls_left))

    def roll_value(self, gid: int, rolls_left: int) -> Fraction:
        """Exact value of facing roll state ``gid`` with ``rolls_left`` rerolls still allowed."""
        pos = int(np.searchsorted(self.space.full_ids, gid))
        return Fraction(int(self.roll_num[rolls_left][pos]), self.denominator(rolls_left))


def _uses_tensor(space: StateSpace, sticky: bool) -> bool:
    """Free holds on distinct dice run on the in-place tensor engine (:mod:`.tensor`)."""
    return not sticky and is_tensor_space(space)


def check_size(space: StateSpace, sticky: bool, rolls: int = 3) -> None:
    """Refuse (StateSpaceTooLargeError) a turn whose holds would not fit in memory."""
    if _uses_tensor(space, sticky):
        check_tensor_fits(space, rolls)
        return
    n = space.n_states
    if sticky:
        n = sticky_pairs(space)
    if n > (MAX_STICKY_PAIRS if sticky else MAX_STATES) or space.n_states > MAX_STATES:
        raise StateSpaceTooLargeError(
            f"this turn has {n:,} {'(held, rolled) pairs' if sticky else 'holds'} under this "
            f"layout ({space.describe()[:200]}); the limit on this machine is "
            f"{MAX_STICKY_PAIRS if sticky else MAX_STATES:,}. "
            "Use a layout with more identical dice or the other hold rule."
        )


# --------------------------------------------------------------------------- driver


def solve_utility(
    space: StateSpace,
    final_values: Sequence[int | Fraction] | np.ndarray,
    rules: Rules = DEFAULT_RULES,
    label: str = "utility",
    progress: Callable[[str], None] | None = None,
) -> TurnSolution:
    """Solve a turn for any utility given on the roll states of ``space`` (in ``full_ids``
    order): ints or Fractions. Values are exact."""
    sticky = rules.holds == "sticky"
    check_size(space, sticky, rules.rolls)
    if isinstance(final_values, np.ndarray) and final_values.dtype.kind in "iu":
        den, nums = 1, final_values.astype(np.int64, copy=False)
        umax = max(int(nums.max()), -int(nums.min())) if len(nums) else 0
    else:
        fr = [Fraction(v) for v in final_values]
        den = math.lcm(*[f.denominator for f in fr]) if fr else 1
        nums = [int(f * den) for f in fr]
        umax = max((abs(v) for v in nums), default=0)
    R = rules.rolls
    fits = fits_int64(umax, 6 ** (space.n_dice * (R - 1)))
    dtype = np.int64 if fits else object
    if _uses_tensor(space, sticky):
        if not fits:
            raise StateSpaceTooLargeError(
                f"the utility's numerators (up to {umax:,}) times 6**{space.n_dice * R} do not "
                "fit in 64-bit integers; the distinct-dice engine needs them to"
            )
        roll_num, roll_arg, turn = solve_tensor(space, np.asarray(nums, np.int64), R, progress)
        hold_lazy = {r: LazyHoldValues(space, roll_num[r - 1]) for r in range(1, R)}
        return TurnSolution(space, rules, label, den, hold_lazy, roll_num, turn, roll_arg)
    top = np.array(nums, dtype=dtype)
    hold_num: dict[int, np.ndarray] = {}
    roll_num: dict[int, np.ndarray] = {0: top}
    roll_arg: dict[int, np.ndarray] = {}
    for r in range(1, R):
        if progress:
            progress(f"rolls left {r}")
        if sticky and r >= 2:
            N_prev = hold_num[r - 1]
            T = sticky_layer(space, N_prev, dtype)
        else:
            T = expect_rerolls(space, roll_num[r - 1])
        N = normalise(space, T)
        hold_num[r] = N
        roll_num[r], roll_arg[r] = subset_max(space, N, space.full_ids)
    turn = first_roll_total(space, roll_num[R - 1])
    return TurnSolution(space, rules, label, den, hold_num, roll_num, turn, roll_arg)


def solve_turn(
    ph: Phase | int | str,
    objective: Objective | str = Objective.COMPLETE,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    projection: Projection | None = None,
    progress: Callable[[str], None] | None = None,
) -> TurnSolution:
    """The optimal turn for a phase: objective 'complete' (probability of making the phase)
    or 'score' (expected score, 0 when the phase is not made)."""
    ph = as_phase(ph)
    objective = Objective.parse(objective)
    proj = projection or projection_for(ph, objective)
    space = StateSpace.build(layout, proj)
    check_size(space, rules.holds == "sticky", rules.rolls)
    finals = utility_from_scores(final_scores(ph, space, rules, layout.fingerprint()), objective)
    sol = solve_utility(space, finals, rules, label=f"{ph} {objective}", progress=progress)
    sol.meta.update(phase=ph, objective=objective, layout=layout)
    return sol


def solve_custom(
    utility: Callable[[Sequence[Face]], int | Fraction],
    rules: Rules = DEFAULT_RULES,
    layout: Layout | Sequence[Die] = DEFAULT_LAYOUT,
    projection: Projection = FULL,
) -> TurnSolution:
    """The optimal turn for any utility of the final dice (a callable on faces); ``layout``
    may also be any list of dice, e.g. a reduced game."""
    space = StateSpace.build(layout, projection)
    check_size(space, rules.holds == "sticky", rules.rolls)
    vals = []
    for gid in space.full_ids:
        faces = [projection.representative(k) for _, k in space.faces_of(int(gid))]
        vals.append(Fraction(utility(faces)))
    return solve_utility(space, vals, rules, label="custom utility")
