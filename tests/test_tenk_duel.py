"""Properties of the two-player solution that do not depend on its own numbers."""

import numpy as np
import pytest

from phase10math.errors import Phase10MathError
from phase10math.tenthousand import TenKRules
from phase10math.tenthousand.duel import solve_duel


@pytest.fixture(scope="module")
def sol():
    return solve_duel(TenKRules(target=1000), progress=False, use_cache=False)


def test_converged_and_bounded(sol):
    assert sol.last_change < 1e-9
    assert np.all((sol.P >= 0) & (sol.P <= 1))
    assert sol.states == 20 * (20 * 21 // 2) * 6


def test_more_points_never_hurt(sol):
    # own score up: chance up; opponent's score up: chance down (small float slack)
    assert np.all(np.diff(sol.P, axis=0) >= -1e-9)
    assert np.all(np.diff(sol.P, axis=1) <= 1e-9)


def test_bank_at_target_and_values_consistent(sol):
    assert sol.bank_value(800, 0, 200) == 1.0
    assert not sol.should_roll(800, 0, 200, 3)
    for t, n in [(300, 2), (600, 5), (150, 1)]:
        v = sol.win_probability(0, 500, t, n)
        assert v == pytest.approx(max(sol.roll_value(0, 500, t, n), sol.bank_value(0, 500, t)))


def test_policy_choices(sol):
    assert sol.choose((1, 1, 1, 1, 1, 1), 0, 0, 0) is None  # six of a kind wins
    assert sol.choose((2, 2, 2, 2, 3, 4), 0, 0, 0) is None  # wipe
    assert sol.choose((1, 2, 3, 4, 5, 6), 0, 0, 0) == (3000, 0)
    assert sol.choose((1, 3, 3, 4, 6, 6), 0, 0, 0) == (100, 5)


def test_cache_round_trip(tmp_path, monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    rules = TenKRules(target=300, dice=3)
    a = solve_duel(rules, progress=False)
    assert list(tmp_path.iterdir())
    b = solve_duel(rules, progress=False)
    assert np.array_equal(a.P, b.P) and a.sweeps == b.sweeps


@pytest.mark.parametrize(
    "args, words",
    [
        ((0, 0, 75, 6), "multiple of 50"),
        ((1000, 0, 50, 6), "below the target"),
        ((0, 0, 50, 7), "1..6"),
        ((0, 0, 0, 3), "turn starts"),
    ],
)
def test_bad_states(sol, args, words):
    with pytest.raises(Phase10MathError, match=words):
        sol.win_probability(*args)
