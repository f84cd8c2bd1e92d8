"""The plain-words "why" and the play model, checked on a fixed list of positions."""

from __future__ import annotations

import pytest

from phase10math.play.models import (
    TurnState,
    cost_words,
    enter_rerolled,
    made_now,
    standing,
    stop_advised,
    suggested_dice,
    tie_ranks,
)
from phase10math.play.palette import PALETTE, distances, min_distance
from phase10math.play.why import why


def position(phase: int, roll: str, held: list[str], objective: str = "complete") -> TurnState:
    st = TurnState(phase=phase, objective=objective, seed=0)
    enter_rerolled(st, roll)
    want = list(held)
    st.held = set()
    for i, f in enumerate(st.dice):
        if str(f) in want:
            st.held.add(i)
            want.remove(str(f))
    assert not want
    return st


def test_pair_of_fours_in_phase_1_is_explained():
    """The teachable moment: keeping a pair of 4s ranks below keeping nothing, because 4s are
    only on the low dice, which also carry the wilds."""
    st = position(1, "4 4 1 2 5 6 7 8 9 10", ["4", "4"])
    s = standing(st)
    nothing = next(o for o in s.options if not o.keep)
    assert nothing.value > s.mine.value and s.my_rank > 100
    text = " ".join(why(st, limit=None))
    assert "A 4 is only on the 4 low dice" in text
    assert "the same dice that carry the wilds" in text
    assert "Even rerolling all 10 dice" in text and "beats your hold" in text
    assert "rerolls 2 low dice, about 0.7 wilds per roll instead of 1.3" in text
    assert cost_words(s.cost, "complete") in text and "percentage points" in text


def test_best_hold_needs_and_dice_that_can_show_them():
    st = position(1, "8 8 8 10 9 7 1 2 3 W", [])
    text = " ".join(why(st, limit=None))
    best = standing(st).best
    assert sorted(f.value for f in best.keep)[:1] == [0]  # the wild is kept
    assert "Best: keep" in text and "chance to make phase 1" in text
    assert "Wilds (W) are only on the 4 low dice" in text


@pytest.mark.parametrize(
    "phase, roll, objective",
    [
        (4, "5 6 7 8 9 10 1 2 3 3", "complete"),
        (8, "5r 6r 7r 8b 6b 8r Wr 1r 4b 3b", "complete"),  # the recorded dice
        (9, "8 8 8 10 10 7 1 2 3 W", "score"),
        (2, "8 8 7 10 6 7 1 2 3 W", "complete"),
    ],
)
def test_why_on_fixed_positions(phase, roll, objective):
    st = position(phase, roll, [], objective)
    lines = why(st)
    assert lines and lines[0].startswith(("Best:", "Your dice"))
    unit = "%" if objective == "complete" else "points"
    assert unit in lines[0]
    assert all(line.endswith(".") for line in lines)


def test_made_it_means_stop_and_score():
    # made, and no reroll can raise the score: both keys tie, the larger hold (stop) is best
    st = position(1, "8 8 8 10 10 10 1 2 3 4", [])
    assert made_now(st).score == 54 and stop_advised(st)
    assert suggested_dice(st) == set(range(10))
    assert why(st) == [why(st)[0]] and "stop now and score" in why(st)[0]


def test_made_it_but_rerolling_scores_more():
    # made for 34 points with two wilds (0 points each): rerolling the 5 and the 6 keeps the
    # phase for sure and may turn them into 10s, so the lexicographic best hold rerolls them
    st = position(1, "8 8 8 10 W W 1 2 5 6", [])
    assert made_now(st).score == 34 and not stop_advised(st)
    best = st.advice().best
    assert best.value == 1 and best.value2 > 34 and best.rerolled == 2
    first = why(st)[0]
    assert "rerolling 2 dice keeps the phase made (100%)" in first
    assert f"raises the expected score from 34 to {float(best.value2):.1f}." in first
    assert "(100% expected)" not in first
    # the score aim: the same two numbers, the expected score first
    st = position(1, "8 8 8 10 W W 1 2 5 6", [], "score")
    best = st.advice().best
    assert not stop_advised(st)
    first = why(st)[0]
    assert f"from 34 to {float(best.value):.1f}." in first and "(100%)" in first


def test_ties_share_a_rank():
    st = position(1, "4 4 1 2 5 6 7 8 9 10", [])
    s = standing(st)
    assert s.best_ties > 1 and s.ranks[: s.best_ties] == (1,) * s.best_ties
    assert tie_ranks(s.options) == list(s.ranks)
    assert s.is_best and "tied" in s.rank_words()


def test_palette_is_distinguishable_with_color_blindness():
    d = distances(PALETTE)
    assert set(d) >= {"normal", "deuteranopia", "protanopia", "tritanopia"}
    assert min_distance(PALETTE) > 20  # CIEDE2000, every pair, every simulated vision
    old = {"r": "#c62828", "o": "#ef6c00", "b": "#1565c0", "g": "#2e7d32"}
    assert distances(old)["deuteranopia"] < 10  # the old palette failed this check


def test_why_says_the_few_facts_that_matter_in_plain_words():
    # at most three sentences a roll, the player's own hold first when it costs something
    st = position(1, "4 4 1 2 5 6 7 8 9 10", ["4", "4"])
    lines = why(st)
    assert len(lines) == 3 and lines[0].startswith("Your hold")
    assert "A 4 is only on the 4 low dice" in lines[1]
    # nothing held: no word on "your hold"
    st = position(8, "5r 6r 7r 8b 6b 8r Wr 1r 4b 3b", [])
    text = " ".join(why(st, limit=None))
    assert "Your hold" not in text
    # colors are named in a color phase; "1 more red die", not "1 more red dice"
    best = standing(st).best
    # the color letters as the chips show them (uppercase), in sentences too
    assert " ".join(str(f)[:-1] + str(f)[-1].upper() for f in best.keep) in text
    assert "more red dice:" not in text.replace("1 more red die:", "")
    assert "1 more red dice" not in text


def test_dice_that_do_not_count_are_named_and_idle_wilds_are_not_counted():
    from phase10math.dice.faces import parse_faces
    from phase10math.play.why import idle_faces

    st = position(2, "9 7 7 7 2 1 W W 5 6", [])
    # 7 7 7 is the set, 1 2 W W the run: the 9 (or a 5, 6) counts toward nothing
    assert [str(f) for f in idle_faces(st, parse_faces("9 7 7 7 2 1 W W"))] == ["9"]
    assert idle_faces(st, parse_faces("7 7 7 2 1 W W")) == []
    best = standing(st).best
    idle = idle_faces(st, best.keep)
    if idle:
        assert any("toward no group" in s for s in why(st, limit=None))
    # no "about 0.0 wilds per roll" when the best hold rerolls no wild die
    assert not any("about 0.0 wilds" in s for s in why(st, limit=None))


def test_needs_name_a_missing_group_and_an_orange():
    # phase 1 (2 sets of 3) keeping 6 6: not "1 more 6" alone while the other set is missing
    st = position(1, "6 6 1 2 3 4 5 7 8 10", [])
    text = " ".join(why(st, limit=None))
    assert "1 more 6 and another set of 3" in text and "can show a 6" in text
    # the color phase on the recorded dice (already solved above): "an orange face"
    st = position(8, "6o 8o 5o 7o 9r 5b Wo 1r 2r 4r", [])
    text = " ".join(why(st, limit=None))
    assert "a orange" not in text and "an orange face" in text
