"""Sticky holds: dice once set aside stay set aside.

With ``r`` rolls still to come after setting aside ``A``, the value of ``A`` is

    ``W_r(A) = E over the roll B of the other dice of max over K within B of N_{r-1}(A + K)``

(``N`` the values of holds over a common denominator, see :mod:`phase10math.turn.solver`). The
maximum and the expectation run over *pairs* ``(A, B)`` of a set-aside hold and rolled dice.
Dice of different types are independent, so the pair space is a product over the types of
per-type pair spaces ``(a, b)`` with ``|a| + |b| <= count``, and the work is done by one
operator per type along that type's axis:

- *gather*: replace the hold axis ``a + b`` by the pair axis ``(a, b)``;
- *running maximum* over the sub-multisets of ``b`` (by size of ``b``, one face at a time) of
  the holds' ranks in the kit's one order of holds (:func:`~phase10math.turn.kernels.hold_ranks`:
  lexicographic in the objective's keys, then more dice; every rank distinct, so the best
  hold is unique), then keep only the *full* pairs
  (``|a| + |b| = count``, every free die rolled): the maxima along the other types never look
  at another ``b`` of this type;
- after every type's maximum, the *expectation*: a weighted sum over the full pairs of each
  ``a`` (multinomial weights), one axis at a time.

The set-aside part ``a`` of every type only rides along, so the pair space is cut into chunks
by the ``a`` of the first types whenever it would not fit in memory.

The same machinery evaluates fixed policies (run by
:func:`phase10math.turn.engine.backward_induction`): any values can be looked up at the best
hold of a ranking (the optimal policy on another utility, :func:`sticky_layer`) and the greedy
baseline (:func:`sticky_greedy_layer`).

>>> from phase10math.dice.rules import Rules
>>> from phase10math.turn.solver import solve_turn
>>> sol = solve_turn(1, "complete", Rules(holds="sticky"))
>>> float(sol.value()) > 0.4
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from phase10math.turn.statespace import DieType, StateSpace, sub_multisets

# (held, rolled) pairs of a turn; the largest shipped case (the default layout under the full
# projection, 3.2e9 pairs) runs in chunks in about a minute per layer
MAX_STICKY_PAIRS = 4_000_000_000
CHUNK_ELEMENTS = 24_000_000  # array elements per chunk (a few hundred MB with temporaries)


def sticky_pairs(space: StateSpace) -> int:
    """How many (set-aside, rolled) pairs the sticky layer goes through."""
    total = 1
    for t in space.types:
        total *= math.comb(t.count + 2 * len(t.faces), 2 * len(t.faces))
    return total


# --------------------------------------------------------------------------- per-type pairs


@dataclass(frozen=True)
class _Pairs:
    """All pairs ``(a, b)`` of sub-multisets of one die type with ``|a| + |b| <= count``,
    sorted by ``a`` then ``b`` (so ``b`` by size): the per-type axis of the pair space."""

    n: int  # sub-multisets of the type
    count: int
    pa: np.ndarray  # (P,) a index
    pb: np.ndarray  # (P,) b index
    psum: np.ndarray  # (P,) index of a + b
    level: np.ndarray  # (P,) |b|
    rem: np.ndarray  # (P, f) pair index of (a, b - one die of face f), or -1
    full: np.ndarray  # (P,) bool: |a| + |b| = count
    weight: np.ndarray  # (P,) multinomial weight of b (meaningful on full pairs)
    start: np.ndarray  # (n,) first pair of every a
    cnt: np.ndarray  # (n,) pairs of every a
    cnt_full: np.ndarray  # (n,) full pairs of every a


@lru_cache(maxsize=32)
def _pairs(n_faces: int, count: int, weights: tuple[int, ...]) -> _Pairs:
    sub = sub_multisets(n_faces, count).astype(np.int64)
    n = len(sub)
    sz = sub.sum(axis=1)
    pw = (count + 1) ** np.arange(n_faces, dtype=np.int64)
    code = sub @ pw
    lut = np.full((count + 1) ** n_faces, -1, dtype=np.int64)
    lut[code] = np.arange(n)
    ii, jj = np.nonzero(sz[:, None] + sz[None, :] <= count)  # row-major: by a, then b
    key = ii * n + jj
    psum = lut[code[ii] + code[jj]]
    rem = np.full((len(ii), n_faces), -1, dtype=np.int64)
    for f in range(n_faces):
        ok = sub[jj, f] > 0
        k2 = ii[ok] * n + lut[code[jj[ok]] - pw[f]]
        rem[ok, f] = np.searchsorted(key, k2)
    full = sz[ii] + sz[jj] == count
    fact = np.array([math.factorial(k) for k in range(count + 1)], dtype=np.int64)
    weight = fact[count - sz[ii]]
    for f in range(n_faces):
        weight = weight // fact[sub[jj, f]] * np.int64(weights[f]) ** sub[jj, f]
    cnt = np.bincount(ii, minlength=n)
    start = np.concatenate([[0], np.cumsum(cnt)[:-1]])
    cnt_full = np.bincount(ii[full], minlength=n)
    return _Pairs(n, count, ii, jj, psum, sz[jj], rem, full, weight, start, cnt, cnt_full)


@lru_cache(maxsize=8)
def _max_table(n_faces: int, count: int) -> np.ndarray:
    """(n, n): index of the face-wise maximum of two sub-multisets (-1: too many dice)."""
    sub = sub_multisets(n_faces, count).astype(np.int64)
    pw = (count + 1) ** np.arange(n_faces, dtype=np.int64)
    lut = np.full((count + 1) ** n_faces, -1, dtype=np.int64)
    lut[sub @ pw] = np.arange(len(sub))
    code = np.zeros((len(sub), len(sub)), dtype=np.int64)
    for f in range(n_faces):
        code += np.maximum(sub[:, None, f], sub[None, :, f]) * pw[f]
    return lut[code]


def _pairs_of(typ: DieType) -> _Pairs:
    return _pairs(len(typ.faces), typ.count, tuple(typ.weights))


@dataclass
class _Axis:
    """One type's axis inside a chunk: the pairs whose ``a`` is in ``group``."""

    group: np.ndarray  # a indices of the chunk (sorted)
    need: np.ndarray  # holds a + b reached (sorted), to slice the input
    lsum: np.ndarray  # per local pair: position of a + b in ``need``
    ops: list  # (dst, src) local pair positions, one entry per (level, face)
    full: np.ndarray  # local positions of the full pairs (grouped by a)
    fa: np.ndarray  # a of the full pairs
    fsum: np.ndarray  # a + b of the full pairs
    weight: np.ndarray  # weights of the full pairs
    starts: np.ndarray  # first full pair of every a of the group


def _axis(pr: _Pairs, group: np.ndarray, with_ops: bool = True) -> _Axis:
    cnt = pr.cnt[group]
    tot = int(cnt.sum())
    offs = np.repeat(np.cumsum(cnt) - cnt, cnt)
    lp = np.arange(tot) - offs + np.repeat(pr.start[group], cnt)
    psum = pr.psum[lp]
    need = np.unique(psum)
    lsum = np.searchsorted(need, psum)
    ops = []
    if with_ops:
        loc = np.full(len(pr.pa), -1, dtype=np.int64)
        loc[lp] = np.arange(tot)
        lev = pr.level[lp]
        for level in range(1, pr.count + 1):
            at = lev == level
            if not at.any():
                break
            for f in range(pr.rem.shape[1]):
                r = pr.rem[lp, f]
                dst = np.flatnonzero(at & (r >= 0))
                if len(dst):
                    ops.append((dst, loc[r[dst]]))
    full = np.flatnonzero(pr.full[lp])
    fc = pr.cnt_full[group]
    starts = np.cumsum(fc) - fc
    return _Axis(
        group,
        need,
        lsum,
        ops,
        full,
        pr.pa[lp[full]],
        pr.psum[lp[full]],
        pr.weight[lp[full]],
        starts,
    )


def _chunks(prs: list[_Pairs], budget: int, only_full: bool = False) -> Iterator[list[np.ndarray]]:
    """Groups of ``a`` per type (products of them are the chunks) whose arrays stay within
    ``budget`` elements. Types are split in order, each only when the earlier ones cannot
    be split further."""
    T = len(prs)

    def peak(groups) -> int:
        P = [int(pr.cnt[g].sum()) for pr, g in zip(prs, groups)]
        F = [int(pr.cnt_full[g].sum()) for pr, g in zip(prs, groups)]
        if only_full:
            return math.prod(F)
        H = [min(pr.n, p) for pr, p in zip(prs, P)]
        out = math.prod(H)
        for t in range(T):
            out = max(out, math.prod(F[:t]) * P[t] * math.prod(H[t + 1 :]))
        return out

    def split(groups, k):
        if k == T or peak(groups) <= budget:
            yield groups
            return
        cur: list[int] = []
        for a in groups[k].tolist():
            trial = groups[:k] + [np.array(cur + [a])] + groups[k + 1 :]
            if peak(trial) <= budget:
                cur.append(a)
                continue
            if cur:
                yield groups[:k] + [np.array(cur)] + groups[k + 1 :]
            single = groups[:k] + [np.array([a])] + groups[k + 1 :]
            if peak(single) <= budget:
                cur = [a]
            else:
                cur = []
                yield from split(single, k + 1)
        if cur:
            yield groups[:k] + [np.array(cur)] + groups[k + 1 :]

    yield from split([np.arange(pr.n) for pr in prs], 0)


def _contract_ranks(M: np.ndarray, vals: np.ndarray, axes: list[_Axis], phys: list[int]):
    """:func:`_contract` of ``vals[M]``; the first (largest) axis is summed row by row
    while the values are looked up, without the full array of values."""
    ax = axes[phys[0]]
    bounds = [int(x) for x in ax.starts] + [M.shape[0]]
    w = ax.weight.astype(object) if vals.dtype == object else ax.weight
    first = np.empty((len(ax.starts),) + M.shape[1:], dtype=vals.dtype)
    buf = np.empty(M.shape[1:], dtype=vals.dtype)
    for i, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:])):
        acc = first[i]
        np.take(vals, M[lo], out=acc, mode="clip")
        acc *= w[lo]
        for j in range(lo + 1, hi):
            np.take(vals, M[j], out=buf, mode="clip")
            buf *= w[j]
            acc += buf
    return _contract(first, axes, phys, done=1)


def _front(M: np.ndarray, k: int) -> np.ndarray:
    """``M`` with physical axis ``k`` moved first, C-contiguous."""
    return M if k == 0 else np.ascontiguousarray(np.moveaxis(M, k, 0))


def _segment_sum(V: np.ndarray, starts: np.ndarray, k: int) -> np.ndarray:
    """Sums of consecutive blocks along axis ``k`` beginning at ``starts`` (none empty);
    like ``np.add.reduceat`` but block by block, which is much faster along a leading axis."""
    if len(starts) * 8 > V.shape[k]:
        return np.add.reduceat(V, starts, axis=k)
    bounds = list(starts) + [V.shape[k]]
    pre = (slice(None),) * k
    parts = [
        V[pre + (slice(lo, hi),)].sum(axis=k, keepdims=True)
        for lo, hi in zip(bounds[:-1], bounds[1:])
    ]
    return np.concatenate(parts, axis=k)


def _contract(
    V: np.ndarray, axes: list[_Axis], phys: list[int] | None = None, done: int = 0
) -> np.ndarray:
    """The expectation: per type, the weighted sum over the full pairs of every ``a``.
    ``phys``: the type of every axis of ``V`` (default: in order; the first ``done`` axes
    are already summed); the result has the types in order."""
    phys = list(range(len(axes))) if phys is None else phys
    for k, t in enumerate(phys):
        ax = axes[t]
        if k < done:
            continue
        shape = [1] * V.ndim
        shape[k] = -1
        w = ax.weight.reshape(shape)
        if V.dtype == object:
            V = V * w.astype(object)
        else:
            V *= w
        V = _segment_sum(V, ax.starts, k)
    return V.transpose([phys.index(t) for t in range(len(axes))])


# --------------------------------------------------------------------------- the layer


def sticky_layer(
    space: StateSpace,
    rank: np.ndarray,
    values: Sequence[np.ndarray],
    budget: int = CHUNK_ELEMENTS,
) -> list[np.ndarray]:
    """For sticky holds: for every set-aside hold A and roll B of the other dice, the hold
    ``A + K`` (K within B) of highest ``rank`` (from :func:`~phase10math.turn.kernels.hold_ranks`,
    a permutation, so the best hold is unique); returns, for every array ``v`` of
    ``values`` (per hold), ``T_v(A) = E over B of v(A + K)`` at that hold, numerators scaled
    like ``expect_rerolls``. With the values of the previous layer's keys this is the
    lexicographic maximum; with other values, that policy's evaluation."""
    prs = [_pairs_of(t) for t in space.types]
    order = _order(prs)
    prs = [prs[t] for t in order]
    shape = [pr.n for pr in prs]
    rank = np.asarray(rank)
    # the maximum only compares: it runs on the ranks, values come back at the end
    by_rank = np.empty(space.n_states, dtype=np.int64)
    by_rank[rank] = np.arange(space.n_states, dtype=np.int64)
    vals_by_rank = [np.asarray(v)[by_rank] for v in values]
    R = rank.astype(np.int32 if space.n_states < 2**31 else np.int64)
    R = np.ascontiguousarray(R.reshape([len(s) for s in space.sub]).transpose(order))
    outs = [np.zeros(space.n_states, dtype=v.dtype) for v in vals_by_rank]
    cache: dict[tuple[int, bytes], _Axis] = {}
    for groups in _chunks(prs, budget):
        axes = []
        for t, (pr, g) in enumerate(zip(prs, groups)):
            key = (t, g.tobytes())
            if key not in cache:
                if len(cache) > 64:
                    cache.clear()
                cache[key] = _axis(pr, g)
            axes.append(cache[key])
        M = _slice(R, axes, prs)
        phys = list(range(len(axes)))  # the type of every physical axis
        for t, ax in enumerate(axes):
            # the pair axis of type t goes first (a transposed copy of the array before it
            # grows): the gather and the operators then move whole contiguous rows
            M = _front(M, phys.index(t))[ax.lsum]
            for dst, src in ax.ops:
                M[dst] = np.maximum(M[dst], M[src])
            M = M[ax.full]
            phys = [t] + [u for u in phys if u != t]
        at = np.ix_(*groups)
        for out, vals in zip(outs, vals_by_rank):
            _unorder(out, shape, order)[at] = _contract_ranks(M, vals, axes, phys)
    return outs


def _order(prs: list[_Pairs]) -> list[int]:
    """Processing order of the types: least growth of the array (full pairs per hold) first,
    so that the array is large for as few steps as possible."""
    return sorted(range(len(prs)), key=lambda t: (int(prs[t].cnt_full.sum()) / prs[t].n, t))


def _slice(R: np.ndarray, axes: list[_Axis], prs: list[_Pairs]) -> np.ndarray:
    """The holds a chunk reaches: ``R`` cut down to ``need`` along every chunked axis."""
    for k, (ax, pr) in enumerate(zip(axes, prs)):
        if len(ax.need) < pr.n:
            R = np.take(R, ax.need, axis=k)
    return R


def _unorder(out: np.ndarray, shape: list[int], order: list[int]) -> np.ndarray:
    """A view of the flat ``out`` (one axis per type) with the axes in processing order."""
    inv = np.argsort(order)
    return out.reshape([shape[i] for i in inv]).transpose(order)


def sticky_greedy_layer(
    space: StateSpace, H_prev: np.ndarray, holds: np.ndarray, budget: int = CHUNK_ELEMENTS // 2
) -> np.ndarray:
    """For a greedy-like sticky policy: with set-aside A and roll B of the other dice, keep
    per type and face the larger of A's count and the count of ``holds`` (a hold id per roll
    state, ``full_ids`` order) at A + B. Returns T(A) = sum over B of weight(B) H_prev(kept)."""
    prs = [_pairs_of(t) for t in space.types]
    shape = [pr.n for pr in prs]
    T = len(prs)
    strides = [int(s) for s in space.strides]
    pos_of = np.full(space.n_states, -1, dtype=np.int64)
    pos_of[space.full_ids] = np.arange(len(space.full_ids))
    hold_digits = [space.digits[t][holds].astype(np.int64) for t in range(T)]
    maxtabs = [_max_table(len(t.faces), t.count) for t in space.types]
    H = np.asarray(H_prev)
    out = np.zeros(space.n_states, dtype=H.dtype)
    for groups in _chunks(prs, budget, only_full=True):
        axes = [_axis(pr, g, with_ops=False) for pr, g in zip(prs, groups)]

        def bc(v, t):
            s = [1] * T
            s[t] = -1
            return v.reshape(s)

        S = sum(bc(strides[t] * ax.fsum, t) for t, ax in enumerate(axes))
        pos = pos_of[S]
        kept = sum(
            strides[t] * maxtabs[t][bc(ax.fa, t), hold_digits[t][pos]] for t, ax in enumerate(axes)
        )
        out.reshape(shape)[np.ix_(*groups)] = _contract(H[kept], axes)
    return out
