"""Batched float64 turn solves: many utilities of a turn's outcome in one pass.

A turn ends (failed) or (made, score s), so any utility of the final roll that depends only
on that outcome is a vector ``U`` over the outcomes. :class:`TurnBatch` solves ``B`` such
vectors at once on the per-type state space of a phase (free holds), the steps of the turn's
recurrence (:mod:`phase10math.turn.kernels`) with a trailing axis of length ``B``:

- ``V_0(S) = U[outcome(S)]``;
- ``W_r(K) = E[V_{r-1}(K + roll of the other dice)]``, one die at a time (``expect``);
- ``V_r(S) = max over K within S of W_r(K)`` (``subset_max``), ties to the larger hold: a
  smaller hold replaces the best so far only when better by more than ``tie`` (a bound far
  above rounding, far below any real difference: the kit's "ties to the larger hold" also
  where rounding would split an exact tie);
- the turn's value ``E[V_{R-1}(first roll)]``, a dot product with the first roll's
  probabilities (each rounded once from exact integer weights).

Then ``forward`` pushes the first roll's distribution through each column's policy to the
outcome distribution of that policy (what a game needs to evaluate the policy exactly).
The steps are compiled (numba; one hold and one face at a time, the GIL released), and
:meth:`TurnBatch.solve` runs ``threads()`` chunks of columns side by side; every sum runs in
a fixed order, so a column's result does not depend on the chunk it was solved in.

Proven rounding margin: every die step computes ``(sum_f w_f x_f) / 6`` with integer weights
``w_f`` (at most 6 terms): at most 7 roundings, so a relative error of ``gamma_7`` on a
convex combination, and errors already present are not enlarged (the weights sum to 1; a
maximum moves by at most the largest error of its arguments). A turn has ``R - 1`` reroll
stages of at most ``n_dice`` die steps each, each maximum can lose at most ``n_dice`` times
``tie`` by the tie rule, and the first roll's mean over ``n`` roll states adds ``gamma_(n+1)``
(plus the rounding of its probabilities), so ``|value - exact optimum| <= umax * ((R - 1)
n_dice gamma_7 + gamma_(n+1) + 2 n_dice u) + (R - 1) n_dice tie`` (``umax`` the largest
``|U|`` of the column); see :func:`margin_of`.
The outcome probabilities are sums of nonnegative terms (``gamma`` of their number).

>>> from phase10math.dice.phases import as_phase
>>> tb = TurnBatch.for_phase(as_phase(10))
>>> res = tb.solve(np.array([[0.0] + [1.0] * (tb.n_outcomes - 1)]))  # P(complete phase 10)
>>> round(float(res.values[0]), 6), bool(res.margin[0] < 1e-11)
(0.70679, True)
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from numba import njit

from phase10math.dice.faces import Die, Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules, check_rules
from phase10math.errors import InvalidArgumentError, InvalidRulesError, StateSpaceTooLargeError
from phase10math.turn.engine import final_scores
from phase10math.turn.projection import VALUE
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import threads

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = ["BATCH", "TurnBatch", "gamma", "outcomes_of"]

UNIT = 2.0**-53  # unit roundoff of float64
MAX_CELLS = 120_000_000  # states x batch columns per array (about 1 GB of float64)
THREAD_CELLS = 2_000_000  # states x columns below which one thread is quicker than a pool
BATCH = 64  # columns solved together by default (about 60 MB per array on the value projection)


def gamma(n: int) -> float:
    """``n u / (1 - n u)``: the relative error bound of ``n`` float64 roundings."""
    return n * UNIT / (1 - n * UNIT)


def outcomes_of(best: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the scores a turn can make, each roll's outcome) from every roll's best score
    (``final_scores``: -1 where the phase is not made): outcome 0 is a failed turn, ``1 + i``
    the score ``scores[i]``. A look-up by score: the recorded set's ten dice have tens of
    millions of rolls, where a search each took seconds.

    >>> outcomes_of(np.array([-1, 30, 25, -1, 30]))
    (array([25, 30]), array([0, 2, 1, 0, 2]))
    """
    best = np.asarray(best, dtype=np.int64)
    scores = np.unique(best[best >= 0])
    index = np.zeros(int(scores.max(initial=0)) + 2, dtype=np.int64)
    index[scores] = np.arange(1, len(scores) + 1)
    return scores, index[best]  # -1 reads the last entry, never a score: 0


@dataclass
class BatchResult:
    """Solved columns: ``values[b]`` the float optimal value of utility ``b``, within
    ``margin[b]`` of the exact optimum; ``dist[b, o]`` the probability that the policy found
    ends in outcome ``o`` (within ``dist_margin``); ``holds[r]`` (``n_rolls x B``) the hold of
    that policy for every roll state with ``r`` rerolls left (when kept)."""

    values: np.ndarray
    margin: np.ndarray
    dist: np.ndarray | None
    dist_margin: float
    holds: dict[int, np.ndarray] | None = None


# ---------------------------------------------------------------- the compiled steps
# Each works on one type's axis of a C-ordered array viewed as (before, holds, after), one
# hold and one face at a time: the steps of the recurrence above, as the plain numpy form in
# benchmarks/bench_batch.py (the reference it is timed and compared against) writes them.


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
def max_step(M, arg, rem, order, tie):  # pragma: no cover (compiled)
    """For the holds ``i`` in ``order``: the hold one die smaller, ``rem[i, f]``, replaces
    ``i``'s best so far where better by more than ``tie`` (face by face). The best so far
    and its hold run in two buffers of one row, the hold as a float (exact: ids are far
    below 2**53): rows of one array, and a float mask choosing among int32 holds, kept
    the loop from vectorizing (2.4 times as slow)."""
    pre, _, post = M.shape
    nf = rem.shape[1]
    best = np.empty(post)
    hold = np.empty(post)
    for a in range(pre):
        for i in order:
            cur, acur = M[a, i], arg[a, i]
            for c in range(post):
                best[c] = cur[c]
                hold[c] = acur[c]
            for f in range(nf):
                j = rem[i, f]
                if j < 0:
                    continue
                cand, acand = M[a, j], arg[a, j]
                for c in range(post):  # branch-free, so that it vectorizes
                    x = cand[c]
                    better = x > best[c] + tie
                    best[c] = x if better else best[c]
                    hold[c] = acand[c] if better else hold[c]
            for c in range(post):
                cur[c] = best[c]
                acur[c] = np.int32(hold[c])


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


class TurnBatch:
    """One phase's turn, ready for batched solves: the per-type state space, the outcome of
    every roll state (0 = failed, ``1 + j`` = made with score ``scores[j]``), the rolls."""

    def __init__(self, space: StateSpace, outcome: np.ndarray, scores: np.ndarray, rolls: int):
        self.check_space(space)
        self.space = space
        self.outcome = np.asarray(outcome, dtype=np.int64)
        self.scores = np.asarray(scores, dtype=np.int64)
        self.rolls = rolls
        self.n_outcomes = 1 + len(self.scores)
        self.shape = [len(s) for s in space.sub]
        self._order_cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    @staticmethod
    def check_space(space: StateSpace) -> None:
        """Refuse a space the per-type steps would not solve in reasonable memory: ten
        different dice (:class:`~phase10math.turn.family.TensorFamily` solves those)."""
        if space.distinct and len(space.types) > 3:
            raise StateSpaceTooLargeError(
                "batched solves run on spaces of grouped dice (a phase without colors); "
                "this space has ten different dice"
            )

    @functools.cached_property
    def full_ids(self) -> np.ndarray:
        """The roll states' ids (built when first used)."""
        return self.space.full_ids

    @functools.cached_property
    def first(self) -> np.ndarray:
        """The first roll's probability of every roll state (built when first used)."""
        return self.space.roll_weights.astype(np.float64) / float(6**self.space.n_dice)

    @classmethod
    def for_phase(
        cls,
        phase: Phase,
        rules: Rules = DEFAULT_RULES,
        layout: Layout | list[Die] = DEFAULT_LAYOUT,
    ) -> TurnBatch:
        """The turn of a phase without color groups (free holds), on the value projection."""
        check_rules(rules)
        if rules.holds != "free":
            raise InvalidRulesError("batched turn solves are for free holds only")
        if phase.uses_color:
            raise InvalidRulesError(
                f"{phase}: a color phase needs the full projection (ten different dice on the "
                "recorded set); batched solves cover the phases without colors"
            )
        space = StateSpace.build(layout, VALUE)
        scores, outcome = outcomes_of(final_scores(phase, space, rules))
        return cls(space, outcome, scores, rules.rolls)

    # ---------------------------------------------------------------- the steps
    def _check(self, B: int) -> None:
        if self.space.n_states * B > MAX_CELLS:
            raise StateSpaceTooLargeError(
                f"{B} columns x {self.space.n_states:,} holds exceed {MAX_CELLS:,} cells; "
                "solve in smaller batches"
            )

    def _levels(self, t: int, descending: bool) -> list[np.ndarray]:
        """Type ``t``'s sub-multisets grouped by size (they are numbered by size first)."""
        sizes = self.space.sub[t].sum(axis=1)
        out = [np.flatnonzero(sizes == s) for s in range(int(sizes.max()) + 1)]
        return out[::-1] if descending else out

    def _orders(self, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Type ``t``'s holds in the order of each step: below the full size, largest first
        (``expect``); above the empty hold, smallest first (``subset_max``, ``forward``);
        below the full size (emptied at the end of a ``forward`` step)."""
        if t not in self._order_cache:
            down = self._levels(t, descending=True)
            up = down[::-1]
            cat = np.concatenate
            self._order_cache[t] = (cat(down[1:]), cat(up[1:]), cat(up[:-1]))
        return self._order_cache[t]

    def _slabs(self, A: np.ndarray, t: int) -> np.ndarray:
        """``A`` (states x B, C order) as ``(before, type t's holds, after x B)``: a view."""
        pre = int(np.prod(self.shape[:t], dtype=np.int64))
        return A.reshape(pre, self.shape[t], -1)

    def expect(self, vals: np.ndarray) -> np.ndarray:
        """``W(K)`` for every hold ``K``: the mean of ``vals`` (roll states x B) over
        rolling the dice missing from ``K``, one die at a time (the largest holds of a type
        first)."""
        sp, B = self.space, vals.shape[1]
        T = np.zeros((sp.n_states, B))
        T[self.full_ids] = vals
        for t, typ in enumerate(sp.types):
            w = np.asarray(typ.weights, dtype=np.float64)
            expect_step(self._slabs(T, t), sp.add_tables[t], w, self._orders(t)[0])
        return T

    def subset_max(
        self, W: np.ndarray, tie: float, overwrite: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """``max over J within K of W(J)`` and its arg-max for every roll state, per column;
        a smaller hold wins only when better by more than ``tie``. ``overwrite``: ``W`` (C
        ordered float64, not read again) may be used as the work array (no copy)."""
        sp, B = self.space, W.shape[1]
        M = np.ascontiguousarray(W, dtype=np.float64)
        if not overwrite or M is not W:
            M = M.copy()
        arg = np.empty((sp.n_states, B), dtype=np.int32)
        arg[...] = np.arange(sp.n_states, dtype=np.int32)[:, None]
        for t in range(len(sp.types)):
            up = self._orders(t)[1]
            max_step(self._slabs(M, t), self._slabs(arg, t), sp.remove_tables[t], up, tie)
        return M[self.full_ids], arg[self.full_ids]

    def forward(self, holds: dict[int, np.ndarray], B: int) -> np.ndarray:
        """Outcome distribution ``(B, n_outcomes)`` of the policies ``holds``: the first
        roll's distribution pushed through every hold and reroll (each hold's mass moves to
        the holds with one more die, the smallest holds of a type first)."""
        sp = self.space
        m = np.repeat(self.first[:, None], B, axis=1)
        for r in range(self.rolls - 1, 0, -1):
            H = np.zeros((sp.n_states, B))
            gather_mass(H, np.ascontiguousarray(holds[r], dtype=np.int32), m)
            for t, typ in enumerate(sp.types):
                w = np.asarray(typ.weights, dtype=np.float64) / 6.0
                _, up, below = self._orders(t)
                roll_step(self._slabs(H, t), sp.remove_tables[t], w, up, below)
            m = H[self.full_ids]
        return outcome_sums(self.outcome, m, self.n_outcomes)

    def hold_values(self, cols: np.ndarray, rolls_left: int, holds: np.ndarray) -> np.ndarray:
        """The value of each hold ``holds`` (hold ids) with ``rolls_left`` rolls left, for
        each column of ``cols`` (values of the outcomes, ``n_outcomes x C``), each column
        maximised on its own (ties within ``0``: exact comparisons)."""
        vals = np.ascontiguousarray(np.asarray(cols, dtype=np.float64)[self.outcome])
        for _ in range(1, rolls_left):
            vals, _h = self.subset_max(self.expect(vals), 0.0, overwrite=True)
        return self.expect(vals)[np.asarray(holds)]

    def outcome_of_score(self, score: int | None) -> int:
        """The outcome of a turn that ends with this best score (None: the phase not made):
        0, or ``1 + j`` for ``scores[j]``; a score the turn cannot make is refused.

        >>> from phase10math.dice.phases import PHASES
        >>> tb = TurnBatch.for_phase(PHASES[1])
        >>> tb.outcome_of_score(None), tb.scores[tb.outcome_of_score(30) - 1]
        (0, np.int64(30))
        >>> tb.outcome_of_score(1)
        Traceback (most recent call last):
        ...
        phase10math.errors.InvalidArgumentError: score 1 is not an outcome of this turn
        """
        if score is None:
            return 0
        j = int(np.searchsorted(self.scores, score))
        if j >= len(self.scores) or self.scores[j] != score:
            raise InvalidArgumentError(f"score {score} is not an outcome of this turn")
        return 1 + j

    # ---------------------------------------------------------------- the solve
    def utilities(self, U: np.ndarray) -> np.ndarray:
        """``U`` as a float array of rows over the outcomes, refused unless it is one."""
        U = np.atleast_2d(np.asarray(U, dtype=np.float64))
        if U.shape[1] != self.n_outcomes:
            raise InvalidRulesError(
                f"utilities need {self.n_outcomes} outcomes (failed, then each score); "
                f"got {U.shape[1]}"
            )
        if not np.isfinite(U).all():
            raise InvalidRulesError("utilities must be finite")
        return U

    def solve(
        self,
        U: np.ndarray,
        distribution: bool = True,
        keep_holds: bool = False,
        step: int | None = None,
    ) -> BatchResult:
        """Solve every row of ``U`` (``B x n_outcomes``, float): the optimal value with its
        proven margin, and (``distribution``) the outcome distribution of the policy found.
        The rows go in chunks of ``step`` columns (default ``BATCH``, fewer where
        ``MAX_CELLS`` asks), ``threads()`` chunks side by side (the compiled steps release
        the GIL); the tie rule's bound is the same for every chunk."""
        U = self.utilities(U)
        if not len(U):
            dist = np.zeros((0, self.n_outcomes)) if distribution else None
            return BatchResult(np.zeros(0), np.zeros(0), dist, 0.0)
        umax = np.abs(U).max(axis=1)
        tie = float(2 * self.rolls * self.space.n_dice * gamma(7) * max(umax.max(), 1e-300))
        step = max(1, min(step or BATCH, MAX_CELLS // self.space.n_states))
        k = threads() if len(U) * self.space.n_states >= THREAD_CELLS else 1
        if k > 1:
            step = min(step, -(-len(U) // k))
        chunks = [U[lo : lo + step] for lo in range(0, len(U), step)]

        def one(part: np.ndarray) -> BatchResult:
            return self._solve_chunk(part, tie, distribution, keep_holds)

        parts = [one(chunks[0])]  # the first builds the space's tables, then they are shared
        if k > 1 and len(chunks) > 1:
            with ThreadPoolExecutor(k) as pool:
                parts += list(pool.map(one, chunks[1:]))
        else:
            parts += [one(c) for c in chunks[1:]]
        holds = None
        if keep_holds:
            holds = {r: np.concatenate([p.holds[r] for p in parts], axis=1) for r in parts[0].holds}
        return BatchResult(
            np.concatenate([p.values for p in parts]),
            np.concatenate([p.margin for p in parts]),
            np.concatenate([p.dist for p in parts]) if distribution else None,
            parts[0].dist_margin,
            holds,
        )

    def _solve_chunk(
        self, U: np.ndarray, tie: float, distribution: bool, keep_holds: bool
    ) -> BatchResult:
        B = U.shape[0]
        self._check(B)
        umax = np.abs(U).max(axis=1)
        vals = U[:, self.outcome].T.copy()  # roll states x B
        holds: dict[int, np.ndarray] = {}
        for r in range(1, self.rolls):
            vals, holds[r] = self.subset_max(self.expect(vals), tie, overwrite=True)
        values = weighted_sums(self.first, vals)  # the mean over the first roll
        margin = margin_of(umax, self.rolls, self.space.n_dice, tie, len(self.first))
        dist = self.forward(holds, B) if distribution else None
        return BatchResult(
            values, margin, dist, self.forward_margin(), holds if keep_holds else None
        )

    def forward_margin(self) -> float:
        """The relative rounding bound of every probability :meth:`forward` returns (sums of
        nonnegative terms)."""
        return 2 * (self.rolls * self.space.n_dice * gamma(8) + gamma(len(self.outcome) + 1))


def margin_of(umax: np.ndarray, rolls: int, n_dice: int, tie: float, n_rolls: int) -> np.ndarray:
    """The proven bound on ``|float value - exact optimum|`` (see the module text)."""
    steps = (rolls - 1) * n_dice * gamma(7) + gamma(n_rolls + 1) + 2 * n_dice * UNIT
    return np.asarray(umax) * steps + (rolls - 1) * n_dice * tie
