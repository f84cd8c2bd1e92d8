"""The values of the holds that keep few dice, stored: a ranking of a roll's sub-holds by
lookup.

A hold of ten different dice keeps some dice ``S`` showing their faces and rerolls the
others; its value is the sum of the roll values below over the faces of the dice not kept (a
margin of the roll-value tensor onto ``S``), times ``6**|S|``. A hold that keeps many dice
sums few entries (``6**(n - |S|)``: at most 1,296 when it keeps six of ten); one that keeps
few sums many (all 60 million when it keeps none), which is what made a ranking of a roll's
``2**10`` sub-holds read every stored roll value. :func:`hold_margins` computes the margins
onto every set of at most :data:`MARGIN_HELD` dice once (2.26 million numbers for ten dice
of six faces, beside the 60 million roll values), stored with the solution and
memory-mapped; :func:`margin_hold_values` reads a hold that keeps at most that many dice
there and sums the roll values of one that keeps more: the values of any few holds (a
roll's sub-holds, one hold asked for) from a few hundred thousand entries, not the tensor.
The sums are exact integers, the same numbers as the restricted transform
(:class:`~phase10math.turn.tensor.holdvalues.LazyHoldValues`), which tests compare.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numba import njit

from phase10math.cache import read_entries
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.memory import face_shape, smallest_int
from phase10math.turn.tensor.slabs import MIN_SLAB, in_threads, threads

#: holds keeping at most this many dice are read from the stored margins
MARGIN_HELD = 5


@lru_cache(maxsize=32)
def margin_layout(fs: tuple[int, ...], most: int = MARGIN_HELD) -> tuple[np.ndarray, np.ndarray]:
    """Where each margin lies in the stored array: ``offset[mask]`` (bit ``d``: die ``d``
    kept; -1 for a mask of more than ``most`` dice) and ``stride[mask, d]`` (the stride of
    die ``d``'s face in that margin, C order over the kept dice in die order; 0 for a die
    not kept), for dice of ``fs`` faces each. The last entry of ``offset`` is the total
    length."""
    n = len(fs)
    offset = np.full(2**n + 1, -1, dtype=np.int64)
    stride = np.zeros((2**n, n), dtype=np.int64)
    at = 0
    for mask in range(2**n):
        kept = [d for d in range(n) if mask >> d & 1]
        if len(kept) > most:
            continue
        offset[mask] = at
        step = 1
        for d in reversed(kept):
            stride[mask, d] = step
            step *= fs[d]
        at += step
    offset[-1] = at
    return offset, stride


def hold_margins(space: StateSpace, below: np.ndarray, most: int | None = None) -> np.ndarray:
    """The margins of the integer roll values ``below`` (``full_ids`` order) onto every set
    of at most ``most`` dice, weighted by the faces' weights (the raw sums; a hold's value is
    its margin entry times ``6**|S|``), laid out as :func:`margin_layout` says, in the
    smallest integer dtype that holds them. Depth first over the dice (keep the die, or sum
    its faces), so at most one partial sum per die is alive: about 10**7 int64 entries.
    ``most``: :data:`MARGIN_HELD` when not given."""
    most = MARGIN_HELD if most is None else most
    fs = face_shape(space)
    n = len(fs)
    offset, _ = margin_layout(fs, most)
    out = np.empty(int(offset[-1]), dtype=np.int64)
    weights = [np.asarray(t.weights, dtype=np.int64) for t in space.types]

    def visit(d: int, a: np.ndarray, mask: int, kept: int) -> None:
        if d == n:
            out[offset[mask] : offset[mask] + a.size] = a.reshape(-1)
            return
        if kept < most:  # keep die d: its axis joins the kept ones as it is
            visit(d + 1, a, mask | 1 << d, kept + 1)
        # sum die d's faces: its axis is the first after the kept ones
        pre = math.prod(a.shape[:kept])
        v = a.reshape(pre, fs[d], -1)
        acc = np.empty((pre, v.shape[2]), dtype=np.int64)
        _summed(v, weights[d], acc)
        visit(d + 1, acc.reshape(a.shape[:kept] + a.shape[kept + 1 :]), mask, kept)

    visit(0, np.asarray(below).reshape(fs), 0, 0)
    return smallest_int(out)


def _summed(v: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:
    """:func:`_weighted_sum` shared among :func:`~.slabs.threads` threads along the longer
    end of ``v`` (``pre, faces, post``)."""
    k = threads() if out.size >= MIN_SLAB else 1
    long = 0 if v.shape[0] >= v.shape[2] else 2
    cut = [v.shape[long] * i // k for i in range(k + 1)]

    def part(i: int) -> None:
        s = slice(cut[i], cut[i + 1])
        if long == 0:
            _weighted_sum(v[s], w, out[s])
        else:
            _weighted_sum(v[:, :, s], w, out[:, s])

    in_threads(part, k)


@njit(cache=True, nogil=True)
def _weighted_sum(v: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """``out[p, q] = sum_f w[f] v[p, f, q]`` in int64 (compiled: one read of ``v``)."""
    for p in range(v.shape[0]):
        for q in range(v.shape[2]):
            out[p, q] = np.int64(v[p, 0, q]) * w[0]
        for f in range(1, v.shape[1]):
            for q in range(v.shape[2]):
                out[p, q] += np.int64(v[p, f, q]) * w[f]


def margin_hold_values(
    space: StateSpace, below: np.ndarray, margins: np.ndarray, gids: np.ndarray
) -> np.ndarray:
    """The exact hold values (int64, at ``6**n`` times the scale of ``below``, as
    :class:`~phase10math.turn.tensor.holdvalues.LazyHoldValues`) of the holds ``gids``: a
    hold keeping at most :data:`MARGIN_HELD` dice read from ``margins``, one keeping more
    summed from ``below`` over the faces of the dice it does not keep."""
    fs = face_shape(space)
    n = len(fs)
    g = np.asarray(gids, dtype=np.int64)
    slots = np.stack(
        [(g // int(st)) % (len(t.faces) + 1) for st, t in zip(space.strides, space.types)]
    )
    held = slots > 0
    mask = (held.astype(np.int64) << np.arange(n, dtype=np.int64)[:, None]).sum(axis=0)
    n_held = held.sum(axis=0)
    offset, stride = margin_layout(fs, _most(fs, len(margins)))
    vals = np.zeros(len(g), dtype=np.int64)
    few = offset[mask] >= 0
    faces = np.where(held, slots - 1, 0)
    at = offset[mask[few]] + (faces[:, few].T * stride[mask[few]]).sum(axis=1)
    vals[few] = read_entries(margins, at)
    many = np.flatnonzero(~few)
    if len(many):
        idx, owner, weight = _rerolled_entries(space, mask[many], faces[:, many])
        flat = below if np.ndim(below) == 1 else np.asarray(below).reshape(-1)
        got = read_entries(flat, idx).astype(np.int64) * weight
        np.add.at(vals, many[owner], got)
    return vals * 6 ** n_held.astype(np.int64)


def _rerolled_entries(
    space: StateSpace, masks: np.ndarray, faces: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For holds keeping the dice of ``masks`` (bit ``d``: die ``d`` kept) showing ``faces``
    (die by hold): the positions of the roll values they sum (every face of each die not
    kept), the hold each belongs to (its index) and the weight of each (the product of the
    faces' weights)."""
    fs = face_shape(space)
    roll_strides = np.cumprod((1,) + fs[:0:-1])[::-1].astype(np.int64)  # C order, faces
    base = (faces.T * roll_strides).sum(axis=1)  # the kept faces' part of each position
    weights = tuple(tuple(int(x) for x in t.weights) for t in space.types)
    idx, owner, weight = [], [], []
    for m in np.unique(masks).tolist():
        off, w = _rerolled(fs, weights, m)
        at = np.flatnonzero(masks == m)
        idx.append((base[at][:, None] + off[None, :]).reshape(-1))
        owner.append(np.repeat(at, len(off)))
        weight.append(np.tile(w, len(at)))
    return np.concatenate(idx), np.concatenate(owner), np.concatenate(weight)


@lru_cache(maxsize=4096)
def _rerolled(
    fs: tuple[int, ...], weights: tuple[tuple[int, ...], ...], mask: int
) -> tuple[np.ndarray, np.ndarray]:
    """The offsets (C order over the faces) of every face of the dice not in ``mask``, and
    the weight of each (the product of the faces' weights)."""
    n = len(fs)
    roll_strides = np.cumprod((1,) + fs[:0:-1])[::-1].astype(np.int64)
    free = [d for d in range(n) if not mask >> d & 1]
    grid = (
        np.indices([fs[d] for d in free]).reshape(len(free), -1)
        if free
        else np.zeros((0, 1), dtype=np.int64)
    )
    off = (grid * roll_strides[free][:, None]).sum(axis=0)
    w = np.ones(grid.shape[1], dtype=np.int64)
    for j, d in enumerate(free):
        w *= np.asarray(weights[d], dtype=np.int64)[grid[j]]
    return off, w


@lru_cache(maxsize=32)
def _most(fs: tuple[int, ...], length: int) -> int:
    """The ``most`` a margins array of ``length`` entries was computed with."""
    for most in range(len(fs) + 1):
        if int(margin_layout(fs, most)[0][-1]) == length:
            return most
    raise ValueError("margins of another space")
