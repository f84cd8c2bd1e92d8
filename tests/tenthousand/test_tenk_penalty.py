"""The duel with a farkle penalty (facebook preset): brute force and Monte Carlo agree."""

import itertools
import pickle

import numpy as np
import pytest

from phase10math.errors import InvalidFileError, Phase10MathError
from phase10math.tenthousand import TenKRules
from phase10math.tenthousand.penalty import solve_penalty
from phase10math.tenthousand.scoring import score_options
from phase10math.tenthousand.simulate import simulate_penalty_duels


def brute_force(rules: TenKRules, sweeps: int = 3000) -> np.ndarray:
    """Plain Jacobi value iteration over every state (busts i, j; scores a, b; turn total t;
    dice n), each ordered roll scored by score_options with every set-aside tried."""
    D, C = rules.dice, rules.farkles
    N = (rules.target - rules.floor) // 50
    pen = rules.farkle_penalty // 50
    rolls = {}
    for n in range(1, D + 1):
        bust, groups = 0, {}
        for dice in itertools.product(range(1, 7), repeat=n):
            opts = frozenset((o.points // 50, o.dice_left or D) for o in score_options(dice, rules))
            if not opts:
                bust += 1
            else:
                groups[opts] = groups.get(opts, 0) + 1
        rolls[n] = (bust / 6**n, [(w / 6**n, sorted(o)) for o, w in groups.items()])
    top = N + max(p for n in rolls for _, o in rolls[n][1] for p, _ in o) + 1
    i, j, a, b = np.meshgrid(*(np.arange(k) for k in (C, C, N, N)), indexing="ij")
    last = i + 1 == C
    bust_at = (j, np.where(last, 0, i + 1), b, np.where(last, np.maximum(a - pen, 0), a))
    P = np.full((C, C, N, N), 0.5)
    for _ in range(sweeps):
        bust_value = 1.0 - P[bust_at]
        W = np.ones((top + 1, D + 1, C, C, N, N))
        for t in range(N - 1, -1, -1):
            at = a + t
            bank = np.where(at >= N, 1.0, 1.0 - P[j, 0, b, np.minimum(at, N - 1)])
            for n in range(1, D + 1) if t else [D]:
                p_bust, groups = rolls[n]
                R = p_bust * bust_value
                for w, opts in groups:
                    R = R + w * np.max([W[t + p, m] for p, m in opts], axis=0)
                W[t, n] = np.where(at >= N, 1.0, R if t == 0 else np.maximum(R, bank))
        new = W[0, D]
        change = np.max(np.abs(new - P))
        P = new
        if change < 1e-15:
            break
    return P


TINY = TenKRules.preset("facebook", target=300, floor=-150, farkle_penalty=100)


@pytest.mark.parametrize(
    "rules",
    [TINY, TenKRules.preset("facebook", target=400, floor=-500)],
    ids=["penalty-100", "preset-400"],
)
def test_brute_force_equals_fast_solver(rules):
    fast = solve_penalty(rules)
    slow = brute_force(rules)
    assert fast.certified
    assert np.max(np.abs(fast.P - slow)) < 1e-11
    assert np.all(fast.L - 1e-12 <= slow) and np.all(slow <= fast.U + 1e-12)
    assert fast.upper - fast.lower < 1e-9


def test_brute_force_with_three_pairs_variant():
    # four of a kind and a pair not counted as three pairs: a different game, still equal
    rules = TINY.replace(four_and_pair=False, farkles=2)
    fast = solve_penalty(rules)
    assert np.max(np.abs(fast.P - brute_force(rules))) < 1e-11


def test_monte_carlo_within_interval():
    sol = solve_penalty(TenKRules.preset("facebook", target=500, floor=-250))
    p, se = simulate_penalty_duels(sol, games=3000, seed=7)
    assert abs(p - sol.value) < 4 * se
    assert sol.lower <= sol.value <= sol.upper


def test_penalty_makes_busts_cost():
    sol = solve_penalty(TenKRules.preset("facebook", target=500, floor=-250))
    # two busts in a row already: the next bust costs 500, so the chance is lower
    assert sol.win_probability(0, 0, 2, 0) < sol.win_probability(0, 0, 0, 0)
    assert sol.win_probability(0, 0, 0, 2) > sol.win_probability(0, 0, 0, 0)
    assert sol.win_probability(-250, 0) < sol.win_probability(0, 0)


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"floor": -75}, "multiple of 50"),
        ({"floor": 100}, "-20000 to 0"),
        ({"farkles": 0}, "1..5"),
        ({"farkle_penalty": 25}, "multiple of 50"),
        ({"wipe": True}, "wipe=False"),
    ],
)
def test_bad_penalty_options_are_refused(changes, words):
    with pytest.raises(Phase10MathError, match=words):
        TenKRules.preset("facebook", **changes)


def test_floor_needs_a_penalty():
    with pytest.raises(Phase10MathError, match="without a farkle penalty"):
        TenKRules(floor=-500)


def test_facebook_scoring_table():
    fb = TenKRules.preset("facebook")
    best = {
        tuple(sorted(r)): score_options(r, fb)[0].points
        for r in [
            (2, 2, 3, 3, 6, 6),
            (1, 2, 3, 4, 5, 6),
            (4, 4, 4, 4, 2, 3),
            (5, 5, 5, 5, 5, 3),
            (3, 3, 3, 3, 6, 6),
            (2, 2, 2, 2, 2, 2),
            (1, 1, 1, 2, 3, 4),
        ]
    }
    assert best == {
        (2, 2, 3, 3, 6, 6): 750,  # three pairs
        (1, 2, 3, 4, 5, 6): 1500,  # straight
        (2, 3, 4, 4, 4, 4): 800,  # four 4s: twice three 4s
        (3, 5, 5, 5, 5, 5): 2000,  # five 5s: 500 doubled twice
        (3, 3, 3, 3, 6, 6): 750,  # four 3s (600) and a pair: three pairs
        (2, 2, 2, 2, 2, 2): 1600,  # six 2s: 200 doubled three times
        (1, 1, 1, 2, 3, 4): 1000,
    }


def test_too_large_is_refused_at_once(monkeypatch):
    monkeypatch.setattr("phase10math.tenthousand.layered.memory_allowed", lambda: 10**6)
    with pytest.raises(Phase10MathError, match="GiB"):
        solve_penalty(TenKRules.preset("facebook"))


def test_the_bust_transition_takes_numpy_indices_alike():
    """A bust restarts the opponent's turn with the mover's count one higher, or at the
    ``farkles``-th bust with the count reset and the penalty taken (never below the floor),
    whether the indices come as ints or numpy integers."""
    rules = TenKRules.preset("facebook", target=300, floor=-100, farkle_penalty=100)
    sol = solve_penalty(rules)
    N, pen = (300 + 100) // 50, 100 // 50
    for i, j, a, b in itertools.product(
        range(rules.farkles), range(rules.farkles), range(N), [0, 5]
    ):
        want = (j, i + 1, b, a) if i + 1 < rules.farkles else (j, 0, b, max(a - pen, 0))
        assert sol.bust_state(i, j, a, b) == want
        assert sol.bust_state(*map(np.int64, (i, j, a, b))) == want


def test_a_solve_stopped_and_started_again_from_its_checkpoint_ends_as_one_run(tmp_path):
    """The checkpoint holds the table after every sweep: a solve stopped after four sweeps
    and run again goes on from there and ends with the uninterrupted solve's table, sweeps
    and proven interval; a converged checkpoint goes straight to the certificate."""
    rules = TenKRules.preset("facebook", target=400, floor=-200)
    whole = solve_penalty(rules)
    ck = tmp_path / "duel.ckpt"
    with pytest.raises(Phase10MathError, match="no convergence after 4"):
        solve_penalty(rules, max_passes=4, checkpoint=ck)
    swept = []
    again = solve_penalty(rules, checkpoint=ck, progress=lambda n, c: swept.append(n))
    assert swept[0] == 5 and again.passes == whole.passes
    assert np.array_equal(again.P, whole.P) and (again.lower, again.upper) == (
        whole.lower,
        whole.upper,
    )
    swept.clear()
    last = solve_penalty(rules, checkpoint=ck, progress=lambda n, c: swept.append(n))
    assert swept == [] and last.certified and np.array_equal(last.P, whole.P)


def test_a_checkpoint_of_other_rules_or_not_a_checkpoint_is_refused(tmp_path):
    ck = tmp_path / "duel.ckpt"
    solve_penalty(TenKRules.preset("facebook", target=300, floor=-100), checkpoint=ck)
    with pytest.raises(InvalidFileError, match="other rules"):
        solve_penalty(TenKRules.preset("facebook", target=300, floor=-150), checkpoint=ck)
    pickled = tmp_path / "p.ckpt"
    pickled.write_bytes(pickle.dumps({"P": np.zeros(3)}))
    with pytest.raises(InvalidFileError, match="not a tenk-penalty-checkpoint"):
        solve_penalty(TenKRules.preset("facebook", target=300, floor=-100), checkpoint=pickled)
