"""The exact (one or two keys), float and fixed-policy solves of a turn, and exact totals."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.codes import HoldIds, holds_from_codes
from phase10math.turn.tensor.memory import (
    check_tensor_fits,
    int_dtype,
)
from phase10math.turn.tensor.stages import split_policy_values, split_stage
from phase10math.turn.tensor.totals import exact_total, float_total, tensor_weights


def solve_tensor(
    space: StateSpace,
    top: np.ndarray,
    rolls: int,
    progress: Callable[[str], None] | None = None,
    second: np.ndarray | None = None,
):
    """Roll values ``roll_num[r]`` (r = 0..rolls-2, each in the smallest integer dtype its
    bounds allow: the last stage's values are needed only for the turn total, and any of them
    is the value of its best hold), best holds ``roll_arg[r]`` (r >= 1, :class:`BestHolds`, found
    when first asked for) and the
    turn numerator, for int64 utilities ``top`` on the roll states; with ``second`` (int64
    utilities of a second key) also ``roll_num2`` and ``turn2`` of the lexicographic solve
    (returned as ``roll_num, roll_arg, turn, roll_num2, turn2``; without it the last two are
    ``{}`` and 0). Holds are ordered as in :func:`subset_max`.

    Every stage runs die 0's faces one at a time on the other dice's tensors
    (:func:`split_stage`); two keys that fit in one int64 together (:func:`pack_keys`) run on
    one tensor."""
    check_tensor_fits(space, rolls, second is not None)
    n = len(space.types)
    # the utilities in their own (small) integer dtype: a stage reads them as int64
    roll_num = {0: _integers(top)}
    roll_num2 = {} if second is None else {0: _integers(second)}
    weights = tensor_weights(space)
    totals = [exact_total(roll_num[0], weights)]
    if second is not None:
        totals.append(exact_total(roll_num2[0], weights))
    for r in range(1, rolls):
        if progress:
            progress(f"rolls left {r}")
        keys = [roll_num[r - 1]] + ([] if second is None else [roll_num2[r - 1]])
        # a stage's values lie within 6**n times the bounds of the stage before
        last = r == rolls - 1
        dtypes = (
            None if last else [int_dtype(6**n * int(k.min()), 6**n * int(k.max())) for k in keys]
        )
        outs, sums, _ = split_stage(space, keys, dtypes, codes=False, totals=last)
        totals = sums or totals
        if outs is not None:
            roll_num[r] = outs[0]
            if second is not None:
                roll_num2[r] = outs[1]
        del keys, outs
    turn = totals[0]
    turn2 = 0 if second is None else totals[1]
    return roll_num, BestHolds(space, rolls, roll_num, roll_num2), turn, roll_num2, turn2


class BestHolds(Mapping):
    """``roll_arg`` of a tensor solve: ``self[r]`` (:class:`HoldIds`) is found when first
    asked for, from the roll values kept for ``r - 1`` rolls left (the stage again, with the
    codes of its best holds). The values, the totals and the advice need no best holds, and a
    stage is faster without them."""

    def __init__(self, space: StateSpace, rolls: int, roll_num: dict, roll_num2: dict):
        self.space, self.rolls, self.roll_num, self.roll_num2 = space, rolls, roll_num, roll_num2
        self.found: dict[int, HoldIds] = {}

    def __getitem__(self, r: int) -> HoldIds:
        if r not in self.found:
            if not 1 <= r < self.rolls:
                raise KeyError(r)
            keys = [self.roll_num[r - 1]] + ([self.roll_num2[r - 1]] if self.roll_num2 else [])
            codes = split_stage(self.space, keys, None, totals=False)[2]
            self.found[r] = HoldIds(self.space, codes)
        return self.found[r]

    def __iter__(self):
        return iter(range(1, self.rolls))

    def __len__(self) -> int:
        return self.rolls - 1


def _integers(a) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a if a.dtype.kind in "iu" and a.dtype.itemsize <= 8 else a.astype(np.int64)


def evaluate_policy(
    space: StateSpace, finals: np.ndarray, holds: dict[int, np.ndarray], rolls: int
) -> int:
    """Numerator (over ``6**(n rolls)``) of the value of a fixed free-hold policy."""
    return exact_total(
        _policy_roll_values(space, finals, holds, rolls, np.int64), tensor_weights(space)
    )


def _policy_roll_values(
    space: StateSpace, finals: np.ndarray, holds: dict[int, np.ndarray], rolls: int, dtype
) -> np.ndarray:
    """Values of the first-roll states under a fixed policy: per stage the expectation of the
    values before at the policy's holds (int64 numerators, or float64 expectations), die 0's
    face by face (:func:`split_policy_values`)."""
    check_tensor_fits(space, rolls)
    val = np.asarray(finals, dtype=dtype)
    for r in range(1, rolls):
        val = split_policy_values(space, val, holds[r], dtype)
    return val


def solve_tensor_float(
    space: StateSpace, util: np.ndarray, rolls: int
) -> tuple[float, dict[int, np.ndarray]]:
    """Optimal turn value and best holds (hold ids per roll state, ``roll_arg`` order) for a
    float64 utility on the roll states: the stages of :func:`solve_tensor` in floating point
    (:func:`split_stage` on float64 means). For iterations that need many turn solves
    (optimal solitaire): every value is a sum of products of the utilities with nonnegative
    weights, each path of it about ``12 n`` roundings, so for nonnegative utilities its
    relative error is below ``12 n rolls`` units in the last place; the caller evaluates the
    final policy exactly (:func:`evaluate_policy`)."""
    check_tensor_fits(space, rolls)
    vals = np.ascontiguousarray(util, dtype=np.float64)
    arg: dict[int, np.ndarray] = {}
    idt = np.int32 if space.n_states < 2**31 else np.int64
    total = float_total(vals, tensor_weights(space))
    for r in range(1, rolls):
        outs, totals, codes = split_stage(space, [vals], [np.float64])
        vals, total = outs[0], totals[0]
        arg[r] = holds_from_codes(space, codes, idt)
    return total / 6**space.n_dice, arg


def evaluate_policy_float(
    space: StateSpace, finals: np.ndarray, holds: dict[int, np.ndarray], rolls: int
) -> float:
    """Float value of a fixed free-hold policy (see :func:`evaluate_policy`, the exact one)."""
    return _float_mean(space, _policy_roll_values(space, finals, holds, rolls, np.float64))


def _float_mean(space: StateSpace, values: np.ndarray) -> float:
    """Mean over the first roll of float values on the roll states."""
    weights = tensor_weights(space)
    total = float(values.sum()) if weights is None else float(values @ weights)
    return total / 6**space.n_dice
