"""The advisor: ranked holds, exact values checked by enumerating the rerolled dice."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from phase10math.dice.faces import Face, parse_faces
from phase10math.dice.layouts import COMPACT_LAYOUT, DEFAULT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.meld import best_scores, profile
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidDiceError, InvalidHoldError
from phase10math.turn.advisor import advise

ROLL = "10 10 W 5 6 7 1 2 3 8"


def enumerate_hold_value(n, keep, roll, objective):
    """Value of keeping ``keep`` with one roll left: every outcome of the rerolled dice."""
    # which physical dice are rerolled: high dice for 5-10, low dice for 1-4/W
    rest = list(roll)
    for f in keep:
        rest.remove(next(g for g in rest if g.value == f.value))
    high = [d for d in DEFAULT_LAYOUT.dice if d.kind == "high"]
    low = [d for d in DEFAULT_LAYOUT.dice if d.kind == "low"]
    n_high = sum(1 for f in rest if f.value >= 5)
    n_low = len(rest) - n_high
    total = Fraction(0)
    count = 0
    sides = [h.faces for h in high[:n_high]] + [lo.faces for lo in low[:n_low]]
    for outcome in itertools.product(*sides):
        faces = list(keep) + [Face(f.value, "r") for f in outcome]
        best = int(best_scores(PHASES[n], profile([Face(f.value, "r") for f in faces]))[0])
        total += (best >= 0) if objective == "complete" else max(best, 0)
        count += 1
    return total / count


@pytest.mark.parametrize("objective", ["complete", "score"])
def test_hold_values_equal_enumeration_of_rerolled_dice(objective):
    roll = parse_faces("10 10 10 9 9 5 1 2 3 4")
    adv = advise(roll, rolls_left=1, phase=1, objective=objective)
    checked = 0
    for opt in adv.options:
        if opt.rerolled <= 3:
            assert opt.value == enumerate_hold_value(1, opt.keep, roll, objective), opt
            checked += 1
    assert checked >= 20


def test_ranking_best_and_ties():
    adv = advise(parse_faces(ROLL), rolls_left=2, phase=1)
    values = [o.value for o in adv.options]
    assert values == sorted(values, reverse=True)
    assert adv.best.best and adv.best.value == max(values)
    assert [o.tie for o in adv.options] == [
        o.value == adv.best.value and i > 0 for i, o in enumerate(adv.options)
    ]
    # holds are distinct: every sub-multiset of the roll once
    keeps = [tuple(sorted(f.value for f in o.keep)) for o in adv.options]
    assert len(keeps) == len(set(keeps))
    distinct = {}
    for f in parse_faces(ROLL):
        distinct[f.value] = distinct.get(f.value, 0) + 1
    assert len(keeps) == int(np.prod([c + 1 for c in distinct.values()]))


def test_complete_roll_has_ties_and_reason():
    adv = advise(parse_faces("10 10 10 9 9 9 1 2 3 4"), rolls_left=1, phase=1)
    assert adv.best.value == 1 and len(adv.ties) > 0
    assert "phase complete" in adv.reason


def test_reason_in_plain_words():
    adv = advise(parse_faces(ROLL), rolls_left=2, phase=1)
    assert adv.reason.startswith(f"keeps {', '.join(str(f) for f in adv.best.keep)}")
    assert "rerolls 7 dice" in adv.reason


def test_value_of_named_hold_and_bad_holds():
    adv = advise(parse_faces(ROLL), rolls_left=2, phase=1)
    opt = adv.value_of("10 10")
    assert [f.value for f in opt.keep] == [10, 10] and opt.value < adv.best.value
    with pytest.raises(InvalidHoldError, match="cannot keep 4"):
        adv.value_of("4")
    with pytest.raises(InvalidHoldError):
        adv.value_of("10 10 10")


def test_bad_advice_requests():
    with pytest.raises(InvalidDiceError, match="rolls_left=3"):
        advise(parse_faces(ROLL), rolls_left=3, phase=1)
    with pytest.raises(InvalidDiceError, match="10 dice"):
        advise(parse_faces("10 10 W"), rolls_left=2, phase=1)
    with pytest.raises(InvalidDiceError, match="no color"):
        advise(parse_faces(ROLL), rolls_left=2, phase=8)


def test_sticky_set_aside_dice_stay():
    rules = Rules(holds="sticky")
    adv = advise(parse_faces(ROLL), rolls_left=1, phase=1, rules=rules, set_aside="10 10")
    assert all(sorted(f.value for f in o.keep).count(10) == 2 for o in adv.options)
    free = advise(parse_faces(ROLL), rolls_left=1, phase=1)
    # with one roll left the value of a hold is the same under both rules
    assert adv.value_of("10 10 W").value == free.value_of("10 10 W").value
    with pytest.raises(InvalidHoldError, match="sticky"):
        advise(parse_faces(ROLL), rolls_left=1, phase=1, set_aside="10")


def _typed_state(adv, faces, rules, keep, layout=DEFAULT_LAYOUT, by_die=False):
    """State id of ``keep`` recomputed from the dice those faces lie on."""
    from phase10math.turn.advisor import roll_types, turn_solution

    space = turn_solution(adv.phase, adv.objective, rules, layout).space
    typed = roll_types(space, faces, layout, by_die=by_die)
    left = list(range(len(faces)))
    counts = [[0] * len(t.faces) for t in space.types]
    for f in keep:
        i = next(i for i in left if faces[i] == f)
        left.remove(i)
        t, own = typed[i]
        counts[t][space.types[t].faces.index(space.projection.key(own))] += 1
    return space.state_id(counts)


def _state_of_positions(adv, faces, rules, positions, layout, by_die):
    """State id of the dice at ``positions`` of the roll."""
    from phase10math.turn.advisor import roll_types, turn_solution

    space = turn_solution(adv.phase, adv.objective, rules, layout).space
    typed = roll_types(space, faces, layout, by_die=by_die)
    counts = [[0] * len(t.faces) for t in space.types]
    for i in positions:
        t, own = typed[i]
        counts[t][space.types[t].faces.index(space.projection.key(own))] += 1
    return space.state_id(counts)


@pytest.mark.parametrize(
    "ph, layout",
    [(2, RECORDED_LAYOUT), (8, RECORDED_LAYOUT), (8, COMPACT_LAYOUT)],
    ids=["2-recorded", "8-recorded", "8-compact"],
)
def test_shown_holds_are_the_dice_the_values_are_for(ph, layout):
    # the faces shown for a hold lie on the kinds of dice the hold's value was computed for,
    # also where several kinds of dice share a projected face (colors in phase 8 on the compact
    # dice, values in 2); on the ten different recorded dice a color phase gets the faces die
    # by die (typed in any order they may fit several ways: see tests/turn/test_real_dice.py)
    by_die = layout is RECORDED_LAYOUT and PHASES[ph].uses_color
    rng = np.random.default_rng(ph)
    for _ in range(5):
        faces = [d.faces[int(rng.integers(6))] for d in layout.dice]
        adv = advise(faces, 2, ph, layout=layout, by_die=by_die)
        shared = len({str(f) for f in faces}) < len(faces)
        for o in adv.options:
            # the kept positions show the kept faces and make the hold's state
            assert sorted(map(str, (faces[i] for i in o.positions))) == sorted(map(str, o.keep))
            st = _state_of_positions(adv, faces, DEFAULT_RULES_FREE, o.positions, layout, by_die)
            assert st == o.state
            if not (by_die and shared):  # the faces alone name the dice
                keep = o.keep
                assert _typed_state(adv, faces, DEFAULT_RULES_FREE, keep, layout, by_die) == st


DEFAULT_RULES_FREE = Rules()


def test_sticky_hold_shows_the_set_aside_dice():
    # 5g (and not 5o, a face of another kind of die with the same value) was set aside; the
    # compact dice, where several dice are alike (on the recorded dice sticky holds are
    # solved only for the phases that ignore colors)
    rules = Rules(holds="sticky")
    faces = parse_faces("6g 5o 6g 5g 6r 8r 1g 4o 2o 2g")
    aside = parse_faces("6g 6g 5g 6r")
    adv = advise(faces, 1, 2, rules=rules, set_aside=aside, layout=COMPACT_LAYOUT)
    for o in adv.options:
        rest = list(o.keep)
        for f in aside:
            rest.remove(f)  # raises if a set-aside die is missing from the shown hold
        assert _typed_state(adv, faces, rules, o.keep, COMPACT_LAYOUT) == o.state
