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
  policy found (and its cut): its interval closes to the solve's rounding margin. Where
  most recent exact solves found a policy the family already had, a tensor family solves
  the value alone first (its cut; about half an exact solve) and adds no policy where a
  member is within ``tol`` of it.

On ten different dice (the recorded set's color phases: 7**10 holds, beyond the per-type
steps) the same family's exact solves run on the tensor engine, one utility at a time
(:class:`TensorFamily`; :meth:`TurnFamily.for_phase` picks it).

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

import collections
import math
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
from phase10math.turn.batch import MAX_CELLS, UNIT, BatchResult, TurnBatch, gamma, outcomes_of
from phase10math.turn.engine import (
    OPTIMAL_FLOAT,
    EngineKind,
    OptimalFloat,
    backward_induction,
    engine_for,
    final_scores,
)
from phase10math.turn.projection import FULL, VALUE
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import threads
from phase10math.turn.tensor.forward import (
    chunk_roundings,
    forward_roundings,
    mean_over_first_roll,
    push_forward,
)
from phase10math.turn.tensor.holdvalues import LazyHoldValues
from phase10math.turn.tensor.memory import check_tensor_fits, face_shape, tensor_shape
from phase10math.turn.tensor.totals import unit_weights

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = [
    "TensorFamily",
    "TurnFamily",
    "check_family_fits",
    "check_tensor_fits",
    "forward_roundings",
    "needs_tensor",
    "push_forward",
]

MAX_HOLDS = 20_000_000  # the largest space a family solves on (the compact dice: 9.7 million)
NEAREST = 24  # cuts in one linear program (the nearest by the shift bound)
LP_CHUNK = 32  # rows of U in one (block-diagonal) linear program
TOL = 1e-7  # the widest interval that refine() leaves without an exact solve
# a tensor family solves a utility's value alone first (about half an exact solve) where, of
# its last VALUE_FIRST_WINDOW exact solves, at least this share were closed by a policy it
# already had (the value alone would have done): the value's time is lost where it is not
VALUE_FIRST_WINDOW = 10
VALUE_FIRST_SHARE = 0.6
VALUES_ALONE = OptimalFloat(holds=False)  # float stages without their best holds


def needs_tensor(space: StateSpace, rules: Rules = DEFAULT_RULES) -> bool:
    """Whether a family on ``space`` solves on the tensor engine: where
    :func:`~phase10math.turn.engine.engine_for` picks it for batched solves (more than three
    dice, no two alike: the recorded set's color phases)."""
    return engine_for(space, rules, batch=True).kind is EngineKind.TENSOR


def check_family_fits(space: StateSpace, rules: Rules, tensor: bool | None = None) -> None:
    """Refuse at once (:class:`StateSpaceTooLargeError`) a family whose exact solves would
    not fit: on the tensor engine, beyond :func:`~phase10math.turn.tensor.memory_budget`; on
    grouped dice, more than ``MAX_HOLDS`` holds."""
    if needs_tensor(space, rules) if tensor is None else tensor:
        check_tensor_fits(space, rules.rolls, extra=TensorFamily.forward_bytes(space, rules))
    elif space.n_states > MAX_HOLDS:
        raise StateSpaceTooLargeError(
            f"{space.n_states:,} holds on these dice (at most {MAX_HOLDS:,} for a family of "
            "batched solves of grouped dice)"
        )


class TurnFamily(TurnBatch):
    """A phase's turn answered from a family of exactly solved policies (see the module
    text); exact solves are :class:`~phase10math.turn.batch.TurnBatch` solves, counted in
    ``exact_solves`` and timed in ``exact_seconds``."""

    costly = False  # whether an exact solve costs far more than checking many rows

    def __init__(
        self,
        space: StateSpace,
        outcome: np.ndarray,
        scores: np.ndarray,
        rules: Rules,
        tol: float = TOL,
    ):
        super().__init__(space, outcome, scores, rules)
        self.tol = tol
        rolls = rules.rolls
        n = self.n_outcomes
        self.members = np.zeros((0, n))  # outcome distributions of the policies
        self.cuts = np.zeros((0, n))  # the utilities solved exactly
        self.highs = np.zeros(0)  # a proven upper value of each cut
        self.dist_margin = 2 * (rolls * space.n_dice * gamma(8) + gamma(len(self.outcome) + 1))
        self.exact_solves = 0
        self.exact_seconds = 0.0
        self.value_solves = 0  # exact solves closed by their value alone (TensorFamily)

    @classmethod
    def for_phase(
        cls,
        phase: Phase,
        rules: Rules = DEFAULT_RULES,
        layout: Layout | list[Die] | tuple[Die, ...] = DEFAULT_LAYOUT,
        tol: float = TOL,
    ) -> TurnFamily:
        """The family of a phase (any phase; a color phase on the full projection), empty: a
        :class:`TensorFamily` on ten different dice (the recorded set's color phases, 7**10
        holds), refused at once where its solve would not fit in
        :func:`~phase10math.turn.tensor.memory_budget`; refused where grouped dice have more
        than ``MAX_HOLDS`` holds."""
        check_rules(rules)
        if rules.holds != "free":
            raise InvalidRulesError("batched turn solves are for free holds only")
        space = StateSpace.build(layout, FULL if phase.uses_color else VALUE)
        tensor = cls is TensorFamily or needs_tensor(space, rules)
        check_family_fits(space, rules, tensor)
        scores, outcome = outcomes_of(final_scores(phase, space, rules))
        if tensor:
            return TensorFamily(space, outcome, scores, rules, tol)
        return cls(space, outcome, scores, rules, tol)

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
        v, lo, hi, idx = self._bounds(U)
        dist = self.members[idx] if distribution else None
        return BatchResult(v, self._interval_margin(v, lo, hi), dist, self.dist_margin)

    def _bounds(self, U: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(best member's value, proven lower value, proven upper value, best member) of
        every row of ``U``."""
        v, lo, idx = self.lower(U)
        return v, lo, self.upper(U, lo), idx

    @staticmethod
    def _interval_margin(v: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """How far from the best member's value ``v`` the optimum may lie."""
        return np.maximum(hi - v, v - lo)

    def wide(self, U: np.ndarray) -> np.ndarray:
        """The rows of ``U`` whose interval is wider than ``tol`` and which were not solved
        exactly already (an exact solve cannot narrow its own rounding margin)."""
        return self.wide_margins(U)[0]

    def wide_margins(self, U: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`wide`'s rows, and the margin :meth:`solve` gives each: one pass of the
        bounds (their linear programs are most of the cost of either) where a caller needs
        both (infinite margins while the family has no policy)."""
        U = np.atleast_2d(np.asarray(U, dtype=np.float64))
        if not self.size:
            return np.arange(len(U)), np.full(len(U), np.inf)
        v, lo, hi, _ = self._bounds(U)
        wide = np.flatnonzero(hi - lo > self.tol)
        if len(wide) and len(self.cuts):
            seen = {row.tobytes() for row in self.cuts}
            wide = np.array([i for i in wide if U[i].tobytes() not in seen], dtype=np.int64)
        return wide, self._interval_margin(v, lo, hi)[wide]

    def refine(self, U: np.ndarray) -> int:
        """Solve exactly the rows of ``U`` that are :meth:`wide` (all when the family is
        empty); returns how many."""
        wide = self.wide(U)
        if len(wide):
            self.exact(U[wide])
        return int(len(wide))

    def same_turn(self, other: TurnFamily) -> bool:
        """Whether ``other`` answers the same turn: the same kind of family, dice (state
        space), rolls, scores and outcome of every roll. Its policies are then policies of
        this turn, and its cuts hold here (a family's bounds depend on the turn alone, not on
        the game around it)."""
        return (
            type(other) is type(self)
            and other.space.key() == self.space.key()
            and other.rolls == self.rolls
            and np.array_equal(other.scores, self.scores)
            and np.array_equal(other.outcome, self.outcome)
        )

    def absorb(self, other: TurnFamily) -> int:
        """Take ``other``'s policies and cuts (a family of the same turn, e.g. from another
        game's solve); returns how many policies were added."""
        if not self.same_turn(other):
            raise InvalidRulesError(
                "a family of another turn (other dice, rules or phase) cannot be taken"
            )
        self.members = np.vstack([self.members, other.members])
        self.cuts = np.vstack([self.cuts, other.cuts])
        self.highs = np.concatenate([self.highs, other.highs])
        return len(other.members)

    # ---------------------------------------------------------------- checkpoints
    def state(self) -> dict[str, Any]:
        """The family as plain arrays (for a checkpoint)."""
        return {"members": self.members, "cuts": self.cuts, "highs": self.highs}

    def load(self, state: dict[str, Any]) -> None:
        """Take back a family written by :meth:`state`."""
        self.members = np.asarray(state["members"], dtype=np.float64)
        self.cuts = np.asarray(state["cuts"], dtype=np.float64)
        self.highs = np.asarray(state["highs"], dtype=np.float64)


class TensorFamily(TurnFamily):
    """A color phase's family on ten different dice (the recorded set: 7**10 holds), the
    same bounds; its exact solves run on the tensor engine, one utility at a time: the
    float64 stages of :class:`~phase10math.turn.engine.TensorEngine` (die 0's face by face,
    the best hold of every roll state kept), the value the mean over the first roll (summed
    in chunks), the policy's outcome distribution the first roll's mass pushed forward
    through the hold tensor (:mod:`phase10math.turn.tensor.forward`).

    Proven margins: a die step is a mean of six terms (``gamma(7)``, or ``gamma(13)`` where
    a die has a face twice), the maxima are exact comparisons, and the first roll's mean is
    a chunked sum (:func:`~phase10math.turn.tensor.forward.chunk_roundings`); a distribution
    is within a relative ``gamma`` of :func:`~phase10math.turn.tensor.forward.forward_roundings`
    (a sum of nonnegative terms). About 25 s and 5 GB per exact solve on the recorded dice
    (two cores)."""

    costly = True  # about 25 s a solve on the recorded dice: rows left are checked again
    tensor = True  # engine_for gives the tensor engine (refused where two dice are alike)

    def __init__(
        self, space: StateSpace, outcome: np.ndarray, scores: np.ndarray, rules: Rules, tol: float
    ):
        super().__init__(space, outcome, scores, rules, tol)
        self.value_first: bool | None = None  # None: as value_first_now() judges
        # whether each of the last exact solves was closed by a policy already kept
        self.attained: collections.deque[bool] = collections.deque(maxlen=VALUE_FIRST_WINDOW)
        self.outcome = np.asarray(outcome, dtype=np.int8 if len(scores) < 127 else np.int16)
        self.dist_margin = gamma(forward_roundings(space, rules.rolls))

    def check_engine(self) -> None:
        """The tensor engine, as asked for (engine_for refuses dice not all different)."""

    @staticmethod
    def forward_bytes(space: StateSpace, rules: Rules, columns: int = 1) -> int:
        """Bytes an exact solve needs beside the engine's stages: the forward pass's hold
        tensor (twice: the gather's counts, or its chunked buffer kept beside a fresh one)
        and a share of it, the float utilities and two masses of the rolls, and the best
        holds kept (``columns`` policies, int32 per roll state and reroll)."""
        S = math.prod(tensor_shape(space))
        F = math.prod(face_shape(space))
        return 16 * S + 8 * S // 7 + 3 * 8 * F + 4 * F * (rules.rolls - 1) * max(1, columns)

    def _margin(self, umax: float) -> float:
        n, R = self.space.n_dice, self.rolls
        step = gamma(7) if unit_weights(self.space) else gamma(13)
        n_rolls = math.prod(face_shape(self.space))
        return umax * ((R - 1) * n * step + gamma(chunk_roundings(n_rolls) + 3))

    def solve_one(self, u: np.ndarray) -> tuple[float, float, dict[int, np.ndarray]]:
        """(float optimum, its proven margin, the best hold of every roll state per number
        of rerolls left) of one utility ``u`` over the outcomes."""
        run = self._stages(u, self.rolls, OPTIMAL_FLOAT)
        value = mean_over_first_roll(self.space, run.roll[0][self.rolls - 1])
        return value, self._margin(float(np.abs(u).max())), run.arg

    def _stages(self, u: np.ndarray, rolls: int, chooser: OptimalFloat):
        """The one backward induction of utility ``u`` (over the outcomes) with ``rolls``
        rolls on the tensor engine, float stages, the last stage's roll values kept (the
        first roll's mean is taken here: its chunked sum is what the margin counts)."""
        finals = [np.asarray(u, dtype=np.float64)[self.outcome]]
        return backward_induction(self.engine, finals, rolls, chooser, keep=False, totals=False)

    def value_one(self, u: np.ndarray) -> tuple[float, float]:
        """(float optimum, its proven margin) of one utility ``u``: the stages' values alone
        (:meth:`~phase10math.turn.engine.TensorEngine.mean_values`, the same floats as
        :meth:`solve_one`'s without the best holds' codes), no forward pass; about half an
        exact solve."""
        roll = self._stages(u, self.rolls, VALUES_ALONE).roll[0][self.rolls - 1]
        return mean_over_first_roll(self.space, roll), self._margin(float(np.abs(u).max()))

    def value_first_now(self) -> bool:
        """Whether the next exact solve tries the value alone first: ``value_first`` where
        set (True or False), else where at least ``VALUE_FIRST_SHARE`` of the last
        ``VALUE_FIRST_WINDOW`` exact solves (at least half that many seen) were closed by a
        policy the family already had."""
        if self.value_first is not None:
            return bool(self.value_first)
        seen = self.attained
        return 2 * len(seen) >= VALUE_FIRST_WINDOW and sum(seen) >= VALUE_FIRST_SHARE * len(seen)

    def _closed(self, u: np.ndarray, low: float) -> bool:
        """Whether the interval of ``u`` (the cuts as they are now, ``low`` the members'
        proven lower value) is within ``tol``."""
        return bool(self.upper(u[None], np.array([low]))[0] - low <= self.tol)

    def exact(self, U: np.ndarray, keep_holds: bool = False) -> BatchResult:
        """Exact solves of the rows of ``U`` one at a time (tensor engine; proven margins):
        after each, the row's interval is within ``tol``. Its cut always joins the family;
        its policy (the outcome distribution of the best holds found) joins unless the value
        alone, solved first (:meth:`value_first_now`), showed that a policy the family
        already has is within ``tol`` of the optimum. With ``keep_holds`` every row is
        solved in full, and refused at once where the holds of all rows would not fit in
        memory."""
        U = self.utilities(U)
        check_tensor_fits(
            self.space,
            self.rolls,
            extra=self.forward_bytes(self.space, self.rules, len(U) if keep_holds else 1),
        )
        t0 = time.monotonic()
        vals, margins, dists, kept = [], [], [], []
        for u in U:
            low = float(self.lower(u[None])[1][0]) if self.size else -math.inf
            tried = not keep_holds and self.size > 0 and self.value_first_now()
            if tried:
                v, m = self.value_one(u)
                self._add_cut(u, v + m)
                closed = self._closed(u, low)
                self.attained.append(closed)
                if closed:  # a member is within tol of the optimum: no forward pass
                    self.value_solves += 1
                    res = TurnFamily.solve(self, u[None])  # the family's answer, as any row's
                    vals.append(float(res.values[0]))
                    margins.append(float(res.margin[0]))
                    dists.append(res.dist[0])
                    continue
            v, m, holds = self.solve_one(u)
            dist = push_forward(self.space, holds, self.outcome, self.n_outcomes, self.rolls)
            if not tried:  # its cut (tried: already in, the same floats)
                self._add_cut(u, v + m)
                # would the value alone have closed it? (for value_first_now)
                self.attained.append(self.size > 0 and self._closed(u, low))
            self.members = np.vstack([self.members, dist[None]])
            vals.append(v)
            margins.append(m)
            dists.append(dist)
            if keep_holds:
                kept.append(holds)
        self.exact_seconds += time.monotonic() - t0
        self.exact_solves += len(U)
        holds_out = None
        if keep_holds:
            holds_out = {r: np.stack([h[r] for h in kept], axis=1) for r in range(1, self.rolls)}
        return BatchResult(
            np.array(vals), np.array(margins), np.array(dists), self.dist_margin, holds_out
        )

    def _add_cut(self, u: np.ndarray, high: float) -> None:
        self.cuts = np.vstack([self.cuts, u[None]])
        self.highs = np.append(self.highs, high)

    def forward(self, holds: dict[int, np.ndarray], B: int) -> np.ndarray:
        """Outcome distributions ``(B, n_outcomes)`` of the policies ``holds`` (hold ids per
        roll state, a column per policy), pushed forward on the hold tensor."""
        return np.array(
            [
                push_forward(
                    self.space,
                    {r: np.asarray(h)[:, b] for r, h in holds.items()},
                    self.outcome,
                    self.n_outcomes,
                    self.rolls,
                )
                for b in range(B)
            ]
        )

    def hold_values(self, cols: np.ndarray, rolls_left: int, holds: np.ndarray) -> np.ndarray:
        """The value of each hold ``holds`` (hold ids) with ``rolls_left`` rolls left, for
        each column of ``cols`` (values of the outcomes, ``n_outcomes x C``): the optimal
        float stages below (their values alone: no best holds), then the restricted
        transform over the asked holds (each column maximised on its own)."""
        out = []
        for c in np.asarray(cols, dtype=np.float64).T:
            roll = self._stages(c, rolls_left, VALUES_ALONE).roll[0][rolls_left - 1]
            out.append(LazyHoldValues(self.space, roll)[np.asarray(holds)])
        return np.stack(out, axis=1)
