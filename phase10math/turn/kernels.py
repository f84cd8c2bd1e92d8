"""The steps of the turn's recurrence, as array operations on a state space.

With ``V_r`` the value of a roll when ``r`` rerolls remain and ``W_r`` the value of a hold:

- :func:`final_scores` / :func:`utility_from_scores`: ``V_0``, the utility of every final roll;
- :func:`expect_rerolls`: ``W_r(K) = E[V_{r-1}(K + roll of the other dice)]``, one die type
  at a time (a numerator over ``6**(missing dice)``);
- :func:`normalise`: every hold's value over the common denominator ``6**n_dice``;
- :func:`hold_ranks`: the kit's one order of holds (lexicographic in the objective's keys,
  then more dice kept, then a fixed numbering), as ranks;
- :func:`subset_max`: ``V_r(S) = max over K within S of W_r(K)`` with its arg-max;
- :func:`mean_over_first_roll`: the value of a turn before its first roll.

Numbers are int64 numerators where :func:`phase10math.exact.fits_int64` proves they fit, Python
integers otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from phase10math.dice.meld import best_scores
from phase10math.dice.phases import Phase
from phase10math.dice.rules import Objective, Rules
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import (
    exact_total,
    final_scores_tensor,
    is_tensor_space,
    tensor_weights,
)

TENSOR_FINALS_ROLLS = 1_000_000  # distinct-dice spaces with more rolls: finals by half-profiles


def first_roll_total(space: StateSpace, values: np.ndarray) -> int:
    """Sum of per-roll-state numerators ``values`` (``full_ids`` order), each weighted by the
    number of ways the first roll shows that state (Python integers: no overflow)."""
    values = np.asarray(values)
    if values.dtype.kind in "iu" and values.dtype.itemsize <= 8:
        weights = tensor_weights(space) if is_tensor_space(space) else space.roll_weights
        return exact_total(values, weights)
    return int(np.dot(values.astype(object), space.roll_weights.astype(object)))


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


_FINALS: dict[tuple, np.ndarray] = {}


def final_scores(phase: Phase, space: StateSpace, rules: Rules) -> np.ndarray:
    """Best score (-1 = not made) of every roll state of ``space``; memoised (by the phase,
    the space's :meth:`~phase10math.turn.statespace.StateSpace.key` and the rule that changes
    melds) so that both objectives and policy evaluations share one meld pass."""
    key = (phase.key(), space.key(), rules.sets_may_share_number)
    if key not in _FINALS:
        rolls = math.prod(len(t.faces) for t in space.types) if space.distinct else None
        big = rolls is not None and rolls > TENSOR_FINALS_ROLLS
        if len(_FINALS) > 8 or big:
            _FINALS.clear()  # one roll-sized array of a large space at a time
        if big:
            _FINALS[key] = final_scores_tensor(phase, space, rules)
        else:
            _FINALS[key] = evaluate_on_unique(
                space, space.full_ids, lambda prof: best_scores(phase, prof, rules)
            )
    return _FINALS[key]


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
    T(i) = sum over faces f of w_f T(i + f), from the fullest sub-multisets down."""
    shape = [len(s) for s in space.sub]
    T = np.zeros(space.n_states, dtype=top.dtype)
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
    return T.reshape(-1)


def normalise(space: StateSpace, T: np.ndarray) -> np.ndarray:
    """N(K) = T(K) * 6**|K|: every hold's value over one common denominator."""
    pow6 = np.array(
        [6**k for k in range(space.n_dice + 1)], dtype=object if T.dtype == object else np.int64
    )
    return T * pow6[space.size]


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
    first wins."""
    # a trailing axis of length 1 keeps every slice an array, also with a single die type
    shape = [len(s) for s in space.sub] + [1]
    M = N.reshape(shape).copy()
    arg = np.arange(space.n_states, dtype=np.int64).reshape(shape)
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
    M, arg = M.reshape(-1), arg.reshape(-1)
    return (M, arg) if ids is None else (M[ids], arg[ids])
