"""10,000 scoring against hand-worked rolls (expectations worked out by hand from RULES.md)."""

import pytest

from phase10math.errors import Phase10MathError
from phase10math.tenthousand import (
    TenKRollError,
    TenKRules,
    TenKRulesError,
    best_option,
    play_turn,
    roll_outcomes,
    score_options,
)

R = TenKRules()


def opts(roll, rules=R):
    return {(o.kept, o.points, o.dice_left) for o in score_options(roll, rules)}


def test_seed_example_loses_350():
    # 1,1,2,3,3,5: keep the two 1s and the 5 = 250; 1,2,4: keep the 1 = 350; 3,4: nothing
    banked, steps = play_turn([((1, 1, 2, 3, 3, 5), (1, 1, 5)), ((1, 2, 4), (1,)), ((3, 4), ())])
    assert banked == 0
    assert [s.turn_total for s in steps] == [250, 350, 0]
    assert [s.dice_left for s in steps[:2]] == [3, 2]
    assert opts((3, 4)) == set()


def test_seed_example_banked_after_second_roll():
    assert play_turn([((1, 1, 2, 3, 3, 5), (1, 1, 5)), ((1, 2, 4), (1,))])[0] == 350


def test_dice_of_different_rolls_never_combine():
    # two 1s kept, then a third 1 rolled: 200 + 100, never three 1s (1000)
    banked, _ = play_turn([((1, 1, 2, 3, 4, 6), (1, 1)), ((1, 2, 3, 4), (1,))])
    assert banked == 300
    # and a single 1 of the second roll scores 100 on its own
    assert opts((1, 2, 3, 4)) == {((1,), 100, 3)}


def test_first_roll_of_seed_example_all_options():
    # 1,1,2,3,3,5: any non-empty choice among {1, 1, 5}
    assert opts((1, 1, 2, 3, 3, 5)) == {
        ((1,), 100, 5),
        ((1, 1), 200, 4),
        ((5,), 50, 5),
        ((1, 5), 150, 4),
        ((1, 1, 5), 250, 3),
    }


def test_triples_and_singles():
    assert opts((2, 2, 2)) == {((2, 2, 2), 200, 0)}
    assert opts((5, 5, 5)) == {((5,), 50, 2), ((5, 5), 100, 1), ((5, 5, 5), 500, 0)}
    assert best_option((1, 1, 1, 4)).points == 1000
    assert best_option((6, 6, 6, 5, 2)).points == 650
    assert best_option((2, 3, 4, 6, 6)) is None


def test_straight_and_three_pairs():
    assert best_option((6, 5, 4, 3, 2, 1)).points == 3000
    assert best_option((2, 2, 3, 3, 6, 6)) == best_option((6, 3, 2, 6, 3, 2))
    assert best_option((2, 2, 3, 3, 6, 6)).points == 1500
    assert best_option((2, 2, 3, 3, 6, 6)).dice_left == 0
    # four of a kind plus a pair is not three different pairs
    assert best_option((2, 2, 2, 2, 3, 3), TenKRules(wipe=False)).points == 200
    # values are options; 0 switches the combination off
    assert best_option((1, 2, 3, 4, 5, 6), TenKRules(straight=0)).points == 150
    assert best_option((2, 2, 3, 3, 4, 4), TenKRules(three_pairs=0)) is None
    assert best_option((1, 1, 5, 5, 3, 3), TenKRules(three_pairs=2000)).points == 2000


def test_four_or_more_of_a_kind_variants():
    none, double, add = (TenKRules(extra_of_a_kind=x) for x in ("none", "double", "add"))
    # none: three of a kind plus the extra dice as singles
    assert best_option((1, 1, 1, 1), none).points == 1100
    assert best_option((5, 5, 5, 5, 5), none).points == 600
    assert best_option((3, 3, 3, 3, 2), none) == best_option((3, 3, 3, 4, 2), none)
    assert best_option((3, 3, 3, 3), none).dice_left == 1  # the fourth 3 cannot be set aside
    assert best_option((1, 1, 1, 1, 1, 1), none).points == 1300
    # double: 4 of a kind = 2x triple, 5 = 4x, 6 = 8x
    assert best_option((3, 3, 3, 3), double).points == 600
    assert best_option((4, 4, 4, 4, 4), double).points == 1600
    assert best_option((1, 1, 1, 1, 1, 1), double).points == 8000
    # add: each extra die adds the triple again
    assert best_option((3, 3, 3, 3), add).points == 600
    assert best_option((4, 4, 4, 4, 4), add).points == 1200
    assert best_option((6, 6, 6, 6, 6, 6), add).points == 2400


def test_hot_dice_gives_six_fresh_dice():
    banked, steps = play_turn(
        [
            ((1, 5, 5, 5, 2, 3), (1, 5, 5, 5)),
            ((1, 5), (1, 5)),
            ((2, 2, 3, 3, 4, 4), (2, 2, 3, 3, 4, 4)),
        ]
    )
    assert banked == 600 + 150 + 1500
    assert steps[1].dice_left == 0


def test_wipe_ends_the_turn():
    assert play_turn([((1, 3, 3, 4, 6, 6), (1,)), ((2, 2, 2, 2, 1), ())])[0] == 0
    # without the wipe rule the 1 and the three 2s score
    assert best_option((2, 2, 2, 2, 1), TenKRules(wipe=False)).points == 300


def test_roll_outcomes_count_all_ordered_rolls():
    for n in range(1, 7):
        outs = roll_outcomes(n)
        assert sum(w for _, w in outs) == 6**n
        assert len(outs) == len({d for d, _ in outs})


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: score_options((0, 1)), "die 1"),
        (lambda: score_options((1, 7)), "allowed: 1..6"),
        (lambda: score_options(()), "0 dice"),
        (lambda: score_options((1,) * 7), "7 dice"),
        (lambda: score_options((1, 2), TenKRules(dice=1)), "allowed: 1..1"),
        (lambda: play_turn([((1, 2, 3, 4, 6, 6), (2,))]), "allowed"),
        (lambda: play_turn([((1, 2, 3), (1,))]), "allowed: 6"),
        (lambda: play_turn([((2, 3, 4, 6, 6, 3), ()), ((1,), (1,))]), "ends the turn"),
        (lambda: TenKRules(straight=75), "multiple of 50"),
        (lambda: TenKRules(extra_of_a_kind="triple"), "none, double, add"),
        (lambda: TenKRules(target=0), "target"),
        (lambda: TenKRules(wipe="yes"), "True, False"),
        (lambda: TenKRules(dice=7), "1..6"),
    ],
)
def test_bad_input_is_named(call, words):
    with pytest.raises(Phase10MathError, match=words) as err:
        call()
    assert isinstance(err.value, (TenKRollError, TenKRulesError, ValueError))
