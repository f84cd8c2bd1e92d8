"""The two passes of a stage, in place on the hold tensor: expectation and subset maximum."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.codes import hold_code
from phase10math.turn.tensor.memory import code_dtype, face_shape, scratch
from phase10math.turn.tensor.slabs import blockwise, in_slabs

#: one key's codes kept in one compiled pass per block (False: numpy's array comparisons,
#: the straightforward reference that ``benchmarks/bench_compiled_passes.py`` times beside it)
COMPILED_CODES = True


def face_slots(n: int) -> tuple:
    """The face slots (not the not-held slot 0) of the first ``n`` axes; a view even when
    ``n`` is 0 (a tensor of no dice)."""
    return (slice(1, None),) * n + (Ellipsis,)


def _axis_view(T: np.ndarray, j: int, p: int) -> np.ndarray:
    """``T`` seen as ``(f_0, .., f_{p-1}, rest of axes < j, slots of axis j, axes > j)``: the
    first ``p`` axes restricted to their face slots, the others merged (contiguous blocks,
    so numpy's inner loops stay long)."""
    s = T.shape
    V = T[face_slots(p)]
    return V.reshape(tuple(x - 1 for x in s[:p]) + (math.prod(s[p:j]), s[j], math.prod(s[j + 1 :])))


def _pruned(n: int, j: int) -> int:
    """How many leading axes a pass over axis ``j`` restricts to face slots: all that may be
    (the axes before ``j``), but at least five axes stay merged so inner loops stay long."""
    return max(0, min(j, n - 5))


def expect_into(space: StateSpace, values: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Fill the hold tensor ``T`` (shape :func:`tensor_shape`) with ``N(K) = 6**n E[values |
    K held]``, ``values`` (int64) given on the roll states in ``full_ids`` order; for a float64
    ``T``, with ``E[values | K held]`` itself (float arithmetic, the float stage of
    :class:`~phase10math.turn.engine.TensorEngine`).

    Axes are processed last to first; the pass over axis ``j`` fills its not-held slot where
    the axes before ``j`` (not processed yet) show faces - the other entries are filled later
    from these. Each axis runs in cache-sized blocks, in :func:`threads` threads."""
    n = len(space.types)
    exact = T.dtype != np.float64
    values = np.asarray(values)
    if exact and values.dtype.kind not in "iu":
        values = values.astype(np.int64)
    in_slabs(  # any integer dtype is read as int64 slab by slab (no int64 copy of it all)
        (lambda i, dst, src: np.multiply(src, np.int64(6**n), out=dst, dtype=np.int64))
        if exact
        else (lambda i, dst, src: np.copyto(dst, src)),
        T[face_slots(n)],
        values.reshape(face_shape(space)),
    )
    divide = np.floor_divide if exact else np.true_divide
    for j in reversed(range(n)):
        w = [int(x) for x in space.types[j].weights]

        def step(i: int, V: np.ndarray, w: list[int] = w) -> None:
            dst = V[..., 0, :]
            tmp = None
            for f, wf in enumerate(w):
                src = V[..., f + 1, :]
                if wf != 1 and f > 0:
                    tmp = scratch(f"mul{i}", dst.shape, dst.dtype) if tmp is None else tmp
                    np.multiply(src, wf, out=tmp)
                    src = tmp
                if f == 0:
                    np.multiply(src, wf, out=dst) if wf != 1 else np.copyto(dst, src)
                else:
                    np.add(dst, src, out=dst)
            divide(dst, 6, out=dst)

        blockwise(step, _axis_view(T, j, _pruned(n, j)))
    return T


def subset_max(
    space: StateSpace, T: np.ndarray, A: np.ndarray | None, second: np.ndarray | None = None
) -> None:
    """In place: face entries of ``T`` become the maximum over their sub-holds; ``A``
    (:func:`code_dtype`, zeroed here) gets the :func:`hold_code` of the arg-max (its dice
    not held). Axes go first to last. ``A=None``: the maxima only (one ``np.maximum`` per face
    slot for one key; no codes), for stages whose best holds are not asked for.

    ``second`` (optional, same shape as ``T``): a second int64 key compared lexicographically
    after ``T``; it is carried along. Cost: one more tensor (8 bytes a hold) and,
    per axis, two more comparisons and a masked copy more.

    The order of holds is the kit's one order (:func:`phase10math.turn.kernels.hold_ranks`):
    first key, second key, then more dice kept, then the larger state id. The candidates met
    at an entry ``K`` are sub-holds of ``K``, and :func:`hold_code` orders them exactly by
    (more dice kept, larger state id) with one integer comparison: a smaller code is better.
    Every comparison is in one total order of holds, so the running maxima are the exact
    arg-max of that order.

    Each axis runs in cache-sized blocks (the not-held slot, its code and the comparison
    stay in cache while the face slots stream through), in :func:`threads` threads."""
    n = len(space.types)
    if A is None:
        _subset_max_values(n, T, second)
        return
    in_slabs(lambda i, a: a.fill(0), A)
    for j in range(n):
        p = _pruned(n, j)
        views = [_axis_view(T, j, p), _axis_view(A, j, p)]
        if second is not None:
            views.append(_axis_view(second, j, p))
        dt = code_dtype(n)
        add = dt.type(hold_code(n, 1 << j))

        def step(i: int, V: np.ndarray, AV: np.ndarray, V2=None, add=add) -> None:
            if V2 is None and COMPILED_CODES:  # one compiled pass (the same comparisons)
                _codes_pass(V, AV, add)
                return
            nh = V[..., 0, :]
            better = scratch(f"better{i}", nh.shape, np.bool_)
            tie = scratch(f"tie{i}", nh.shape, np.bool_)
            cmp = scratch(f"cmp{i}", nh.shape, np.bool_)
            codeA = scratch(f"codeA{i}", nh.shape, AV.dtype)
            np.add(AV[..., 0, :], add, out=codeA)  # die j not held either
            if V2 is not None:
                nh2 = V2[..., 0, :]
            for f in range(1, V.shape[-2]):
                face = V[..., f, :]
                np.greater(nh, face, out=better)
                np.equal(nh, face, out=tie)
                if V2 is not None:
                    face2 = V2[..., f, :]
                    np.greater(nh2, face2, out=cmp)
                    cmp &= tie
                    better |= cmp
                    np.equal(nh2, face2, out=cmp)
                    tie &= cmp
                np.less(codeA, AV[..., f, :], out=cmp)
                cmp &= tie
                better |= cmp
                np.copyto(face, nh, where=better)
                if V2 is not None:
                    np.copyto(face2, nh2, where=better)
                np.copyto(AV[..., f, :], codeA, where=better)

        blockwise(step, *views)


def _codes_pass(V: np.ndarray, A: np.ndarray, add) -> None:
    """:func:`_better_codes` on a block of any number of leading axes (split along the first
    where they do not merge into one)."""
    V3, A3 = _three_axes(V), _three_axes(A)
    if V3 is not None and A3 is not None:
        _better_codes(V3, A3, add)
        return
    for v, a in zip(V, A):
        _codes_pass(v, a, add)


def _three_axes(V: np.ndarray) -> np.ndarray | None:
    """A block ``(.., slots, rest)`` as a view ``(outer, slots, rest)``; None where its
    leading axes do not merge without a copy."""
    W = V.reshape((-1,) + V.shape[-2:])
    return W if np.may_share_memory(W, V) else None


@njit(cache=True, nogil=True)
def _better_codes(V: np.ndarray, A: np.ndarray, add) -> None:  # pragma: no cover - compiled
    """One axis of :func:`subset_max` on a block ``(outer, slots, rest)``: each face slot
    takes the not-held slot's value and code (plus ``add``: that die not held either) where
    it is better in the kit's order (a larger value, or an equal value and a smaller
    code)."""
    for o in range(V.shape[0]):
        for k in range(V.shape[2]):
            nh = V[o, 0, k]
            c = A[o, 0, k] + add
            for f in range(1, V.shape[1]):
                face = V[o, f, k]
                if nh > face or (nh == face and c < A[o, f, k]):
                    V[o, f, k] = nh
                    A[o, f, k] = c


def _subset_max_values(n: int, T: np.ndarray, second: np.ndarray | None) -> None:
    """:func:`subset_max` without codes: the (lexicographic) maxima over sub-holds only."""
    for j in range(n):
        p = _pruned(n, j)
        if second is None:

            def step(i: int, V: np.ndarray) -> None:
                nh = V[..., 0, :]
                for f in range(1, V.shape[-2]):
                    np.maximum(V[..., f, :], nh, out=V[..., f, :])

            blockwise(step, _axis_view(T, j, p))
            continue

        def step2(i: int, V: np.ndarray, V2: np.ndarray) -> None:
            # (a, a2) vs (b, b2): the first key's maximum; the second key of the larger first
            # key, or the larger second key where the first keys are equal - in arithmetic on
            # 0/1 masks (masked copies are several times slower); the differences of second
            # keys fit in int64 (the solver admits only values that fit six times over,
            # :func:`phase10math.exact.fits_int64`)
            nh, nh2 = V[..., 0, :], V2[..., 0, :]
            gt = scratch(f"better{i}", nh.shape, np.bool_)
            eq = scratch(f"cmp{i}", nh.shape, np.bool_)
            d = scratch(f"d{i}", nh.shape, np.int64)
            e = scratch(f"e{i}", nh.shape, np.int64)
            for f in range(1, V.shape[-2]):
                face, face2 = V[..., f, :], V2[..., f, :]
                np.greater(nh, face, out=gt)
                np.equal(nh, face, out=eq)
                np.subtract(nh2, face2, out=d)  # nh wins: face2 + d
                np.maximum(d, 0, out=e)  # a tie: face2 + max(d, 0)
                np.multiply(d, gt, out=d)
                np.multiply(e, eq, out=e)
                face2 += d
                face2 += e
                np.maximum(face, nh, out=face)

        blockwise(step2, _axis_view(T, j, p), _axis_view(second, j, p))
