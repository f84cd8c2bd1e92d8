"""Exact 10,000 results against seeded simulation (within 4 standard errors)."""

import math

import pytest

from phase10math.tenthousand import TenKRules, roll_stats, solve_turn
from phase10math.tenthousand.duel import solve_duel
from phase10math.tenthousand.simulate import roll_frequencies, simulate_duels, simulate_turns


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_single_roll_odds_by_simulation(n):
    samples = 40_000
    f = roll_frequencies(n, TenKRules(), samples=samples, seed=100 + n)
    s = roll_stats(n)
    for key, exact in (("p_no_score", s.p_no_score), ("p_bust", s.p_bust)):
        p = float(exact)
        assert abs(f[key] - p) < 4 * math.sqrt(p * (1 - p) / samples) + 1e-12


@pytest.mark.parametrize(
    "rules, on_board",
    [
        (TenKRules(), True),
        (TenKRules(wipe=False, extra_of_a_kind="double"), True),
        (TenKRules(open_score=500), False),
    ],
)
def test_turn_value_by_simulation(rules, on_board):
    sol = solve_turn(rules, on_board)
    mean, se = simulate_turns(sol, 8_000, seed=7)
    assert abs(mean - float(sol.value(0, 6))) < 4 * se


def test_turn_value_mid_turn_by_simulation():
    sol = solve_turn(TenKRules())
    mean, se = simulate_turns(sol, 12_000, seed=8, turn_total=400, dice=3)
    assert abs(mean - float(sol.value(400, 3))) < 4 * se


@pytest.mark.parametrize(
    "rules", [TenKRules(target=500), TenKRules(target=600, open_score=300, six_wins=False)]
)
def test_duel_by_simulation(rules):
    sol = solve_duel(rules, progress=False, use_cache=False)
    p, se = simulate_duels(sol, 4000, seed=11)
    assert abs(p - sol.first_player_wins) < 4 * se
    assert 0.5 < sol.first_player_wins < 0.75
