"""Cards, phases, lay-down and hit validation, leftover scoring (card game, issue #6)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phase10math.cards import (
    STANDARD,
    Card,
    DeckSpec,
    InvalidCardError,
    InvalidCardPhaseError,
    InvalidDeckError,
    InvalidHitError,
    InvalidLayDownError,
    can_hit,
    find_laydown,
    hand_points,
    hit,
    holds_phase,
    make_group,
    parse_card,
    parse_hand,
    parse_phase,
    phase,
    shortfall,
    validate_laydown,
)
from phase10math.errors import Phase10MathError

# ------------------------------------------------------------ an independent checker


def naive_group_ok(kind: str, cards, numbers: int) -> bool:
    """A group check written from the rules, without the library's placement idea."""
    if any(c.is_skip for c in cards):
        return False
    nat = [c for c in cards if c.is_number]
    if kind == "set":
        return len({c.number for c in nat}) <= 1
    if kind == "color":
        return len({c.color for c in nat}) <= 1
    nums = [c.number for c in nat]
    if len(set(nums)) != len(nums) or len(cards) > numbers:
        return False
    return not nums or max(nums) - min(nums) + 1 <= len(cards)


def naive_holds(hand, groups, numbers: int) -> bool:
    """Try every way of picking disjoint minimum-size groups from the hand."""
    if not groups:
        return True
    (kind, size), rest = groups[0], groups[1:]
    idx = range(len(hand))
    for pick in itertools.combinations(idx, size):
        chosen = [hand[i] for i in pick]
        if naive_group_ok(kind, chosen, numbers):
            left = [hand[i] for i in idx if i not in pick]
            if naive_holds(left, rest, numbers):
                return True
    return False


def groups_of(k: int):
    return [(g.kind, g.size) for g in phase(k).groups]


# ------------------------------------------------------------ cards and the deck


def test_standard_deck_has_108_cards_as_the_rules_say():
    cards = STANDARD.cards()
    assert len(cards) == 108
    assert sum(c.is_wild for c in cards) == 8
    assert sum(c.is_skip for c in cards) == 4
    # 24 of each color (the Italian text), 2 of each number-color pair
    for color in ("red", "blue", "yellow", "green"):
        assert sum(c.color == color for c in cards) == 24
    assert all(cards.count(Card("number", n, "red")) == 2 for n in range(1, 13))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("R7", Card("number", 7, "red")),
        ("b12", Card("number", 12, "blue")),
        ("yellow 3", Card("number", 3, "yellow")),
        ("9g", Card("number", 9, "green")),
        ("W", Card("wild")),
        ("skip", Card("skip")),
    ],
)
def test_parse_card(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("X7", "unknown color 'x'"),
        ("R13", "number 13 is not allowed; numbers are 1..12"),
        ("R0", "number 0 is not allowed"),
        ("7", "unknown card '7'"),
        ("", "unknown card"),
        ("purple", "unknown card"),
    ],
)
def test_bad_cards_are_named(text, fragment):
    with pytest.raises(InvalidCardError, match=fragment):
        parse_card(text)


def test_errors_are_value_errors_of_the_kit():
    for exc in (InvalidCardError, InvalidLayDownError, InvalidHitError, InvalidCardPhaseError):
        assert issubclass(exc, Phase10MathError) and issubclass(exc, ValueError)


def test_hand_parsing_and_limits():
    assert parse_hand("red 7, blue 7 W") == (
        Card("number", 7, "red"),
        Card("number", 7, "blue"),
        Card("wild"),
    )
    with pytest.raises(InvalidCardError, match="3 copies of R1; the deck has only 2"):
        parse_hand("R1 R1 R1")
    with pytest.raises(InvalidCardError, match="9 copies of W"):
        parse_hand(["W"] * 9)
    with pytest.raises(InvalidCardError, match="at most 11 cards"):
        parse_hand("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12", max_cards=11)


def test_deck_parameters_are_checked():
    with pytest.raises(InvalidDeckError, match="numbers must be"):
        DeckSpec(numbers=0)
    with pytest.raises(InvalidDeckError, match="different letters"):
        DeckSpec(colors=("red", "rose"))
    with pytest.raises(InvalidDeckError, match="wilds must be"):
        DeckSpec(wilds=-1)


def test_leftover_scoring_by_hand():
    # 1-9: 5, 10-12: 10, Skip: 15, Wild: 25 (RULES.md section 2)
    assert hand_points(parse_hand("R1 B9")) == 5 + 5
    assert hand_points(parse_hand("R10 B11 G12")) == 30
    assert hand_points(parse_hand("S W")) == 15 + 25
    assert hand_points([]) == 0


# ------------------------------------------------------------ phases


def test_the_ten_phases():
    expected = {
        1: [("set", 3), ("set", 3)],
        2: [("set", 3), ("run", 4)],
        3: [("set", 4), ("run", 4)],
        4: [("run", 7)],
        5: [("run", 8)],
        6: [("run", 9)],
        7: [("set", 4), ("set", 4)],
        8: [("color", 7)],
        9: [("set", 5), ("set", 2)],
        10: [("set", 5), ("set", 3)],
    }
    for k, groups in expected.items():
        assert sorted(groups_of(k)) == sorted(groups)
        assert phase(k).number == k


@pytest.mark.parametrize(
    "text, k",
    [
        ("two sets of 3", 1),
        ("run of 4 + set of 3", 2),
        ("7 cards of one color", 8),
        ("phase 10", 10),
    ],
)
def test_phrases_name_standard_phases(text, k):
    assert parse_phase(text) == phase(k)


def test_custom_phase_and_errors():
    p = parse_phase("1 run of 4 + 4 of one color")
    assert p.kind == "mixed" and p.size == 8 and p.number is None
    with pytest.raises(InvalidCardPhaseError, match="phases 1..10"):
        phase(11)
    with pytest.raises(InvalidCardPhaseError, match="cannot read 'two pairs'"):
        parse_phase("two pairs")
    with pytest.raises(InvalidCardPhaseError, match="at least 2"):
        parse_phase("set of 1")
    with pytest.raises(InvalidCardPhaseError, match="numbers are 1..12"):
        parse_phase("run of 13")


HOLDING = {
    1: "R3 B3 G3 Y9 R9 W S S R1 B12",
    2: "R7 B7 W G3 W Y5 R6 B12 B1 S",
    3: "R7 B7 G7 W B1 B2 B3 B4 S S",
    4: "R1 B2 W G4 Y5 R6 B7 S S S",
    5: "R5 R6 R7 R8 W W R11 R12 S S",
    6: "W R2 R3 R4 R5 W R7 R8 R9 S",
    7: "R4 B4 G4 Y4 R4 B4 W W S S",
    8: "R1 R5 R9 R12 R3 W R3 B3 B2 B1",
    9: "B6 B6 R6 G6 W Y2 Y2 S S S",
    10: "W W W W W R1 R1 B1 S S",
}
NOT_HOLDING = {
    1: "R3 B3 G3 Y9 R9 R8 S S R1 B12",
    2: "R7 B7 G3 Y5 R6 R9 B12 B1 S S",
    3: "R7 B7 G7 B1 B2 B3 B4 S S R12",
    4: "R1 B2 G4 Y5 R6 B7 B9 S S S",
    5: "R5 R6 R7 R8 W R11 R12 S S S",
    6: "W R2 R3 R4 R5 R7 R8 R9 S S",
    7: "R4 B4 G4 Y4 R5 B5 W R6 S S",
    8: "R1 R5 R9 R12 R3 B3 B3 B2 B1 S",
    9: "B6 B6 R6 G6 Y2 Y3 S S S R1",
    10: "W W W R1 R1 B1 S S R12 B11",
}


@pytest.mark.parametrize("k", range(1, 11))
def test_holds_phase_on_handmade_hands(k):
    yes, no = parse_hand(HOLDING[k]), parse_hand(NOT_HOLDING[k])
    assert holds_phase(yes, k) and naive_holds(list(yes), groups_of(k), 12)
    assert not holds_phase(no, k) and not naive_holds(list(no), groups_of(k), 12)
    assert shortfall(no, k) >= 1
    laid = find_laydown(yes, k)
    assert laid is not None and find_laydown(no, k) is None
    validate_laydown(k, laid, hand=yes)  # the lay-down it finds is legal


hands = st.lists(st.integers(0, 107), min_size=10, max_size=11, unique=True).map(
    lambda ix: [STANDARD.cards()[i] for i in ix]
)


@settings(max_examples=60, deadline=None)
@given(hands, st.integers(1, 10))
def test_holds_phase_agrees_with_naive_search(hand, k):
    assert holds_phase(hand, k) == naive_holds(hand, groups_of(k), 12)
    laid = find_laydown(hand, k)
    if laid is not None:
        groups = validate_laydown(k, laid, hand=hand)
        assert [len(g.cards) for g in groups] == [g.size for g in phase(k).groups]


# ------------------------------------------------------------ lay-downs, every phase

VALID_LAYDOWNS = {
    1: ["R3 B3 G3", "Y9 W R9"],
    2: ["R7 B7 W", "G3 W Y5 R6"],
    3: ["R7 B7 G7 Y7", "B1 B2 B3 B4"],
    4: ["R1 B2 W G4 Y5 R6 B7"],
    5: ["R5 R6 R7 R8 R9 R10 R11 R12"],
    6: ["W R2 R3 R4 R5 R6 R7 R8 R9"],
    7: ["R4 B4 G4 Y4", "R4 B4 W W"],  # two sets of the same number
    8: ["R1 R5 R9 R12 R3 W R3"],
    9: ["B6 B6 R6 G6 W", "Y2 Y2"],
    10: ["W W W W W", "R1 R1 B1"],
}
# more than the minimum, extra cards fitting the groups
BIGGER_LAYDOWNS = {
    1: ["R3 B3 G3 Y3", "Y9 W R9"],
    2: ["R7 B7 W", "G3 W Y5 R6 R7 R8"],
    3: ["R7 B7 G7 Y7 W", "B1 B2 B3 B4 B5"],
    4: ["R1 B2 W G4 Y5 R6 B7 B8 W"],
    5: ["R4 R5 R6 R7 R8 R9 R10 R11 R12"],
    6: ["W R2 R3 R4 R5 R6 R7 R8 R9 R10"],
    7: ["R4 B4 G4 Y4 W", "R5 B5 W W"],
    8: ["R1 R5 R9 R12 R3 W R3 R4"],
    9: ["B6 B6 R6 G6 W W", "Y2 Y2 B2"],
    10: ["W W W W W R1", "R2 R2 B2 W"],
}
INVALID_LAYDOWNS = {
    1: (["R3 B3 G3", "Y9 R10 R9"], "do not show one number"),
    2: (["R7 B7 W", "G3 Y5 R6 R8"], "cannot make one run"),
    3: (["R7 B7 G7 Y7", "B1 B2 B2 B4"], "appears twice"),
    4: (["R1 R2 R3 R4 R5 R6"], "at least 7"),
    5: (["R1 R2 R3 R4 R5 R6 R7 S"], "Skip can never be part of a phase"),
    6: (["R1 R4 R5 R6 R7 R8 R9 R10 R11 R12"], "cannot make one run of 10"),
    7: (["R4 B4 G4 Y4", "R5 B5 G5"], "at least 4"),
    8: (["R1 R5 R9 R12 R3 W B3"], "not all one color"),
    9: (["B6 B6 R6 G6 W", "Y2 Y3"], "do not show one number"),
    10: (["W W W W W", "R1 R1 B1", "R2 R2"], "has 2 group"),
}


@pytest.mark.parametrize("k", range(1, 11))
def test_valid_laydown_every_phase(k):
    groups = [parse_hand(g) for g in VALID_LAYDOWNS[k]]
    laid = validate_laydown(k, groups)
    assert sorted(len(g.cards) for g in laid) == sorted(g.size for g in phase(k).groups)
    # the same cards given in the other group order are also accepted
    validate_laydown(k, groups[::-1])
    # and the naive checker agrees each group is legal
    for g, req in zip(laid, phase(k).groups, strict=True):
        assert naive_group_ok(req.kind, g.cards, 12)


@pytest.mark.parametrize("k", range(1, 11))
def test_bigger_laydown_every_phase(k):
    groups = [parse_hand(g) for g in BIGGER_LAYDOWNS[k]]
    laid = validate_laydown(k, groups)
    assert sum(len(g.cards) for g in laid) > phase(k).size


@pytest.mark.parametrize("k", range(1, 11))
def test_invalid_laydown_every_phase(k):
    groups, fragment = INVALID_LAYDOWNS[k]
    with pytest.raises(InvalidLayDownError, match=fragment):
        validate_laydown(k, [parse_hand(g) for g in groups])


def test_extra_card_that_does_not_fit_is_refused():
    # a fourth card in a set of 3 must show its number; a run cannot take a gap card
    with pytest.raises(InvalidLayDownError, match="do not show one number"):
        validate_laydown(1, [parse_hand("R3 B3 G3 Y4"), parse_hand("Y9 W R9")])
    with pytest.raises(InvalidLayDownError, match="cannot make one run"):
        validate_laydown(4, [parse_hand("R1 R2 R3 R4 R5 R6 R7 R9")])


def test_malformed_laydowns():
    with pytest.raises(InvalidLayDownError, match="at most 10 cards"):
        validate_laydown(1, ["R3 B3 G3 Y3 W W", "R5 B5 G5 Y5 W"])
    with pytest.raises(InvalidCardError, match="unknown color 'x'"):
        validate_laydown(1, ["X3 B3 G3", "R5 B5 G5"])
    with pytest.raises(InvalidLayDownError, match="Skip"):
        validate_laydown(8, ["R1 R2 R3 R4 R5 R6 S"])
    with pytest.raises(InvalidLayDownError, match="uses 1 x G5 but the hand holds 0"):
        validate_laydown(1, ["R3 B3 G3", "R5 B5 G5"], hand=parse_hand("R3 B3 G3 R5 B5 W"))


def test_run_wild_positions():
    assert str(make_group("run", parse_hand("W R5 R6 R7"), 4)) == "run 4-7: W R5 R6 R7"
    assert str(make_group("run", parse_hand("R5 R6 R7 W"), 4)) == "run 5-8: R5 R6 R7 W"
    # unordered: Wilds go on top where they fit
    assert str(make_group("run", parse_hand("R12 W R10 R9"), 4)) == "run 9-12: R9 R10 W R12"
    assert str(make_group("run", parse_hand("R11 W R12 W"), 4)) == "run 9-12: W W R11 R12"


# ------------------------------------------------------------ hits


def test_hits_on_each_kind_of_group():
    s = make_group("set", parse_hand("R7 B7 G7"), 3)
    assert can_hit(s, parse_card("Y7")) and can_hit(s, parse_card("W"))
    assert not can_hit(s, parse_card("Y8")) and not can_hit(s, parse_card("S"))
    r = make_group("run", parse_hand("R3 R4 R5 R6"), 4)
    assert can_hit(r, parse_card("B2")) and can_hit(r, parse_card("G7"))
    assert not can_hit(r, parse_card("G8")) and not can_hit(r, parse_card("G4"))
    hit(r, "G7")
    hit(r, "W")  # a Wild goes on top: now 3-8
    assert (r.value, r.high) == (3, 8)
    hit(r, "W", end="low")
    assert (r.value, r.high) == (2, 8)
    c = make_group("color", parse_hand("R1 R5 W R9 R10 R11 R12"), 7)
    assert can_hit(c, parse_card("R2")) and not can_hit(c, parse_card("B2"))
    with pytest.raises(InvalidHitError, match="needs red or a Wild"):
        hit(c, "B2")


def test_hit_errors():
    full = make_group("run", parse_hand(" ".join(f"R{n}" for n in range(1, 13))), 4)
    with pytest.raises(InvalidHitError, match="cannot be extended"):
        hit(full, "W")
    low = make_group("run", parse_hand("R1 R2 R3 R4"), 4)
    with pytest.raises(InvalidHitError, match="takes 5"):
        hit(low, "B7")
    with pytest.raises(InvalidHitError, match="only after laying down"):
        hit(low, "B5", hitter_laid_down=False)
    with pytest.raises(InvalidHitError, match="Skip"):
        hit(low, "S")
    with pytest.raises(InvalidCardError):
        hit(low, "Q5")
    # an all-Wild set takes the number of its first natural card
    s = make_group("set", parse_hand("W W"), 2)
    hit(s, "B9")
    assert s.value == 9 and not can_hit(s, parse_card("B8"))


def test_small_deck_cards():
    d = DeckSpec(numbers=5, colors=("red", "blue"), copies=1, wilds=2, skips=1)
    assert d.size == 13
    with pytest.raises(InvalidCardError, match="numbers are 1..5"):
        parse_card("R6", d)
    with pytest.raises(InvalidCardError, match="colors are red, blue"):
        parse_card("G1", d)
