"""The batch engine (the two-player solve's float turns, many utilities at once) against the
exact engine, both chosen by ``engine_for`` on the same space: on every phase without
colors, for the per-turn objectives (complete the phase; score) and (phases 1-10) a seeded
integer utility, the best holds with every number of rolls left: with the kit's one order
of holds (``Ties.KIT``: the larger value, then more dice, then the larger id; the batch
engine counts values within its tie bound as equal) they equal the exact engine's; with the
two-player solve's rule (``Ties.KEEP``: the best so far stays) each is exactly optimal (its
exact value is the maximum); and each float value lies within its proven margin of the
exact value (``margin_of``: at most 1e-11 of the batch's largest utility)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidRulesError
from phase10math.turn.batch import TurnBatch, outcomes_of
from phase10math.turn.engine import (
    OPTIMAL,
    EngineKind,
    Fixed,
    OptimalFloat,
    Ties,
    backward_induction,
    engine_for,
    final_scores,
)
from phase10math.turn.projection import VALUE
from phase10math.turn.statespace import StateSpace

PLAIN = [k for k, ph in PHASES.items() if not ph.uses_color]
RULES = Rules()


@pytest.fixture(scope="module")
def spaces() -> list[StateSpace]:
    """The value projections of the recorded and the compact dice (built once)."""
    return [StateSpace.build(layout, VALUE) for layout in (RECORDED_LAYOUT, COMPACT_LAYOUT)]


def utilities(tb: TurnBatch, k: int) -> np.ndarray:
    """Rows over the outcomes: complete the phase, the score; at the game's phases 1-10
    also seeded integers 0..9."""
    n = tb.n_outcomes
    rows = [np.array([0] + [1] * (n - 1)), np.concatenate([[0], tb.scores])]
    if k <= 10:
        rows.append(np.random.default_rng(k).integers(0, 10, n))
    return np.stack(rows).astype(np.int64)


@pytest.mark.parametrize("k", PLAIN)
def test_the_batch_engines_holds_are_the_exact_engines_on_every_phase_without_colors(k, spaces):
    turns = []
    for space in spaces:
        scores, outcome = outcomes_of(final_scores(PHASES[k], space, RULES))
        turns.append(TurnBatch(space, outcome, scores, RULES))
    tb = turns[0]
    # the phases without colors see the values only: both sets give one turn, solved once
    assert turns[1].space.key() == tb.space.key()
    assert np.array_equal(turns[1].outcome, tb.outcome)
    assert tb.engine.kind is EngineKind.BATCH
    exact = engine_for(tb.space, RULES)
    assert exact.kind is EngineKind.PER_TYPE
    U = utilities(tb, k)
    res = tb.solve(U.astype(float), distribution=False, keep_holds=True)  # Ties.KEEP
    cols = np.ascontiguousarray(U.astype(float)[:, tb.outcome].T)
    kit = OptimalFloat(tb.tie_of(U), ties=Ties.KIT)
    ordered = backward_induction(tb.engine, [cols], tb.rolls, kit, keep=False)
    for b, u in enumerate(U):
        run = backward_induction(exact, [u[tb.outcome]], tb.rolls, OPTIMAL)
        for r in range(1, tb.rolls):
            # the kit's order: the exact engine's holds
            assert np.array_equal(ordered.arg[r][:, b], run.arg[r]), (k, b, r)
            # the solve's rule: exactly optimal holds (the exact value of the best hold)
            held = np.asarray(run.hold[0][r])
            assert np.array_equal(held[res.holds[r][:, b]], held[run.arg[r]]), (k, b, r)
        value = Fraction(run.total[0], run.denominator)
        for got in (res.values[b], ordered.total[0][b]):
            assert abs(Fraction(float(got)) - value) <= Fraction(float(res.margin[b]))
        assert res.margin[b] <= 1e-11 * int(U.max())  # the stated float bound


def test_engine_for_picks_the_batch_engine_for_batched_solves_of_grouped_dice_only():
    tb = TurnBatch.for_phase(PHASES[1])
    assert engine_for(tb.space, Rules(), batch=True).kind is EngineKind.BATCH
    assert engine_for(tb.space, Rules()).kind is EngineKind.PER_TYPE
    with pytest.raises(InvalidRulesError, match="free holds only"):
        engine_for(tb.space, Rules(holds="sticky"), batch=True)
    with pytest.raises(InvalidRulesError, match="float stages only"):
        backward_induction(tb.engine, [np.zeros(len(tb.full_ids), np.int64)], 3, OPTIMAL)


def test_a_fixed_float_policy_on_the_batch_engine_is_the_exact_policys_value():
    """The batch engine's fixed-policy stage (float) against the exact engine's value of the
    same policy (the exact optimum's holds of phase 2's score)."""
    tb = TurnBatch.for_phase(PHASES[2])
    exact = engine_for(tb.space, Rules())
    u = np.concatenate([[0], tb.scores])[tb.outcome]
    run = backward_induction(exact, [u], 3, OPTIMAL, keep=False)
    holds = {r: np.asarray(run.arg[r]) for r in (1, 2)}
    cols = np.stack([u, 2 * u], axis=1).astype(float)
    got = backward_induction(tb.engine, [cols], 3, Fixed(holds, exact=False), keep=False)
    want = Fraction(run.total[0], run.denominator)
    assert got.total[0] == pytest.approx([float(want), 2 * float(want)], rel=1e-13)


def test_one_utility_without_a_batch_axis_is_its_column_of_a_batch():
    tb = TurnBatch.for_phase(PHASES[4])
    u = np.concatenate([[0], tb.scores])[tb.outcome].astype(float)
    cols = np.stack([u, np.sqrt(u)], axis=1)
    one = backward_induction(tb.engine, [u], 3, OptimalFloat(1e-12))
    both = backward_induction(tb.engine, [cols], 3, OptimalFloat(1e-12))
    assert one.total[0] == both.total[0][0]
    for r in (1, 2):
        assert np.array_equal(one.arg[r], both.arg[r][:, 0])
