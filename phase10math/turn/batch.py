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

from dataclasses import dataclass

import numpy as np

from phase10math.dice.faces import Die, Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules, check_rules
from phase10math.errors import InvalidRulesError, StateSpaceTooLargeError
from phase10math.turn.engine import final_scores
from phase10math.turn.projection import VALUE
from phase10math.turn.statespace import StateSpace

UNIT = 2.0**-53  # unit roundoff of float64
MAX_CELLS = 120_000_000  # states x batch columns per array (about 1 GB of float64)


def gamma(n: int) -> float:
    """``n u / (1 - n u)``: the relative error bound of ``n`` float64 roundings."""
    return n * UNIT / (1 - n * UNIT)


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


def _axis(t: int, i) -> tuple:
    return (slice(None),) * t + (i,)


class TurnBatch:
    """One phase's turn, ready for batched solves: the per-type state space, the outcome of
    every roll state (0 = failed, ``1 + j`` = made with score ``scores[j]``), the rolls."""

    def __init__(self, space: StateSpace, outcome: np.ndarray, scores: np.ndarray, rolls: int):
        if space.distinct and len(space.types) > 3:
            raise StateSpaceTooLargeError(
                "batched solves run on spaces of grouped dice (a phase without colors); "
                "this space has ten different dice"
            )
        self.space = space
        self.outcome = np.asarray(outcome, dtype=np.int64)
        self.scores = np.asarray(scores, dtype=np.int64)
        self.rolls = rolls
        self.n_outcomes = 1 + len(self.scores)
        self.shape = [len(s) for s in space.sub]
        self.full_ids = space.full_ids
        w = space.roll_weights.astype(np.float64)
        self.first = w / float(6**space.n_dice)
        self._onehot = np.zeros((len(self.outcome), self.n_outcomes))
        self._onehot[np.arange(len(self.outcome)), self.outcome] = 1.0

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
        best = np.asarray(final_scores(phase, space, rules), dtype=np.int64)
        scores = np.unique(best[best >= 0])
        outcome = np.where(best >= 0, 1 + np.searchsorted(scores, best), 0)
        return cls(space, outcome, scores, rules.rolls)

    # ---------------------------------------------------------------- the steps
    def _check(self, B: int) -> None:
        if self.space.n_states * B > MAX_CELLS:
            raise StateSpaceTooLargeError(
                f"{B} columns x {self.space.n_states:,} holds exceed {MAX_CELLS:,} cells; "
                "solve in smaller batches"
            )

    def _levels(self, t: int, descending: bool) -> list[tuple[slice, np.ndarray]]:
        """Type ``t``'s sub-multisets grouped by size, one slice per size (they are numbered
        by size first), with their indices."""
        sizes = self.space.sub[t].sum(axis=1)
        out = []
        for s in range(int(sizes.max()) + 1):
            idx = np.flatnonzero(sizes == s)
            out.append((slice(int(idx[0]), int(idx[-1]) + 1), idx))
        return out[::-1] if descending else out

    def expect(self, vals: np.ndarray) -> np.ndarray:
        """``W(K)`` for every hold ``K``: the mean of ``vals`` (roll states x B) over
        rolling the dice missing from ``K``, one die at a time (all holds of one size of a
        type at once)."""
        sp, B = self.space, vals.shape[1]
        T = np.zeros((sp.n_states, B))
        T[self.full_ids] = vals
        T = T.reshape(self.shape + [B])
        for t, typ in enumerate(sp.types):
            add = sp.add_tables[t]
            for sl, idx in self._levels(t, descending=True)[1:]:
                dst = T[_axis(t, sl)]
                for f, wt in enumerate(typ.weights):
                    term = np.take(T, add[idx, f], axis=t)
                    term *= wt
                    if f == 0:
                        dst[...] = term
                    else:
                        dst += term
                dst /= 6.0
        return T.reshape(sp.n_states, B)

    def subset_max(self, W: np.ndarray, tie: float) -> tuple[np.ndarray, np.ndarray]:
        """``max over J within K of W(J)`` and its arg-max for every roll state, per column;
        a smaller hold wins only when better by more than ``tie``."""
        sp, B = self.space, W.shape[1]
        M = W.reshape(self.shape + [B]).copy()
        arg = np.broadcast_to(
            np.arange(sp.n_states, dtype=np.int32).reshape(self.shape + [1]), M.shape
        ).copy()
        for t, typ in enumerate(sp.types):
            rem = sp.remove_tables[t]
            for sl, idx in self._levels(t, descending=False)[1:]:
                cur, acur = M[_axis(t, sl)], arg[_axis(t, sl)]
                for f in range(len(typ.faces)):
                    j = rem[idx, f]
                    if (j < 0).all():
                        continue
                    jj = np.where(j >= 0, j, idx)  # no such hold: compare with itself
                    cand = np.take(M, jj, axis=t)
                    better = cand > cur + tie
                    if better.any():
                        np.copyto(cur, cand, where=better)
                        np.copyto(acur, np.take(arg, jj, axis=t), where=better)
        M, arg = M.reshape(sp.n_states, B), arg.reshape(sp.n_states, B)
        return M[self.full_ids], arg[self.full_ids]

    def forward(self, holds: dict[int, np.ndarray], B: int) -> np.ndarray:
        """Outcome distribution ``(B, n_outcomes)`` of the policies ``holds``: the first
        roll's distribution pushed through every hold and reroll (each hold's mass moves to
        the holds with one more die, one size of a type at a time)."""
        sp = self.space
        m = np.repeat(self.first[:, None], B, axis=1)
        cols = np.arange(B)
        for r in range(self.rolls - 1, 0, -1):
            flat = holds[r].astype(np.int64) * B + cols
            H = np.bincount(flat.ravel(), weights=m.ravel(), minlength=sp.n_states * B)
            H = H.reshape(self.shape + [B])
            for t, typ in enumerate(sp.types):
                rem = sp.remove_tables[t]
                levels = self._levels(t, descending=False)
                for sl, idx in levels[1:]:
                    dst = H[_axis(t, sl)]
                    for f, wt in enumerate(typ.weights):
                        j = rem[idx, f]
                        ok = np.flatnonzero(j >= 0)
                        if len(ok) == len(j):
                            dst += np.take(H, j, axis=t) * (wt / 6.0)
                        elif len(ok):
                            dst[_axis(t, ok)] += np.take(H, j[ok], axis=t) * (wt / 6.0)
                for sl, _ in levels[:-1]:
                    H[_axis(t, sl)] = 0.0
            m = H.reshape(sp.n_states, B)[self.full_ids]
        return (self._onehot.T @ m).T

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
        self, U: np.ndarray, distribution: bool = True, keep_holds: bool = False
    ) -> BatchResult:
        """Solve every row of ``U`` (``B x n_outcomes``, float): the optimal value with its
        proven margin, and (``distribution``) the outcome distribution of the policy found."""
        U = self.utilities(U)
        B = U.shape[0]
        self._check(B)
        umax = np.abs(U).max(axis=1)
        tie = float(2 * self.rolls * self.space.n_dice * gamma(7) * max(umax.max(), 1e-300))
        vals = U[:, self.outcome].T.copy()  # roll states x B
        holds: dict[int, np.ndarray] = {}
        for r in range(1, self.rolls):
            vals, holds[r] = self.subset_max(self.expect(vals), tie)
        values = self.first @ vals  # the mean over the first roll
        margin = margin_of(umax, self.rolls, self.space.n_dice, tie, len(self.first))
        dist = self.forward(holds, B) if distribution else None
        dm = 2 * (self.rolls * self.space.n_dice * gamma(8) + gamma(len(self.outcome) + 1))
        return BatchResult(values, margin, dist, dm, holds if keep_holds else None)


def margin_of(umax: np.ndarray, rolls: int, n_dice: int, tie: float, n_rolls: int) -> np.ndarray:
    """The proven bound on ``|float value - exact optimum|`` (see the module text)."""
    steps = (rolls - 1) * n_dice * gamma(7) + gamma(n_rolls + 1) + 2 * n_dice * UNIT
    return np.asarray(umax) * steps + (rolls - 1) * n_dice * tie
