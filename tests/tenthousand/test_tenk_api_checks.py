"""Bad arguments to the 10,000 API: the package's own error (a ValueError) naming the parameter."""

import math

import pytest

from phase10math.errors import Phase10MathError
from phase10math.tenthousand import (
    TenKRules,
    bank_cap,
    best_option,
    play_turn,
    roll_groups,
    roll_outcomes,
    roll_stats,
    score_options,
    solve_turn,
    turn_ev,
)
from phase10math.tenthousand.duel import solve_duel
from phase10math.tenthousand.penalty import solve_penalty, solve_penalty_duel
from phase10math.tenthousand.simulate import (
    roll_frequencies,
    simulate_duels,
    simulate_penalty_duels,
    simulate_turns,
)

R = TenKRules(target=300, dice=3)
FB = TenKRules.preset("facebook", target=300, floor=-100)


@pytest.fixture(scope="module")
def duel():
    return solve_duel(R, progress=False, use_cache=False)


BAD = [
    (lambda: play_turn(5), "steps"),
    (lambda: play_turn("1,1"), "steps"),
    (lambda: play_turn([(1, 2, 3)]), "steps[0]"),
    (lambda: play_turn([((1, 1, 2, 3, 3, 5), ("1",))]), "kept"),
    (lambda: play_turn([((1, 1, 2, 3, 3, 5), (True,))]), "kept"),
    (lambda: play_turn([((1, 1, 2, 3, 3, 5), 5)]), "kept"),
    (lambda: play_turn([((1, 1, 2, 3, 3, 5), (1,))], rules="default"), "rules"),
    (lambda: turn_ev(True), "dice"),
    (lambda: turn_ev(6, 50.0), "turn_total"),
    (lambda: turn_ev(6, math.nan), "turn_total"),
    (lambda: turn_ev(6, 0, rules=5), "rules"),
    (lambda: turn_ev(6, 0, on_board=1), "on_board"),
    (lambda: solve_turn({"target": 5000}), "rules"),
    (lambda: solve_turn(on_board="yes"), "on_board"),
    (lambda: bank_cap(None.__class__), "rules"),
    (lambda: roll_stats(True), "n="),
    (lambda: roll_stats(6.0), "n="),
    (lambda: roll_stats(6, rules=[]), "rules"),
    (lambda: roll_groups(0), "n="),
    (lambda: roll_outcomes(math.inf), "n="),
    (lambda: score_options((1, 2), rules=3), "rules"),
    (lambda: best_option((1, 7)), "die 2"),
    (lambda: solve_duel(R, tol=math.nan, progress=False), "tol"),
    (lambda: solve_duel(R, tol=math.inf, progress=False), "tol"),
    (lambda: solve_duel(R, tol=True, progress=False), "tol"),
    (lambda: solve_duel(R, tol=-1.0, progress=False), "tol"),
    (lambda: solve_duel(R, progress=1), "progress"),
    (lambda: solve_duel(R, progress=False, use_cache="no"), "use_cache"),
    (lambda: solve_duel(R, progress=False, max_sweeps=2.5), "max_sweeps"),
    (lambda: solve_duel(R, progress=False, method="fast"), "method"),
    (lambda: solve_duel(R, progress=False, method=True), "method"),
    (lambda: solve_duel(R, target=300.0, progress=False), "target"),
    (lambda: solve_duel(R, target=True, progress=False), "target"),
    (lambda: solve_duel(7, progress=False), "rules"),
    (lambda: roll_frequencies(True), "n="),
    (lambda: roll_frequencies(6, samples=0), "samples"),
    (lambda: roll_frequencies(6, seed=-1), "seed"),
    (lambda: simulate_turns("solution"), "solution"),
    (lambda: simulate_turns(solve_turn(R), turns=True), "turns"),
    (lambda: simulate_turns(solve_turn(R), dice=9), "dice"),
    (lambda: simulate_duels(solve_turn(R)), "solution"),
    (lambda: TenKRules.preset(3), "preset"),
    (lambda: TenKRules(four_and_pair=1), "four_and_pair"),
    (lambda: TenKRules(two_triplets=True), "two_triplets"),
    (lambda: solve_penalty("facebook"), "rules"),
    (lambda: solve_penalty(R), "farkle_penalty=0"),
    (lambda: solve_penalty(FB, tol=0.0), "tol"),
    (lambda: solve_penalty(FB, block=0), "block"),
    (lambda: solve_penalty(FB, refine=-1), "refine"),
    (lambda: solve_penalty(FB, checkpoint=5), "checkpoint"),
    (lambda: solve_penalty_duel(FB, progress="no"), "progress"),
    (lambda: solve_duel(FB, progress=False), "solve_penalty_duel"),
    (lambda: simulate_penalty_duels(solve_turn(R)), "solution"),
    (lambda: solve_penalty(FB).win_probability(25, 0), "me="),
    (lambda: solve_penalty(FB).win_probability(0, 300), "opponent=300"),
    (lambda: solve_penalty(FB).win_probability(0, -150), "opponent=-150"),
    (lambda: solve_penalty(FB).win_probability(0, 0, 3), "my_busts"),
    (lambda: solve_penalty(FB).bust_state(FB.farkles, 0, 0, 0), "i="),
    (lambda: solve_penalty(FB).bust_state(0, -1, 0, 0), "j=-1"),
    (lambda: solve_penalty(FB).bust_state(0, 0, True, 0), "a=True"),
    (lambda: solve_penalty(FB).bust_state(0, 0, 0, 10**30), "b="),
    (lambda: solve_penalty(FB).turn_tables(0, 0, 0, (300 + 100) // 50), "b=8"),
    (lambda: solve_penalty(FB).turn_tables(0, 0, 1.0, 0), "a=1.0"),
]


@pytest.mark.parametrize("call, name", BAD)
def test_bad_argument_names_it(call, name):
    with pytest.raises(Phase10MathError) as e:
        call()
    assert name in str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda s: s.should_roll(0, 0, 0.0, 3), "turn_total"),
        (lambda s: s.should_roll(True, 0, 50, 3), "my"),
        (lambda s: s.should_roll(0, math.nan, 50, 3), "opp"),
        (lambda s: s.should_roll(0, 0, 50, True), "dice"),
        (lambda s: s.win_probability(0, 0, -50, 3), "turn_total"),
        (lambda s: s.bank_value(0, 300, 50), "below the target"),
        (lambda s: s.advise(0, 0, 50, 3, roll=(1, 2)), "allowed: 3"),
        (lambda s: s.advise(0, 0, 50, 3, roll=(1, 2, 9)), "die 3"),
        (lambda s: s.choose((0, 1, 1), 0, 0, 50), "die 1"),
        (lambda s: simulate_duels(s, games=1.5), "games"),
        (lambda s: simulate_duels(s, seed="x"), "seed"),
    ],
)
def test_bad_duel_state_names_it(duel, call, name):
    with pytest.raises(Phase10MathError) as e:
        call(duel)
    assert name in str(e.value)


def test_good_calls_still_work(duel):
    assert play_turn([([1, 1, 2, 3, 3, 5], [1, 1, 5])])[0] == 250
    assert duel.should_roll(0, 0, 0, 3) is True
    assert isinstance(duel.should_roll(0, 0, 50, 3), bool)
    assert turn_ev(1, 0, TenKRules(dice=1)) == 25


def test_too_large_is_refused_at_once(monkeypatch):
    from phase10math.errors import StateSpaceTooLargeError
    from phase10math.tenthousand import layered

    monkeypatch.setattr(layered, "MEMORY_LIMIT", 1000)
    with pytest.raises(StateSpaceTooLargeError, match="needs about"):
        solve_duel(TenKRules(target=300), progress=False, use_cache=False)
