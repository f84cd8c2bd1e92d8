"""One stage of the induction: one key, two keys packed in one int64, or die 0 face by face."""

from __future__ import annotations

import math

import numpy as np

from phase10math.exact import fits_int64
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.codes import hold_code
from phase10math.turn.tensor.memory import code_dtype, face_shape, tensor_shape
from phase10math.turn.tensor.passes import expect_into, face_slots, subset_max
from phase10math.turn.tensor.slabs import in_slabs


def faces_copy(T: np.ndarray) -> np.ndarray:
    """The face entries (roll states) of a hold tensor as a flat contiguous copy (threads)."""
    n = T.ndim
    out = np.empty(tuple(x - 1 for x in T.shape), dtype=T.dtype)
    in_slabs(lambda i, o, t: np.copyto(o, t), out, T[face_slots(n)], axis=0)
    return out.reshape(-1)


def one_key_stage(
    space: StateSpace, values: np.ndarray, T: np.ndarray, A: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One stage on one hold tensor ``T`` (int64, or float64 for :func:`solve_tensor_float`):
    the expectation of the roll values ``values`` of the stage before, the subset maximum, and
    the roll values and arg-max :func:`hold_code` s of this stage (``full_ids`` order)."""
    expect_into(space, values, T)
    subset_max(space, T, A)
    return faces_copy(T), faces_copy(A)


def without_first_die(space: StateSpace) -> StateSpace:
    """The space of dice 1..n-1 (die 0 left out), with the same projection."""
    sub = space.sub[1:]
    sizes = [len(x) for x in sub]
    strides = np.cumprod([1] + sizes[::-1])[:-1][::-1].astype(np.int64)
    return StateSpace(list(space.types[1:]), space.projection, list(sub), strides)


def two_key_stage(
    space: StateSpace, V1: np.ndarray, V2: np.ndarray, work: np.ndarray, work_codes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One stage of the lexicographic solve with two int64 keys, without a hold tensor per
    key: the best hold of every roll state from the roll values ``V1``, ``V2`` of the stage
    before, returned as the two keys' roll values and the :func:`hold_code` s of the best
    holds (all in ``full_ids`` order).

    A roll state shows some face ``f`` of die 0; its sub-holds keep that face or leave die 0
    out. So for each ``f`` the holds of the other dice are solved on their own tensor (the
    expectation and subset maximum of :func:`expect_into` and :func:`subset_max` on the space
    :func:`without_first_die`, both keys, ``7**(n-1)`` holds), and the holds without die 0 -
    whose values are the weighted sum of those per-face expectations - are solved once; the
    best of the two, in the kit's one order of holds, is the best hold. The same comparisons in
    the same total order as the whole tensor, so the same values and holds; the work tensors
    (four of ``7**(n-1)`` entries) live in ``work``, the codes in ``work_codes`` (the one-key
    buffers), so the stage needs no memory beyond its results."""
    n = len(space.types)
    rest = without_first_die(space)
    w0 = [int(x) for x in space.types[0].weights]
    shape9, fs9 = tensor_shape(rest), face_shape(rest)
    S9, P9 = math.prod(shape9), math.prod(fs9)
    if len(work) < 4 * S9:  # die 0 with fewer than three faces
        work = np.empty(4 * S9, dtype=np.int64)
    Ta, Tb, E1, E2 = (work[k * S9 : (k + 1) * S9].reshape(shape9) for k in range(4))
    Ca, Cb = (work_codes[k * S9 : (k + 1) * S9].reshape(shape9) for k in range(2))
    V1r, V2r = V1.reshape(len(w0), P9), V2.reshape(len(w0), P9)
    out1 = np.empty(len(w0) * P9, dtype=np.int64)
    out2 = np.empty(len(w0) * P9, dtype=np.int64)
    outc = np.empty(len(w0) * P9, dtype=code_dtype(n))
    low = (1 << (n - 1)) - 1
    dt = code_dtype(n)

    def widen(c: np.ndarray) -> np.ndarray:
        """Codes of ``n - 1`` dice as codes of ``n`` dice (die 0 held): same low bits."""
        c = c.astype(dt)
        return ((c >> dt.type(n - 1)) << dt.type(n)) | (c & dt.type(low))

    in_slabs(lambda i, a, b: (a.fill(0), b.fill(0)), Ta, Tb)
    for f, wf in enumerate(w0):
        for V, E, T_ in ((V1r, E1, Ta), (V2r, E2, Tb)):
            expect_into(rest, V[f], E)  # 6**(n-1) E[V | die 0 shows f, the others held]
            for _ in range(wf):
                in_slabs(lambda i, t, e: np.add(t, e, out=t), T_, E)
        # the holds keeping face f of die 0 are worth 6 E: the same order, so the factor is
        # applied to the best ones only
        subset_max(rest, E1, Cb, second=E2)
        sl = slice(f * P9, (f + 1) * P9)
        for E, out in ((E1, out1), (E2, out2)):
            in_slabs(
                lambda i, o, e: np.multiply(e, 6, out=o), out[sl].reshape(fs9), E[face_slots(n - 1)]
            )
        outc[sl] = widen(faces_copy(Cb))
    # the holds without die 0: the weighted sums, then their best sub-holds
    subset_max(rest, Ta, Ca, second=Tb)
    m1, m2 = faces_copy(Ta), faces_copy(Tb)
    mc = widen(faces_copy(Ca)) + dt.type(hold_code(n, 1))

    def best(i: int, o1: np.ndarray, o2: np.ndarray, oc: np.ndarray, b1, b2, bc) -> None:
        eq1 = o1 == b1
        better = (b1 > o1) | (eq1 & (b2 > o2)) | (eq1 & (b2 == o2) & (bc < oc))
        np.copyto(o1, b1, where=better)
        np.copyto(o2, b2, where=better)
        np.copyto(oc, bc, where=better)

    F0 = len(w0)
    in_slabs(
        best,
        out1.reshape(F0, P9),
        out2.reshape(F0, P9),
        outc.reshape(F0, P9),
        m1.reshape(1, P9),
        m2.reshape(1, P9),
        mc.reshape(1, P9),
        axis=1,
    )
    return out1, out2, outc


def pack_keys(first: np.ndarray, second: np.ndarray, n: int):
    """Two keys of roll values in one int64, when it fits: ``first * base + (second - low)``
    with ``low`` the least second key and ``base = 6**n * (spread of the second key) + 1``.
    Expectations are linear and the second part of every hold's ``6**n E[.]`` lies in
    ``[0, base)``, so the packed hold values compare exactly as the pairs do
    (lexicographically) and unpack by one floor division (:func:`unpack_keys`). ``None`` when
    the packed hold values might not fit in int64 (then :func:`two_key_stage` is used).

    >>> pack_keys(np.array([0, 1]), np.array([3, 5]), 1)
    (array([ 0, 15]), 13, 3)
    """
    lo1, hi1 = int(first.min()), int(first.max())
    low, high = int(second.min()), int(second.max())
    base = 6**n * (high - low) + 1
    if not fits_int64(max(abs(lo1), abs(hi1)) * base + high - low, 6**n):
        return None
    out = np.empty(len(first), dtype=np.int64)
    in_slabs(
        lambda i, o, a, b: (  # small integer dtypes are read as int64 slab by slab
            np.multiply(a, np.int64(base), out=o, dtype=np.int64),
            np.add(o, b, out=o, dtype=np.int64),
            np.subtract(o, np.int64(low), out=o),
        ),
        out,
        np.asarray(first),
        np.asarray(second),
    )
    return out, base, low


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
