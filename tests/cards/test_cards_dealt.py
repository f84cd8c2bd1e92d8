"""Exact deal probabilities of the card game, checked independently (issue #6)."""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from math import comb

import pytest

from phase10math.cards import (
    Card,
    DeckSpec,
    InvalidCardError,
    brute_force_odds,
    dealt_odds,
    dealt_probability,
    dealt_table,
    parse_phase,
    phase,
    simulate_dealt,
)
from phase10math.cards.dealt import count_profiles, profiles
from phase10math.errors import StateSpaceTooLargeError


@pytest.fixture(autouse=True)
def _no_disk_cache(monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", "off")


@functools.cache
def full_deck(k: int, hand_size: int = 10):
    """Full-deck odds, computed once per test session (the disk cache is off in tests)."""
    return dealt_odds(k, hand_size, use_cache=False)


# ------------------------------------------------------------ an independent checker


def group_ok(kind, cards, numbers):
    if any(c.kind == "skip" for c in cards):
        return False
    nat = [c for c in cards if c.kind == "number"]
    if kind == "set":
        return len({c.number for c in nat}) <= 1
    if kind == "color":
        return len({c.color for c in nat}) <= 1
    nums = [c.number for c in nat]
    if len(set(nums)) != len(nums) or len(cards) > numbers:
        return False
    return not nums or max(nums) - min(nums) + 1 <= len(cards)


def holds(hand, groups, numbers):
    if not groups:
        return True
    (kind, size), rest = groups[0], groups[1:]
    for pick in itertools.combinations(range(len(hand)), size):
        if group_ok(kind, [hand[i] for i in pick], numbers):
            left = [hand[i] for i in range(len(hand)) if i not in pick]
            if holds(left, rest, numbers):
                return True
    return False


def enumerate_probability(groups, hand_size, numbers, colors, copies, wilds, skips):
    """Every hand of a small deck, built here from scratch, checked by naive search."""
    deck = [
        Card("number", n, c) for n in range(1, numbers + 1) for c in colors for _ in range(copies)
    ]
    deck += [Card("wild")] * wilds + [Card("skip")] * skips
    good = total = 0
    for hand in itertools.combinations(deck, hand_size):
        total += 1
        good += holds(list(hand), groups, numbers)
    return Fraction(good, total)


SMALL_CASES = [
    # (phrase, hand size, numbers, colors, copies, wilds, skips)
    ("2 sets of 2", 5, 5, ("red", "blue"), 1, 2, 1),
    ("set of 3 + set of 2", 6, 5, ("red", "blue"), 1, 2, 1),
    ("set of 2 + run of 3", 6, 5, ("red", "blue"), 1, 2, 1),
    ("run of 4", 5, 6, ("red",), 2, 2, 1),
    ("2 sets of 3", 6, 3, ("red", "blue"), 2, 2, 1),
    ("4 of one color", 5, 4, ("red", "blue", "green"), 1, 2, 1),
    ("run of 3 + 3 of one color", 6, 5, ("red", "blue"), 1, 2, 1),
    ("2 runs of 3", 6, 5, ("red", "blue"), 1, 2, 1),
    # phases mixing one color group with sets/runs (the sweep of phase10math.cards.mixed)
    ("set of 2 + 3 of one color", 6, 5, ("red", "blue"), 1, 2, 1),
    ("2 sets of 2 + 2 of one color", 7, 4, ("red", "blue"), 1, 2, 1),
    ("set of 2 + run of 2 + 2 of one color", 6, 4, ("red", "blue", "green"), 1, 1, 1),
    ("run of 3 + 2 of one color", 5, 3, ("red", "blue", "green"), 2, 1, 1),
    ("2 runs of 2 + 1 of one color", 5, 4, ("red", "blue", "green"), 1, 2, 0),
    ("set of 3 + 2 of one color", 5, 3, ("red", "blue", "green"), 2, 2, 1),
    # two color groups with a run: full number-and-color profiles
    ("run of 2 + 2 of one color + 2 of one color", 6, 4, ("red", "blue"), 1, 2, 1),
]


@pytest.mark.parametrize("case", SMALL_CASES, ids=[c[0] for c in SMALL_CASES])
def test_counting_matches_enumeration_on_small_decks(case):
    text, h, numbers, colors, copies, wilds, skips = case
    deck = DeckSpec(numbers=numbers, colors=colors, copies=copies, wilds=wilds, skips=skips)
    ph = parse_phase(text, deck)
    groups = [(g.kind, g.size) for g in ph.groups]
    expected = enumerate_probability(groups, h, numbers, colors, copies, wilds, skips)
    odds = dealt_odds(ph, h, deck)
    assert odds.probability == expected
    assert 0 < expected < 1  # the case is not degenerate
    # the library's own brute force agrees on the whole shortfall distribution
    assert brute_force_odds(ph, h, deck).shortfall == odds.shortfall
    assert sum(odds.shortfall.values()) == 1


def test_small_deck_by_hand():
    # numbers 1-4, red+blue, one copy, 1 Wild, 1 Skip: 10 cards, C(10,4) = 210 hands of 4.
    # two pairs of naturals: C(4,2) = 6; a pair + the Wild + one other number: 4 * 6 = 24.
    deck = DeckSpec(numbers=4, colors=("red", "blue"), copies=1, wilds=1, skips=1)
    assert dealt_probability("2 sets of 2", 4, deck) == Fraction(6 + 24, 210)


def test_full_deck_by_hand_counting():
    total10 = comb(108, 10)
    # a set of 10 in 10 cards: all cards from one number's 8 plus the 8 Wilds (C(16,10) each);
    # a Wild-only hand is impossible (only 8 Wilds)
    assert dealt_probability("set of 10") == Fraction(12 * comb(16, 10), total10)
    # a run of 12 in 12 cards: one card of each number present (8 choices each), Wilds for
    # the other 12 - k numbers
    ways = sum(comb(12, k) * 8**k * comb(8, 12 - k) for k in range(4, 13))
    assert dealt_probability("run of 12", 12) == Fraction(ways, comb(108, 12))
    # two sets of 3 in 6 cards: no Skip; naturals of one number (any count) or two numbers
    # with at most 3 each; Wilds fill the rest
    one = sum(comb(8, a) * comb(8, 6 - a) for a in range(1, 7))
    two = sum(
        comb(8, a) * comb(8, b) * comb(8, 6 - a - b)
        for a in range(1, 4)
        for b in range(1, 4)
        if a + b <= 6
    )
    ways = comb(8, 6) + 12 * one + comb(12, 2) * two
    assert dealt_probability(1, 6) == Fraction(ways, comb(108, 6))
    # 7 of one color in 7 cards: 7 cards from one color's 24 + 8 Wilds, minus the Wild-only
    # hands counted four times
    ways = 4 * comb(32, 7) - 3 * comb(8, 7)
    assert dealt_probability(8, 7) == Fraction(ways, comb(108, 7))


@pytest.mark.parametrize("k", range(1, 11))
def test_full_deck_against_simulation(k):
    exact = full_deck(k).probability
    est = simulate_dealt(k, trials=20_000, seed=100 + k)
    assert est.agrees(exact, sigmas=4), (k, float(exact), est.p, est.stderr)


def test_eleven_cards_against_simulation_and_monotone():
    for k in (1, 4, 8):
        p10, p11 = full_deck(k).probability, full_deck(k, 11).probability
        assert p11 > p10
        assert simulate_dealt(k, 11, trials=20_000, seed=7 * k).agrees(p11)


def test_orderings_implied_by_the_phases():
    p = {k: full_deck(k).probability for k in range(1, 11)}
    # holding 2 sets of 4 implies 2 sets of 3; a longer run implies a shorter one; etc.
    assert p[7] < p[1] and p[3] < p[2] and p[6] < p[5] < p[4] and p[10] < p[9]
    assert all(0 < v < 1 for v in p.values())


def test_distribution_sums_to_one_and_table():
    table = dealt_table(phases=[4, 8])
    assert [o.phase.number for o in table] == [4, 8]
    for o in [full_deck(k) for k in range(1, 11)]:
        assert sum(o.shortfall.values()) == 1
        assert o.total == comb(108, 10)
        assert o.shortfall[0] == o.probability
        js = o.to_json()
        assert Fraction(js["probability"]["fraction"]) == o.probability


def test_profiles_enumerator():
    rows = profiles(3, 2, 3)
    brute = [r for r in itertools.product(range(3), repeat=3) if sum(r) <= 3]
    assert sorted(map(tuple, rows.tolist())) == sorted(brute)
    assert count_profiles(3, 2, 3) == len(brute)


def test_disk_cache_roundtrip(monkeypatch, tmp_path):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    a = dealt_odds(4)
    assert list(tmp_path.glob("*.pkl"))
    assert dealt_odds(4) == a


def test_bad_inputs():
    with pytest.raises(InvalidCardError, match="hand size 0 is not allowed; give 1..108"):
        dealt_odds(1, 0)
    with pytest.raises(InvalidCardError, match="hand size 200"):
        dealt_odds(1, 200)
    two_colors = "run of 4 + 3 of one color + 3 of one color"
    with pytest.raises(StateSpaceTooLargeError, match="simulate_dealt"):
        dealt_odds(two_colors)
    # but simulation handles it
    est = simulate_dealt(two_colors, trials=300, seed=1)
    assert 0 < est.p < 1


# ------------------------------------------------------------ one color group + sets/runs

MIXED_FULL_DECK = ["set of 3 + 5 of one color", "2 sets of 3 + 4 of one color"]


@functools.cache
def mixed_full(text: str, hand_size: int = 10):
    return dealt_odds(text, hand_size, use_cache=False)


@pytest.mark.parametrize("text", MIXED_FULL_DECK)
def test_mixed_full_deck_against_simulation(text):
    odds = mixed_full(text)
    assert odds.total == comb(108, 10) and sum(odds.shortfall.values()) == 1
    est = simulate_dealt(text, trials=100_000, seed=11)
    assert est.agrees(odds.probability, sigmas=4), (text, float(odds.probability), est.p)


def test_run_and_color_full_deck_against_simulation():
    # the example that used to be out of reach: about 40 s of exact counting
    odds = mixed_full("run of 4 + 4 of one color")
    assert 0 < odds.probability < 1 and sum(odds.shortfall.values()) == 1
    est = simulate_dealt("run of 4 + 4 of one color", trials=100_000, seed=12)
    assert est.agrees(odds.probability, sigmas=4), (float(odds.probability), est.p)
    # adding the color group can only make a run of 4 harder to hold
    assert odds.probability < dealt_probability("run of 4")


def test_mixed_eleven_cards_and_monotone():
    p10, p11 = mixed_full(MIXED_FULL_DECK[0]).probability, mixed_full(MIXED_FULL_DECK[0], 11)
    assert p11.probability > p10
    assert simulate_dealt(MIXED_FULL_DECK[0], 11, trials=100_000, seed=13).agrees(p11.probability)


def test_mixed_min_cut_form_matches_matching_on_random_hands():
    import numpy as np

    from phase10math.cards.mixed import wilds_needed
    from phase10math.cards.phases import shortfall

    rng = np.random.default_rng(5)
    cards = DeckSpec().cards()
    for text in [
        "run of 4 + 4 of one color",
        "set of 2 + run of 3 + 3 of one color",
        "run of 3 + 3 of one color + 2 of one color",
    ]:
        ph = parse_phase(text)
        for _ in range(150):
            hand = [cards[i] for i in rng.choice(len(cards), int(rng.integers(4, 13)), False)]
            v = np.zeros((12, 4), dtype=int)
            for c in hand:
                if c.kind == "number":
                    v[c.number - 1, DeckSpec().colors.index(c.color)] += 1
            wilds = sum(c.kind == "wild" for c in hand)
            need = int(wilds_needed(v, ph))
            assert max(0, need - wilds) == shortfall(hand, ph), (text, hand)


def test_mixed_progress_reports_every_number():
    from phase10math.cards.mixed import count_one_color_mixed

    seen = []
    ph = parse_phase("set of 2 + 2 of one color")
    counts = count_one_color_mixed(ph, 5, progress=lambda n, states: seen.append(n))
    assert seen == list(range(1, 13))
    # every way to pick the number cards of a 5-card hand, by how many there are
    for m in range(6):
        ways = sum(w for (mm, _), w in counts.items() if mm == m)
        assert ways == comb(96, m)


def test_impossible_phase_has_probability_zero():
    assert dealt_probability(phase(6), 8) == 0  # 9 cards needed


def test_mixed_too_large_is_refused_clearly(monkeypatch):
    from phase10math.cards import mixed

    monkeypatch.setattr(mixed, "MAX_STATE_BYTES", 10_000)
    with pytest.raises(StateSpaceTooLargeError, match="counting states .* simulate_dealt"):
        dealt_odds("run of 4 + 4 of one color", use_cache=False)


def test_two_color_groups_simulated_against_small_deck_count():
    deck = DeckSpec(numbers=4, colors=("red", "blue"), copies=1, wilds=2, skips=1)
    text = "run of 2 + 2 of one color + 2 of one color"
    exact = dealt_probability(text, 6, deck)
    assert 0 < exact < 1
    assert simulate_dealt(text, 6, trials=40_000, seed=3, deck=deck).agrees(exact)
