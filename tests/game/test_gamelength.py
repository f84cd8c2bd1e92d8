"""Exact game length: brute-force distributions, random-hold values, Monte Carlo checks."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from phase10math.dice.faces import parse_layout
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.errors import InvalidRulesError
from phase10math.game.length import (
    GameLength,
    random_policy_value,
    simulate_game_lengths,
    turn_probabilities,
)
from phase10math.turn.projection import VALUE
from phase10math.turn.statespace import StateSpace


def brute_pmf(ps, n):
    """P(sum of geometrics = n) by enumerating the tries per phase."""
    total = Fraction(0)
    for tries in itertools.product(range(1, n + 1), repeat=len(ps)):
        if sum(tries) == n:
            term = Fraction(1)
            for p, t in zip(ps, tries, strict=True):
                term *= (1 - p) ** (t - 1) * p
            total += term
    return total


def test_distribution_matches_brute_force():
    ps = [Fraction(1, 3), Fraction(5, 7), Fraction(2, 9)]
    gl = GameLength.from_probabilities(dict(enumerate(ps, 1)))
    for n in range(0, 9):
        assert gl.pmf(n) == brute_pmf(ps, n)
    assert gl.cdf(8) == sum(brute_pmf(ps, n) for n in range(9))
    assert gl.expected_turns == 3 + Fraction(7, 5) + Fraction(9, 2)
    assert gl.tail(8) == 1 - gl.cdf(8)
    assert gl.pmf(3) == ps[0] * ps[1] * ps[2]


def test_bad_probability_rejected():
    with pytest.raises(InvalidRulesError):
        GameLength.from_probabilities({1: Fraction(0)})
    with pytest.raises(InvalidRulesError):
        turn_probabilities("lucky", [1])


def test_random_holds_brute_force_two_dice():
    lay = parse_layout("6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo")
    dice = lay.dice[:2]  # two high dice, value projection: faces 5..10
    sp = StateSpace.build(dice, VALUE)
    # utility: 1 if the two dice show the same number
    finals = np.array([int(max(sp.counts_of(int(g))[0]) == 2) for g in sp.full_ids])
    faces = range(6)

    def value(kept, rolls_left):  # kept: tuple of faces of the kept dice
        # roll the others
        tot = Fraction(0)
        for roll in itertools.product(faces, repeat=2 - len(kept)):
            cur = kept + roll
            if rolls_left == 1:
                tot += int(cur[0] == cur[1])
            else:
                for mask in itertools.product([0, 1], repeat=2):
                    k = tuple(c for c, m in zip(cur, mask, strict=True) if m)
                    tot += Fraction(1, 4) * value(k, rolls_left - 1)
        return tot / 6 ** (2 - len(kept))

    for rolls in (1, 2, 3):
        assert random_policy_value(sp, finals, rolls) == value((), rolls)


def test_expected_length_agrees_with_simulation():
    """The compact dice (their color phase solves in seconds): the mean, variance and
    distribution against 1,500 simulated games. On the recorded dice notebook 5 checks the
    mean against 2,000 games (``simulate_game_lengths``, the same code on the other dice)."""
    gl = GameLength.for_strategy("complete", layout=COMPACT_LAYOUT)
    sims = simulate_game_lengths("complete", 1500, seed=11, layout=COMPACT_LAYOUT)
    se = sims.std(ddof=1) / np.sqrt(len(sims))
    assert abs(sims.mean() - float(gl.expected_turns)) < 4 * se
    # and the exact variance against the sample variance (loose, 4 standard errors)
    assert abs(sims.var(ddof=1) / float(gl.variance) - 1) < 0.15
    # distribution: P(N <= 12) vs the empirical frequency
    p12 = float(gl.cdf(12))
    emp = (sims <= 12).mean()
    assert abs(emp - p12) < 4 * np.sqrt(p12 * (1 - p12) / len(sims))


def test_optimal_beats_greedy_per_phase():
    comp = turn_probabilities("complete", [1, 2, 4])
    greedy = turn_probabilities("greedy", [1, 2, 4])
    for k in comp:
        assert comp[k] >= greedy[k]
