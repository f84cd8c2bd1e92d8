"""Draw-by-draw odds of the card game (issue #6)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from phase10math.cards import STANDARD, InvalidCardError, InvalidCardPhaseError, phase
from phase10math.cards.dealt import dealt_probability
from phase10math.cards.draws import _choose, _deficits, _outs, exact_next_draw, simulate_draws
from phase10math.cards.phases import holds_phase, placements
from phase10math.errors import InvalidRulesError


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", "off")


def within(p_hat: float, exact, trials: int, sigmas: float = 4.0) -> bool:
    q = float(exact)
    return abs(p_hat - q) <= sigmas * np.sqrt(q * (1 - q) / trials)


@pytest.mark.parametrize("k", [1, 2, 4, 8, 9])
def test_first_two_points_match_exact_deal_odds(k):
    # after 0 draws the hand is a random 10-card deal, after 1 draw a random 11-card one,
    # whatever the policy
    r = simulate_draws(k, draws=3, trials=3000, seed=k)
    assert within(r.p[0], dealt_probability(k, 10), r.trials)
    assert within(r.p[1], dealt_probability(k, 11), r.trials)


def test_policies_share_the_deal_and_differ_later():
    res = {
        pol: simulate_draws(1, draws=12, trials=1500, policy=pol, seed=5)
        for pol in ("greedy", "outs", "random")
    }
    for r in res.values():
        assert r.hits[0] == res["greedy"].hits[0] and r.hits[1] == res["greedy"].hits[1]
        assert np.all(np.diff(r.hits) >= 0)  # holding is kept once reached
        lo, hi = r.interval()
        assert np.all(lo <= r.p) and np.all(r.p <= hi)
    # keeping useful cards beats throwing away random ones (by many standard errors)
    gap = res["greedy"].p[12] - res["random"].p[12]
    assert gap > 6 * np.sqrt(2 * 0.25 / 1500)
    assert res["outs"].p[12] > res["random"].p[12]


def _random_hand(rng: random.Random, size: int):
    cards = STANDARD.cards()
    rng.shuffle(cards)
    return cards[:size]


@pytest.mark.parametrize("k", [1, 2, 4, 7, 8, 10])
def test_outs_are_exact_next_draw_counts(k):
    """The vectorised 'outs' equal a count over the actual unseen cards, card by card."""
    ph = phase(k)
    need = placements(ph).need.astype(np.int16)
    by = ph.kind
    D = need.shape[1]
    rng = random.Random(k)
    checked = 0
    while checked < 3:
        hand = _random_hand(rng, 11)
        if holds_phase(hand, ph):
            continue

        def cat(c):
            if c.is_wild:
                return D
            if c.is_skip:
                return D + 1
            return c.number - 1 if by == "number" else STANDARD.colors.index(c.color)

        H = np.zeros((1, D + 2), dtype=np.int16)
        for c in hand:
            H[0, cat(c)] += 1
        full = np.zeros(D + 2, dtype=np.int16)
        for c in STANDARD.cards():
            full[cat(c)] += 1
        U = full[None] - H
        dp = _deficits(H, need)
        dk = dp[:, :, None] + (need[None] >= H[:, None, :D])
        outs = _outs(H, U, need, dp, dk)[0]
        for c in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(c)
            exact = exact_next_draw(rest, ph, seen=[c])
            assert exact * (108 - 11) == outs[cat(c)], (k, hand, c)
        choice = _choose(H, U, need, "outs", np.random.default_rng(0))[0]
        best = max(exact_next_draw(_without(hand, c), ph, seen=[c]) for c in set(hand))
        picked = next(c for c in hand if cat(c) == choice)
        assert exact_next_draw(_without(hand, picked), ph, seen=[picked]) == best
        checked += 1


def _without(hand, card):
    rest = list(hand)
    rest.remove(card)
    return rest


def test_greedy_keeps_wilds_and_drops_skips():
    from phase10math.cards.deck import parse_hand

    ph = phase(4)
    need = placements(ph).need.astype(np.int16)
    hand = parse_hand("R1 R2 R3 R4 W S B12 B12 G9 Y10 W")
    H = np.zeros((1, 14), dtype=np.int16)
    for c in hand:
        H[0, 12 if c.is_wild else 13 if c.is_skip else c.number - 1] += 1
    k = _choose(H, np.zeros_like(H), need, "greedy", np.random.default_rng(0))[0]
    assert k == 13  # the Skip


def test_exact_next_draw_by_hand():
    from fractions import Fraction

    from phase10math.cards.deck import parse_hand

    # 1..6 in hand: a 7 (8 cards) or a Wild (8) completes a run of 7; 98 unseen cards
    assert exact_next_draw(parse_hand("R1 R2 R3 R4 R5 R6 S S S S"), 4) == Fraction(16, 98)


def test_bad_inputs():
    with pytest.raises(InvalidRulesError, match="unknown policy 'smart'"):
        simulate_draws(1, policy="smart")
    with pytest.raises(InvalidCardPhaseError, match="not '1 run of 4 \\+ 4 of one color'"):
        simulate_draws("run of 4 + 4 of one color")
    with pytest.raises(InvalidCardError, match="draws must be 0..98"):
        simulate_draws(1, draws=99)
    with pytest.raises(InvalidCardError, match="trials must be"):
        simulate_draws(1, trials=0)
