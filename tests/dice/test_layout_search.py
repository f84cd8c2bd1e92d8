"""The compact dice layout against the published facts, checked by brute force here, and the
layout search (minimality table, reproducibility)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from phase10math.dice import layout_search as ls
from phase10math.dice.faces import parse_layout
from phase10math.dice.layouts import COMPACT_LAYOUT, COMPACT_LAYOUT_TEXT
from phase10math.dice.meld import explain

COLORS = "robg"
EXAMPLE_HAND = ["2o", "4o", "Wo", "5o", "8o", "9o", "10o"]


def dice_of(layout):
    """Each die as a list of face strings like '10o', 'Wg'."""
    return [[str(f) for f in d.faces] for d in layout.dice]


def value(face: str) -> int:
    return 0 if face[0] == "W" else int(face[:-1])


def rollable_on_distinct_dice(dice, hand) -> bool:
    """Bipartite matching hand faces -> dice (augmenting paths)."""
    match: dict[int, int] = {}  # die -> hand index

    def augment(i, seen):
        for d, faces in enumerate(dice):
            if hand[i] in faces and d not in seen:
                seen.add(d)
                if d not in match or augment(match[d], seen):
                    match[d] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(hand)))


def phase8_brute(dice, every_face=True):
    """Max over colors, 7-dice subsets and face choices of the sum (W = 0); and a best roll.

    ``every_face=False`` tries only the highest face of the color on each die (the sum grows
    with each term), which keeps layouts with many faces of one color on a die fast.
    """
    best, best_roll = -1, None
    for c in COLORS:
        for subset in itertools.combinations(range(10), 7):
            options = [[f for f in dice[d] if f[-1] == c] for d in subset]
            if not every_face:
                options = [[max(o, key=value)] if o else [] for o in options]
            if not all(options):
                continue
            for choice in itertools.product(*options):
                s = sum(value(f) for f in choice)
                if s > best:
                    roll = [dice[d][0] for d in range(10)]
                    for d, f in zip(subset, choice, strict=True):
                        roll[d] = f
                    best, best_roll = s, roll
    return best, best_roll


# --------------------------------------------------------------------------- the facts


def test_ten_dice_with_the_right_numbers():
    dice = dice_of(COMPACT_LAYOUT)
    values = sorted(sorted(value(f) for f in d) for d in dice)
    assert values == [[0, 0, 1, 2, 3, 4]] * 4 + [[5, 6, 7, 8, 9, 10]] * 6


def test_example_hand_on_seven_different_dice():
    dice = dice_of(COMPACT_LAYOUT)
    assert rollable_on_distinct_dice(dice, EXAMPLE_HAND)


def test_matching_helper_can_fail():
    # a layout where 8o and 9o exist only on one die type used once
    bad = dice_of(COMPACT_LAYOUT)
    assert rollable_on_distinct_dice(bad, EXAMPLE_HAND + ["10o"]) is False
    assert rollable_on_distinct_dice(bad, ["8o", "8o", "8o"]) is False


def test_each_color_on_15_faces():
    faces = [f for d in dice_of(COMPACT_LAYOUT) for f in d]
    assert len(faces) == 60
    assert Counter(f[-1] for f in faces) == {c: 15 for c in COLORS}


def test_wild_faces_in_all_four_colors():
    wilds = [f for d in dice_of(COMPACT_LAYOUT) for f in d if f[0] == "W"]
    assert len(wilds) == 8
    assert {f[-1] for f in wilds} == set(COLORS)


def test_phase8_maximum_is_56_by_brute_force_and_meld():
    dice = dice_of(COMPACT_LAYOUT)
    best, roll = phase8_brute(dice)
    assert best == 56
    m = explain(8, roll)
    assert m.complete and m.score == 56
    # meld on the best roll of each color never exceeds 56 and reaches it
    scores = []
    for c in COLORS:
        roll = [max((f for f in d if f[-1] == c), key=value, default=d[0]) for d in dice]
        scores.append(explain(8, roll).score)
    assert max(scores) == 56


def test_game_maximum_649():
    per_phase = {1: 60, 2: 57, 3: 59, 4: 49, 5: 52, 6: 54, 7: 60, 9: 60, 10: 62}  # RULES.md
    best8, _ = phase8_brute(dice_of(COMPACT_LAYOUT))
    assert sum(per_phase.values()) + best8 + 40 + 40 == 649


# --------------------------------------------------------------------------- the preferences


def test_type_structure_and_state_count():
    types = Counter(tuple(sorted(d)) for d in dice_of(COMPACT_LAYOUT))
    assert len(types) == 5
    high = sorted((n for t, n in types.items() if "10" in " ".join(t)), reverse=True)
    low = sorted((n for t, n in types.items() if "10" not in " ".join(t)), reverse=True)
    assert (high, low) == ([3, 2, 1], [3, 1])
    states = math.prod(math.comb(n + len(set(t)), len(set(t))) for t, n in types.items())
    assert states == 84 * 28 * 7 * 84 * 7 == 9_680_832


def test_every_face_on_one_die_type_and_every_die_all_colors():
    types = {tuple(sorted(d)) for d in dice_of(COMPACT_LAYOUT)}
    owners = Counter(f for t in types for f in set(t))
    assert max(owners.values()) == 1
    assert all({f[-1] for f in t} == set(COLORS) for t in types)


# --------------------------------------------------------------------------- the search


def test_min_hand_faces_by_hand():
    assert ls.min_hand_faces((6,), 4) == 24  # 4 orange faces on each of 6 dice
    assert ls.min_hand_faces((3, 3), 4) == 12
    assert ls.min_hand_faces((3, 2, 1), 4) == 8  # 1 on C, 2 on B, 1 on A
    assert ls.min_hand_faces((2, 2), 3) == 6
    assert ls.min_hand_faces((3, 1), 3) == 7
    assert ls.min_hand_faces((1, 1, 1, 1), 3) == 3


def test_structures_cover_all_partitions():
    # partitions of 6 into k parts: 1, 3, 3, 2, 1, 1 ; of 4: 1, 2, 1, 1
    assert [len(list(ls.partitions(6, k))) for k in range(1, 7)] == [1, 3, 3, 2, 1, 1]
    assert [len(list(ls.partitions(4, k))) for k in range(1, 5)] == [1, 2, 1, 1]
    assert len(ls.structures(2)) == 2  # (6)+(4), (6)+(4*)


def test_minimality_table():
    table = ls.minimality_table(5)
    assert all(why is not None for s, _, why in table if s.n_types <= 4)
    ok = sorted((s.high, s.low, s.low_double_w) for s, _, why in table if why is None)
    assert ok == [
        ((2, 2, 2), (3, 1), (False, False)),
        ((3, 2, 1), (2, 2), (False, False)),
        ((3, 2, 1), (3, 1), (False, False)),
    ]
    best = min((st, s) for s, st, why in table if why is None)
    assert best[0] == 9_680_832 and best[1].high == (3, 2, 1) and best[1].low == (3, 1)


@pytest.mark.parametrize(
    "high,low",
    [((6,), (1, 1, 1, 1)), ((3, 3), (2, 2)), ((2, 2, 2), (2, 2))],
)
def test_depth_first_search_agrees_with_the_argument(high, low):
    """The exhaustive search finds nothing for structures the argument rules out."""
    s = ls.Structure(high, low, (False,) * len(low))
    assert ls.admissible(s) is not None
    assert ls.search_layout(s) is None


def check_valid(layout):
    dice = dice_of(layout)
    assert rollable_on_distinct_dice(dice, EXAMPLE_HAND)
    assert Counter(f[-1] for d in dice for f in d) == {c: 15 for c in COLORS}
    assert {f[-1] for d in dice for f in d if f[0] == "W"} == set(COLORS)
    assert phase8_brute(dice, every_face=False)[0] == 56


@pytest.mark.parametrize("high,low,prefer", [((3, 2, 1), (2, 2), True), ((2, 2, 2), (3, 1), False)])
def test_search_finds_valid_layouts_of_the_other_structures(high, low, prefer):
    s = ls.Structure(high, low, (False, False))
    lay = ls.search_layout(s, unique_faces=prefer, all_colors=prefer)
    check_valid(lay)
    assert sorted(n for _, n in lay.groups()) == sorted(high + low)


def test_search_reproduces_the_compact_layout():
    res = ls.find_compact_layout()
    assert res.text == COMPACT_LAYOUT_TEXT
    assert res.unique_faces and res.all_colors
    assert res.structure.states == 9_680_832
    check_valid(res.layout)
    assert parse_layout(res.text).fingerprint() == COMPACT_LAYOUT.fingerprint()
