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

from phase10math.dice import Die, Face, Layout
from phase10math.errors import InvalidLayoutError, InvalidRulesError, StateSpaceTooLargeError
from phase10math.layouts import DEFAULT_LAYOUT
from phase10math.meld import best_scores
from phase10math.phases import Phase
from phase10math.phases import phase as as_phase
from phase10math.projection import FULL, Projection, projection_for
from phase10math.rules import DEFAULT_RULES, Rules
from phase10math.statespace import StateSpace
from phase10math.sticky import MAX_STICKY_PAIRS, _sticky_layer, _sticky_pairs

OBJECTIVES = ("complete", "score")
INT64_LIMIT = 2**62
MAX_STATES = 60_000_000  # holds; beyond this the arrays do not fit in 24 GiB with margin


# --------------------------------------------------------------------------- utilities


def _evaluate_on_unique(space: StateSpace, ids: np.ndarray, fn) -> np.ndarray:
    """``fn`` on the meld profiles of states ``ids``, evaluated once per distinct profile."""
    prof = space.profiles(ids).reshape(len(ids), -1)
    cols = np.flatnonzero(prof.any(axis=0))
    # pack the used cells (each count <= 10 fits in 4 bits) into int64 keys
    packed = np.zeros((len(ids), (len(cols) + 15) // 16), dtype=np.int64)
    for j, c in enumerate(cols):
        packed[:, j // 16] |= prof[:, c].astype(np.int64) << (4 * (j % 16))
    if packed.shape[1] == 1:
        _, first, inverse = np.unique(packed[:, 0], return_index=True, return_inverse=True)
    else:
        # distinct hashes prove distinct profiles; only on a clash is the exact grouping run
        mult = np.array(
            [0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9][: packed.shape[1]],
            dtype=np.uint64,
        )
        with np.errstate(over="ignore"):
            h = (packed.astype(np.uint64) * mult).sum(axis=1)
        hs = np.sort(h)
        if len(hs) < 2 or bool((hs[1:] != hs[:-1]).all()):
            return np.asarray(fn(prof.reshape(-1, 11, 4)))
        view = np.ascontiguousarray(packed).view([("", np.int64)] * packed.shape[1]).ravel()
        _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
    vals = np.asarray(fn(prof[first].reshape(-1, 11, 4)))
    return vals[inverse.ravel()]


_FINALS: dict[tuple, np.ndarray] = {}


def final_scores(ph: Phase, space: StateSpace, rules: Rules, layout_key: str) -> np.ndarray:
    """Best score (-1 = not made) of every roll state of ``space``; memoised so that both
    objectives and policy evaluations share one meld pass."""
    key = (ph.key(), space.projection.name, layout_key, rules.sets_may_share_number)
    if key not in _FINALS:
        if len(_FINALS) > 8:
            _FINALS.clear()
        _FINALS[key] = _evaluate_on_unique(
            space, space.full_ids, lambda prof: best_scores(ph, prof, rules)
        )
    return _FINALS[key]


def utility_from_scores(best: np.ndarray, objective: str) -> np.ndarray:
    """1/0 completion or the score (0 when not made) from best scores."""
    if objective not in OBJECTIVES:
        raise InvalidRulesError(f"objective {objective!r}; allowed: {', '.join(OBJECTIVES)}")
    return (best >= 0).astype(np.int64) if objective == "complete" else np.maximum(best, 0)


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


# --------------------------------------------------------------------------- kernels


def _axis(arr: np.ndarray, t: int, i) -> tuple:
    """Index selecting sub-multiset(s) ``i`` of type ``t`` in an array shaped per type."""
    return (slice(None),) * t + (i,)


def _expect(space: StateSpace, top: np.ndarray) -> np.ndarray:
    """T(K) = expectation of ``top`` over rolling the dice missing from K, as an integer
    numerator scaled by 6**(missing dice); T(full) = top.

    The dice of different types are independent, so the expectation is a product of one
    operator per type, applied along that type's axis of the state array: within a type,
    T(i) = sum over faces f of w_f T(i + f), from the fullest sub-multisets down."""
    shape = [len(s) for s in space.sub]
    T = np.zeros(space.n_states, dtype=top.dtype)
    T[space.full_ids] = top
    T = T.reshape(shape)
    for t, typ in enumerate(space.types):
        sizes = space.sub[t].sum(axis=1)
        add = space.add_tables[t]
        for i in np.argsort(-sizes, kind="stable"):
            if sizes[i] == typ.count:
                continue
            acc = None
            for f, wt in enumerate(typ.weights):
                term = T[_axis(T, t, int(add[i, f]))]
                acc = wt * term if acc is None else acc + wt * term
            T[_axis(T, t, int(i))] = acc
    return T.reshape(-1)


def _normalise(space: StateSpace, T: np.ndarray) -> np.ndarray:
    """N(K) = T(K) * 6**|K|: every hold's value over one common denominator."""
    pow6 = np.array(
        [6**k for k in range(space.n_dice + 1)], dtype=object if T.dtype == object else np.int64
    )
    return T * pow6[space.size]


def _subset_max(
    space: StateSpace, N: np.ndarray, ids: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """M(K) = max over holds J within K of N(J), and the arg-max J.

    Sub-multisets of K are reached by removing dice type by type, so the maximum is a
    product of one running maximum per type along that type's axis (sub-multisets in order
    of size). A smaller hold replaces the current best only when strictly better, so ties go
    to the larger hold."""
    # a trailing axis of length 1 keeps every slice an array, also with a single die type
    shape = [len(s) for s in space.sub] + [1]
    M = N.reshape(shape).copy()
    arg = np.arange(space.n_states, dtype=np.int64).reshape(shape)
    for t, typ in enumerate(space.types):
        sizes = space.sub[t].sum(axis=1)
        rem = space.remove_tables[t]
        for i in np.argsort(sizes, kind="stable"):
            dst = _axis(M, t, int(i))
            for f in range(len(typ.faces)):
                j = int(rem[i, f])
                if j < 0:
                    continue
                src = _axis(M, t, j)
                better = M[src] > M[dst]
                if better.any():
                    np.copyto(M[dst], M[src], where=better)
                    np.copyto(arg[dst], arg[src], where=better)
    M, arg = M.reshape(-1), arg.reshape(-1)
    return (M, arg) if ids is None else (M[ids], arg[ids])


def _check_size(space: StateSpace, sticky: bool) -> None:
    n = space.n_states
    if sticky:
        n = _sticky_pairs(space)
    if n > (MAX_STICKY_PAIRS if sticky else MAX_STATES) or space.n_states > MAX_STATES:
        # counted from the die types alone: nothing of the size of the space is allocated
        kinds = len(space.types)
        raise StateSpaceTooLargeError(
            f"this turn has {n:,} {'(held, rolled) pairs' if sticky else 'holds'} under this "
            f"layout ({kinds} different kinds of dice as this phase sees them); the limit on "
            f"this machine is {MAX_STICKY_PAIRS if sticky else MAX_STATES:,}. "
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
    _check_size(space, sticky)
    if isinstance(final_values, np.ndarray) and final_values.dtype.kind in "iu":
        den, nums = 1, final_values.astype(np.int64)
        umax = int(np.abs(nums).max()) if len(nums) else 0
    else:
        fr = [Fraction(v) for v in final_values]
        den = math.lcm(*[f.denominator for f in fr]) if fr else 1
        nums = [int(f * den) for f in fr]
        umax = max((abs(v) for v in nums), default=0)
    R = rules.rolls
    fits = umax * 6 ** (space.n_dice * (R - 1)) * 6 < INT64_LIMIT
    dtype = np.int64 if fits else object
    top = np.array(nums, dtype=dtype)
    hold_num: dict[int, np.ndarray] = {}
    roll_num: dict[int, np.ndarray] = {0: top}
    roll_arg: dict[int, np.ndarray] = {}
    for r in range(1, R):
        if progress:
            progress(f"rolls left {r}")
        if sticky and r >= 2:
            N_prev = hold_num[r - 1]
            T = _sticky_layer(space, N_prev, dtype)
        else:
            T = _expect(space, roll_num[r - 1])
        N = _normalise(space, T)
        hold_num[r] = N
        roll_num[r], roll_arg[r] = _subset_max(space, N, space.full_ids)
    weights = space.roll_weights.astype(object)
    last = roll_num[R - 1]
    turn = int(np.dot(last.astype(object), weights))
    return TurnSolution(space, rules, label, den, hold_num, roll_num, turn, roll_arg)


def solve_turn(
    ph: Phase | int | str,
    objective: str = "complete",
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    projection: Projection | None = None,
    progress: Callable[[str], None] | None = None,
) -> TurnSolution:
    """The optimal turn for a phase: objective 'complete' (probability of making the phase)
    or 'score' (expected score, 0 when the phase is not made)."""
    from phase10math.cliargs import check_layout, check_rules

    if isinstance(layout, (list, tuple)):  # ten dice, as solve_custom accepts them
        layout = Layout(tuple(layout))
    check_layout(layout)
    check_rules(rules)
    ph = as_phase(ph)
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise InvalidRulesError(f"objective {objective!r}; allowed: {', '.join(OBJECTIVES)}")
    proj = projection or projection_for(ph, objective)
    space = StateSpace.build(layout, proj)
    _check_size(space, rules.holds == "sticky")
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
    from phase10math.cliargs import check_rules

    check_rules(rules)
    if not callable(utility):
        raise InvalidRulesError(f"utility: expected a function of the final faces; got {utility!r}")
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
    _check_size(space, rules.holds == "sticky")
    vals = []
    for gid in space.full_ids:
        faces = [projection.representative(k) for _, k in space.faces_of(int(gid))]
        u = utility(faces)
        if isinstance(u, bool) or not isinstance(u, (int, Fraction)):
            raise InvalidRulesError(
                f"the utility returned {u!r} for {' '.join(map(str, faces))}; it must return "
                "an int or a Fraction"
            )
        vals.append(Fraction(u))
    return solve_utility(space, vals, rules, label="custom utility")
