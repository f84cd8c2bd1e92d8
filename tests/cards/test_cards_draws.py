"""Draw-by-draw odds of the card game (issue #6)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10math.cards import STANDARD, InvalidCardError, InvalidCardPhaseError, phase
from phase10math.cards.dealt import dealt_probability
from phase10math.cards.deck import DeckSpec, parse_hand
from phase10math.cards.draws import (
    _choose,
    _choose_mixed,
    _deficits,
    _mixed_scores,
    _outs,
    exact_next_draw,
    simulate_draws,
)
from phase10math.cards.mixed import mixed_tables, placement_needs
from phase10math.cards.phases import (
    _match,
    _slots,
    holds_phase,
    parse_phase,
    placements,
    shortfall,
)
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
    with pytest.raises(InvalidRulesError, match="unknown policy 'best'"):
        simulate_draws("run of 4 + 4 of one color", policy="best")
    with pytest.raises(InvalidCardPhaseError, match="cannot read"):
        simulate_draws("run of 4 + 4 of one flavour")
    with pytest.raises(InvalidCardError, match="hand size 0"):
        simulate_draws("run of 4 + 4 of one color", hand_size=0)
    small = DeckSpec(numbers=4, colors=("red", "blue"), copies=1, wilds=1, skips=1)
    with pytest.raises(InvalidCardError, match="draws must be 0..4"):
        simulate_draws("1 set of 2 + 2 of one color", draws=6, hand_size=6, deck=small)
    with pytest.raises(InvalidCardError, match="draws must be 0..98"):
        simulate_draws(1, draws=99)
    with pytest.raises(InvalidCardError, match="trials must be"):
        simulate_draws(1, trials=0)


# ---------------------------------------------------------------- mixed phases

SMALL3 = DeckSpec(numbers=5, colors=("red", "blue", "green"), copies=2, wilds=2, skips=1)
SMALL2 = DeckSpec(numbers=4, colors=("red", "blue"), copies=2, wilds=1, skips=1)
ONE_COLOR = DeckSpec(numbers=6, colors=("red",), copies=3, wilds=2, skips=0)
MIXED = [
    "1 run of 4 + 4 of one color",
    "1 set of 3 + 5 of one color",
    "2 sets of 2 + 3 of one color",
    "1 run of 3 + 2 color groups of 3",
    "1 set of 2 + 1 run of 3 + 2 of one color + 3 of one color",
    "1 set of 2 + 3 color groups of 2",
]


def _type(c, deck=STANDARD):
    C = len(deck.colors)
    if c.is_wild:
        return deck.numbers * C
    if c.is_skip:
        return deck.numbers * C + 1
    return (c.number - 1) * C + deck.colors.index(c.color)


def _type_counts(hand, deck=STANDARD):
    H = np.zeros((1, deck.numbers * len(deck.colors) + 2), dtype=np.int16)
    for c in hand:
        H[0, _type(c, deck)] += 1
    return H


def _numbers(hand, deck):
    return _type_counts(hand, deck)[:, :-2].reshape(1, deck.numbers, len(deck.colors))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mixed_need_is_the_matching_shortfall(data):
    """The min-cut formula gives, placement by placement, the slots a maximum matching of the
    natural cards leaves empty (Kuhn's algorithm in phases.py)."""
    deck = data.draw(st.sampled_from([STANDARD, SMALL3, SMALL2, ONE_COLOR]))
    ph = parse_phase(data.draw(st.sampled_from(MIXED)), deck)
    cards = deck.cards()
    idx = data.draw(st.lists(st.integers(0, deck.size - 1), unique=True, max_size=16))
    hand = [cards[i] for i in idx]
    need = placement_needs(_numbers(hand, deck), mixed_tables(ph, deck))[0]
    nat = [c for c in hand if c.is_number]
    for p, choice in enumerate(placements(ph, deck).choices):
        flat = [s for grp in _slots(ph, choice, deck) for s in grp]
        assert need[p] == sum(g < 0 for g in _match(flat, nat, deck)), (hand, choice)
    wild = sum(c.is_wild for c in hand)
    assert max(0, int(need.min()) - wild) == shortfall(hand, ph, deck)


@pytest.mark.parametrize("text", ["1 run of 4 + 4 of one color", "2 sets of 2 + 3 of one color"])
def test_one_color_group_closed_form(text):
    """With one color group the need is max(a, e + g - V[c]) (written out by hand here)."""
    ph = parse_phase(text)
    pl = placements(ph)
    mx = mixed_tables(ph, STANDARD)
    rng = random.Random(text)
    for _ in range(40):
        hand = _random_hand(rng, rng.randint(5, 14))
        v = _numbers(hand, STANDARD)[0]
        k = v.sum(axis=1)
        need = placement_needs(v[None], mx)[0]
        for p in range(len(pl.choices)):
            r, (c,) = pl.num_need[p], np.flatnonzero(pl.col_need[p])
            g = pl.col_need[p][c]
            a = sum(max(0, int(r[n]) - int(k[n])) for n in range(12))
            e = a + sum(max(0, int(v[n, c]) - max(0, int(k[n]) - int(r[n]))) for n in range(12))
            assert need[p] == max(a, e + g - int(v[:, c].sum()))


@pytest.mark.parametrize(
    "text, deck, hand_size",
    [
        ("1 run of 3 + 3 of one color", SMALL3, 6),
        ("1 set of 3 + 3 of one color", SMALL3, 6),
        ("1 set of 2 + 2 color groups of 2", SMALL2, 6),
    ],
)
def test_mixed_first_two_points_match_exact_deal_odds(text, deck, hand_size):
    trials = 3000
    exact0 = dealt_probability(text, hand_size, deck=deck)
    exact1 = dealt_probability(text, hand_size + 1, deck=deck)
    assert 0.05 < exact0 < 0.95  # a test that can tell
    for policy in ("greedy", "outs", "random"):
        r = simulate_draws(
            text, draws=3, trials=trials, policy=policy, seed=11, deck=deck, hand_size=hand_size
        )
        assert within(r.p[0], exact0, trials), (policy, r.p[0], float(exact0))
        assert within(r.p[1], exact1, trials), (policy, r.p[1], float(exact1))


def test_mixed_policies_keep_the_useful_cards():
    ph = "1 set of 3 + 5 of one color"
    n, trials = 8, 1500
    res = {
        pol: simulate_draws(ph, draws=n, trials=trials, policy=pol, seed=3)
        for pol in ("greedy", "outs", "random")
    }
    for r in res.values():
        assert r.hits[0] == res["greedy"].hits[0] and r.hits[1] == res["greedy"].hits[1]
        assert np.all(np.diff(r.hits) >= 0)
    se = np.sqrt(2 * 0.25 / trials)
    assert res["outs"].p[n] - res["random"].p[n] > 6 * se
    assert res["greedy"].p[n] - res["random"].p[n] > 6 * se
    # same seed, same answer; another seed, another sample
    again = simulate_draws(ph, draws=n, trials=trials, policy="outs", seed=3)
    assert np.array_equal(again.hits, res["outs"].hits)
    other = simulate_draws(ph, draws=n, trials=trials, policy="outs", seed=4)
    assert not np.array_equal(other.hits, res["outs"].hits)


@pytest.mark.parametrize(
    "text, deck, size",
    [
        ("1 run of 4 + 4 of one color", STANDARD, 11),
        ("1 set of 3 + 5 of one color", STANDARD, 11),
        ("1 run of 3 + 2 color groups of 3", SMALL3, 10),
        ("1 set of 2 + 2 color groups of 2", SMALL2, 7),
    ],
)
def test_mixed_outs_are_exact_next_draw_counts(text, deck, size):
    """Outs after every discard equal a count over the actual unseen cards, card by card."""
    ph = parse_phase(text, deck)
    mx = mixed_tables(ph, deck)
    full = _type_counts(deck.cards(), deck)
    rng = random.Random(text)
    checked = with_outs = 0
    while checked < 3:
        cards = deck.cards()
        rng.shuffle(cards)
        hand = cards[:size]
        if holds_phase(hand, ph, deck):
            continue
        H = _type_counts(hand, deck)
        U = full - H
        unseen = deck.size - len(hand)
        outs = _mixed_scores(H, U, mx, True)[2][0]
        exact = {}
        for c in dict.fromkeys(hand):
            exact[_type(c, deck)] = exact_next_draw(_without(hand, c), ph, deck, seen=[c])
            assert exact[_type(c, deck)] * unseen == outs[_type(c, deck)], (hand, c)
        choice = _choose_mixed(H, U, mx, "outs", np.random.default_rng(0))[0]
        assert exact[choice] == max(exact.values())
        with_outs += max(exact.values()) > 0
        checked += 1
    assert with_outs > 0  # some hands could be completed by one draw


def test_mixed_greedy_keeps_wilds_and_drops_skips():
    ph = parse_phase("1 run of 4 + 4 of one color")
    mx = mixed_tables(ph, STANDARD)
    hand = parse_hand("R1 R2 R3 B5 B9 W S Y12 G7 G11 B12")
    H = _type_counts(hand)
    for policy in ("greedy", "outs"):
        k = _choose_mixed(H, np.zeros_like(H), mx, policy, np.random.default_rng(0))[0]
        assert k == _type(parse_hand("S")[0]), policy
    # without the Skip: throw a card no placement at the fewest missing cards uses, not the Wild
    hand = parse_hand("R1 B2 G3 W B7 B9 Y12 G7 G10 Y5 R11")
    H = _type_counts(hand)
    short, nmin, _ = _mixed_scores(H, np.zeros_like(H), mx, False)
    k = _choose_mixed(H, np.zeros_like(H), mx, "greedy", np.random.default_rng(0))[0]
    assert k != _type(parse_hand("W")[0])
    assert short[0, k] == min(shortfall(_without(hand, c), ph) for c in hand)
