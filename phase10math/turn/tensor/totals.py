"""Exact totals of roll values over the first roll, and the roll weights of distinct dice."""

from __future__ import annotations

import numpy as np

from phase10math.turn.statespace import StateSpace


def unit_weights(space: StateSpace) -> bool:
    """Every face of every die is one face: each roll state is one of the ``6**n`` rolls."""
    return all(w == 1 for t in space.types for w in t.weights)


def tensor_weights(space: StateSpace) -> np.ndarray | None:
    """:attr:`StateSpace.roll_weights` of a distinct-dice space, ``None`` when all are 1 (not
    built: that would be one int64 per roll)."""
    return None if unit_weights(space) else space.roll_weights


def exact_total(values: np.ndarray, weights: np.ndarray | None = None) -> int:
    """Exact sum of integer ``values`` (times int weights), without overflow: the high and
    low 31 bits of each value summed apart, in int64 chunks (each chunk's sums fit)."""
    if weights is not None and not bool((weights == 1).all()):
        return int(np.dot(values.astype(object), weights.astype(object)))
    total = 0
    step = 1 << 22
    for lo in range(0, len(values), step):
        v = values[lo : lo + step]
        if v.dtype != np.int64:
            v = v.astype(np.int64)
        total += (int(np.right_shift(v, 31).sum()) << 31) + int(np.bitwise_and(v, 2**31 - 1).sum())
    return total


def float_total(values: np.ndarray, weights: np.ndarray | None = None) -> float:
    """Float sum of ``values`` (times weights)."""
    return float(values.sum()) if weights is None else float(values @ weights)
