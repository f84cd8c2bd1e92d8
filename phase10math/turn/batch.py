"""Batched float64 turn solves: many utilities of a turn's outcome in one pass.

A turn ends (failed) or (made, score s), so any utility of the final roll that depends only
on that outcome is a vector ``U`` over the outcomes. :class:`TurnBatch` solves ``B`` such
vectors at once on the per-type state space of a phase (free holds): the one backward
induction (:func:`~phase10math.turn.engine.backward_induction`) on the batch engine
(:class:`~phase10math.turn.engine.BatchEngine`, chosen by
:func:`~phase10math.turn.engine.engine_for`), its steps with a trailing axis of length ``B``:

- *final utility* ``V_0(S) = U[outcome(S)]``;
- *expectation over rerolls* ``W_r(K) = E[V_{r-1}(K + roll of the other dice)]``, one die
  at a time;
- *subset maximum* ``V_r(S) = max over K within S of W_r(K)``: values within ``tie`` of
  each other count as equal (a bound far above rounding, far below any real difference: an
  exact tie split by rounding stays a tie), and a smaller hold replaces the best so far only
  when better by more than ``tie`` (:attr:`~phase10math.turn.engine.Ties.KEEP`, the rule the
  shipped two-player tables were solved with; its holds are exactly optimal, and with the
  kit's one order of holds, :attr:`~phase10math.turn.engine.Ties.KIT`, they are the exact
  engine's: both tested on every phase without colors);
- the turn's value ``E[V_{R-1}(first roll)]``, a dot product with the first roll's
  probabilities (each rounded once from exact integer weights).

Then ``forward`` pushes the first roll's distribution through each column's policy to the
outcome distribution of that policy (what a game needs to evaluate the policy exactly).
The steps are compiled (:mod:`~phase10math.turn.batchsteps`), and :meth:`TurnBatch.solve`
runs ``threads()`` chunks of columns side by side; every sum runs in a fixed order, so a
column's result does not depend on the chunk it was solved in.

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

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from phase10math.dice.faces import Die, Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules, check_rules
from phase10math.errors import InvalidArgumentError, InvalidRulesError, StateSpaceTooLargeError
from phase10math.turn.batchsteps import gather_mass, outcome_sums, roll_step
from phase10math.turn.engine import (
    EngineKind,
    OptimalFloat,
    backward_induction,
    engine_for,
    final_scores,
)
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


class TurnBatch:
    """One phase's turn, ready for batched solves: the per-type state space, the outcome of
    every roll state (0 = failed, ``1 + j`` = made with score ``scores[j]``), the rules (their
    rolls) and the engine :func:`~phase10math.turn.engine.engine_for` picks for batched
    solves (here the batch engine; a family on ten different dice: the tensor engine)."""

    tensor = False  # whether the turn asks engine_for for the tensor engine

    def __init__(self, space: StateSpace, outcome: np.ndarray, scores: np.ndarray, rules: Rules):
        self.engine = engine_for(space, rules, batch=True, tensor=self.tensor)
        self.check_engine()
        self.space = space
        self.outcome = np.asarray(outcome, dtype=np.int64)
        self.scores = np.asarray(scores, dtype=np.int64)
        self.rules = rules
        self.rolls = rules.rolls
        self.n_outcomes = 1 + len(self.scores)

    def check_engine(self) -> None:
        """Refuse a space the batch engine would not solve in reasonable memory: ten
        different dice (:class:`~phase10math.turn.family.TensorFamily` solves those)."""
        if self.engine.kind is not EngineKind.BATCH:
            raise StateSpaceTooLargeError(
                "batched solves run on spaces of grouped dice (a phase without colors); "
                "this space has ten different dice"
            )

    @property
    def full_ids(self) -> np.ndarray:
        """The roll states' ids."""
        return self.space.full_ids

    @property
    def first(self) -> np.ndarray:
        """The first roll's probability of every roll state (built when first used)."""
        return self.engine.first

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
        return cls(space, outcome, scores, rules)

    # ---------------------------------------------------------------- the steps
    def _check(self, B: int) -> None:
        if self.space.n_states * B > MAX_CELLS:
            raise StateSpaceTooLargeError(
                f"{B} columns x {self.space.n_states:,} holds exceed {MAX_CELLS:,} cells; "
                "solve in smaller batches"
            )

    def forward(self, holds: dict[int, np.ndarray], B: int) -> np.ndarray:
        """Outcome distribution ``(B, n_outcomes)`` of the policies ``holds``: the first
        roll's distribution pushed through every hold and reroll (each hold's mass moves to
        the holds with one more die, the smallest holds of a type first)."""
        sp, eng = self.space, self.engine
        m = np.repeat(self.first[:, None], B, axis=1)
        for r in range(self.rolls - 1, 0, -1):
            H = np.zeros((sp.n_states, B))
            gather_mass(H, np.ascontiguousarray(holds[r], dtype=np.int32), m)
            for t, typ in enumerate(sp.types):
                w = np.asarray(typ.weights, dtype=np.float64) / 6.0
                _, up, below = eng.orders(t)
                roll_step(eng.slabs(H, t), sp.remove_tables[t], w, up, below)
            m = H[self.full_ids]
        return outcome_sums(self.outcome, m, self.n_outcomes)

    def hold_values(self, cols: np.ndarray, rolls_left: int, holds: np.ndarray) -> np.ndarray:
        """The value of each hold ``holds`` (hold ids) with ``rolls_left`` rolls left, for
        each column of ``cols`` (values of the outcomes, ``n_outcomes x C``), each column
        maximised on its own (the optimal float stages below, ties within ``0``)."""
        vals = np.ascontiguousarray(np.asarray(cols, dtype=np.float64)[self.outcome])
        below = self.induction(vals, rolls_left, OptimalFloat(0.0, holds=False)).roll[0]
        return self.engine.expectation(below[rolls_left - 1])[np.asarray(holds)]

    def induction(self, finals: np.ndarray, rolls: int, chooser: OptimalFloat, totals=False):
        """The one backward induction of the roll-state values ``finals`` (roll states x B)
        on this turn's engine, the last stage's values kept (``totals``: and the means over
        the first roll)."""
        return backward_induction(self.engine, [finals], rolls, chooser, keep=False, totals=totals)

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
        tie = self.tie_of(U)
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

    def tie_of(self, U: np.ndarray) -> float:
        """The tie bound of a solve of the rows of ``U`` (the same for every chunk)."""
        umax = float(np.abs(np.asarray(U, dtype=np.float64)).max(initial=0.0))
        return float(2 * self.rolls * self.space.n_dice * gamma(7) * max(umax, 1e-300))

    def _solve_chunk(
        self, U: np.ndarray, tie: float, distribution: bool, keep_holds: bool
    ) -> BatchResult:
        B = U.shape[0]
        self._check(B)
        umax = np.abs(U).max(axis=1)
        vals = U[:, self.outcome].T.copy()  # roll states x B
        run = self.induction(vals, self.rolls, OptimalFloat(tie), totals=True)
        holds, values = run.arg, run.total[0]  # the mean over the first roll
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
