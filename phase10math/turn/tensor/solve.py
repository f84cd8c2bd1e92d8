"""The stages of the exact (one or two keys), float and fixed-policy solves, and exact totals
(the loop over the rolls left is :func:`phase10math.turn.engine.backward_induction`)."""

from __future__ import annotations

import math

import numpy as np

from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.codes import holds_from_codes
from phase10math.turn.tensor.memory import buffer, code_dtype, tensor_shape
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


def _work(space: StateSpace, dtype=np.int64) -> tuple[np.ndarray, np.ndarray, type]:
    """The hold tensor (``dtype`` view of the int64 buffer), its arg-max codes and the dtype
    of hold ids of a stage."""
    shape = tensor_shape(space)
    S = math.prod(shape)
    T = buffer("T", S, np.int64).view(dtype).reshape(shape)
    A = buffer("A", S, code_dtype(len(shape))).reshape(shape)
    return T, A, np.int32 if S < 2**31 else np.int64


def optimal_stage(
    space: StateSpace, values: list[np.ndarray]
) -> tuple[list[np.ndarray], np.ndarray]:
    """One stage of the exact solve: from the roll values of the stage before (one or two
    int64 keys, ``full_ids`` order) the roll values of this stage and the best hold of every
    roll state (ids), holds ordered as in :func:`subset_max`.

    With two keys, a stage whose keys fit in one int64 together (:func:`pack_keys`) runs on one
    tensor; any other stage runs die 0's slots one at a time (:func:`two_key_stage`), in the
    memory of that same tensor."""
    T, A, idt = _work(space)
    n = T.ndim
    if len(values) == 1:
        roll, codes = one_key_stage(space, values[0], T, A)
        out = [roll]
    elif (packed := pack_keys(values[0], values[1], n)) is not None:
        # both keys in one int64: one tensor, one comparison
        both, base, low = packed
        del packed
        both, codes = one_key_stage(space, both, T, A)
        out = list(unpack_keys(both, base, low, n))
    else:
        *out, codes = two_key_stage(space, values[0], values[1], T.reshape(-1), A.reshape(-1))
    return out, holds_from_codes(space, codes, idt)


def float_stage(space: StateSpace, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One stage of the float64 solve (the passes of :func:`optimal_stage` in floating point,
    on the same buffers viewed as float64): roll values and best holds. Every value is a sum
    of products of the utilities with nonnegative weights, each path of it about ``12 n``
    roundings, so for nonnegative utilities its relative error is below ``12 n rolls`` units
    in the last place; the caller evaluates the final policy exactly."""
    T, A, idt = _work(space, np.float64)
    vals, codes = one_key_stage(space, np.ascontiguousarray(values, dtype=np.float64), T, A)
    return vals, holds_from_codes(space, codes, idt)


def policy_stage(space: StateSpace, values: np.ndarray, holds: np.ndarray, dtype) -> np.ndarray:
    """One stage of a fixed policy: the expectation on the hold tensor (int64 numerators, or
    float64 expectations), read at the policy's holds."""
    T = _work(space, dtype)[0]
    expect_into(space, np.asarray(values, dtype=dtype), T)
    return T.reshape(-1)[holds]


def float_mean(space: StateSpace, values: np.ndarray) -> float:
    """Mean over the first roll of float values on the roll states."""
    weights = tensor_weights(space)
    total = float(values.sum()) if weights is None else float(values @ weights)
    return total / 6**space.n_dice
