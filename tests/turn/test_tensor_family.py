"""The family of a color phase on different dice, solved on the tensor engine: its values hold
the exact optimum (the kit's exact integer solver), its outcome distributions are those of
the policy it found (the per-type forward pass on the same space, and a seeded simulation of
that policy), its hold values are the per-type ones, and a solve that would not fit in memory
is refused at once."""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import PHASES, parse_phase
from phase10math.errors import StateSpaceTooLargeError
from phase10math.game.length import simulate_turns
from phase10math.turn.engine import Stage
from phase10math.turn.family import (
    VALUE_FIRST_SHARE,
    VALUE_FIRST_WINDOW,
    TensorFamily,
    TurnFamily,
)
from phase10math.turn.solver import solve_utility
from phase10math.turn.tensor.forward import CHUNK, chunk_roundings, sum_by_outcome

THREE = tuple(RECORDED_LAYOUT.dice[i] for i in (0, 1, 6))  # two high dice, one low
FIVE = tuple(RECORDED_LAYOUT.dice[i] for i in (0, 1, 2, 6, 7))


@pytest.fixture(scope="module")
def three():
    """The same turn twice: the per-type family and the tensor family."""
    phase = parse_phase("2 of one color")
    return TurnFamily.for_phase(phase, layout=THREE), TensorFamily.for_phase(phase, layout=THREE)


def test_three_different_dice_agree_with_the_per_type_steps(three):
    grouped, tensor = three
    assert type(grouped) is TurnFamily and type(tensor) is TensorFamily
    assert grouped.space.key() == tensor.space.key()
    U = np.random.default_rng(3).random((5, grouped.n_outcomes))
    U[4] = np.round(U[4] * 2) / 2  # ties
    a, b = grouped.exact(U, keep_holds=True), tensor.exact(U, keep_holds=True)
    assert (np.abs(a.values - b.values) <= a.margin + b.margin).all()
    assert (b.margin > 0).all()
    # each distribution is its own policy's: the per-type forward pass of the tensor's holds
    again = grouped.forward(b.holds, len(U))
    assert np.abs(again - b.dist).max() <= grouped.dist_margin + b.dist_margin
    assert np.allclose(np.einsum("bo,bo->b", b.dist, U), b.values, atol=1e-12)
    assert np.allclose(tensor.forward(b.holds, len(U)), b.dist, atol=1e-15)


def test_hold_values_agree_with_the_per_type_steps(three):
    grouped, tensor = three
    cols = np.random.default_rng(4).random((grouped.n_outcomes, 2))
    holds = np.arange(0, grouped.space.n_states, 7)
    for rolls_left in (1, 2):
        a = grouped.hold_values(cols, rolls_left, holds)
        b = tensor.hold_values(cols, rolls_left, holds)
        assert a.shape == b.shape == (len(holds), 2)
        assert np.abs(a - b).max() <= 1e-14


def test_a_stages_values_alone_equal_the_float_stage(three):
    """The values without the best holds' codes are the float stage's (the same maxima)."""
    _, tensor = three
    engine = tensor.engine
    u = np.random.default_rng(6).random(tensor.n_outcomes)
    u[::3] = u[1::3][: len(u[::3])]  # ties between holds
    stage = Stage([u[tensor.outcome]])
    for r in (1, 2):
        full = engine.float_stage(stage, r)
        alone = engine.mean_values(stage)
        assert alone.shape == full.roll[0].shape
        assert np.array_equal(alone, full.roll[0])
        stage = full


@pytest.fixture(scope="module")
def five():
    fam = TensorFamily.for_phase(parse_phase("3 of one color"), layout=FIVE)
    U = np.random.default_rng(5).integers(-10, 40, size=(3, fam.n_outcomes)).astype(float)
    return fam, U, fam.exact(U, keep_holds=True)


def test_five_different_dice_hold_the_exact_optimum(five):
    fam, U, res = five
    assert type(TurnFamily.for_phase(parse_phase("3 of one color"), layout=FIVE)) is TensorFamily
    assert fam.size == fam.exact_solves == 3
    for b in range(len(U)):
        exact = float(solve_utility(fam.space, U[b][fam.outcome].astype(np.int64)).value())
        assert abs(res.values[b] - exact) <= res.margin[b]
        assert abs(res.dist[b] @ U[b] - res.values[b]) <= 1e-11
    # solved: the family's interval at its cuts closes to rounding, and is not solved again
    again = fam.solve(U)
    assert (again.margin <= 1e-8).all() and (np.abs(again.values - res.values) <= 1e-8).all()
    assert fam.refine(U) == 0


def test_distributions_match_a_simulation_of_the_policy(five):
    fam, _, res = five
    n = 40_000
    rng = np.random.default_rng(6)
    for b in range(len(res.dist)):
        holds = {r: h[:, b] for r, h in res.holds.items()}
        got = simulate_turns(fam.space, fam.outcome, holds, fam.rolls, n, rng)
        freq = np.bincount(got, minlength=fam.n_outcomes) / n
        sd = np.sqrt(res.dist[b] * (1 - res.dist[b]) / n)
        assert (np.abs(freq - res.dist[b]) <= 5 * sd + 1e-9).all()


def test_chunked_sums_add_every_term_once():
    outcome = np.arange(3 * CHUNK + 5) % 4
    mass = np.full(len(outcome), 0.5)
    got = sum_by_outcome(outcome, mass, 5)
    assert got.tolist() == [np.count_nonzero(outcome == k) * 0.5 for k in range(4)] + [0.0]
    assert chunk_roundings(10) == 11 and chunk_roundings(3 * CHUNK + 5) == CHUNK + 4


def test_the_recorded_dice_get_a_tensor_family_or_a_refusal_at_once(monkeypatch):
    fam = TurnFamily.for_phase(PHASES[8], layout=RECORDED_LAYOUT)
    assert type(fam) is TensorFamily and fam.size == 0
    assert fam.space.n_states == 7**10 and fam.n_outcomes > 20
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", "1")
    with pytest.raises(StateSpaceTooLargeError, match="needs about"):
        TurnFamily.for_phase(PHASES[8], layout=RECORDED_LAYOUT)
    with pytest.raises(StateSpaceTooLargeError, match="needs about"):
        fam.exact(np.zeros((1, fam.n_outcomes)))
    assert fam.size == 0 and fam.exact_solves == 0


@pytest.mark.parametrize("depth", [0, 3, 10**6])
def test_the_rolls_per_hold_bound_is_never_below_the_true_count(monkeypatch, depth):
    """The bucketed count bounds every hold's number of rolls from above (many holds share a
    bucket here); where the bound passes ``GATHER_DEPTH`` the exact count is returned."""
    import phase10math.turn.tensor.forward as fwd

    monkeypatch.setattr(fwd, "BUCKETS", 16)
    monkeypatch.setattr(fwd, "GATHER_DEPTH", depth)
    rng = np.random.default_rng(7)
    for _ in range(20):
        holds = rng.integers(0, 200, size=int(rng.integers(1, 300)))
        true = max(collections.Counter(holds.tolist()).values())
        got = fwd.most_rolls_per_hold(holds, 200)
        assert got >= true
        assert got == true or got <= depth


def test_the_gather_in_one_pass_equals_the_gather_in_chunks(five, monkeypatch):
    """Where some hold is kept by more rolls than one pass may sum, the gather goes chunk by
    chunk: the same masses (to rounding) and the same outcome distribution."""
    import phase10math.turn.tensor.forward as fwd

    fam, _, res = five
    holds = {r: h[:, 0] for r, h in res.holds.items()}
    mass = fwd.first_roll_mass(fam.space)
    one = fwd.gather_holds(fam.space, holds[2], mass).copy()
    monkeypatch.setattr(fwd, "GATHER_DEPTH", 0)
    monkeypatch.setattr(fwd, "CHUNK", 1000)  # several chunks of the 7,776 rolls
    chunked = fwd.gather_holds(fam.space, holds[2], mass)
    assert np.abs(one - chunked).max() <= 1e-15 and abs(chunked.sum() - 1) <= 1e-12
    assert np.count_nonzero(chunked) == len(np.unique(holds[2]))
    dist = fwd.push_forward(fam.space, holds, fam.outcome, fam.n_outcomes, fam.rolls)
    assert np.abs(dist - res.dist[0]).max() <= 1e-15


def test_a_utility_a_kept_policy_solves_is_closed_by_its_value_alone():
    """With the value solved first, a utility near one solved already (the same policy
    optimal) closes with its cut alone: no policy is added, and the family's interval holds
    the exact optimum (the kit's exact integer solver). A utility far from the kept policies
    is then solved in full."""
    fam = TensorFamily.for_phase(parse_phase("3 of one color"), layout=FIVE)
    rng = np.random.default_rng(8)
    # chances as the game's are (0 to 1), in sixty-fourths of 1/1024: exact as floats
    w = rng.integers(0, 1024, size=fam.n_outcomes) * 64
    fam.value_first = True
    fam.exact((w / 2**16)[None])  # no policy yet: solved in full
    assert (fam.size, len(fam.cuts), fam.value_solves) == (1, 1, 0)
    near_w = w + rng.integers(0, 2, size=fam.n_outcomes)  # moved a little: the same policy
    near = near_w / 2**16
    assert len(fam.wide(near[None])) == 1  # the cut of w does not close it
    res = fam.exact(near[None])
    assert (fam.size, len(fam.cuts), fam.value_solves) == (1, 2, 1)
    exact = float(solve_utility(fam.space, near_w[fam.outcome].astype(np.int64)).value()) / 2**16
    for got in (res, fam.solve(near[None])):
        assert abs(float(got.values[0]) - exact) <= float(got.margin[0]) <= fam.tol
    assert fam.refine(near[None]) == 0  # closed: not solved again
    far = rng.random(fam.n_outcomes)[::-1].copy()
    fam.exact(far[None])
    assert (fam.size, len(fam.cuts), fam.value_solves) == (2, 3, 1)  # tried, then in full
    assert list(fam.attained) == [False, True, False]  # the first: no policy to attain it


def test_the_value_is_solved_first_where_kept_policies_mostly_sufficed():
    fam = TensorFamily.for_phase(parse_phase("2 of one color"), layout=THREE)
    assert fam.value_first is None and not fam.value_first_now()  # nothing seen yet
    half = VALUE_FIRST_WINDOW // 2
    fam.attained.extend([True] * (half - 1))
    assert not fam.value_first_now()  # too few seen
    fam.attained.append(True)
    assert fam.value_first_now()
    share = math.ceil(VALUE_FIRST_SHARE * VALUE_FIRST_WINDOW)
    fam.attained.clear()
    fam.attained.extend([True] * (share - 1) + [False] * (VALUE_FIRST_WINDOW - share + 1))
    assert not fam.value_first_now()
    fam.attained.append(True)  # the oldest False leaves the window
    assert fam.value_first_now() == (fam.attained.count(True) >= share)
