"""The meld engine against an independent brute force over every assignment of dice."""

from __future__ import annotations

import random

import pytest
from bruteforce import brute_best
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phase10math.dice.faces import COLORS, Face, parse_faces
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import best_scores, explain, profile
from phase10math.dice.phases import PHASES, parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidDiceError

# rolls that ten dice can show (six high faces 5-10, four low faces 1-4/W; explain refuses
# others), with any colors and in any order
high_st = st.builds(Face, st.sampled_from([5, 6, 7, 8, 9, 10]), st.sampled_from(COLORS))
low_st = st.builds(Face, st.sampled_from([0, 0, 0, 1, 2, 3, 4]), st.sampled_from(COLORS))
roll_st = st.tuples(
    st.lists(high_st, min_size=6, max_size=6), st.lists(low_st, min_size=4, max_size=4)
).flatmap(lambda hl: st.permutations(hl[0] + hl[1]))
layout_roll_st = st.lists(st.integers(0, 5), min_size=10, max_size=10).map(
    lambda idx: [d.faces[i] for d, i in zip(DEFAULT_LAYOUT.dice, idx)]
)


def reference(ph, faces, share):
    groups = [(g.kind, g.size) for g in ph.groups]
    return brute_best(groups, [(f.value, f.color) for f in faces], share)


def check_against_reference(n, faces, share):
    ph = PHASES[n]
    rules = Rules(sets_may_share_number=share)
    want = reference(ph, faces, share)
    got = int(best_scores(ph, profile(faces)[None], rules)[0])
    assert got == (-1 if want is None else want), (n, faces, share)
    meld = explain(ph, faces, rules)
    assert meld.complete == (want is not None)
    if meld.complete:
        # the explanation is itself a valid meld of that score
        used = [f for g in meld.groups for f in g.dice]
        assert sorted(used + list(meld.unused)) == sorted(faces)
        assert sum(f.points for f in used) == want
        groups = [(g.kind, g.size) for g in ph.groups]
        for (kind, size), gm in zip(groups, meld.groups):
            assert (gm.kind, gm.size, len(gm.dice)) == (kind, size, size)
            assert (
                reference(
                    parse_phase(f"1 {kind} of {size}")
                    if kind != "color"
                    else parse_phase(f"{size} of one color"),
                    gm.dice,
                    True,
                )
                is not None
            )


@pytest.mark.parametrize("share", [True, False])
@pytest.mark.parametrize("n", range(1, 21))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faces=roll_st)
def test_meld_matches_bruteforce_random_faces(n, share, faces):
    check_against_reference(n, faces, share)


@pytest.mark.parametrize("share", [True, False])
@pytest.mark.parametrize("n", range(1, 21))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(faces=layout_roll_st)
def test_meld_matches_bruteforce_layout_rolls(n, share, faces):
    check_against_reference(n, faces, share)


@pytest.mark.parametrize(
    "text",
    [
        "2 sets of 3 + 4 of one color",
        "4 of one color + 5 of one color",
        "1 run of 3 + 1 set of 2 + 3 of one color",
    ],
)
def test_custom_phases_match_bruteforce(text):
    ph = parse_phase(text)
    rng = random.Random(7)
    for _ in range(40):
        faces = [Face(rng.choice([5, 6, 7, 8, 9, 10]), rng.choice(COLORS)) for _ in range(6)]
        faces += [Face(rng.choice([0, 1, 2, 3, 4]), rng.choice(COLORS)) for _ in range(4)]
        rng.shuffle(faces)
        want = reference(ph, faces, True)
        assert explain(ph, faces).score == (want or 0)
        assert explain(ph, faces).complete == (want is not None)


def test_manual_scoring_example():
    # phase 1 with 8, 8, 8 and 10, W, W scores 34 (8+8+8+10; W scores 0)
    meld = explain(1, parse_faces("8 8 8 10 W W 1 2 5 6"))
    assert meld.complete and meld.score == 8 * 3 + 10
    wild_group = [g for g in meld.groups if any(f.is_wild for f in g.dice)][0]
    assert [s for f, s in zip(wild_group.dice, wild_group.stands_for) if f.is_wild] == [10, 10]


def test_shared_numbers_option():
    faces = parse_faces("10 10 10 10 10 10 W W 1 2")
    assert explain(7, faces).score == 60  # 10,10,10,10 + 10,10,W,W
    # without sharing, the second set needs another number: 1, 2 and two W are not a set
    assert not explain(7, faces, Rules(sets_may_share_number=False)).complete
    faces = parse_faces("10 10 10 10 10 10 W W 1 1")
    no_share = explain(7, faces, Rules(sets_may_share_number=False))
    assert no_share.complete and no_share.score == 40 + 1 + 1


def test_all_wild_group_scores_zero():
    # every die but the wilds shows 5 and the sets may not share a number: W W W is a set
    faces = parse_faces("5 5 5 5 5 5 W W W W")  # a roll ten dice can show
    meld = explain(1, faces, Rules(sets_may_share_number=False))
    assert meld.complete and meld.score == 15
    wild_set = [g for g in meld.groups if all(f.is_wild for f in g.dice)]
    assert len(wild_set) == 1 and wild_set[0].score == 0


def test_explain_rejects_wrong_count_and_missing_color():
    with pytest.raises(InvalidDiceError, match="10 dice"):
        explain(1, parse_faces("1 2 3"))
    with pytest.raises(InvalidDiceError, match="color"):
        explain(8, parse_faces("5 6 7 8 9 10 1 2 3 4"))
