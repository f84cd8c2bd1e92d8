"""Optimal solitaire on ten different dice: the float tensor turn (``float_optimal_turn``) and
its policy evaluation against the exact integer engine and the per-type float path, and a
solitaire state solved on a reduced recorded-dice game checked by simulation."""

from __future__ import annotations

import time
from fractions import Fraction

import numpy as np
import pytest

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import StateSpaceTooLargeError
from phase10math.game.solitaire import (
    PhaseData,
    SolitaireSolution,
    check_solitaire_fits,
    comparison,
    phase_spaces,
    simulate_phase,
    solve_bytes,
    solve_solitaire,
    solve_state,
)
from phase10math.turn import engine, policy
from phase10math.turn.engine import final_scores
from phase10math.turn.projection import FULL
from phase10math.turn.solver import solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import row_spaces
from phase10math.turn.tensor import slabs
from phase10math.turn.tensor.codes import HoldIds, holds_from_codes
from phase10math.turn.tensor.memory import estimate_bytes, is_tensor_space

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


def test_reduced_solitaire_keeps_hold_codes_of_the_float_turns_holds(reduced_solitaire):
    """On ten different dice a state keeps its policy as two-byte hold codes: the float turn
    with ``codes`` names the same holds as with hold ids, and the exact policy evaluation
    gives the same value from either form."""
    data, st = reduced_solitaire
    pd = data[10]
    assert all(isinstance(h, HoldIds) for h in st.holds.values())
    x = np.maximum(pd.score, 0).astype(np.int64)
    util = np.where(pd.made, x, float(st.value) - 5) + 5
    v_ids, ids = policy.float_optimal_turn(pd.space, util, 3)
    v_codes, codes = policy.float_optimal_turn(pd.space, util, 3, codes=True)
    assert v_ids == v_codes
    for r in (1, 2):
        assert isinstance(codes[r], HoldIds) and codes[r].codes.dtype.itemsize == 2
        assert (np.asarray(codes[r]) == ids[r]).all()
        assert (codes[r][np.arange(0, len(ids[r]), 7)] == ids[r][::7]).all()
    made = pd.made.astype(np.int64)
    for col in (made, x * made):
        want = policy.evaluate_free_policy(pd.space, col, ids, 3)
        assert policy.evaluate_free_policy(pd.space, col, codes, 3) == want
        assert policy.policy_means(pd.space, col[:, None], codes, 3)[0] == pytest.approx(
            float(want), rel=1e-12
        )


def test_solitaire_solution_with_hold_codes_is_cached_memory_mapped(
    reduced_solitaire, tmp_path, monkeypatch
):
    from phase10math import cache

    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "LARGE_ARRAY", 1)
    monkeypatch.setattr(cache, "DISK_MARGIN", 0)
    _, st = reduced_solitaire
    sol = SolitaireSolution(Rules(), {(10, "later"): st})
    assert cache.large_bytes(sol) > 0 and cache.save_large("s", sol)
    got = cache.load_large("s", SolitaireSolution).states[(10, "later")]
    assert got.value == st.value and got.p_made == st.p_made
    for r in (1, 2):
        assert isinstance(got.holds[r].codes, np.memmap)
        assert (np.asarray(got.holds[r]) == np.asarray(st.holds[r])).all()


def test_recorded_solitaire_refused_at_once_over_the_memory_limit(monkeypatch):
    """The recorded dice' phase 8 (60 million rolls) fits in 3 GiB; under 1 GiB the solve is
    refused before any work, naming what it needs."""
    spaces = phase_spaces(RECORDED_LAYOUT)
    need = max(solve_bytes(sp, 3) for sp in spaces.values())
    assert need == solve_bytes(spaces[8], 3) > 0
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", "3")
    check_solitaire_fits(spaces, Rules())
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", "1")
    t = time.perf_counter()
    with pytest.raises(StateSpaceTooLargeError, match=r"phase 8 has 282,475,249 holds.*GiB"):
        solve_solitaire(Rules(), RECORDED_LAYOUT, show_progress=False, use_cache=False)
    assert time.perf_counter() - t < 30  # no phase solved: the other phases take minutes


def test_recorded_comparison_refused_at_once_over_the_memory_limit(monkeypatch, tmp_path):
    """From a fresh cache the comparison solves the per-turn turns first, then the solitaire:
    under a limit that fits neither phase 8 solve it is refused before any phase is solved
    (nothing written to the cache)."""
    need = min(
        solve_bytes(phase_spaces(RECORDED_LAYOUT)[8], 3),
        *(estimate_bytes(sp, 3, second=True) for sp in row_spaces(8, RECORDED_LAYOUT)),
    )
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", repr(need / 2 / 2**30))
    t = time.perf_counter()
    with pytest.raises(StateSpaceTooLargeError, match=r"phase 8 .*GiB"):
        comparison(Rules(), RECORDED_LAYOUT, show_progress=False)
    assert time.perf_counter() - t < 30  # no phase solved: the other phases take minutes
    assert not any(tmp_path.iterdir())  # nothing solved into the cache


@pytest.mark.parametrize("n_high, n_low", [(1, 0), (2, 1), (3, 2)])
def test_hold_ids_of_one_face_of_die_0_are_a_slice_of_all(n_high, n_low):
    """The hold ids of the roll states showing one face of die 0 (what a policy evaluation
    reads face by face) are the matching slice of all of them."""
    space = reduced_space(n_high, n_low)
    util = np.random.default_rng(n_high).random(len(space.full_ids))
    _, codes = policy.float_optimal_turn(space, util, 3, codes=True)
    faces = len(space.types[0].faces)
    for r in (1, 2):
        every = holds_from_codes(space, codes[r].codes)
        parts = [holds_from_codes(space, codes[r].codes, face=f) for f in range(faces)]
        assert (np.concatenate(parts) == every).all()
        assert len({len(p) for p in parts}) == 1
