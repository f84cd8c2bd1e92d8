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


def test_certificate_refuses_a_wrong_box():
    """The certificate is no formality: a box that misses the solution is not mapped into
    itself, and the solver's proven box is."""
    from phase10math.tenthousand.layered import certify_box, solve_layered

    rules = TenKRules(target=600)
    s = solve_layered(rules)
    assert s.certified
    wrong = s.P.copy()
    wrong[0, 0] += 1e-6
    assert not certify_box(rules, wrong, wrong - 1e-9, wrong + 1e-9)[2]
    L, U, ok = certify_box(rules, s.P, s.P - 1e-8, s.P + 1e-8)
    assert ok and np.all(L >= s.P - 1e-8) and np.all(U <= s.P + 1e-8)


def test_jacobi_inside_the_proven_interval():
    rules = TenKRules(target=800, open_score=200)
    lay = solve_duel(rules, progress=False, use_cache=False)
    jac = solve_duel(rules, progress=False, use_cache=False, method="jacobi", tol=1e-13)
    assert jac.interval is None
    lo, hi = lay.interval
    assert lo - 1e-12 <= jac.first_player_wins <= hi + 1e-12
    assert np.all(lay.lower - 1e-11 <= jac.P) and np.all(jac.P <= lay.upper + 1e-11)


def test_bank_thresholds_match_should_roll():
    rules = TenKRules(target=600, open_score=300)
    sol = solve_duel(rules, progress=False, use_cache=False)
    U = rules.target // 50
    for n in (1, 2, 6):
        th = sol.bank_thresholds(n)
        for a in range(U):
            for b in range(U):
                t = next(
                    t for t in range(1, U + 1) if not sol.should_roll(50 * a, 50 * b, 50 * t, n)
                )
                assert th[a, b] == 50 * t
