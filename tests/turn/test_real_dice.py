"""The recorded dice (ten different dice): typed faces that fit the dice in several ways.

The advisor always answers: one best hold for every way the faces fit (a note), or the best
hold of each way with the face whose die decides it; the player says which die is which
(``dice_of=`` in the API, ``--die FACE=DIE`` on the command line, a tap on a face in the
widgets). Color phases on the recorded dice solve on a 7**10 tensor, so these tests use number
phases on the recorded dice and a reduced layout (five identical high dice and a sixth that
shares 5r and 6o with them) for the color phase 8, which solves in well under a second.
"""

from __future__ import annotations

import re

import pytest
from reduced_dice import DECIDED_BY_6O, REDUCED, REDUCED_TEXT, SIXTH

from phase10math.cli import main
from phase10math.dice.faces import parse_faces
from phase10math.dice.layouts import COMPACT_LAYOUT, DEFAULT_LAYOUT, RECORDED_LAYOUT
from phase10math.errors import InvalidDiceError, InvalidHoldError, WrongTypeError
from phase10math.play.models import TurnState, dice_for_face, enter_rerolled, suggested_dice
from phase10math.turn import advisor
from phase10math.turn.advisor import AmbiguousRollError, advise


def test_same_best_hold_on_the_recorded_dice_is_said_once():
    """Number phases on the recorded dice: the faces fit the ten different dice in many ways,
    and the advice is the same for all (the solver only sees numbers)."""
    adv = advise("10 10 W 5 6 7 1 2 3 8", 2, 1, layout=RECORDED_LAYOUT)
    assert not adv.ambiguous and not adv.fits and adv.question == ""
    assert adv.note.startswith("these faces fit the dice in ")
    assert adv.note.endswith("ways; the best hold is the same for all")
    assert adv.best.keep_text == "10 10 W"
    assert adv.best.value == advise("10 10 W 5 6 7 1 2 3 8", 2, 1).best.value
    assert "note: these faces fit the dice in" in adv.table(top=1)
    # phase 4 with colors typed: fewer ways, still one answer
    adv = advise("5r 6r 7r 8b 9r 10o 1b 2b 3r 4r", 2, 4, layout=RECORDED_LAYOUT)
    assert not adv.ambiguous and "the best hold is the same for all" in adv.note


def test_same_best_hold_in_ways_the_solver_tells_apart():
    adv = advise("5r 6o 7b 8g 9o 10g 1r 2r 3r 4r", 2, 8, layout=REDUCED)
    assert len(adv.fits) == 2 and not adv.ambiguous
    assert adv.fits[0].best.keep == adv.fits[1].best.keep == adv.best.keep
    assert "fit the dice in 2 ways; the best hold is the same for all" in adv.note
    assert "its value is" in adv.note  # the value differs by the dice the faces lie on


def test_different_best_holds_name_the_deciding_die():
    adv = advise(DECIDED_BY_6O, 2, 8, layout=REDUCED)
    assert adv.ambiguous and len(adv.fits) == 2
    assert adv.fits[0].best.keep != adv.fits[1].best.keep
    assert adv.decider == 4 and str(adv.dice[4]) == "6o"
    assert adv.question == (
        "is your 6o on dice 1, 2, 3, 4, 5 (5r 6o 7b 8g 9o 10g) or " + SIXTH + "?"
    )
    on = [sorted(f.on[4]) for f in adv.fits]
    assert sorted(on) == [[0, 1, 2, 3, 4], [5]]
    text = adv.table(top=2)
    assert "the best hold depends on the dice: is your 6o on" in text
    assert "way 1: your 6o on dice 1, 2, 3, 4, 5: keep" in text
    assert "way 2: your 6o on die 6: keep" in text
    d = adv.to_dict()
    assert d["deciding_face"] == 5 and len(d["fits"]) == 2 and d["question"] == adv.question


def test_dice_of_picks_one_way():
    both = advise(DECIDED_BY_6O, 2, 8, layout=REDUCED)
    way = {tuple(sorted(f.on[4])): f for f in both.fits}
    on_sixth = advise(DECIDED_BY_6O, 2, 8, layout=REDUCED, dice_of={4: 5})
    assert not on_sixth.ambiguous and on_sixth.best.keep == way[(5,)].best.keep
    assert on_sixth.best.value == way[(5,)].best.value
    on_first = advise(DECIDED_BY_6O, 2, 8, layout=REDUCED, dice_of={4: 0})
    assert on_first.best.keep == way[(0, 1, 2, 3, 4)].best.keep
    # by_die stays the exact input
    assert (
        advise("5r 6o 5r 5r 7b 5r 3r 2r 4r 3r", 2, 8, layout=REDUCED, by_die=True).best.keep
        == on_first.best.keep
    )


@pytest.mark.parametrize(
    "dice_of, words",
    [
        ({4: 6}, "face 5 (6o) cannot be on die 7"),
        ({4: 10}, "a die index is 0 to 9"),
        ({-1: 0}, "a face index is 0 to 9"),
        ({1: 5, 4: 5}, "are both given on die 6"),
        ({0: 5}, "face 1 (7b) cannot be on die 6"),
    ],
)
def test_dice_of_is_checked(dice_of, words):
    with pytest.raises(InvalidDiceError, match=re.escape(words)):
        advise(DECIDED_BY_6O, 2, 8, layout=REDUCED, dice_of=dice_of)


@pytest.mark.parametrize("dice_of", [{"4": 5}, [(4, 5)], {4: 5.0}])
def test_dice_of_of_the_wrong_type_is_refused_at_the_boundary(dice_of):
    # a TypeError of the package's own, naming the parameter and what it accepts
    with pytest.raises(WrongTypeError, match=r"dice_of=.*accepts Mapping\[int, int\]"):
        advise(DECIDED_BY_6O, 2, 8, layout=REDUCED, dice_of=dice_of)


def test_dice_of_that_leaves_no_way_and_by_die_together():
    with pytest.raises(InvalidDiceError, match="cannot all fit the other dice"):
        # the 5r 5r 5r 5r 6o on the five A dice leave only die 6 for the 7b, which it lacks
        advise(DECIDED_BY_6O, 2, 8, layout=REDUCED, dice_of={1: 0, 2: 1, 3: 2, 5: 3, 4: 4})
    with pytest.raises(InvalidDiceError, match="not both"):
        advise("5r 6o 5r 5r 7b 5r 3r 2r 4r 3r", 2, 8, layout=REDUCED, by_die=True, dice_of={0: 0})


def test_too_many_ways_are_refused(monkeypatch):
    monkeypatch.setattr(advisor, "MAX_FITS", 1)
    with pytest.raises(AmbiguousRollError, match="more than 1 ways"):
        advise(DECIDED_BY_6O, 2, 8, layout=REDUCED)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def reduced_file(tmp_path):
    p = tmp_path / "reduced.txt"
    p.write_text(REDUCED_TEXT)
    return str(p)


def test_cli_die_option(capsys, reduced_file):
    args = ["advise", "--phase", "8", "--rolls-left", "2", "--layout", reduced_file]
    code, out, _ = run(capsys, *args, *DECIDED_BY_6O.split())
    assert code == 0 and "the best hold depends on the dice: is your 6o on" in out
    assert SIXTH in out
    code, out, _ = run(capsys, *args, "--die", "5=6", *DECIDED_BY_6O.split())
    assert code == 0 and "depends" not in out
    want = advise(DECIDED_BY_6O, 2, 8, layout=REDUCED, dice_of={4: 5}).best.keep_text
    assert f"1*  {want} " in out
    code, out, _ = run(capsys, *args, "--die", "5=6", "--json", *DECIDED_BY_6O.split())
    assert code == 0 and '"question": ""' in out


@pytest.mark.parametrize(
    "die, words",
    [
        ("5:6", "--die '5:6': write FACE=DIE"),
        ("11=1", "both 1 to 10"),
        ("5=7", "face 5 (6o) cannot be on die 7"),
    ],
)
def test_cli_bad_die_is_one_line_exit_2(capsys, reduced_file, die, words):
    args = ["advise", "--phase", "8", "--rolls-left", "2", "--layout", reduced_file]
    code, out, err = run(capsys, *args, "--die", die, *DECIDED_BY_6O.split())
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_cli_die_twice_and_with_by_die(capsys, reduced_file):
    args = ["advise", "--phase", "8", "--rolls-left", "2", "--layout", reduced_file]
    code, _, err = run(capsys, *args, "--die", "5=6", "--die", "5=1", *DECIDED_BY_6O.split())
    assert code == 2 and "face 5 is given twice" in err
    code, _, err = run(capsys, *args, "--die", "5=6", "--by-die", *DECIDED_BY_6O.split())
    assert code == 2 and "give one of them" in err


def test_turn_state_places_a_face_on_its_die():
    st = TurnState(phase=8, layout=REDUCED, seed=0)
    enter_rerolled(st, DECIDED_BY_6O)
    adv = st.advice()
    assert adv.ambiguous and suggested_dice(st) == set()  # no star while it is open
    i = adv.decider
    assert str(st.dice[i]) == "6o" and dice_for_face(st, i) == [0, 1, 2, 3, 4, 5]
    before = st.snapshot()
    with pytest.raises(InvalidDiceError, match="has no 6o"):
        st.place(i, 6)
    with pytest.raises(InvalidHoldError, match="choose one of the dice"):
        st.place(i, 10)
    assert st.snapshot() == before
    st.place(i, 5)
    assert str(st.dice[5]) == "6o" and st.pinned == {5}
    adv = st.advice()
    assert not adv.ambiguous
    assert adv.best.keep == advise(DECIDED_BY_6O, 2, 8, layout=REDUCED, dice_of={4: 5}).best.keep
    assert suggested_dice(st)
    # a roll of other dice keeps the pin only for the dice not rolled
    st.held = {5}
    enter_rerolled(st, "5r 5r 5r 5r 5r 1r 1r 1r 1r")
    assert st.pinned == {5} and str(st.dice[5]) == "6o"


pytest.importorskip("ipywidgets")

from phase10math.play.widgets import TurnWidget  # noqa: E402


def test_widget_picker_says_which_die_is_which():
    w = TurnWidget(phase=8, layout=REDUCED, seed=0)
    w.type_roll(DECIDED_BY_6O)
    assert w.entry_message.value == ""
    assert w.which_box.layout.display == ""
    assert "Which die is which?" in w.which_text.value and SIXTH in w.which_text.value
    assert "the best hold depends on it" in w.advice.value
    d = w.state.advice().decider
    assert w.face_buttons[d].description == "6o" and w.face_buttons[d].button_style == "warning"
    assert f"p10-pick-face-{d}" in w.face_buttons[d]._dom_classes
    # a tap on the face: the dice that can show it, each with its six faces
    w.face_buttons[d].click()
    shown = [j for j, row in enumerate(w.die_rows) if row.layout.display == ""]
    assert shown == [0, 1, 2, 3, 4, 5]
    assert w.die_rows[5].children[1].value.count("p10-chip") == 6
    assert "title='7o'" in w.die_rows[5].children[1].value
    # a tap on die 6: decided
    w.die_buttons[5].click()
    assert w.entry_message.value == "" and w.state.pinned == {5}
    assert not w.state.advice().ambiguous and "depends on it" not in w.advice.value
    assert (
        w.face_buttons[5].description.startswith("6o") and "die 6" in w.face_buttons[5].description
    )
    assert w.which_box.layout.display == ""  # still there, to change the answer


def test_widget_picker_refusal_shows_and_changes_nothing():
    w = TurnWidget(phase=8, layout=REDUCED, seed=0)
    w.type_roll(DECIDED_BY_6O)
    before = w.state.snapshot()
    w._pick_face(w.state.advice().decider)
    w._pick_die(9)  # a low die: not offered, refused if forced
    assert "has no 6o" in w.entry_message.value and w.state.snapshot() == before


def test_widget_hides_the_picker_when_faces_fit_one_way():
    w = TurnWidget(phase=8, seed=0, layout=COMPACT_LAYOUT)  # a colored face: one kind of die
    w.type_roll("5o 6g 7b 8o 9o 10o 1g 2o 3b Wo")
    assert w.entry_message.value == "" and w.which_box.layout.display == "none"


def test_layout_menu():
    w = TurnWidget(phase=1, seed=2)
    # the recorded dice are the default set
    assert w.layout_select.value == "recorded" and w.state.layout is DEFAULT_LAYOUT
    assert DEFAULT_LAYOUT is RECORDED_LAYOUT
    assert [v for _, v in w.layout_select.options] == ["recorded", "compact"]
    assert "p10-layout" in w.layout_select._dom_classes
    w.layout_select.value = "compact"
    assert w.state.layout is COMPACT_LAYOUT and w.state.rolls_done == 0
    w.roll()
    for f, die in zip(w.state.dice, COMPACT_LAYOUT.dice, strict=True):
        assert f in die.faces
    # mid-turn another set is refused and the menu put back
    w.layout_select.value = "recorded"
    assert w.layout_select.value == "compact" and w.state.layout is COMPACT_LAYOUT
    assert "finish this turn first" in w.settings_message.value
    w.stop_button.click()
    if w.pending is not None:  # a stop that fails the phase asks first
        w.confirm_yes.click()
    w.layout_select.value = "recorded"
    assert w.state.layout is RECORDED_LAYOUT and w.state.rolls_done == 0
    w.roll()
    for i, f in enumerate(w.state.dice):
        assert f in RECORDED_LAYOUT.dice[i].faces
    w.stop_button.click()
    w.new_button.click()
    # typed faces on the recorded dice: many ways, one answer, the picker offered
    w.type_roll("10 10 W 5 6 7 1 2 3 8")
    assert w.entry_message.value == "" and "the best hold is the same for all" in w.advice.value
    assert w.which_box.layout.display == ""


def test_a_face_on_two_different_dice_names_the_die_to_keep():
    """Phase 8 on the recorded dice: two different dice (7 and 10) both show Wr; the best hold
    keeps one of them, and which one matters (the rerolled die's other faces differ: the same
    chance to make the phase, fewer points expected). The hold says which (``positions``, and
    ``Wr (die 7)`` in its text), and the app stars that die. (Phase 8's solve is the one the
    lessons cached before: ``RECORDED_SOLVES`` in ``conftest.py``.)"""
    faces = parse_faces("5r 10r 7r 5r 7r 9g Wr 1r Wb Wr")
    adv = advise(faces, 2, 8, by_die=True)
    best = adv.best
    assert 6 in best.positions and 9 not in best.positions
    assert "Wr (die 7)" in best.keep_text and "die 10" not in best.keep_text
    # the same faces with die 10's Wr kept instead: another hold, ranked below
    other = next(o for o in adv.options if set(o.positions) == set(best.positions) - {6} | {9})
    assert other.state != best.state and "Wr (die 10)" in other.keep_text
    assert other.value == best.value and other.value2 < best.value2
    st = TurnState(phase=8, seed=0)
    st.roll()
    st.dice = list(faces)
    assert suggested_dice(st) == set(best.positions)
    st.hold_option(best)
    assert st.held == set(best.positions)


def test_phase_8_on_the_recorded_dice_two_ways():
    """P(complete) of phase 8 on the ten different dice: the tensor engine on the full
    projection (both keys, as in the table) equals a solve that sees colors only (the per-kind
    solver: some dice are alike by color), and the color-only value is the exact fraction."""
    from fractions import Fraction

    from phase10math.dice.phases import PHASES
    from phase10math.dice.rules import Rules
    from phase10math.turn.engine import final_scores
    from phase10math.turn.kernels import utility_from_scores
    from phase10math.turn.projection import COLOR
    from phase10math.turn.solver import solve_utility
    from phase10math.turn.statespace import StateSpace
    from phase10math.turn.tables import cached_solution, shipped_row

    full = cached_solution(8, "complete", layout=RECORDED_LAYOUT)
    assert full.space.distinct and full.space.n_states == 7**10
    space = StateSpace.build(RECORDED_LAYOUT, COLOR)
    assert not space.distinct
    made = utility_from_scores(final_scores(PHASES[8], space, Rules()), "complete")
    color_only = solve_utility(space, made, Rules()).value()
    assert full.value() == color_only == Fraction(102703714935391429, 197432555763400704)
    # the shipped row holds the same two keys of the solve
    row = shipped_row(PHASES[8], Rules(), RECORDED_LAYOUT)
    assert (row["p_optimal"], row["e_score_complete_policy"]) == (full.value(), full.value2())


def fits_by_one_search(space, faces, layout, pinned):
    """The ways the faces fit the dice by one search over every assignment of all the faces
    (identical dice tried once): the class of each (the solver's view), its first
    assignment, every die each face lies on in it and its distinct assignments."""
    dice = layout.dice
    types = space.die_types(layout)
    twins = [{j for j, e in enumerate(dice) if e == d} for d in dice]  # identical dice
    same = [min(t) for t in twins]
    shown = [[d.show(f) for d in dice] for f in faces]
    classes: dict = {}

    def rec(i, assign, used):
        if i == len(faces):
            own = [shown[k][d] for k, d in enumerate(assign)]
            cls = tuple(sorted((types[d], space.projection.key(g)) for d, g in zip(assign, own)))
            first, on, distinct = classes.setdefault(
                cls, (tuple(assign), [set() for _ in faces], set())
            )
            for k, d in enumerate(assign):
                on[k] |= twins[d]
            distinct.add(tuple(sorted((same[d], g) for d, g in zip(assign, own))))
            return
        tried = set()
        for d in [pinned[i]] if i in pinned else range(len(dice)):
            if d in used or shown[i][d] is None:
                continue
            if i not in pinned and (d in pinned.values() or same[d] in tried):
                continue
            tried.add(same[d])
            rec(i + 1, [*assign, d], used | {d})

    rec(0, [], frozenset())
    return [(first, tuple(map(frozenset, on)), len(d)) for first, on, d in classes.values()]


@pytest.mark.parametrize("layout", [RECORDED_LAYOUT, COMPACT_LAYOUT, REDUCED], ids=lambda x: x.name)
def test_ways_the_faces_fit_equal_one_search_over_every_assignment(layout):
    """The faces are split into parts that share no die and the parts' ways combined: the
    same ways, in the same order, as one search over all the faces, on seeded rolls typed
    with and without colors, in any order, some faces' dice given."""
    import random

    from phase10math.turn.projection import FULL, VALUE
    from phase10math.turn.statespace import StateSpace

    rng = random.Random(11)
    compared = ambiguous = 0
    for projection in (VALUE, FULL):
        space = StateSpace.build(layout, projection)
        for _ in range(12):
            faces = [rng.choice(d.faces) for d in layout.dice]
            if rng.random() < 0.5:  # numbers typed without their colors
                faces = parse_faces(" ".join("W" if f.value == 0 else str(f.value) for f in faces))
            order = list(range(len(faces)))
            rng.shuffle(order)
            pinned = {order.index(0): 0} if rng.random() < 0.3 else {}
            typed = [faces[i] for i in order]
            expected = fits_by_one_search(space, typed, layout, pinned)
            if len(expected) > advisor.MAX_FITS:
                with pytest.raises(AmbiguousRollError):
                    advisor.roll_fits(space, typed, layout, pinned)
                ambiguous += 1
                continue
            got = advisor.roll_fits(space, typed, layout, pinned)
            # the way in which face i lies on die i comes first (as the docstring says)
            if got[0].dice == tuple(range(len(typed))):
                j = next(
                    j
                    for j, (_, on, _) in enumerate(expected)
                    if all(i in s for i, s in enumerate(on))
                )
                expected.insert(0, (got[0].dice, *expected.pop(j)[1:]))
            assert [(f.dice, f.on, f.ways) for f in got] == expected
            compared += 1
    assert compared >= 12
