"""The certified family: exactly solved turn policies of one phase, and a proven interval for
the optimal value of any utility of the turn's outcome.

Where one exact turn solve is costly (a color phase: the full projection, millions of holds)
and a game needs the optimal turn for many utilities ``u`` (one per state of the game), a
:class:`TurnFamily` keeps *members*: policies solved exactly once, each kept as its outcome
distribution ``d_i``, and *cuts*: the utilities ``u_i`` they were solved for with a proven
upper value ``h_i >= V(u_i)`` (the float optimum plus its rounding margin,
:mod:`phase10math.turn.batch`). For any ``u``:

- **lower value**: ``max_i d_i . u`` is the value of a real policy, so at most the optimum
  ``V(u)`` (less the rounding of the distributions);
- **upper value**: ``V`` is the largest of linear functions (one per policy), so it is
  monotone, ``V(u + c) = V(u) + c`` for a constant ``c``, and ``V(sum lam_i u_i) <= sum lam_i
  V(u_i)`` for ``lam >= 0``. Hence for every ``lam >= 0``

      V(u) <= sum_i lam_i h_i + max_j (u - sum_i lam_i u_i)_j.

  One cut alone (``lam`` a unit vector) is the *shift bound*; the best ``lam`` over the cuts
  nearest ``u`` is a small linear program (:func:`scipy.optimize.linprog`, all rows at
  once). Whatever ``lam`` the program returns, the bound is evaluated again from it with
  its rounding on the safe side: it is proven whatever the program's accuracy;
- **refine**: where the interval is wider than ``tol``, solve ``u`` exactly and add the
  policy found (and its cut): its interval closes to the solve's rounding margin.

A family answers :meth:`TurnFamily.solve` like :class:`~phase10math.turn.batch.TurnBatch`:
the value of the best member, a margin that puts the optimum within it (the interval's width)
and the member's distribution; so a game solved with batched turns runs unchanged on it, its
proven error bound widened by the family's gaps.

>>> import numpy as np
>>> from phase10math.dice.faces import Die, parse_faces
>>> from phase10math.dice.phases import parse_phase
>>> die = Die("low", parse_faces("5r 5o 6b 6g Wr Wo"))
>>> fam = TurnFamily.for_phase(parse_phase("2 of one color"), layout=(die,) * 3)
>>> U = np.array([[0.0] + [1.0] * (fam.n_outcomes - 1)])  # P(complete the phase)
>>> fam.refine(U)  # one exact solve, kept
1
>>> res = fam.solve(U)
>>> round(float(res.values[0]), 6), bool(res.margin[0] < 1e-12), fam.size
(0.97428, True, 1)
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from phase10math.dice.faces import Die, Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules, check_rules
from phase10math.errors import InvalidRulesError, StateSpaceTooLargeError
from phase10math.turn.batch import MAX_CELLS, UNIT, BatchResult, TurnBatch, gamma
from phase10math.turn.engine import final_scores
from phase10math.turn.projection import FULL, VALUE
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import threads

MAX_HOLDS = 20_000_000  # the largest space a family solves on (the compact dice: 9.7 million)
NEAREST = 24  # cuts in one linear program (the nearest by the shift bound)
LP_CHUNK = 32  # rows of U in one (block-diagonal) linear program
TOL = 1e-7  # the widest interval that refine() leaves without an exact solve


class TurnFamily(TurnBatch):
    """A phase's turn answered from a family of exactly solved policies (see the module
    text); exact solves are :class:`~phase10math.turn.batch.TurnBatch` solves, counted in
    ``exact_solves`` and timed in ``exact_seconds``."""

    def __init__(
        self,
        space: StateSpace,
        outcome: np.ndarray,
        scores: np.ndarray,
        rolls: int,
        tol: float = TOL,
    ):
        super().__init__(space, outcome, scores, rolls)
        self.tol = tol
        n = self.n_outcomes
        self.members = np.zeros((0, n))  # outcome distributions of the policies
        self.cuts = np.zeros((0, n))  # the utilities solved exactly
        self.highs = np.zeros(0)  # a proven upper value of each cut
        self.dist_margin = 2 * (rolls * space.n_dice * gamma(8) + gamma(len(self.outcome) + 1))
        self.exact_solves = 0
        self.exact_seconds = 0.0

    @classmethod
    def for_phase(
        cls,
        phase: Phase,
        rules: Rules = DEFAULT_RULES,
        layout: Layout | list[Die] | tuple[Die, ...] = DEFAULT_LAYOUT,
        tol: float = TOL,
    ) -> TurnFamily:
        """The family of a phase (any phase; a color phase on the full projection), empty;
        refused where the space has more than ``MAX_HOLDS`` holds (the recorded dice's color
        phases: ten different dice, 7**10 holds)."""
        check_rules(rules)
        if rules.holds != "free":
            raise InvalidRulesError("batched turn solves are for free holds only")
        space = StateSpace.build(layout, FULL if phase.uses_color else VALUE)
        if space.n_states > MAX_HOLDS:
            raise StateSpaceTooLargeError(
                f"{phase}: {space.n_states:,} holds on these dice (at most {MAX_HOLDS:,} for a "
                "family of batched solves); the recorded set's ten different dice need the "
                "tensor engine, which solves one objective at a time"
            )
        best = np.asarray(final_scores(phase, space, rules), dtype=np.int64)
        scores = np.unique(best[best >= 0])
        outcome = np.where(best >= 0, 1 + np.searchsorted(scores, best), 0)
        return cls(space, outcome, scores, rules.rolls, tol)

    @property
    def size(self) -> int:
        """The number of policies kept."""
        return len(self.members)

    # ---------------------------------------------------------------- members
    def add_policies(self, dists: np.ndarray) -> None:
        """Keep policies known only by their outcome distributions (no cut: e.g. the per-turn
        objectives' policies)."""
        dists = np.atleast_2d(np.asarray(dists, dtype=np.float64))
        if dists.shape[1] != self.n_outcomes:
            raise InvalidRulesError(f"distributions need {self.n_outcomes} outcomes")
        self.members = np.vstack([self.members, dists])

    def exact(self, U: np.ndarray, keep_holds: bool = False) -> BatchResult:
        """Exact (batched float, proven margin) solves of the rows of ``U``, ``threads()`` at a
        time (``$PHASE10MATH_THREADS``); each policy and its cut join the family."""
        U = np.atleast_2d(np.asarray(U, dtype=np.float64))
        step = max(1, MAX_CELLS // 3 // self.space.n_states)  # memory ~ linear in columns
        t0 = time.monotonic()
        res = TurnBatch.solve(self, U, True, keep_holds, step=step)
        self.exact_seconds += time.monotonic() - t0
        self.exact_solves += len(U)
        vals, marg, dist = res.values, res.margin, res.dist
        self.members = np.vstack([self.members, dist])
        self.cuts = np.vstack([self.cuts, U])
        self.highs = np.concatenate([self.highs, vals + marg])
        return res

    # ---------------------------------------------------------------- bounds
    def lower(self, U: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(value of the best member, a proven lower value of the optimum, that member) for
        every row of ``U``."""
        if not self.size:
            raise InvalidRulesError("the family has no policy yet: refine() or add_policies()")
        vals = U @ self.members.T  # rows x members
        best = np.argmax(vals, axis=1)
        v = vals[np.arange(len(U)), best]
        err = (self.dist_margin + gamma(self.n_outcomes + 1)) * np.abs(U).sum(axis=1)
        return v, v - err - 1e-300, best

    def upper(self, U: np.ndarray, lower: np.ndarray | None = None) -> np.ndarray:
        """A proven upper value of the optimum for every row of ``U``: the best shift bound,
        then (where it is more than ``tol`` above ``lower``) the linear program over the
        ``NEAREST`` cuts with the best shift bounds."""
        top = U.max(axis=1)  # no policy beats the best outcome
        if not len(self.cuts):
            return top
        scale = np.abs(U).max(axis=1)[:, None] + np.abs(self.cuts).max(axis=1)[None, :]
        shift = self.highs[None, :] + (U[:, None, :] - self.cuts[None, :, :]).max(axis=2)
        shift += 4 * UNIT * (scale + np.abs(self.highs)[None, :])
        best = np.minimum(top, shift.min(axis=1))
        if lower is None:
            return best
        wide = np.flatnonzero(best - lower > self.tol)
        if len(wide) and len(self.cuts) > 1:
            m = min(NEAREST, len(self.cuts))
            near = np.argsort(shift[wide], axis=1)[:, :m]
            best[wide] = np.minimum(best[wide], self._lp_bounds_chunked(U[wide], near))
        return best

    def _lp_bounds_chunked(self, U: np.ndarray, near: np.ndarray) -> np.ndarray:
        """:meth:`_lp_bounds` in programs of ``LP_CHUNK`` rows, ``threads()`` side by side
        (HiGHS releases the GIL; small programs solve quicker per row than one large one)."""
        parts = [slice(lo, lo + LP_CHUNK) for lo in range(0, len(U), LP_CHUNK)]
        k = min(threads(), len(parts))

        def one(s: slice) -> np.ndarray:
            return self._lp_bounds(U[s], near[s])

        if k <= 1:
            return np.concatenate([one(s) for s in parts])
        with ThreadPoolExecutor(k) as pool:
            return np.concatenate(list(pool.map(one, parts)))

    def _lp_bounds(self, U: np.ndarray, near: np.ndarray) -> np.ndarray:
        """For each row ``u`` of ``U``: ``min sum lam_i h_i + c`` with ``sum lam_i u_i + c >=
        u``, ``lam >= 0``, over the cuts ``near[row]``; all rows in one block-diagonal
        program, each bound re-evaluated from the program's ``lam`` (so proven)."""
        rows, m = near.shape
        n = self.n_outcomes
        P = self.cuts[near]  # rows x m x n
        H = self.highs[near]  # rows x m
        # block r: constraint r * n + j, variables r * (m + 1) + i (lam_i), then c
        block = -np.concatenate([P, np.ones((rows, 1, n))], axis=1)  # rows x (m + 1) x n
        r, i, j = np.indices(block.shape)
        A = sparse.csr_matrix(
            (block.ravel(), ((r * n + j).ravel(), (r * (m + 1) + i).ravel())),
            shape=(rows * n, rows * (m + 1)),
        )
        cost = np.concatenate([H, np.ones((rows, 1))], axis=1).ravel()
        low = np.tile(np.append(np.zeros(m), -np.inf), rows)
        res = linprog(
            cost,
            A_ub=A,
            b_ub=-U.ravel(),
            bounds=np.stack([low, np.full(len(low), np.inf)], axis=1),
            method="highs",
        )
        if res.status != 0 or res.x is None:
            return np.full(rows, np.inf)
        lam = np.maximum(res.x.reshape(rows, m + 1)[:, :m], 0.0)
        mix = np.einsum("rm,rmn->rn", lam, P)
        c = (U - mix).max(axis=1)
        err = gamma(m + 2) * np.einsum("rm,rm->r", lam, np.abs(H) + np.abs(P).max(axis=2))
        err += 4 * UNIT * (np.abs(c) + np.abs(U).max(axis=1))
        return np.einsum("rm,rm->r", lam, H) + c + err

    # ---------------------------------------------------------------- the batched interface
    def solve(
        self, U: np.ndarray, distribution: bool = True, keep_holds: bool = False
    ) -> BatchResult:
        """The best member's value, a margin that puts the optimum within it, its outcome
        distribution; with ``keep_holds`` exact solves (the holds of an optimal policy)."""
        U = self.utilities(U)
        if keep_holds:
            return self.exact(U, keep_holds=True)
        v, lo, idx = self.lower(U)
        hi = self.upper(U, lo)
        margin = np.maximum(hi - v, v - lo)
        dist = self.members[idx] if distribution else None
        return BatchResult(v, margin, dist, self.dist_margin)

    def wide(self, U: np.ndarray) -> np.ndarray:
        """The rows of ``U`` whose interval is wider than ``tol`` and which were not solved
        exactly already (an exact solve cannot narrow its own rounding margin)."""
        U = np.atleast_2d(np.asarray(U, dtype=np.float64))
        if not self.size:
            return np.arange(len(U))
        v, lo, _ = self.lower(U)
        wide = np.flatnonzero(self.upper(U, lo) - lo > self.tol)
        if len(wide) and len(self.cuts):
            seen = {row.tobytes() for row in self.cuts}
            wide = np.array([i for i in wide if U[i].tobytes() not in seen], dtype=np.int64)
        return wide

    def refine(self, U: np.ndarray) -> int:
        """Solve exactly the rows of ``U`` that are :meth:`wide` (all when the family is
        empty); returns how many."""
        wide = self.wide(U)
        if len(wide):
            self.exact(U[wide])
        return int(len(wide))

    # ---------------------------------------------------------------- checkpoints
    def state(self) -> dict[str, Any]:
        """The family as plain arrays (for a checkpoint)."""
        return {"members": self.members, "cuts": self.cuts, "highs": self.highs}

    def load(self, state: dict[str, Any]) -> None:
        """Take back a family written by :meth:`state`."""
        self.members = np.asarray(state["members"], dtype=np.float64)
        self.cuts = np.asarray(state["cuts"], dtype=np.float64)
        self.highs = np.asarray(state["highs"], dtype=np.float64)
