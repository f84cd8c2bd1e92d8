"""The batch engine's compiled steps (numba; one hold and one face at a time, the GIL
released): the turn's recurrence on the per-type state space with a trailing axis of ``B``
utilities (:class:`~phase10math.turn.engine.BatchEngine`), and the forward pass of the
policies found (:class:`~phase10math.turn.batch.TurnBatch`).

Each works on one type's axis of a C-ordered array viewed as (before, holds, after), as the
plain numpy form in benchmarks/bench_batch.py (the reference it is timed and compared
against) writes them. Every sum runs in a fixed order, so a column's result does not depend
on the other columns of its batch.

The maximum over sub-holds breaks ties (values within ``tie`` of each other: an exact tie
split by rounding) by one of two rules (:class:`~phase10math.turn.engine.Ties`): the best so
far stays (the two-player solve's rule, which its shipped numbers were solved with), or the
kit's one order of holds (:func:`~phase10math.turn.kernels.hold_ranks`: more dice, then the
larger state id). Each hold carries its *order key* ``size * n_states + id`` (an int32: at
most 17 * 60 million), so that the comparison stays branch-free.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def expect_step(T, add, w, order):  # pragma: no cover (compiled)
    """``T[:, i] = sum_f w_f T[:, add[i, f]] / 6`` for the holds ``i`` in ``order``."""
    pre, _, post = T.shape
    nf = add.shape[1]
    for a in range(pre):
        for i in order:
            dst = T[a, i]
            src = T[a, add[i, 0]]
            for c in range(post):
                dst[c] = src[c] * w[0]
            for f in range(1, nf):
                src = T[a, add[i, f]]
                wf = w[f]
                for c in range(post):
                    dst[c] += src[c] * wf
            for c in range(post):
                dst[c] /= 6.0


@njit(cache=True, nogil=True)
def max_step(M, key, rem, order, tie, kit):  # pragma: no cover (compiled)
    """For the holds ``i`` in ``order``: the best of the hold one die smaller, ``rem[i, f]``,
    replaces ``i``'s best so far where its value is larger by more than ``tie``; with
    ``kit`` also where it is within ``tie`` and its order key (``key``: size, then id) is
    larger (face by face). The best so far and its key run in two buffers of one row, the
    key as a float (exact: keys are far below 2**53): rows of one array, and a float mask
    choosing among int32 keys, kept the loop from vectorizing (2.4 times as slow)."""
    pre, _, post = M.shape
    nf = rem.shape[1]
    best = np.empty(post)
    hold = np.empty(post)
    for a in range(pre):
        for i in order:
            cur, kcur = M[a, i], key[a, i]
            for c in range(post):
                best[c] = cur[c]
                hold[c] = kcur[c]
            for f in range(nf):
                j = rem[i, f]
                if j < 0:
                    continue
                cand, kcand = M[a, j], key[a, j]
                if kit:
                    for c in range(post):  # branch-free, so that it vectorizes
                        x = cand[c]
                        k = float(kcand[c])
                        b = best[c]
                        better = (x > b + tie) | ((x >= b - tie) & (k > hold[c]))
                        best[c] = x if better else b
                        hold[c] = k if better else hold[c]
                else:
                    for c in range(post):
                        x = cand[c]
                        better = x > best[c] + tie
                        best[c] = x if better else best[c]
                        hold[c] = kcand[c] if better else hold[c]
            for c in range(post):
                cur[c] = best[c]
                kcur[c] = np.int32(hold[c])


@njit(cache=True, nogil=True)
def weighted_sums(w, vals):  # pragma: no cover (compiled)
    """``sum_s w[s] vals[s, c]`` for every column ``c``, over ``s`` in order (the same sum
    whatever the other columns: a column's value does not depend on its batch)."""
    n, B = vals.shape
    out = np.zeros(B)
    for s in range(n):
        for c in range(B):
            out[c] += w[s] * vals[s, c]
    return out


@njit(cache=True, nogil=True)
def outcome_sums(outcome, m, n_out):  # pragma: no cover (compiled)
    """``out[c, o]``: the mass ``m[s, c]`` of the roll states ``s`` ending in outcome ``o``."""
    n, B = m.shape
    out = np.zeros((B, n_out))
    for s in range(n):
        o = outcome[s]
        for c in range(B):
            out[c, o] += m[s, c]
    return out


@njit(cache=True, nogil=True)
def gather_mass(H, holds, m):  # pragma: no cover (compiled)
    """``H[holds[s, c], c] += m[s, c]`` over the roll states ``s`` in order."""
    n, B = m.shape
    for s in range(n):
        for c in range(B):
            H[holds[s, c], c] += m[s, c]


@njit(cache=True, nogil=True)
def roll_step(H, rem, w, order, below):  # pragma: no cover (compiled)
    """Mass of the holds one die smaller moves up (``H[:, i] += H[:, rem[i, f]] w_f``, for
    ``i`` in ``order``); then the holds ``below`` the full size are emptied."""
    pre, _, post = H.shape
    nf = rem.shape[1]
    for a in range(pre):
        for i in order:
            dst = H[a, i]
            for f in range(nf):
                j = rem[i, f]
                if j < 0:
                    continue
                src = H[a, j]
                wf = w[f]
                for c in range(post):
                    dst[c] += src[c] * wf
        for i in below:
            H[a, i] = 0.0
