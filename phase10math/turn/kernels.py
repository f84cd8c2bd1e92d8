"""The steps of the turn's recurrence, as array operations on a state space.

With ``V_r`` the value of a roll when ``r`` rerolls remain and ``W_r`` the value of a hold:

- :func:`evaluate_on_unique` / :func:`utility_from_scores`: ``V_0``, the utility of every
  final roll (the memoised meld pass is :func:`phase10math.turn.engine.final_scores`);
- :func:`expect_rerolls`: ``W_r(K) = E[V_{r-1}(K + roll of the other dice)]``, one die type
  at a time (a numerator over ``6**(missing dice)``);
- :func:`normalise`: every hold's value over the common denominator ``6**n_dice``;
- :func:`hold_ranks`: the kit's one order of holds (lexicographic in the objective's keys,
  then more dice kept, then a fixed numbering), as ranks;
- :func:`subset_max`: ``V_r(S) = max over K within S of W_r(K)`` with its arg-max;
- :func:`binomial_subset_sum`: the sum over every way to keep a subset of the dice (the
  uniformly random hold);
- :func:`mean_over_first_roll`: the value of a turn before its first roll.

These are the per-type engine's steps; :mod:`phase10math.turn.engine` picks the engine and
runs the one backward induction.

Numbers are int64 numerators where :func:`phase10math.exact.fits_int64` proves they fit, Python
integers otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from phase10math.dice.rules import Objective
from phase10math.turn.statespace import StateSpace

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = ["lexicographic_utilities", "utility_from_scores"]


def first_roll_total(space: StateSpace, values: np.ndarray) -> int:
    """Sum of per-roll-state numerators ``values`` (``full_ids`` order), each weighted by the
    number of ways the first roll shows that state (Python integers: no overflow)."""
    w = space.roll_weights
    return int(np.dot(np.asarray(values).astype(object), w.astype(object)))


def mean_over_first_roll(space: StateSpace, values: np.ndarray, rolls: int) -> Fraction:
    """Exact mean of per-roll-state numerators ``values`` (``full_ids`` order) over the first
    roll, as a fraction of ``6 ** (n_dice * rolls)``."""
    return Fraction(first_roll_total(space, values), 6 ** (space.n_dice * rolls))


def evaluate_on_unique(space: StateSpace, ids: np.ndarray, fn) -> np.ndarray:
    """``fn`` on the meld profiles of states ``ids``, evaluated once per distinct profile."""
    prof = space.profiles(ids).reshape(len(ids), -1)
    cols = np.flatnonzero(prof.any(axis=0))
    # pack the used cells (each count <= 10 fits in 4 bits) into int64 keys
    packed = np.zeros((len(ids), (len(cols) + 15) // 16), dtype=np.int64)
    for j, c in enumerate(cols):
        packed[:, j // 16] |= prof[:, c].astype(np.int64) << (4 * (j % 16))
    if packed.shape[1] == 1:
        _, first, inverse = np.unique(packed[:, 0], return_index=True, return_inverse=True)
    else:
        # distinct hashes prove distinct profiles; only on a clash is the exact grouping run
        mult = np.array(
            [0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9][: packed.shape[1]],
            dtype=np.uint64,
        )
        with np.errstate(over="ignore"):
            h = (packed.astype(np.uint64) * mult).sum(axis=1)
        hs = np.sort(h)
        if len(hs) < 2 or bool((hs[1:] != hs[:-1]).all()):
            return np.asarray(fn(prof.reshape(-1, 11, 4)))
        view = np.ascontiguousarray(packed).view([("", np.int64)] * packed.shape[1]).ravel()
        _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
    vals = np.asarray(fn(prof[first].reshape(-1, 11, 4)))
    return vals[inverse.ravel()]


def utility_from_scores(best: np.ndarray, objective: Objective | str, dtype=np.int64) -> np.ndarray:
    """1/0 completion or the score (0 when not made) from best scores (``dtype``: int64, or a
    smaller integer type for the 60 million rolls of a tensor solve; scores fit in int16)."""
    if Objective.parse(objective) is Objective.COMPLETE:
        return (best >= 0).astype(dtype)
    return np.maximum(best, 0, dtype=dtype)


def lexicographic_utilities(
    best: np.ndarray, objective: Objective | str, worst_second: bool = False, dtype=np.int64
) -> tuple[np.ndarray, np.ndarray]:
    """The two keys of an objective from best scores: 'complete' is P(complete), then the
    score; 'score' is the score, then P(complete). ``worst_second`` negates the second key
    (among ties on the first key, the worst second key: used to show what the tie rule is
    worth)."""
    objective = Objective.parse(objective)
    other = Objective.SCORE if objective is Objective.COMPLETE else Objective.COMPLETE
    second = utility_from_scores(best, other, dtype)
    return utility_from_scores(best, objective, dtype), -second if worst_second else second


def _axis(arr: np.ndarray, t: int, i) -> tuple:
    """Index selecting sub-multiset(s) ``i`` of type ``t`` in an array shaped per type."""
    return (slice(None),) * t + (i,)


def expect_rerolls(space: StateSpace, top: np.ndarray) -> np.ndarray:
    """T(K) = expectation of ``top`` over rolling the dice missing from K, as an integer
    numerator scaled by 6**(missing dice); T(full) = top.

    The dice of different types are independent, so the expectation is a product of one
    operator per type, applied along that type's axis of the state array: within a type,
    T(i) = sum over faces f of w_f T(i + f), from the fullest sub-multisets down.

    ``top`` may have a trailing batch axis (``(rolls, B)``: B utilities in one pass)."""
    batch = tuple(top.shape[1:])
    shape = [len(s) for s in space.sub] + list(batch)
    T = np.zeros((space.n_states, *batch), dtype=top.dtype)
    T[space.full_ids] = top
    T = T.reshape(shape)
    for t, typ in enumerate(space.types):
        sizes = space.sub[t].sum(axis=1)
        add = space.add_tables[t]
        for i in np.argsort(-sizes, kind="stable"):
            if sizes[i] == typ.count:
                continue
            acc = None
            for f, wt in enumerate(typ.weights):
                term = T[_axis(T, t, int(add[i, f]))]
                acc = wt * term if acc is None else acc + wt * term
            T[_axis(T, t, int(i))] = acc
    return T.reshape(space.n_states, *batch)


def normalise(space: StateSpace, T: np.ndarray) -> np.ndarray:
    """N(K) = T(K) * 6**|K|: every hold's value over one common denominator (a trailing
    batch axis is kept)."""
    pow6 = np.array(
        [6**k for k in range(space.n_dice + 1)], dtype=object if T.dtype == object else np.int64
    )
    scale = pow6[space.size]
    return T * scale.reshape(-1, *([1] * (T.ndim - 1)))


TIE_RULE = "holds equal on both keys: the one keeping more dice, then a fixed order of the holds"


def hold_ranks(space: StateSpace, keys: Sequence[np.ndarray]) -> np.ndarray:
    """Every hold's rank (0 = worst) in the one order of holds the kit uses everywhere.

    Holds are compared by ``keys[0]``, then ``keys[1]``, ... (exact numerators over common
    denominators, int64 or Python integers), then by how many dice they keep (more is
    better: "keep the larger hold"), then by the state id (a larger id is better; this fixes
    the rare remaining ties). The ranks are a permutation of ``0 .. n_states - 1``, so a
    maximum of ranks has exactly one arg-max: there are no ties left for the solver to break.
    :func:`hold_order_key` is the same order for a few holds at a time (the advisor)."""
    order = np.lexsort((space.size,) + tuple(np.asarray(k) for k in reversed(keys)))
    rank = np.empty(space.n_states, dtype=np.int64)
    rank[order] = np.arange(space.n_states, dtype=np.int64)
    return rank


def hold_order_key(values: Sequence[int], size: int, gid: int) -> tuple:
    """The sort key (larger is better) of one hold in the order of :func:`hold_ranks`:
    its key numerators, its number of dice, its state id."""
    return (*(int(v) for v in values), int(size), int(gid))


def subset_max(
    space: StateSpace, N: np.ndarray, ids: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """M(K) = max over holds J within K of N(J), and the arg-max J.

    Sub-multisets of K are reached by removing dice type by type, so the maximum is a
    product of one running maximum per type along that type's axis (sub-multisets in order
    of size). A smaller hold replaces the current best only when strictly better. The turn
    solver runs it on :func:`hold_ranks` (all distinct), so its arg-max is the one best hold of
    the kit's order; on raw values with ties (the float solitaire iteration) the hold found
    first wins. ``N`` may have a trailing batch axis (then so have M and the arg-max)."""
    # a trailing axis (the batch, or of length 1) keeps every slice an array, also with a
    # single die type
    batch = tuple(N.shape[1:]) or (1,)
    shape = [len(s) for s in space.sub] + list(batch)
    M = N.reshape(shape).copy()
    arg = np.broadcast_to(
        np.arange(space.n_states, dtype=np.int64).reshape(shape[: -len(batch)] + [1] * len(batch)),
        shape,
    ).copy()
    for t, typ in enumerate(space.types):
        sizes = space.sub[t].sum(axis=1)
        rem = space.remove_tables[t]
        for i in np.argsort(sizes, kind="stable"):
            dst = _axis(M, t, int(i))
            for f in range(len(typ.faces)):
                j = int(rem[i, f])
                if j < 0:
                    continue
                src = _axis(M, t, j)
                better = M[src] > M[dst]
                if better.any():
                    np.copyto(M[dst], M[src], where=better)
                    np.copyto(arg[dst], arg[src], where=better)
    out = (space.n_states, *N.shape[1:])
    M, arg = M.reshape(out), arg.reshape(out)
    return (M, arg) if ids is None else (M[ids], arg[ids])


def binomial_subset_sum(space: StateSpace, N: np.ndarray) -> np.ndarray:
    """S(K) = sum over sub-multisets J of K of prod_f C(K_f, J_f) N(J): the sum over all
    ways to keep a subset of the dice of K (each die kept or not). Exact (ints or objects)."""
    S = N.copy()
    for t, typ in enumerate(space.types):
        d_all = space.digits[t]
        sub = space.sub[t]
        for f in range(len(typ.faces)):
            cnt = sub[:, f][d_all]
            old = S.copy()
            for v in range(1, typ.count + 1):
                sel = np.flatnonzero(cnt == v)
                if len(sel) == 0:
                    break
                cur = sel
                for drop in range(1, v + 1):  # J_f = v - drop
                    dd = d_all[cur]
                    cur = (
                        cur
                        + (space.remove_tables[t][dd, f].astype(np.int64) - dd) * space.strides[t]
                    )
                    S[sel] = S[sel] + math.comb(v, drop) * old[cur]
    return S
