"""A policy's outcome distribution: the first roll's mass pushed forward through the hold tensor.

The transpose of the expectation pass (:func:`~.passes.expect_into`): the mass of each roll
state moves to the hold its policy keeps (:func:`gather_holds`), then each hold's mass spreads
over the rolls of its dice not held, one axis at a time (:func:`spread_rolls`: the not-held
slot's mass goes to the face slots, ``w_f / 6`` each); after the last reroll the mass of the
roll states is summed by outcome (:func:`sum_by_outcome`).

Every quantity is a sum of nonnegative terms, so its float64 value is within a relative
``gamma(k)`` of the exact one where ``k`` bounds the roundings on any one term's path
(:func:`forward_roundings`). The long sums are cut in chunks of ``CHUNK`` terms, summed
apart and then added: at most ``CHUNK + number of chunks`` roundings, not one per term
(60 million on the recorded dice); a gather runs in one pass where no hold is kept by more
than ``GATHER_DEPTH`` rolls (bounded first by counting the hold ids modulo ``BUCKETS``; about
20,000 on phase 8 of the recorded dice).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.memory import face_shape, scratch, tensor_shape
from phase10math.turn.tensor.passes import face_slots
from phase10math.turn.tensor.slabs import in_slabs, in_threads, threads
from phase10math.turn.tensor.totals import unit_weights

#: the spread of :func:`spread_rolls` as one compiled loop per axis (False: numpy's array
#: operations slab by slab, the same floats: the reference of ``bench_compiled_passes.py``)
COMPILED_SPREAD = True
CHUNK = 1 << 16  # terms summed in one go before the chunks' sums are added
GATHER_DEPTH = 1 << 17  # the most rolls keeping one hold for a gather in one pass
BUCKETS = 1 << 22  # hold ids counted modulo this first: a bound without a tensor of counts


def chunk_roundings(n: int) -> int:
    """The most roundings on one term's path through a chunked sum of ``n`` terms."""
    return min(n, CHUNK) + -(-n // CHUNK)


def most_rolls_per_hold(holds: np.ndarray, size: int) -> int:
    """An upper bound on the number of rolls that keep any one hold (``holds``: hold ids below
    ``size``): the rolls counted by hold id modulo ``BUCKETS`` (a bucket's count is at least
    that of each of its holds; a few megabytes, not a count per hold), and only where that
    bound exceeds ``GATHER_DEPTH`` the exact count.

    >>> most_rolls_per_hold(np.array([3, 3, 7, 3 + BUCKETS]), BUCKETS + 8)
    3
    """
    if size <= BUCKETS:
        return int(np.bincount(holds, minlength=size).max(initial=0))
    counts = np.zeros(BUCKETS, dtype=np.int64)
    for lo in range(0, len(holds), BUCKETS):
        counts += np.bincount(holds[lo : lo + BUCKETS] & (BUCKETS - 1), minlength=BUCKETS)
    bound = int(counts.max(initial=0))
    if bound <= GATHER_DEPTH:
        return bound
    return int(np.bincount(holds, minlength=size).max(initial=0))


def gather_holds(space: StateSpace, holds: np.ndarray, mass: np.ndarray) -> np.ndarray:
    """The hold tensor (float64) with each roll state's ``mass`` moved to its hold ``holds``
    (hold ids, ``full_ids`` order). Each hold's mass is a sum of the masses of the rolls that
    keep it: one pass of ``np.bincount`` (sequential: as many roundings as terms) where no
    hold is kept by more than ``GATHER_DEPTH`` rolls (:func:`most_rolls_per_hold`), else chunk by
    chunk (each chunk's masses summed by hold, then added)."""
    size = math.prod(tensor_shape(space))
    if most_rolls_per_hold(holds, size) <= GATHER_DEPTH:
        return np.bincount(holds, weights=mass, minlength=size).reshape(tensor_shape(space))
    T = scratch("forward", tensor_shape(space), np.float64)
    flat = T.reshape(-1)
    flat.fill(0.0)
    for lo in range(0, len(mass), CHUNK):
        ids, inv = np.unique(holds[lo : lo + CHUNK], return_inverse=True)
        flat[ids] += np.bincount(inv, weights=mass[lo : lo + CHUNK], minlength=len(ids))
    return T


def spread_rolls(space: StateSpace, T: np.ndarray) -> np.ndarray:
    """In place: the mass of every hold spread over the rolls of its dice not held, axis by
    axis (the not-held slot's mass over 6, times ``w_f``, added to face slot ``f``); returns
    the roll states' masses (``full_ids`` order, a copy). The pass over axis ``j`` reads only
    the entries whose earlier axes show faces (the mass left in a not-held slot of an axis
    already spread is never read again), in :func:`threads` parts: one compiled loop over
    those entries (:func:`_spread_axis`; ``COMPILED_SPREAD``), or numpy's array operations
    slab by slab (the same operations in the same order: the same floats)."""
    n = T.ndim
    if COMPILED_SPREAD and T.flags.c_contiguous and T.dtype == np.float64 and n > 1:
        flat = T.reshape(-1)
        for j, typ in enumerate(space.types):
            _spread_compiled(flat, T.shape, j, np.asarray(typ.weights, dtype=np.float64))
        return np.ascontiguousarray(T[face_slots(n)]).reshape(-1)
    for j, typ in enumerate(space.types):
        weights = [float(w) for w in typ.weights]

        def step(i: int, V: np.ndarray, j: int = j, weights: list[float] = weights) -> None:
            def slot(s: int) -> np.ndarray:
                return V[(slice(None),) * j + (s,)]

            share = scratch(f"spread{i}", slot(0).shape, np.float64)
            np.divide(slot(0), 6.0, out=share)
            for f, wf in enumerate(weights):
                face = slot(f + 1)
                face += share if wf == 1.0 else share * wf

        if n == 1:
            step(0, T)
        else:
            in_slabs(step, T[face_slots(j)], axis=0 if j else n - 1)
    return np.ascontiguousarray(T[face_slots(n)]).reshape(-1)


def _spread_compiled(flat: np.ndarray, shape: tuple[int, ...], j: int, w: np.ndarray) -> None:
    """Axis ``j`` of :func:`spread_rolls` on the C-ordered tensor ``flat`` of ``shape``: the
    entries whose axes before ``j`` show faces (their offsets listed), each with the
    contiguous run of the axes after ``j``, shared out among :func:`threads` parts."""
    strides = [math.prod(shape[a + 1 :]) for a in range(len(shape))]
    bases = np.zeros(1, dtype=np.int64)
    for a in range(j):  # the face slots 1..f of each axis before j
        bases = (bases[:, None] + strides[a] * np.arange(1, shape[a], dtype=np.int64)).ravel()
    post = strides[j]
    k = threads()
    if len(bases) >= k:  # parts by entries before the axis, else by the run after it
        cuts = [(len(bases) * i // k, len(bases) * (i + 1) // k, 0, post) for i in range(k)]
    else:
        cuts = [(0, len(bases), post * i // k, post * (i + 1) // k) for i in range(k)]

    def part(i: int) -> None:
        lo, hi, plo, phi = cuts[i]
        _spread_axis(flat, bases[lo:hi], strides[j], plo, phi, w)

    in_threads(part, k)


@njit(cache=True, nogil=True)
def _spread_axis(flat, bases, stride, lo, hi, w) -> None:  # pragma: no cover - compiled
    """For each base offset and each position ``lo..hi`` of the run after the axis: the
    not-held slot's mass over 6, times ``w[f]``, added to face slot ``f + 1`` (the array
    operations of :func:`spread_rolls`, entry by entry)."""
    for b in bases:
        for p in range(b + lo, b + hi):
            share = flat[p] / 6.0
            for f in range(len(w)):
                if w[f] == 1.0:
                    flat[p + (f + 1) * stride] += share
                else:
                    flat[p + (f + 1) * stride] += share * w[f]


def sum_by_outcome(outcome: np.ndarray, mass: np.ndarray, n_outcomes: int) -> np.ndarray:
    """The mass of every outcome (``outcome[i]`` of roll state ``i``), summed in chunks."""
    out = np.zeros(n_outcomes)
    for lo in range(0, len(mass), CHUNK):
        out += np.bincount(outcome[lo : lo + CHUNK], mass[lo : lo + CHUNK], minlength=n_outcomes)
    return out


def first_roll_mass(space: StateSpace) -> np.ndarray:
    """Each roll state's probability on the first roll (``full_ids`` order)."""
    n = math.prod(face_shape(space))
    if unit_weights(space):
        return np.full(n, 1.0 / 6 ** len(space.types))
    return space.roll_weights.astype(np.float64) / float(6 ** len(space.types))


def mean_over_first_roll(space: StateSpace, values: np.ndarray) -> float:
    """The mean of ``values`` (roll states, ``full_ids`` order) over the first roll, summed in
    chunks: within a relative ``gamma(chunk_roundings(n) + 2)`` of the exact mean of the
    floats given (a product by the weight, the chunked sum, the division)."""
    w = None if unit_weights(space) else space.roll_weights
    total = 0.0
    for lo in range(0, len(values), CHUNK):
        v = values[lo : lo + CHUNK]
        total += float(v.sum() if w is None else v @ w[lo : lo + CHUNK])
    return total / float(6 ** len(space.types))


def push_forward(
    space: StateSpace,
    holds: dict[int, np.ndarray],
    outcome: np.ndarray,
    n_outcomes: int,
    rolls: int,
) -> np.ndarray:
    """Outcome distribution of the policy ``holds`` (``holds[r]``: the hold of every roll
    state with ``r`` rolls left, ``full_ids`` order): the first roll's mass through each
    hold and reroll, summed by outcome."""
    m = first_roll_mass(space)
    for r in range(rolls - 1, 0, -1):
        m = spread_rolls(space, gather_holds(space, np.asarray(holds[r]), m))
    return sum_by_outcome(np.asarray(outcome), m, n_outcomes)


def forward_roundings(space: StateSpace, rolls: int) -> int:
    """The most roundings on one term's path through :func:`push_forward`: the first roll's
    probability (1), per reroll the gather (a sum of at most ``GATHER_DEPTH`` terms, or
    chunked) and per die three (a product, a quotient and a sum), then the sum by outcome
    (chunked)."""
    n_rolls = math.prod(face_shape(space))
    per_die = 2 if unit_weights(space) else 3
    gather = max(min(n_rolls, GATHER_DEPTH), chunk_roundings(n_rolls))
    stage = gather + per_die * len(space.types)
    return 1 + (rolls - 1) * stage + chunk_roundings(n_rolls)
