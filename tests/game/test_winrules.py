"""Win rules priced against the optimal player: the evaluation checked against the table's
own matchups and against a plain value iteration of the same game on a reduced game (three
dice of six faces, phases "1 set of 2" and "1 set of 3"), no rule beating the optimum, the
rules' words, and the shipped prices (their Monte Carlo record re-read)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from phase10math.dice.faces import Die, parse_faces
from phase10math.dice.phases import parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidRulesError
from phase10math.game.duel import DuelGame, Play, solve_duel
from phase10math.game.duel.columns import fixed_distribution
from phase10math.game.duel.setting import outcome_of
from phase10math.game.duel.winrules import (
    ALWAYS,
    NEVER,
    WIN_RULES,
    WinPricer,
    WinRule,
    shipped_win_rules,
)

FINISH = 3
RULES = Rules(five_phase_threshold=10, five_phase_bonus=5, first_finish_bonus=FINISH)


def rule(*lims: int, chase: bool = False) -> WinRule:
    return WinRule("test", *lims, chase=chase, last_phase=6, finish_bonus=FINISH)


@pytest.fixture(scope="module")
def pricer():
    die = Die("low", parse_faces("5r 5o 6b 6g Wr Wo"))
    phases = {5: parse_phase("1 set of 2"), 6: parse_phase("1 set of 3")}
    return WinPricer(solve_duel(DuelGame(phases, RULES, (die,) * 3)))


def iterate_values(sol, choose, seat: int) -> float:
    """The rule's chance to win from the start by plain value iteration over every state
    (the rule's seat by its fixed turn plays, the other seat by the table's optimal
    distributions), with its own recursion for the rule's last chances."""
    g = sol.game
    fixed = {(k, p): fixed_distribution(g, k, p) for k in g.phases for p in (1, 2)}

    def chase(lk):
        p, dc, elig = lk
        if sol.decided(lk):
            return float(dc > 0)
        play = choose(True, lk)
        if play == Play.OPTIMAL:
            return sol.last_value(Play.OPTIMAL, *lk)[0]
        u = [outcome_of(dc)[0]]
        for x in g.scores(p[0]):
            p2, gain = g.advance(p, int(x))
            if p[0] == g.hi:
                u.append(outcome_of(dc + gain + (FINISH if elig else 0))[0])
            else:
                u.append(chase((p2, dc + gain, elig)))
        return float(fixed[(p[0], int(play))] @ np.array(u))

    keys = [k for k in sol.values[(Play.OPTIMAL, Play.OPTIMAL)] if not sol.decided(k)]
    keys.sort(key=lambda k: -(k[1][0] + k[2][0]))  # later layers first: few sweeps
    v = dict.fromkeys(keys, 0.5)

    def worth(key):
        return sol.value(key)[0] if sol.decided(key) else v[key]

    for _ in range(500):
        change = 0.0
        for key in keys:
            mine = key[0] == seat
            d = fixed[(key[1][0], int(choose(False, key)))] if mine else sol.dists[key]
            u = [1 - worth((1 - key[0], key[2], key[1], -key[3]))]
            for last, nxt in sol.after(key):
                if not last:
                    u.append(1 - worth(nxt))
                else:
                    other = sol.last_value(Play.OPTIMAL, *nxt)[0] if mine else chase(nxt)
                    u.append(1 - other)
            new = float(d @ np.array(u))
            change, v[key] = max(change, abs(new - v[key])), new
        if change < 1e-14:
            break
    w = worth(g.start())
    return w if seat == 0 else 1 - w


def test_the_plain_turn_plays_are_the_tables_matchups(pricer):
    """Always stop / always roll for points: the table's matchups of a per-turn policy
    against the optimal player (computed by the solve's own pair step)."""
    sol, start, opt = pricer.sol, pricer.sol.game.start(), Play.OPTIMAL
    plain = {
        Play.COMPLETE: rule(NEVER, NEVER, NEVER, NEVER, ALWAYS),
        Play.SCORE: rule(ALWAYS, ALWAYS, ALWAYS, ALWAYS, NEVER),
    }
    for play, r in plain.items():
        assert pricer.worth(r, 0) == pytest.approx(sol.value(start, (play, opt))[0], abs=1e-12)
        assert pricer.worth(r, 1) == pytest.approx(1 - sol.value(start, (opt, play))[0], abs=1e-12)


@pytest.mark.parametrize("lims, chase", [((0, 3, -2, 4, 2), False), ((5, -1, 0, 0, 4), True)])
def test_a_rule_of_thresholds_equals_value_iteration(pricer, lims, chase):
    r = rule(*lims, chase=chase)
    for seat in (0, 1):
        got = pricer.worth(r, seat)
        assert got == pytest.approx(iterate_values(pricer.sol, r.choose, seat), abs=1e-12)


def test_no_rule_beats_the_optimal_player(pricer):
    rng = random.Random(4)
    for _ in range(12):
        r = rule(*(rng.randint(-8, 8) for _ in range(5)), chase=rng.random() < 0.5)
        for seat in (0, 1):
            assert pricer.worth(r, seat) <= pricer.optimal(seat) + 1e-9
    with pytest.raises(InvalidRulesError, match="seat"):
        pricer.worth(r, 2)


def test_the_words_follow_the_thresholds():
    r = WinRule("x", ALWAYS, 20, ALWAYS, ALWAYS, 28)
    words = r.words()
    assert words[0].startswith("Both on the last phase") and "lead by 20 or more" in words[0]
    assert words[1].startswith("Otherwise: keep rolling") and "more than 28" in words[2]
    me, opp = (10, 0, 0), (10, 0, 0)
    assert r.choose(False, (0, me, opp, 19)) == Play.SCORE
    assert r.choose(False, (0, me, opp, 20)) == Play.COMPLETE
    assert r.choose(False, (0, (9, 0, 0), (9, 0, 0), 500)) == Play.SCORE
    # last chance: needs 29 beyond the finish bonus of 40 where it gets it
    assert r.choose(True, ((10, 0, 0), -29, 0)) == Play.SCORE
    assert r.choose(True, ((10, 0, 0), -28, 0)) == Play.COMPLETE
    assert r.choose(True, ((10, 0, 0), -68, 1)) == Play.COMPLETE
    assert WinRule("x", NEVER, NEVER, NEVER, NEVER, ALWAYS).words()[0].startswith("Stop")
    chase = WinRule("x", ALWAYS, ALWAYS, ALWAYS, ALWAYS, 0, chase=True)
    assert chase.choose(True, ((9, 0, 0), -5, 1)) == Play.OPTIMAL
    assert "pass their total" in chase.words()[-1]


def test_the_shipped_win_rules_are_the_codes_and_their_games_agree():
    data = shipped_win_rules()
    assert [r["words"] for r in data["rules"]] == [r.words() for r in WIN_RULES]
    opt = data["optimal"]
    for row in data["rules"]:
        w, p = row["worth"], row["price"]
        for seat in ("first", "second"):
            assert p[seat] == pytest.approx(opt[seat] - w[seat], abs=1e-15)
            assert p[seat] >= -data["optimal_bound"]
        assert p["mean"] == pytest.approx((p["first"] + p["second"]) / 2, abs=1e-15)
        mc = row["monte_carlo"]
        assert mc["games"] >= 1000
        # the games' mean within 1.96 standard errors of the exact chance to win in the
        # seats drawn (which averages the two seats' exact worths)
        assert abs(mc["mean"] - mc["exact"]) <= 1.959964 * mc["se"]
        assert min(w["first"], w["second"]) - 1e-12 <= mc["exact"]
        assert mc["exact"] <= max(w["first"], w["second"]) + 1e-12
        assert mc["se"] == pytest.approx(
            math.sqrt(mc["mean"] * (1 - mc["mean"]) / mc["games"]), rel=0.1
        )
    assert data["card_rule"] in [r["name"] for r in data["rules"]]


def test_the_shipped_prices_lie_in_their_proven_bounds():
    """Each shipped chance and price inside its proven interval, the intervals narrow, and
    ``proven_within`` the farthest any of them is from an end of its interval."""
    data = shipped_win_rules()
    far = 0.0
    for row in data["rules"]:
        for kind in ("worth", "price"):
            for seat in ("first", "second", "mean"):
                lo, hi = row[f"{kind}_bounds"][seat]
                assert lo <= row[kind][seat] <= hi and hi - lo < 1e-7
                far = max(far, row[kind][seat] - lo, hi - row[kind][seat])
        for seat in ("first", "second"):  # the optimum's interval less the rule's
            (o_lo, o_hi), (w_lo, w_hi) = data["optimal_bounds"][seat], row["worth_bounds"][seat]
            p_lo, p_hi = row["price_bounds"][seat]
            assert p_lo <= o_lo - w_hi + 1e-15 and p_hi >= o_hi - w_lo - 1e-15
    assert far == data["proven_within"] < 1e-7
