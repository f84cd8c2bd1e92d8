"""The win strategy at a costly color phase: the better of two candidate turns by lookup, and
the chance it gives up bounded from the table - checked on seven different dice (phase 8 on
the tensor engine, as on the recorded set) and on the reduced grouped dice (the batched
forward pass, as on the compact dice) against exact distributions computed another way (one
exact fixed-policy evaluation per outcome)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from reduced_dice import REDUCED, phase8_duel

from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Objective, Rules
from phase10math.game.duel import DuelGame, Play, solve_duel
from phase10math.game.duel import candidates as cands_module
from phase10math.game.duel.candidates import (
    CANDIDATES,
    CandidateTurns,
    candidate_gaps,
    candidate_phase,
    candidate_table,
    candidate_turns,
    choose_candidate,
)
from phase10math.game.duelgames import DuelSample, simulate_duel
from phase10math.turn.batch import outcomes_of
from phase10math.turn.engine import engine_for, final_scores
from phase10math.turn.family import TurnFamily

SEVEN = tuple(RECORDED_LAYOUT.dice[3:10])  # seven different dice: phase 8 on the tensor engine
RULES = Rules()


@pytest.fixture(scope="module")
def duel():
    fam = TurnFamily.for_phase(PHASES[8], RULES, SEVEN, tol=1e-6)
    return solve_duel(DuelGame({8: PHASES[8]}, RULES, SEVEN, turns={8: fam}), target=1e-4)


def exact_dists(dice) -> dict:
    """Each candidate's outcome probabilities, exactly: the value of the candidate's policy
    for the indicator of each outcome (backward, not the forward pass being tested)."""
    out = {}
    for c in CANDIDATES:
        table = candidate_table(8, c, RULES, dice)
        _, outcome = outcomes_of(final_scores(PHASES[8], table.space, RULES))
        engine, holds = engine_for(table.space, RULES), table.as_arrays()
        n = int(outcome.max()) + 1
        out[c] = [
            engine.policy_value((outcome == j).astype(np.int8), holds, RULES.rolls)
            for j in range(n)
        ]
    return out


@pytest.fixture(scope="module")
def exact():
    return exact_dists(SEVEN)


@pytest.fixture
def grouped(monkeypatch):
    """The reduced grouped dice' phase 8 played by candidates (its 1,190 holds count as
    costly here), its duel and exact distributions."""
    monkeypatch.setattr(cands_module, "COSTLY_HOLDS", 0)
    return phase8_duel(), exact_dists(REDUCED)


def test_the_costly_color_phases_play_candidates_and_the_others_do_not():
    assert candidate_phase(8, SEVEN, RULES)  # the tensor engine
    assert candidate_phase(8, RECORDED_LAYOUT, RULES)
    assert candidate_phase(8, COMPACT_LAYOUT, RULES)  # 9,680,832 grouped holds
    assert not candidate_phase(8, REDUCED, RULES)  # 1,190 grouped holds: solved per state
    assert not candidate_phase(7, RECORDED_LAYOUT, RULES)  # no colors
    assert not candidate_phase(7, COMPACT_LAYOUT, RULES)
    assert not candidate_phase(8, RECORDED_LAYOUT, Rules(holds="sticky"))
    assert not candidate_phase(8, COMPACT_LAYOUT, Rules(holds="sticky"))


def check_distributions(cands: CandidateTurns, exact: dict) -> None:
    """Each float probability within the margin of the exact one."""
    for c in CANDIDATES:
        d, want = cands.dists[c], exact[c]
        assert len(d) == len(want) == len(cands.scores) + 1
        assert sum(want) == 1
        for got, w in zip(d, want, strict=True):
            assert abs(Fraction(float(got)) - w) <= Fraction(cands.margin) * w * 2


def test_the_candidate_distributions_are_the_exact_ones_within_their_margin(exact):
    check_distributions(candidate_turns(8, RULES, SEVEN), exact)
    # the two candidates are different policies: the completion one fails less often
    assert exact[Objective.COMPLETE][0] < exact[Objective.SCORE][0]


def test_the_grouped_dice_distributions_are_the_exact_ones_within_their_margin(grouped):
    assert candidate_phase(8, REDUCED, RULES)
    check_distributions(cands_module.compute_candidates(8, RULES, REDUCED), grouped[1])


def test_each_state_plays_the_better_candidate_and_its_price_is_proven(duel, exact):
    check_prices(duel, exact)


def test_on_grouped_dice_too(grouped):
    check_prices(*grouped)


def check_prices(duel, exact) -> None:
    gaps = candidate_gaps(duel, 8)
    assert len(gaps) > 5
    for key, gap in gaps.items():
        u = duel.utility(key)[0]
        w = duel.value(key)[0]
        value = {c: float(sum(float(p) * x for p, x in zip(exact[c], u))) for c in CANDIDATES}
        choice = choose_candidate(duel, key)
        assert choice.given_up == gap
        assert value[choice.objective] >= max(value.values()) - 1e-12
        assert choice.low <= value[choice.objective]
        # the optimum is at most the table's value plus its error: the price covers it
        assert gap >= w + duel.error(key) - value[choice.objective] - 1e-12
        assert 0 <= gap <= 1


def test_a_last_chance_state_chooses_too(duel):
    lasts = [lk for lk in duel.last[Play.OPTIMAL] if not duel.decided(lk) and lk[0][0] == 8]
    assert lasts
    for lk in lasts[:5]:
        choice = choose_candidate(duel, lk, last=True)
        w = duel.last_value(Play.OPTIMAL, *lk)[0]
        assert choice.objective in CANDIDATES
        assert 0 <= choice.given_up <= w + duel.error(lk) - choice.low + 1e-12


def test_the_shipped_recorded_candidates_agree_with_the_exact_phase_row():
    # the exact row of phase 8 (recorded dice, solved by the kit and shipped) gives each
    # candidate's chance to make the phase and expected score: the distributions' must agree
    from phase10math.turn.tables import shipped_row

    row = shipped_row(8)
    cands = candidate_turns(8, RULES, RECORDED_LAYOUT)
    scores = np.array((0,) + cands.scores, dtype=np.float64)
    want = {
        Objective.COMPLETE: (row["p_optimal"], row["e_score_complete_policy"]),
        Objective.SCORE: (row["p_score_policy"], row["e_score_optimal"]),
    }
    for c, (p_made, e_score) in want.items():
        d = cands.dists[c]
        assert abs(1 - float(d[0]) - float(p_made)) < 1e-9
        assert abs(float(d @ scores) - float(e_score)) < 1e-7


def test_a_choice_is_never_above_the_exact_value():
    """The proven lower bound against exact rational arithmetic, at the largest rounding the
    margin allows (each entry moved by its full margin, the other way)."""
    d = [Fraction(1, 3), Fraction(1, 7), Fraction(11, 21)]
    m = 1e-9
    for sign in (1, -1):
        f = np.array([float(x * (1 + sign * Fraction(m))) for x in d])
        cands = CandidateTurns(8, (20, 30), {c: f for c in CANDIDATES}, m)
        for u in ([0.0, 0.7, 1.0], [-1.0, 2.0, 0.3], [1e-3, -0.5, 0.25]):
            _, low = cands.choose(np.array(u))
            exact_value = sum(x * Fraction(v) for x, v in zip(d, u, strict=True))
            assert Fraction(low) <= exact_value
            assert exact_value - Fraction(low) < 1e-7  # not loose by much more than the margin


def test_a_sample_counts_what_each_seat_gave_up_per_turn(grouped):
    duel, _ = grouped
    s = simulate_duel(duel, games=30, seed=3)
    assert s.given_up.shape == (30, 2) and (s.given_up >= 0).all()
    assert s.given_up.sum() > 0  # the reduced dice' candidates are far from optimal
    lo, hi = s.first_range
    assert lo <= s.first_expected <= hi
    assert hi - lo == pytest.approx(2 * s.given_up.sum() / 30)


def test_the_first_seats_range_and_its_z():
    first = np.array([0, 1, 0, 1])
    got = np.array([1.0, 1.0, 0.0, 0.5])  # seat 0: the first seat won, lost, lost, tied
    s = DuelSample(
        (Play.OPTIMAL,) * 2,
        8,
        got,
        np.where(first == 0, 0.4, 0.6),  # the first seat's worth 0.4
        (got == 0.5).astype(float),
        first,
        np.array([[0.1, 0.0], [0.0, 0.2], [0.0, 0.0], [0.3, 0.1]]),
    )
    # the first seat gave up 0.1, 0.2, 0, 0.1 (mean 0.1); the other 0, 0, 0, 0.3 (0.075)
    assert s.first_range == pytest.approx((0.225, 0.575))
    assert s.first_mean == pytest.approx(0.375)
    assert s.first_z_range == 0.0
    moved = DuelSample(s.plays, 8, got, s.want, s.ties, first, s.given_up * 0)
    assert moved.first_z_range == pytest.approx(moved.first_z)


def test_a_candidate_table_is_loaded_once_per_process():
    """The same object at every decision: the strategy's faces-to-states map of its space is
    built once (it was built again at every decision, gigabytes in a long run)."""
    a = candidate_table(8, Objective.COMPLETE, RULES, REDUCED)
    assert candidate_table(8, Objective.COMPLETE, RULES, REDUCED) is a
    assert candidate_table(8, Objective.SCORE, RULES, REDUCED) is not a


def test_the_games_are_the_same_whatever_holds_a_strategy_keeps(monkeypatch):
    from phase10math.game.duel import read_table
    from phase10math.game.duel import strategy as strategy_module

    sol, _ = read_table(phases=(9, 10))
    want = simulate_duel(sol, games=8, seed=11, phase=9)
    monkeypatch.setattr(strategy_module, "HOLDS_KEPT", 2)
    got = simulate_duel(sol, games=8, seed=11, phase=9)
    assert (got.got == want.got).all() and (got.first == want.first).all()
