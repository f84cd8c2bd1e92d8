"""One stage of the induction, die 0's face by face: one key, or two packed in one int64 or not."""

from __future__ import annotations

import math

import numpy as np

from phase10math.exact import fits_int64
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.codes import HoldIds, hold_code, holds_from_codes
from phase10math.turn.tensor.memory import (
    buffer,
    code_dtype,
    face_shape,
    splits_again,
    tensor_shape,
)
from phase10math.turn.tensor.passes import expect_into, face_slots, subset_max
from phase10math.turn.tensor.slabs import in_slabs
from phase10math.turn.tensor.totals import exact_total, float_total, tensor_weights


def faces_copy(T: np.ndarray) -> np.ndarray:
    """The face entries (roll states) of a hold tensor as a flat contiguous copy (threads)."""
    n = T.ndim
    out = np.empty(tuple(x - 1 for x in T.shape), dtype=T.dtype)
    in_slabs(lambda i, o, t: np.copyto(o, t), out, T[face_slots(n)], axis=0)
    return out.reshape(-1)


def without_first_die(space: StateSpace) -> StateSpace:
    """The space of dice 1..n-1 (die 0 left out), with the same projection."""
    sub = space.sub[1:]
    sizes = [len(x) for x in sub]
    strides = np.cumprod([1] + sizes[::-1])[:-1][::-1].astype(np.int64)
    return StateSpace(list(space.types[1:]), space.projection, list(sub), strides)


def split_stage(
    space: StateSpace,
    keys: list[np.ndarray],
    dtypes: list | None = None,
    codes: bool = True,
    totals: bool = True,
) -> tuple[list[np.ndarray] | None, list[int] | None, np.ndarray | None]:
    """One stage of the induction for one or two keys (lexicographic), solved die 0's face by
    face on the other dice's tensors: from the roll values ``keys`` of the stage before, the
    roll values of this stage (one array per key, in ``dtypes`` - which the caller chose from
    the keys' bounds - or ``None`` when ``dtypes`` is ``None``: the last stage needs only its
    totals), the exact totals of those values (times the roll weights) and the
    :func:`hold_code` s of the best holds (``totals=False``: ``None`` for the totals;
    ``codes=False``: ``None``, and the maxima are found
    without them, which is faster), all in ``full_ids`` order.

    A roll state shows some face ``f`` of die 0; its sub-holds keep that face or leave die 0
    out. The holds without die 0 are worth ``6**n E[V | K' held]`` with ``V`` averaged over
    die 0 (the expectation is linear: one pass of :func:`expect_into` on the weighted sum of
    die 0's face slices), and their best sub-holds are one :func:`subset_max` on the space
    :func:`without_first_die`; then for each ``f`` the holds keeping ``f`` are the same two
    passes on that face's slice, and the better of the two best holds, in the kit's one
    order of holds, is the roll's best hold. The same comparisons in the same total order as
    on the whole tensor, so the same values and holds, in one or two tensors of
    ``7**(n-1)`` entries (two keys are packed in one int64 where they fit,
    :func:`pack_bounds`). An exact stage whose tensor of the other dice would hold more than
    :data:`~.memory.SPLIT_HOLDS` entries (:func:`~.memory.splits_again`) solves each of
    those sub-stages the same way, die 1's face by face (recursively): the same maxima in
    the same order of holds, in tensors of ``7**(n-2)`` entries (about a seventh of the
    memory; the same passes in all). Float stages are not split further (their sums would
    run in another order)."""
    n = len(space.types)
    rest = without_first_die(space)
    w0 = [int(x) for x in space.types[0].weights]
    F0 = len(w0)
    shape9, fs9 = tensor_shape(rest), face_shape(rest)
    S9, P9 = math.prod(shape9), math.prod(fs9)
    V = [np.asarray(k).reshape(F0, P9) for k in keys]
    exact = all(v.dtype.kind in "iu" for v in V)  # else float64 means (the float solve)
    acc_dt = np.int64 if exact else np.float64
    packed = pack_bounds(V[0], V[1], n) if len(V) == 2 and exact else None
    nt = 1 if len(V) == 1 or packed is not None else 2
    deeper = splits_again(rest.types, exact)
    if not deeper:
        work = [buffer(f"E{k}", S9, np.int64).view(acc_dt).reshape(shape9) for k in range(nt)]
    C = buffer("C", S9, code_dtype(n - 1)).reshape(shape9) if codes and not deeper else None
    weights9 = tensor_weights(rest)
    dt = code_dtype(n)
    low = (1 << (n - 1)) - 1

    def widen(c: np.ndarray) -> np.ndarray:
        """Codes of ``n - 1`` dice as codes of ``n`` dice (die 0 held): same low bits."""
        c = c.astype(dt)
        return ((c >> dt.type(n - 1)) << dt.type(n)) | (c & dt.type(low))

    def inputs(f: int | None) -> list[np.ndarray]:
        """The keys' values of face ``f`` of die 0 (``None``: their weighted sum over the
        faces), packed in one int64 where the keys are."""
        if f is None:
            vals = [weighted_sum(v, w0, exact) for v in V]
            weight_sum = sum(w0)
        else:
            vals, weight_sum = [v[f] for v in V], 1
        if packed is None:
            return vals
        base, lo = packed
        return [_pack(vals[0], vals[1], base, lo * weight_sum)]

    def solved(f: int | None) -> tuple[list[np.ndarray], np.ndarray]:
        """Best sub-holds of the other dice (values at ``6**n`` scale, unpacked, and codes)."""
        if deeper:  # the same stage on the other dice, with these values below
            vals = inputs(f)
            out, _, sub = split_stage(rest, vals, [np.int64] * len(vals), codes, totals=False)
            del vals
        else:
            for vals, E in zip(inputs(f), work):
                expect_into(rest, vals, E)
            subset_max(rest, work[0], C, second=work[1] if nt == 2 else None)
            out = [faces_copy(E) for E in work]
            sub = None if C is None else faces_copy(C)
        if f is not None and exact:  # the holds keeping face f: 6**(n-1) E[.] over the others
            for o in out:
                in_slabs(lambda i, a: a.__imul__(6), o)
        if packed is not None:
            out = list(unpack_keys(out[0], packed[0], packed[1], n))
        if sub is None:  # a code of 0 for all: the maxima alone decide
            return out, np.zeros(P9, dtype=np.uint8)
        return out, widen(sub)

    none_vals, none_codes = solved(None)
    if codes:
        none_codes += dt.type(hold_code(n, 1))
    outs = None if dtypes is None else [np.empty(F0 * P9, dtype=d) for d in dtypes]
    sums = [0] * len(V) if totals else None
    outc = np.empty(F0 * P9, dtype=dt) if codes else None
    for f in range(F0):
        vals = c = v = None  # the face before is not kept while this one is solved
        vals, c = solved(f)
        in_slabs(_better_of if codes else _max_of, *vals, c, *none_vals, none_codes)
        for k, v in enumerate(vals):
            if sums is not None:
                sums[k] += w0[f] * (exact_total(v, weights9) if exact else float_total(v, weights9))
            if outs is not None:
                in_slabs(
                    lambda i, o, s: np.copyto(o, s, casting="unsafe"),
                    outs[k][f * P9 : (f + 1) * P9],
                    v,
                )
        if outc is not None:
            outc[f * P9 : (f + 1) * P9] = c
    return outs, sums, outc


def weighted_sum(v: np.ndarray, w0: list[int], exact: bool = True) -> np.ndarray:
    """``sum_f w0[f] v[f]`` over die 0's face slices ``v[f]`` (int64; floats: divided by the
    six faces, a mean), slab by slab."""
    acc = np.zeros(v.shape[1], dtype=np.int64 if exact else np.float64)
    for g, wg in enumerate(w0):
        in_slabs(lambda i, a, b, wg=wg: a.__iadd__(b * acc.dtype.type(wg)), acc, v[g])
    if not exact:
        acc /= sum(w0)
    return acc


def split_policy_values(
    space: StateSpace, values: np.ndarray, holds: np.ndarray, dtype=np.int64
) -> np.ndarray:
    """One stage of a fixed policy, die 0's face by face as in :func:`split_stage`: the value
    of each roll state's hold ``holds`` (hold ids, ``full_ids`` order) from the roll values
    ``values`` of the stage before (any integer dtype, read slab by slab) - int64 numerators
    at ``6**n`` times the scale before, or float64 means for ``dtype=np.float64`` - in one
    tensor of the other dice. ``holds`` may be :class:`~.codes.HoldIds` (hold codes): their
    ids are found for one face of die 0 at a time."""
    rest = without_first_die(space)
    w0 = [int(x) for x in space.types[0].weights]
    F0 = len(w0)
    shape9, P9 = tensor_shape(rest), math.prod(face_shape(rest))
    exact = np.dtype(dtype) != np.float64
    V = np.asarray(values).reshape(F0, P9)
    if not exact:
        V = V.astype(np.float64, copy=False)
    E = buffer("E0", math.prod(shape9), np.int64).view(dtype).reshape(shape9)
    stride0 = int(space.strides[0])
    if isinstance(holds, HoldIds):  # ids found face by face: no ids of every roll at once

        def face_ids(f: int, codes: np.ndarray = holds.codes) -> np.ndarray:
            return holds_from_codes(space, codes, np.int64, face=f)
    else:
        h = np.asarray(holds).reshape(F0, P9)

        def face_ids(f: int) -> np.ndarray:
            return h[f].astype(np.int64)

    out = np.empty((F0, P9), dtype=dtype)
    expect_into(rest, weighted_sum(V, w0, exact), E)  # the holds without die 0
    flat = E.reshape(-1)
    for f in range(F0):
        hf = face_ids(f)
        slot = hf // stride0
        out[f] = flat[hf - slot * stride0]  # die 0 not held: read here; held: replaced below
    for f in range(F0):
        expect_into(rest, V[f], E)
        hf = face_ids(f)
        keep = np.flatnonzero(hf // stride0 == f + 1)
        got = flat[hf[keep] - (f + 1) * stride0]
        out[f, keep] = got * 6 if exact else got
    return out.reshape(-1)


def _better_of(i: int, *arrays: np.ndarray) -> None:
    """In place on the first key(s) and codes: the better of each pair of holds in the kit's
    one order (first key, second key, then the smaller code)."""
    k = (len(arrays) - 2) // 2
    own, oc, other, bc = arrays[:k], arrays[k], arrays[k + 1 : 2 * k + 1], arrays[-1]
    tie = np.ones(len(oc), dtype=bool)
    better = np.zeros(len(oc), dtype=bool)
    for o, b in zip(own, other):
        better |= tie & (b > o)
        tie &= b == o
    better |= tie & (bc < oc)
    for o, b in zip(own, other):
        np.copyto(o, b, where=better)
    np.copyto(oc, bc, where=better)


def _max_of(i: int, *arrays: np.ndarray) -> None:
    """:func:`_better_of` without codes: the (lexicographic) maximum of the values alone, in
    arithmetic on 0/1 masks (as in :func:`~.passes.subset_max`)."""
    k = (len(arrays) - 2) // 2
    own, other = arrays[:k], arrays[k + 1 : 2 * k + 1]
    if k == 1:
        np.maximum(own[0], other[0], out=own[0])
        return
    (o1, o2), (b1, b2) = own, other
    d = b2 - o2
    e = np.maximum(d, 0)
    d *= b1 > o1
    e *= b1 == o1
    o2 += d
    o2 += e
    np.maximum(o1, b1, out=o1)


def _pack(first: np.ndarray, second: np.ndarray, base: int, low: int) -> np.ndarray:
    """``first * base + (second - low)`` in int64, slab by slab (any integer dtypes)."""
    out = np.empty(len(first), dtype=np.int64)
    in_slabs(
        lambda i, o, a, b: (
            np.multiply(a, np.int64(base), out=o, dtype=np.int64),
            np.add(o, b, out=o, dtype=np.int64),
            np.subtract(o, np.int64(low), out=o),
        ),
        out,
        np.asarray(first),
        np.asarray(second),
    )
    return out


def pack_bounds(first: np.ndarray, second: np.ndarray, n: int) -> tuple[int, int] | None:
    """``(base, low)`` of :func:`pack_keys` for these keys, or ``None`` when the packed hold
    values might not fit in int64."""
    lo1, hi1 = int(first.min()), int(first.max())
    low, high = int(second.min()), int(second.max())
    base = 6**n * (high - low) + 1
    if not fits_int64(max(abs(lo1), abs(hi1)) * base + high - low, 6**n):
        return None
    return base, low


def pack_keys(first: np.ndarray, second: np.ndarray, n: int):
    """Two keys of roll values in one int64, when it fits: ``first * base + (second - low)``
    with ``low`` the least second key and ``base = 6**n * (spread of the second key) + 1``.
    Expectations are linear and the second part of every hold's ``6**n E[.]`` lies in
    ``[0, base)``, so the packed hold values compare exactly as the pairs do
    (lexicographically) and unpack by one floor division (:func:`unpack_keys`). ``None`` when
    the packed hold values might not fit in int64 (then the keys run on two tensors).

    >>> pack_keys(np.array([0, 1]), np.array([3, 5]), 1)
    (array([ 0, 15]), 13, 3)
    """
    bounds = pack_bounds(first, second, n)
    if bounds is None:
        return None
    base, low = bounds
    return _pack(first, second, base, low), base, low


def unpack_keys(packed: np.ndarray, base: int, low: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The two keys of packed hold or roll values (see :func:`pack_keys`; ``6**n`` times the
    expectations), in place: the first key overwrites ``packed``.

    >>> unpack_keys(np.array([6 * 13 * 1 + 6 * 2, 6 * 13 * 0 + 6 * 1]), 13, 3, 1)
    (array([6, 0]), array([30, 24]))
    """
    second = np.empty_like(packed)
    scale = 6**n

    def part(i: int, p: np.ndarray, s: np.ndarray) -> None:
        np.remainder(p, base, out=s)
        np.subtract(p, s, out=p)
        np.floor_divide(p, base, out=p)
        np.add(s, low * scale, out=s)

    in_slabs(part, packed, second)
    return packed, second
