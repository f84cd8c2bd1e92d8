"""Optimal solitaire on ten different dice: the float tensor turn (``float_optimal_turn``) and
its policy evaluation against the exact integer engine and the per-type float path, and a
solitaire state solved on a reduced recorded-dice game checked by simulation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import parse_phase
from phase10math.dice.rules import Rules
from phase10math.game.solitaire import PhaseData, simulate_phase, solve_state
from phase10math.turn import engine, policy
from phase10math.turn.engine import final_scores
from phase10math.turn.projection import FULL
from phase10math.turn.solver import solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import slabs
from phase10math.turn.tensor.memory import is_tensor_space

REC = RECORDED_LAYOUT.dice


def reduced_space(n_high: int, n_low: int) -> StateSpace:
    space = StateSpace.build(list(REC[:n_high]) + list(REC[6 : 6 + n_low]), FULL)
    assert is_tensor_space(space)
    return space


@pytest.mark.parametrize("seed", [0, 1])
def test_float_tensor_turn_is_the_exact_optimum(seed, monkeypatch):
    """On integer utilities the float solve's value is the exact optimum to 1e-12, and the
    exact value of its holds (integer policy evaluation) is the exact optimum itself."""
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    monkeypatch.setattr(slabs, "BLOCK", 101)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    space = reduced_space(3, 3)
    top = np.random.default_rng(seed).integers(0, 30, len(space.full_ids))
    exact = solve_utility(space, top, Rules()).value()
    value, holds = policy.float_optimal_turn(space, top.astype(float), 3)
    assert abs(value - float(exact)) <= 1e-12 * float(exact)
    assert policy.evaluate_free_policy(space, top, holds, 3) == exact
    (mean,) = policy.policy_means(space, top[:, None], holds, 3)
    assert abs(mean - float(exact)) <= 1e-12 * 30


def test_float_tensor_turn_equals_the_per_type_float_path(monkeypatch):
    space = reduced_space(2, 3)
    util = np.random.default_rng(5).random(len(space.full_ids)) * 50
    v_tensor, h_tensor = policy.float_optimal_turn(space, util, 3)
    monkeypatch.setattr(policy, "engine_for", engine.Engine)  # the per-type engine
    v_type, h_type = policy.float_optimal_turn(space, util, 3)
    assert abs(v_tensor - v_type) <= 1e-12 * 50
    # continuous random utilities: no ties, the same holds
    for r in (1, 2):
        assert (np.asarray(h_tensor[r]) == np.asarray(h_type[r])).all()
    cols = np.stack([util, util > 25], axis=1)
    a = policy.policy_means(space, cols, h_tensor, 3)
    monkeypatch.undo()
    b = policy.policy_means(space, cols, h_tensor, 3)
    assert np.allclose(a, b, rtol=1e-12, atol=0)


@pytest.fixture(scope="module")
def reduced_solitaire():
    """A solitaire phase "4 of one color" on seven recorded dice (tensor space), solved as
    the (10, 'later') state: retry until made, -5 per failed turn."""
    space = reduced_space(4, 3)
    ph = parse_phase("4 of one color")
    rules = Rules()
    score = np.asarray(final_scores(ph, space, rules), dtype=np.int64)
    data = {10: PhaseData(10, space, score)}
    return data, solve_state((10, "later"), data, {}, rules)


def test_reduced_solitaire_state_by_exact_evaluation(reduced_solitaire):
    data, st = reduced_solitaire
    pd = data[10]
    made = pd.made.astype(np.int64)
    p = policy.evaluate_free_policy(pd.space, made, st.holds, 3)
    a = policy.evaluate_free_policy(pd.space, np.maximum(pd.score, 0) * made, st.holds, 3)
    assert st.p_made == p
    assert st.value == (a - 5 * (1 - p)) / p
    assert st.bound < 1e-6


def test_reduced_solitaire_optimum_bracketed_by_integer_solves(reduced_solitaire):
    """v* is where F(lam) - lam crosses 0 (F: the exact optimal turn with fail value lam - 5):
    F(floor v) >= floor v and F(ceil v) <= ceil v."""
    data, st = reduced_solitaire
    pd = data[10]
    x = np.maximum(pd.score, 0)
    lo, hi = int(np.floor(float(st.value))), int(np.ceil(float(st.value)))

    def F(lam: int) -> Fraction:
        return solve_utility(pd.space, np.where(pd.made, x, lam - 5), Rules()).value()

    assert F(lo) >= lo and F(hi) <= hi


def test_reduced_solitaire_simulation_agrees(reduced_solitaire):
    data, st = reduced_solitaire
    pts = simulate_phase(data[10], st.holds, 20_000, seed=7)
    se = pts.std(ddof=1) / np.sqrt(len(pts))
    assert abs(pts.mean() - float(st.value)) < 4 * se
