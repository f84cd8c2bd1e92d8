"""The exact (one or two keys), float and fixed-policy solves of a turn, and exact totals."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.codes import holds_from_codes
from phase10math.turn.tensor.memory import buffer, check_tensor_fits, code_dtype, tensor_shape
from phase10math.turn.tensor.passes import expect_into
from phase10math.turn.tensor.stages import one_key_stage, pack_keys, two_key_stage, unpack_keys


def unit_weights(space: StateSpace) -> bool:
    """Every face of every die is one face: each roll state is one of the ``6**n`` rolls."""
    return all(w == 1 for t in space.types for w in t.weights)


def tensor_weights(space: StateSpace) -> np.ndarray | None:
    """:attr:`StateSpace.roll_weights` of a distinct-dice space, ``None`` when all are 1 (not
    built: that would be one int64 per roll)."""
    return None if unit_weights(space) else space.roll_weights


def exact_total(values: np.ndarray, weights: np.ndarray | None = None) -> int:
    """Exact sum of int64 ``values`` (times int weights), without overflow."""
    if weights is not None and not bool((weights == 1).all()):
        return int(np.dot(values.astype(object), weights.astype(object)))
    total = 0
    step = 1 << 22
    for lo in range(0, len(values), step):
        v = values[lo : lo + step].astype(np.int64)
        hi = v >> 31
        total += (int(hi.sum()) << 31) + int((v - (hi << 31)).sum())
    return total


def solve_tensor(
    space: StateSpace,
    top: np.ndarray,
    rolls: int,
    progress: Callable[[str], None] | None = None,
    second: np.ndarray | None = None,
):
    """Roll values ``roll_num[r]`` (r = 0..rolls-1), best holds ``roll_arg[r]`` (r >= 1) and the
    turn numerator, for int64 utilities ``top`` on the roll states; with ``second`` (int64
    utilities of a second key) also ``roll_num2`` and ``turn2`` of the lexicographic solve
    (returned as ``roll_num, roll_arg, turn, roll_num2, turn2``; without it the last two are
    ``{}`` and 0). Holds are ordered as in :func:`subset_max`.

    With two keys, a stage whose keys fit in one int64 together (:func:`pack_keys`) runs on one
    tensor; any other stage runs die 0's slots one at a time (:func:`two_key_stage`), in the
    memory of that same tensor."""
    check_tensor_fits(space, rolls, second is not None)
    shape = tensor_shape(space)
    S = math.prod(shape)
    T = buffer("T", S, np.int64).reshape(shape)
    # the utilities in their own (small) integer dtype: a stage reads them as int64
    roll_num = {0: _integers(top)}
    roll_num2 = {} if second is None else {0: _integers(second)}
    roll_arg = {}
    idt = np.int32 if S < 2**31 else np.int64
    n = len(shape)
    for r in range(1, rolls):
        if progress:
            progress(f"rolls left {r}")
        A = buffer("A", S, code_dtype(n)).reshape(shape)
        if second is None:
            roll_num[r], codes = one_key_stage(space, roll_num[r - 1], T, A)
        elif (packed := pack_keys(roll_num[r - 1], roll_num2[r - 1], n)) is not None:
            # both keys in one int64: one tensor, one comparison
            values, base, low = packed
            del packed
            both, codes = one_key_stage(space, values, T, A)
            del values
            roll_num[r], roll_num2[r] = unpack_keys(both, base, low, n)
        else:
            roll_num[r], roll_num2[r], codes = two_key_stage(
                space, roll_num[r - 1], roll_num2[r - 1], T.reshape(-1), A.reshape(-1)
            )
        roll_arg[r] = holds_from_codes(space, codes, idt)
        del codes
    weights = tensor_weights(space)
    turn = exact_total(roll_num[rolls - 1], weights)
    turn2 = 0 if second is None else exact_total(roll_num2[rolls - 1], weights)
    return roll_num, roll_arg, turn, roll_num2, turn2


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
    """Values of the first-roll states under a fixed policy: per stage the expectation on the
    hold tensor (int64 numerators, or float64 expectations), read at the policy's holds."""
    check_tensor_fits(space, rolls)
    shape = tensor_shape(space)
    T = buffer("T", math.prod(shape), np.int64).view(dtype).reshape(shape)
    val = np.asarray(finals, dtype=dtype)
    for r in range(1, rolls):
        expect_into(space, val, T)
        val = T.reshape(-1)[holds[r]]
    return val


def solve_tensor_float(
    space: StateSpace, util: np.ndarray, rolls: int
) -> tuple[float, dict[int, np.ndarray]]:
    """Optimal turn value and best holds (hold ids per roll state, ``roll_arg`` order) for a
    float64 utility on the roll states: the passes of :func:`solve_tensor` in floating point,
    on the same buffers (viewed as float64). For iterations that need many turn solves
    (optimal solitaire): every value is a sum of products of the utilities with nonnegative
    weights, each path of it about ``12 n`` roundings, so for nonnegative utilities its
    relative error is below ``12 n rolls`` units in the last place; the caller evaluates the
    final policy exactly (:func:`evaluate_policy`)."""
    check_tensor_fits(space, rolls)
    shape = tensor_shape(space)
    S = math.prod(shape)
    T = buffer("T", S, np.int64).view(np.float64).reshape(shape)
    vals = np.ascontiguousarray(util, dtype=np.float64)
    arg: dict[int, np.ndarray] = {}
    idt = np.int32 if S < 2**31 else np.int64
    for r in range(1, rolls):
        A = buffer("A", S, code_dtype(len(shape))).reshape(shape)
        vals, codes = one_key_stage(space, vals, T, A)
        arg[r] = holds_from_codes(space, codes, idt)
    return _float_mean(space, vals), arg


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
