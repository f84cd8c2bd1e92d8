"""The free-hold dynamic program in place on one tensor, for layouts of distinct dice.

When no two (projected) dice are alike - the recorded layout with value and color kept has ten
dice of six different faces each - every die is its own type and a hold is one slot per die:
``0`` = not held, ``1 + f`` = held showing face ``f``. The holds form a plain tensor of shape
``(f_1 + 1, ..., f_n + 1)`` (7**10 = 282,475,249 holds for the recorded dice) and both passes of
the dynamic program run *in place* on one int64 array, axis by axis (the standard argument for
multidimensional transforms: after axes 1..i are processed, every entry whose not-held slots
lie within axes 1..i is final):

- expectation: ``N(K) = 6**n E[V | K held]`` - start with ``6**n V`` on the roll states, then
  along each axis fill the not-held slot with ``sum_f w_f (face slot f) / 6`` (an exact integer
  division: the face slots are multiples of 6). Axis ``j`` only needs the entries whose later
  axes show faces (the others are overwritten later), so the pass runs on a sub-tensor.
- subset maximum: ``M(K) = max over holds J within K of N(J)``: along each axis, face slot
  ``f`` = max(face slot f, not-held slot). Axis ``j`` only needs the entries whose earlier axes
  show faces. The arg-max is a code of the dice not held (uint16); holds are compared in
  the kit's one order (:func:`phase10math.turn.kernels.hold_ranks`: the keys, then more dice
  kept, then the larger state id), so the arg-max is the per-type solver's.

Only roll-state values (``6**n``) are stored per number of rolls left; hold values are
computed on demand (:class:`LazyHoldValues`, a restricted transform over the asked holds).
Values are exact int64 numerators (:func:`phase10math.exact.fits_int64` is checked first).

Speed (issue 13): every pass over an axis runs in cache-sized blocks (the not-held slot and
the comparison scratch stay in cache while the face slots stream through), shared among
:func:`threads` threads (numpy releases the GIL in its loops; each thread writes only its own
blocks, so results do not depend on the split). Final scores and the greedy baseline are
computed on pairs of distinct half-profiles, one color at a time for a color group beside sets
or runs (:func:`_max_over_colors`).

A second key (issue 16, lexicographic objectives) costs its roll values per number of rolls
left and two more comparisons per face slot (:func:`subset_max`, ``second``), but no second
hold tensor: a stage where both keys fit in one int64 runs on one tensor (:func:`pack_keys`),
any other runs die 0's faces one at a time on the other dice's tensors, in the memory of the
one hold tensor (:func:`two_key_stage`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from phase10math.dice.faces import COLORS
from phase10math.dice.meld import best_scores
from phase10math.dice.partial import greedy_cells, greedy_codes
from phase10math.errors import StateSpaceTooLargeError
from phase10math.exact import fits_int64
from phase10math.turn.statespace import StateSpace

_BUFFERS: dict[str, np.ndarray] = {}
_POOL: list[ThreadPoolExecutor] = []
MIN_SLAB = 1 << 18  # arrays smaller than this are not split among threads


# --------------------------------------------------------------------------- sizes


def is_tensor_space(space: StateSpace) -> bool:
    """Every type is a single die (no two dice alike after projection), at most 16 dice."""
    return all(t.count == 1 for t in space.types) and len(space.types) <= 16


def tensor_shape(space: StateSpace) -> tuple[int, ...]:
    return tuple(len(t.faces) + 1 for t in space.types)


def face_shape(space: StateSpace) -> tuple[int, ...]:
    return tuple(len(t.faces) for t in space.types)


def memory_budget() -> int:
    """Bytes the engine may use: ``$PHASE10MATH_MEMORY_GB`` or 75% of physical memory."""
    env = os.environ.get("PHASE10MATH_MEMORY_GB")
    if env:
        return int(float(env) * 2**30)
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 0.75)
    except (ValueError, OSError):  # pragma: no cover
        return 16 * 2**30


def estimate_bytes(space: StateSpace, rolls: int, second: bool = False) -> int:
    """Peak bytes of a tensor solve: the hold tensor (int64) and its arg-max code (uint16 up
    to 12 dice), scratch for one axis (bool + code + int64), per roll-left the roll values
    (int64) and the best holds (int32/int64), the roll ids, the utility and its meld pass
    (~4 int64 per roll).
    With a ``second`` key: per roll-left its roll values (int64), its utility, and the results
    of a :func:`two_key_stage` being assembled (two int64 and a code per roll); its work
    tensors live in the hold tensor's memory."""
    S = math.prod(tensor_shape(space))
    F = math.prod(face_shape(space))
    cb = code_dtype(len(space.types)).itemsize
    scratch = (S // 2) * (1 + cb + 8) // 7 * 2
    idb = 4 if S < 2**31 else 8
    need = (8 + cb) * S + scratch + cb * F + rolls * 8 * F + (rolls - 1) * idb * F + 5 * 8 * F
    if second:
        need += rolls * 8 * F + 8 * F + (16 + cb) * F
    return need


def check_tensor_fits(space: StateSpace, rolls: int, second: bool = False) -> None:
    need, have = estimate_bytes(space, rolls, second), memory_budget()
    if need > have:
        raise StateSpaceTooLargeError(
            f"this turn has {math.prod(tensor_shape(space)):,} holds "
            f"({space.describe()[:160]}); solving it"
            + (" with its second key" if second else "")
            + f" needs about {need / 2**30:.1f} GiB and "
            f"the limit on this machine is {have / 2**30:.1f} GiB (set PHASE10MATH_MEMORY_GB "
            "to change it)"
        )


def _buffer(name: str, n: int, dtype) -> np.ndarray:
    """A reusable flat buffer (first touch of fresh memory is slow: keep one per process)."""
    buf = _BUFFERS.get(name)
    if buf is None or buf.dtype != np.dtype(dtype) or buf.size < n:
        _BUFFERS.pop(name, None)
        buf = np.empty(n, dtype=dtype)
        _BUFFERS[name] = buf
    return buf[:n]


def release_buffers() -> None:
    """Free the reusable work buffers."""
    _BUFFERS.clear()


def _scratch(name: str, shape, dtype) -> np.ndarray:
    return _buffer(name, math.prod(shape), dtype).reshape(shape)


# --------------------------------------------------------------------------- threads


def threads() -> int:
    """Threads of the tensor passes: ``$PHASE10MATH_THREADS`` or one per core, at most two
    (the passes are bound by memory bandwidth; numpy releases the GIL in their loops)."""
    env = os.environ.get("PHASE10MATH_THREADS")
    if env:
        return max(1, int(env))
    return max(1, min(2, os.cpu_count() or 1))


def in_slabs(fn: Callable, *arrays: np.ndarray, axis: int | None = None) -> None:
    """``fn(i, *slabs)`` on ``threads()`` independent slabs of ``arrays`` (equally long on the
    axis cut), in parallel: the slabs split the first axis (or, when it is shorter than the
    number of threads, the last; ``axis`` forces one). ``fn`` writes only into its slabs."""
    k = threads()
    shape = arrays[0].shape
    if axis is None:
        axis = 0 if shape and shape[0] >= k else len(shape) - 1
    if k == 1 or not shape or shape[axis] < k or arrays[0].size < MIN_SLAB:
        fn(0, *arrays)
        return
    cut = [shape[axis] * i // k for i in range(k + 1)]

    def part(i: int) -> None:
        sl = (slice(None),) * axis + (slice(cut[i], cut[i + 1]),)
        fn(i, *(a[sl] for a in arrays))

    _in_threads(part, k)


def _in_threads(part: Callable[[int], None], k: int) -> None:
    """``part(0)``, ..., ``part(k - 1)`` at once on the kit's thread pool (in this thread when
    ``k`` is 1); each part writes only its own share."""
    if k == 1:
        part(0)
        return
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(threads(), thread_name_prefix="phase10math-tensor"))
    for fut in [_POOL[0].submit(part, i) for i in range(k)]:
        fut.result()


# --------------------------------------------------------------------------- passes


def _faces(n: int) -> tuple:
    return (slice(1, None),) * n


def _all(n: int) -> tuple:
    return (slice(None),) * n


def _axis_view(T: np.ndarray, j: int, p: int) -> np.ndarray:
    """``T`` seen as ``(f_0, .., f_{p-1}, rest of axes < j, slots of axis j, axes > j)``: the
    first ``p`` axes restricted to their face slots, the others merged (contiguous blocks,
    so numpy's inner loops stay long)."""
    s = T.shape
    V = T[_faces(p)]
    return V.reshape(tuple(x - 1 for x in s[:p]) + (math.prod(s[p:j]), s[j], math.prod(s[j + 1 :])))


def _pruned(n: int, j: int) -> int:
    """How many leading axes a pass over axis ``j`` restricts to face slots: all that may be
    (the axes before ``j``), but at least five axes stay merged so inner loops stay long."""
    return max(0, min(j, n - 5))


BLOCK = 1 << 15  # entries per slot in one block of an axis pass (its scratch stays in cache)


def _blocks(shape: tuple[int, ...], target: int = BLOCK) -> list[tuple]:
    """Index tuples cutting an axis view ``(lead.., mid, slots, rest)`` into blocks of about
    ``target`` entries per slot (all slots of an entry in the same block)."""
    rest = shape[-1]
    if rest >= target:
        return [
            idx + (slice(None), slice(lo, lo + target))
            for idx in np.ndindex(*shape[:-2])
            for lo in range(0, rest, target)
        ]
    a, inner = len(shape) - 3, rest
    while a > 0 and inner * shape[a] < target:
        inner *= shape[a]
        a -= 1
    g = max(1, target // inner)
    return [
        idx + (slice(lo, lo + g),) for idx in np.ndindex(*shape[:a]) for lo in range(0, shape[a], g)
    ]


def _blockwise(step: Callable, *views: np.ndarray) -> None:
    """``step(thread, *blocks)`` over the cache-sized blocks of equally shaped axis views, the
    blocks shared out among :func:`threads` threads (each writes only into its own blocks)."""
    blocks = _blocks(views[0].shape)
    k = min(threads(), len(blocks))
    cut = [len(blocks) * i // k for i in range(k + 1)]

    def part(i: int) -> None:
        for ix in blocks[cut[i] : cut[i + 1]]:
            step(i, *(v[ix] for v in views))

    _in_threads(part, k)


def expect_into(space: StateSpace, values: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Fill the hold tensor ``T`` (shape :func:`tensor_shape`) with ``N(K) = 6**n E[values |
    K held]``, ``values`` (int64) given on the roll states in ``full_ids`` order; for a float64
    ``T``, with ``E[values | K held]`` itself (float arithmetic, see :func:`solve_tensor_float`).

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
        T[_faces(n)],
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
                    tmp = _scratch(f"mul{i}", dst.shape, np.int64) if tmp is None else tmp
                    np.multiply(src, wf, out=tmp)
                    src = tmp
                if f == 0:
                    np.multiply(src, wf, out=dst) if wf != 1 else np.copyto(dst, src)
                else:
                    np.add(dst, src, out=dst)
            divide(dst, 6, out=dst)

        _blockwise(step, _axis_view(T, j, _pruned(n, j)))
    return T


def subset_max(
    space: StateSpace, T: np.ndarray, A: np.ndarray, second: np.ndarray | None = None
) -> None:
    """In place: face entries of ``T`` become the maximum over their sub-holds; ``A``
    (:func:`code_dtype`, zeroed here) gets the :func:`hold_code` of the arg-max (its dice
    not held). Axes go first to last.

    ``second`` (optional, same shape as ``T``): a second int64 key compared lexicographically
    after ``T`` (issue 16); it is carried along. Cost: one more tensor (8 bytes a hold) and,
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
    in_slabs(lambda i, a: a.fill(0), A)
    for j in range(n):
        p = _pruned(n, j)
        views = [_axis_view(T, j, p), _axis_view(A, j, p)]
        if second is not None:
            views.append(_axis_view(second, j, p))
        dt = code_dtype(n)
        add = dt.type(hold_code(n, 1 << j))

        def step(i: int, V: np.ndarray, AV: np.ndarray, V2=None, add=add) -> None:
            nh = V[..., 0, :]
            better = _scratch(f"better{i}", nh.shape, np.bool_)
            tie = _scratch(f"tie{i}", nh.shape, np.bool_)
            cmp = _scratch(f"cmp{i}", nh.shape, np.bool_)
            codeA = _scratch(f"codeA{i}", nh.shape, AV.dtype)
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

        _blockwise(step, *views)


def code_dtype(n: int) -> np.dtype:
    """The dtype of :func:`hold_code` for ``n`` dice: uint16 up to 12 dice, else uint32."""
    return np.dtype(np.uint16 if n + n.bit_length() <= 16 else np.uint32)


def hold_code(n: int, mask):
    """The code of a sub-hold of an entry that shows every die of ``mask``'s bits: ``mask``
    (bit ``d`` = die ``d`` not held) as ``popcount << n | (bit d moved to bit n - 1 - d)``.
    For sub-holds of one entry a smaller code keeps more dice, or as many and has the larger
    state id (ids are C order, die 0 has the largest stride, so the larger id holds the lowest
    die where the two differ). Codes of disjoint masks add up (``code(a | b) = code(a) +
    code(b)``), so a pass adds the code of its die. Works on ints and arrays."""
    m = np.asarray(mask, dtype=np.int64)
    code = np.zeros_like(m)
    for d in range(n):
        bit = (m >> d) & 1
        code += (bit << n) + (bit << (n - 1 - d))
    return int(code) if code.ndim == 0 else code.astype(code_dtype(n))


def holds_from_codes(space: StateSpace, code: np.ndarray, dtype=np.int64) -> np.ndarray:
    """Hold ids from the arg-max :func:`hold_code` s of the roll states (``full_ids`` order):
    the roll's id minus, for every die not held, its slot times its stride. The code's low
    ``n`` bits name the dice not held (bit ``n - 1 - d`` for die ``d``); two lookup tables
    (dice split in halves), indexed by those bits directly, keep it to two gathers."""
    n = len(space.types)
    fs = face_shape(space)
    h = n // 2
    strides = [int(s) for s in space.strides]
    out = np.empty(math.prod(fs), dtype=dtype)

    def table(axes: list[int]) -> np.ndarray:
        # row m: the dice of ``axes`` whose bit is set in m (bit len - 1 - i for axes[i],
        # as in the code) not held; column: the roll of those dice (C order)
        sub = [fs[a] for a in axes]
        combos = np.indices(sub).reshape(len(axes), -1) if axes else np.zeros((0, 1), int)
        tab = np.zeros((2 ** len(axes), combos.shape[1]), dtype=np.int64)
        for m in range(2 ** len(axes)):
            for i, a in enumerate(axes):
                if m >> (len(axes) - 1 - i) & 1:
                    tab[m] += strides[a] * (combos[i] + 1)
        return tab

    P1, P2 = math.prod(fs[:h]), math.prod(fs[h:])
    tab_lo, tab_hi = table(list(range(h))), table(list(range(h, n)))
    # the roll's own id: every die held (all bits set)
    id_lo, id_hi = tab_lo[-1].astype(dtype), tab_hi[-1].astype(dtype)
    t_lo = tab_lo.astype(dtype).ravel()
    t_hi = tab_hi.astype(dtype).ravel()
    col = np.arange(P2, dtype=np.int64)[None, :]
    step = max(1, (1 << 20) // P2)

    def part(i: int, o2: np.ndarray, c2: np.ndarray, rows: np.ndarray) -> None:  # in threads
        for lo in range(0, len(rows), step):
            cb = c2[lo : lo + step].astype(np.int64)
            row = rows[lo : lo + step, None]
            np.add(id_lo[row], id_hi[None, :], out=o2[lo : lo + step])
            o2[lo : lo + step] -= t_lo[((cb >> (n - h)) & ((1 << h) - 1)) * P1 + row]
            o2[lo : lo + step] -= t_hi[(cb & ((1 << (n - h)) - 1)) * P2 + col]

    in_slabs(part, out.reshape(P1, P2), code.reshape(P1, P2), np.arange(P1), axis=0)
    return out


def _faces_copy(T: np.ndarray) -> np.ndarray:
    """The face entries (roll states) of a hold tensor as a flat contiguous copy (threads)."""
    n = T.ndim
    out = np.empty(tuple(x - 1 for x in T.shape), dtype=T.dtype)
    in_slabs(lambda i, o, t: np.copyto(o, t), out, T[_faces(n)], axis=0)
    return out.reshape(-1)


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


# --------------------------------------------------------------------------- solve


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
    T = _buffer("T", S, np.int64).reshape(shape)
    # the utilities in their own (small) integer dtype: a stage reads them as int64
    roll_num = {0: _integers(top)}
    roll_num2 = {} if second is None else {0: _integers(second)}
    roll_arg = {}
    idt = np.int32 if S < 2**31 else np.int64
    n = len(shape)
    for r in range(1, rolls):
        if progress:
            progress(f"rolls left {r}")
        A = _buffer("A", S, code_dtype(n)).reshape(shape)
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


def one_key_stage(
    space: StateSpace, values: np.ndarray, T: np.ndarray, A: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One stage on one hold tensor ``T`` (int64, or float64 for :func:`solve_tensor_float`):
    the expectation of the roll values ``values`` of the stage before, the subset maximum, and
    the roll values and arg-max :func:`hold_code` s of this stage (``full_ids`` order)."""
    expect_into(space, values, T)
    subset_max(space, T, A)
    return _faces_copy(T), _faces_copy(A)


def _integers(a) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a if a.dtype.kind in "iu" and a.dtype.itemsize <= 8 else a.astype(np.int64)


def smallest_int(a: np.ndarray) -> np.ndarray:
    """``a`` (integers) in the smallest signed dtype that holds it (utilities of a tensor solve
    are kept so: 1 or 2 bytes a roll instead of 8).

    >>> smallest_int(np.array([0, 1])).dtype, smallest_int(np.array([-1, 300])).dtype
    (dtype('int8'), dtype('int16'))
    """
    lo, hi = (int(a.min()), int(a.max())) if a.size else (0, 0)
    for dt in (np.int8, np.int16, np.int32):
        if np.iinfo(dt).min <= lo and hi <= np.iinfo(dt).max:
            return a.astype(dt, copy=False)
    return a.astype(np.int64, copy=False)


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
                lambda i, o, e: np.multiply(e, 6, out=o), out[sl].reshape(fs9), E[_faces(n - 1)]
            )
        outc[sl] = widen(_faces_copy(Cb))
    # the holds without die 0: the weighted sums, then their best sub-holds
    subset_max(rest, Ta, Ca, second=Tb)
    m1, m2 = _faces_copy(Ta), _faces_copy(Tb)
    mc = widen(_faces_copy(Ca)) + dt.type(hold_code(n, 1))

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
    T = _buffer("T", math.prod(shape), np.int64).view(dtype).reshape(shape)
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
    T = _buffer("T", S, np.int64).view(np.float64).reshape(shape)
    vals = np.ascontiguousarray(util, dtype=np.float64)
    arg: dict[int, np.ndarray] = {}
    idt = np.int32 if S < 2**31 else np.int64
    for r in range(1, rolls):
        A = _buffer("A", S, code_dtype(len(shape))).reshape(shape)
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


class LazyHoldValues:
    """``hold_num[r]`` of a tensor solve: ``self[gids]`` computes the hold values asked for
    from the roll values with ``r - 1`` rolls left (a restricted transform: per die only the
    faces some asked hold shows, plus the 'not held' sum)."""

    def __init__(self, space: StateSpace, below: np.ndarray):
        self.space, self.below = space, below

    def __len__(self) -> int:
        return self.space.n_states

    def __getitem__(self, gids):
        scalar = np.ndim(gids) == 0
        g = np.atleast_1d(np.asarray(gids, dtype=np.int64))
        sp = self.space
        n = len(sp.types)
        slots = [(g // int(st)) % (len(t.faces) + 1) for st, t in zip(sp.strides, sp.types)]
        W = self.below.reshape(face_shape(sp))
        maps = []
        for d, typ in enumerate(sp.types):
            used = np.unique(slots[d][slots[d] > 0]) - 1
            w = np.asarray(typ.weights, dtype=np.int64).reshape(
                (1,) * d + (-1,) + (1,) * (n - d - 1)
            )
            tot = (W * w).sum(axis=d, keepdims=True) if (w != 1).any() else W.sum(d, keepdims=True)
            W = np.concatenate([W.take(used, axis=d), tot], axis=d)
            m = np.full(len(typ.faces) + 1, -1, dtype=np.int64)
            m[used + 1] = np.arange(len(used))
            m[0] = len(used)
            maps.append(m[slots[d]])
        held = sum((s > 0).astype(np.int64) for s in slots)
        vals = W[tuple(maps)] * (6 ** held.astype(np.int64) if n < 24 else 1)
        return int(vals[0]) if scalar else vals


# --------------------------------------------------------------------------- final scores


def _cells(space: StateSpace, d: int) -> np.ndarray:
    """Meld cell (value * 4 + color) of every face of die ``d`` (through representatives)."""

    reps = [space.projection.representative(k) for k in space.types[d].faces]
    return np.array([f.value * 4 + COLORS.index(f.color) for f in reps], dtype=np.int64)


def _part_profiles(space: StateSpace, axes: list[int]) -> np.ndarray:
    """``(P, 44)`` int16 profiles of every roll of the dice ``axes`` (C order)."""
    fs = [len(space.types[a].faces) for a in axes]
    idx = np.indices(fs).reshape(len(axes), -1)
    prof = np.zeros((idx.shape[1], 44), dtype=np.int16)
    rows = np.arange(idx.shape[1])
    for i, a in enumerate(axes):
        np.add.at(prof, (rows, _cells(space, a)[idx[i]]), 1)
    return prof


def _pair_gather(
    table: np.ndarray, inv_a: np.ndarray, inv_b: np.ndarray, nb: int, out: np.ndarray | None = None
) -> np.ndarray:
    """``table[inv_a[i] * nb + inv_b[j]]`` for every (i, j), C order, in ``table``'s dtype; with
    ``out`` (flat) the element-wise maximum with it, in place. The columns are gathered once per
    distinct ``a`` (``table[:, inv_b]``), then whole rows are copied (in threads)."""
    G = table.reshape(-1, nb)[:, inv_b]
    first = out is None
    res = np.empty(len(inv_a) * len(inv_b), dtype=table.dtype) if first else out
    step = max(1, (1 << 20) // max(1, len(inv_b)))

    def fill(i: int, o: np.ndarray, ia: np.ndarray) -> None:
        for lo in range(0, len(ia), step):
            blk = o[lo : lo + step]
            if first:
                np.take(G, ia[lo : lo + step], axis=0, out=blk)
            else:
                np.maximum(blk, G[ia[lo : lo + step]], out=blk)

    in_slabs(fill, res.reshape(len(inv_a), len(inv_b)), np.asarray(inv_a, dtype=np.intp), axis=0)
    return res


def final_scores_tensor(ph, space: StateSpace, rules) -> np.ndarray:
    """Best score (-1 = not made; int16) of every roll state of a distinct-dice space,
    ``full_ids`` order, without a meld pass per roll: the dice are split in two halves, the
    profiles of each half are made distinct, and the meld engine runs once per pair of
    distinct half-profiles (for a phase that is one color group alone, a per-color formula
    on smaller summaries)."""

    n = len(space.types)
    h = n // 2
    pa, pb = _part_profiles(space, list(range(h))), _part_profiles(space, list(range(h, n)))
    kinds = [g.kind for g in ph.groups]
    if kinds == ["color"]:
        return _one_color_group(ph.groups[0].size, pa, pb)
    if kinds.count("color") == 1:
        return _per_color(ph, rules, pa, pb)
    ua, inv_a = np.unique(pa, axis=0, return_inverse=True)
    ub, inv_b = np.unique(pb, axis=0, return_inverse=True)
    table = np.empty(len(ua) * len(ub), dtype=np.int16)
    step = max(1, (1 << 18) // len(ub))

    def fill(i: int, tab: np.ndarray, rows: np.ndarray) -> None:  # in threads
        tab = tab.reshape(-1)
        for lo in range(0, len(rows), step):
            pairs = (rows[lo : lo + step, None, :] + ub[None, :, :]).reshape(-1, 11, 4)
            tab[lo * len(ub) : lo * len(ub) + len(pairs)] = best_scores(ph, pairs, rules)

    in_slabs(fill, table.reshape(len(ua), len(ub)), ua, axis=0)
    return _pair_gather(table, inv_a.ravel(), inv_b.ravel(), len(ub))


def _per_color(ph, rules, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Final scores of a phase with one color group besides sets or runs: the maximum over the
    group's color x of the best score with the group in x. With x fixed, the meld needs only
    the x-colored dice and the count of every value, so each half is summarised by its
    profile with the other three colors merged into one column (a color the group may not
    take): far fewer distinct halves, and one color per pair instead of four."""
    return _max_over_colors(
        pa, pb, lambda pairs, x: best_scores(ph, pairs, rules, group_colors=[x]), np.int16
    )


def _max_over_colors(pa: np.ndarray, pb: np.ndarray, fn: Callable, dtype) -> np.ndarray:
    """``max over x of fn(profiles, x)`` for every pair of half-profiles (C order), where
    ``fn(., x)`` reads only the x-colored dice and the count of every value: per color, the
    halves are merged as described in :func:`_per_color` and ``fn`` runs once per pair of
    distinct merged halves (in threads)."""
    best = None
    for x in range(4):
        y = (x + 1) % 4
        summ = []
        for p in (pa, pb):
            q = np.zeros((len(p), 11, 4), dtype=np.int16)
            p3 = p.reshape(-1, 11, 4)
            q[:, :, x] = p3[:, :, x]
            q[:, :, y] = p3.sum(axis=2) - p3[:, :, x]
            u, inv = np.unique(q.reshape(len(p), 44), axis=0, return_inverse=True)
            summ.append((u, inv.ravel()))
        (ua, ia), (ub, ib) = summ
        table = np.empty(len(ua) * len(ub), dtype=dtype)
        step = max(1, (1 << 18) // len(ub))

        def fill(i: int, tab: np.ndarray, rows: np.ndarray, ub=ub, x=x, step=step) -> None:
            tab = tab.reshape(-1)
            for lo in range(0, len(rows), step):
                pairs = (rows[lo : lo + step, None, :] + ub[None, :, :]).reshape(-1, 11, 4)
                tab[lo * len(ub) : lo * len(ub) + len(pairs)] = fn(pairs, x)

        in_slabs(fill, table.reshape(len(ua), len(ub)), ua, axis=0)
        best = _pair_gather(table, ia, ib, len(ub), out=best)
    return best


def _one_color_group(k: int, pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """'k of one color' alone: per color, the sum of the k best values of that color (W = 0)
    when at least k dice show it. Each half is summarised per color by (count, sum, its m
    smallest values), m = dice - k; the best k of a pair drop the c - k smallest of both."""
    n_a = int(pa[0].sum())
    n_b = int(pb[0].sum())
    m = n_a + n_b - k
    best = None
    big = 99
    for x in range(4):
        summ = []
        for p in (pa, pb):
            cnt = p[:, x::4]  # (P, 11) counts of color x per value 0..10
            c = cnt.sum(axis=1).astype(np.int64)
            s = (cnt * np.arange(11)).sum(axis=1).astype(np.int64)
            small = np.full((len(p), max(m, 0)), big, dtype=np.int64)
            left = np.zeros(len(p), dtype=np.int64)
            for v in range(11):
                for _ in range(max(m, 0)):
                    put = (cnt[:, v] > 0) & (left < m)
                    rows = np.flatnonzero(put)
                    small[rows, left[rows]] = v
                    left[rows] += 1
                    cnt = cnt.copy()
                    cnt[rows, v] -= 1
            key = np.concatenate([c[:, None], s[:, None], small], axis=1)
            u, inv = np.unique(key, axis=0, return_inverse=True)
            summ.append((u, inv.ravel()))
        (ua, ia), (ub, ib) = summ
        c = ua[:, None, 0] + ub[None, :, 0]
        s = ua[:, None, 1] + ub[None, :, 1]
        merged = np.sort(
            np.concatenate(
                [
                    np.broadcast_to(ua[:, None, 2:], (len(ua), len(ub), max(m, 0))),
                    np.broadcast_to(ub[None, :, 2:], (len(ua), len(ub), max(m, 0))),
                ],
                axis=2,
            ),
            axis=2,
        )
        drop = np.concatenate(
            [np.zeros((len(ua), len(ub), 1), np.int64), np.cumsum(merged, axis=2)], axis=2
        )
        ndrop = np.clip(c - k, 0, max(m, 0))
        score = s - np.take_along_axis(drop, ndrop[..., None], axis=2)[..., 0]
        table = np.where(c >= k, score, -1).astype(np.int16).ravel()
        best = _pair_gather(table, ia, ib, len(ub), out=best)
    return best


# --------------------------------------------------------------------------- greedy


def greedy_holds_tensor(space: StateSpace, ph, rules, chunk: int = 1 << 18) -> np.ndarray:
    """The greedy baseline's hold id for every roll state of a distinct-dice space
    (``full_ids`` order), in chunks of rolls (no per-state tables), in :func:`threads`
    threads. A roll's profile is the sum of the profiles of its two halves (dice split as in
    :func:`final_scores_tensor`); for a phase with one color group besides sets or runs the
    greedy's choice is found one color at a time on merged half-profiles
    (:func:`_max_over_colors` on :func:`phase10math.dice.partial.greedy_codes`). Kept counts
    per meld cell go to the dice in type order, as
    :func:`phase10math.turn.policy.policy_holds` does."""

    n = len(space.types)
    h = n // 2
    fs = face_shape(space)
    Pa, Pb = math.prod(fs[:h]), math.prod(fs[h:])
    pa, pb = _part_profiles(space, list(range(h))), _part_profiles(space, list(range(h, n)))
    kinds = [g.kind for g in ph.groups]
    codes = None
    if kinds.count("color") == 1 and len(kinds) > 1:
        codes = _max_over_colors(
            pa, pb, lambda pairs, x: greedy_codes(ph, pairs, rules, group_colors=[x]), np.int32
        ).reshape(Pa, Pb)
    ida = np.indices(fs[:h]).reshape(h, -1) if h else np.zeros((0, 1), np.int64)
    idb = np.indices(fs[h:]).reshape(n - h, -1)
    cells = [_cells(space, d) for d in range(n)]
    strides = [int(s) for s in space.strides]
    out = np.empty(Pa * Pb, dtype=np.int32 if space.n_states < 2**31 else np.int64)
    step = max(1, chunk // Pb)

    def run(i: int, o: np.ndarray, rows_all: np.ndarray) -> None:
        o = o.reshape(-1)
        for lo in range(0, len(rows_all), step):
            ra = rows_all[lo : lo + step]
            P = len(ra) * Pb
            prof = (pa[ra][:, None, :] + pb[None, :, :]).reshape(P, 11, 4)
            c = greedy_codes(ph, prof, rules) if codes is None else codes[ra].reshape(-1)
            keep = greedy_cells(ph, prof, c, rules).reshape(-1)
            base = np.arange(P, dtype=np.int64) * 44
            gid = np.zeros(P, dtype=np.int64)
            for d in range(n):
                if d < h:
                    face = np.repeat(ida[d][ra], Pb)
                else:
                    face = np.tile(idb[d - h], len(ra))
                at = base + cells[d][face]
                take = keep[at] > 0
                keep[at[take]] -= 1
                gid += np.where(take, strides[d] * (face + 1), 0)
            o[lo * Pb : lo * Pb + P] = gid

    in_slabs(run, out.reshape(Pa, Pb), np.arange(Pa), axis=0)
    return out
