"""The win strategy at a color phase of ten different dice: the better of two candidate turns
by lookup, and the chance it gives up bounded from the table - checked on seven different
dice (phase 8 on the tensor engine, as on the recorded set) against exact distributions
computed another way (one exact fixed-policy evaluation per outcome)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Objective, Rules
from phase10math.game.duel import DuelGame, Play, solve_duel
from phase10math.game.duel.candidates import (
    CANDIDATES,
    candidate_gaps,
    candidate_table,
    candidate_turns,
    choose_candidate,
    tensor_phase,
)
from phase10math.turn.batch import outcomes_of
from phase10math.turn.engine import engine_for, final_scores
from phase10math.turn.family import TurnFamily

SEVEN = tuple(RECORDED_LAYOUT.dice[3:10])  # seven different dice: phase 8 on the tensor engine
RULES = Rules()


@pytest.fixture(scope="module")
def duel():
    fam = TurnFamily.for_phase(PHASES[8], RULES, SEVEN, tol=1e-6)
    return solve_duel(DuelGame({8: PHASES[8]}, RULES, SEVEN, turns={8: fam}), target=1e-4)


@pytest.fixture(scope="module")
def exact():
    """Each candidate's outcome probabilities, exactly: the value of the candidate's policy
    for the indicator of each outcome (backward, not the forward pass being tested)."""
    out = {}
    for c in CANDIDATES:
        table = candidate_table(8, c, RULES, SEVEN)
        _, outcome = outcomes_of(final_scores(PHASES[8], table.space, RULES))
        engine, holds = engine_for(table.space, RULES), table.as_arrays()
        n = int(outcome.max()) + 1
        out[c] = [
            engine.policy_value((outcome == j).astype(np.int8), holds, RULES.rolls)
            for j in range(n)
        ]
    return out


def test_the_phase_is_played_on_the_tensor_engine_and_the_others_are_not():
    assert tensor_phase(8, SEVEN, RULES)
    assert tensor_phase(8, RECORDED_LAYOUT, RULES)
    assert not tensor_phase(7, RECORDED_LAYOUT, RULES)  # no colors
    assert not tensor_phase(8, RECORDED_LAYOUT, Rules(holds="sticky"))


def test_the_candidate_distributions_are_the_exact_ones_within_their_margin(exact):
    cands = candidate_turns(8, RULES, SEVEN)
    for c in CANDIDATES:
        d, want = cands.dists[c], exact[c]
        assert len(d) == len(want) == len(cands.scores) + 1
        assert sum(want) == 1
        for got, w in zip(d, want, strict=True):
            assert abs(Fraction(float(got)) - w) <= Fraction(cands.margin) * w * 2
    # the two candidates are different policies: the completion one fails less often
    assert exact[Objective.COMPLETE][0] < exact[Objective.SCORE][0]


def test_each_state_plays_the_better_candidate_and_its_price_is_proven(duel, exact):
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
