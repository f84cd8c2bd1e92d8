"""The play models and the turn widget at the table: a refused call changes nothing, a move that
can lose the turn asks first, one step can be undone, and the buttons say what they do now."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from phase10math.dice.meld import explain  # noqa: E402
from phase10math.errors import Phase10MathError  # noqa: E402
from phase10math.play.game_widget import GameWidget  # noqa: E402
from phase10math.play.models import (  # noqa: E402
    TurnState,
    enter_rerolled,
    example_faces,
    mistake_label,
)
from phase10math.play.widgets import TurnWidget  # noqa: E402
from phase10math.turn.advisor import advise  # noqa: E402

MADE = "6o 9b 6b 9r 6b 9g Wr 3g Wg 3b"  # phase 1 made: 6 6 6 + 9 9 9 (the roll)


def rolled_state() -> TurnState:
    st = TurnState(phase=1, seed=4)
    st.roll()
    st.toggle(0)
    return st


REFUSALS = {
    "new_turn bogus objective": lambda st: st.new_turn(phase=5, objective="bogus"),
    "new_turn bogus phase": lambda st: st.new_turn(phase="bogus"),
    "toggle 1.5": lambda st: st.toggle(1.5),
    "toggle '3'": lambda st: st.toggle("3"),
    "toggle True": lambda st: st.toggle(True),
    "toggle 10": lambda st: st.toggle(10),
    "hold None": lambda st: st.hold(None),
    "hold 123": lambda st: st.hold(123),
    "hold [None]": lambda st: st.hold([None]),
    "hold_option 'x'": lambda st: st.hold_option("x"),
    "hold_dice None": lambda st: st.hold_dice(None),
    "hold_dice '12'": lambda st: st.hold_dice("12"),
    "hold_dice [1, 10]": lambda st: st.hold_dice([1, 10]),
    "hold_dice [1.5]": lambda st: st.hold_dice([1.5]),
    "enter None": lambda st: st.enter(None),
    "enter 123": lambda st: st.enter(123),
    "enter_rerolled None": lambda st: enter_rerolled(st, None),
    "enter_rerolled list": lambda st: enter_rerolled(st, [1, 2]),
    "place 1.5": lambda st: st.place(1.5, 2),
    "undo twice": lambda st: (st.undo(), st.undo()),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_a_refused_call_changes_nothing(name):
    st = rolled_state()
    if name == "undo twice":
        st.undoable = None
    before = st.snapshot()
    with pytest.raises(Phase10MathError):
        REFUSALS[name](st)
    assert st.snapshot() == before


def test_widget_refusals_change_nothing():
    w = TurnWidget(phase=1, seed=4)
    w.roll()
    before = w.state.snapshot()
    for bad in (10, -1, 1.5, "3"):
        with pytest.raises(Phase10MathError):
            w.click_die(bad)
    assert w.state.snapshot() == before
    with pytest.raises(Phase10MathError, match="bogus"):
        GameWidget(opponents=("bogus",))
    with pytest.raises(Phase10MathError, match="at most 5"):
        GameWidget(opponents=("greedy",) * 6)
    g = GameWidget(opponents=("greedy",) * 5, phases=1, seed=1)
    with pytest.raises(Phase10MathError):
        g.add_opponent("bogus")
    g.add_button.click()  # the sixth seat: refused beside the button
    assert "at most 5" in g.setup_message.value
    assert g.opponent_names() == ["greedy"] * 5


def test_roll_asks_before_throwing_a_made_phase_away():
    w = TurnWidget(phase=1, seed=4)
    w.type_roll(MADE)
    m = explain(w.state.phase, list(w.state.dice))
    assert m.complete
    w.mode.value = "roll"
    assert w.stop_button.description == f"Stop & score {m.score}"
    assert w.stop_button.button_style == "success" and w.roll_button.button_style == ""
    # when stopping is best, Hold best is hidden: Stop & score says what it does
    best = w.state.advice().best
    assert (w.best_button.layout.display == "none") == (len(best.keep) == 10)
    before = w.state.snapshot()
    w.roll_button.click()
    assert w.state.snapshot() == before  # asked, not rolled
    assert w.confirm_box.layout.display == ""
    assert "can lose it" in w.confirm_text.value and "100% to" in w.confirm_text.value
    w.confirm_no.click()
    assert w.state.snapshot() == before and w.confirm_box.layout.display == "none"
    w.roll_button.click()
    w.confirm_yes.click()
    assert w.state.rolls_done == 2  # rolled after Yes


def test_stop_that_fails_asks_and_undo_takes_it_back():
    w = TurnWidget(phase=1, seed=4)
    w.type_roll("1 2 3 4 5 6 7 8 9 10")  # nothing made
    assert w.stop_button.description == "Stop (fails phase)"
    before = w.state.snapshot()
    w.stop_button.click()
    assert w.state.snapshot() == before and "fails phase 1" in w.confirm_text.value
    w.confirm_yes.click()
    assert w.state.over
    assert w.undo_button.layout.display == "" and w.undo_button.description == "Undo stop"
    w.hint_toggle.value = (
        True  # any later refresh keeps Undo (a practice turn is never handed over)
    )
    w.hint_toggle.value = False
    assert w.undo_button.layout.display == ""
    w.undo_button.click()
    assert w.state.snapshot() == before
    assert w.undo_button.layout.display == "none"  # one step only


def test_undo_a_hold_and_a_typed_roll_but_not_a_roll():
    w = TurnWidget(phase=1, seed=4)
    w.type_roll("1 2 3 4 5 6 7 8 9 10")
    after_entry = w.state.snapshot()
    w.click_die(9)
    assert w.undo_button.description == "Undo hold"
    w.undo_button.click()
    assert w.state.snapshot() == after_entry
    w.click_die(9)
    w.type_roll(example_faces(w.state))  # the nine dice not held
    assert w.state.rolls_done == 2 and w.undo_button.description == "Undo typed roll"
    w.undo_button.click()
    assert w.state.rolls_done == 1 and w.state.held == {9}
    w.mode.value = "roll"
    w.roll()
    assert w.undo_button.layout.display == "none"  # a roll here is never undone
    with pytest.raises(Phase10MathError, match="nothing to undo"):
        w.state.undo()


def test_buttons_say_what_they_do_and_no_verdict_before_a_hold():
    w = TurnWidget(phase=1, seed=4)
    assert w.roll_button.description == "Roll"
    w.type_roll("1 2 3 4 5 6 7 8 9 10")
    assert w.roll_button.description == "Roll 10 dice"
    assert "Yours" not in w.advice.value and "below the best" not in w.advice.value
    assert "judged once you hold" in w.advice.value
    w.click_die(0)
    w.click_die(1)
    assert w.roll_button.description == "Roll 8 dice"
    assert "Yours:" in w.advice.value


def test_mistake_labels_and_the_turn_summary():
    from fractions import Fraction

    assert [mistake_label(Fraction(c, 1000), "complete") for c in (0, 9, 10, 49, 50)] == [
        "best",
        "fine",
        "mistake",
        "mistake",
        "blunder",
    ]
    assert mistake_label(Fraction(3), "score") == "blunder"
    w = TurnWidget(phase=1, seed=4)
    w.type_roll("1 2 3 4 5 6 7 8 9 10")
    w.click_die(0)  # keeping a 1 alone: not the best
    st = w.state
    label = mistake_label(st.advice().best.value - st.current_option()[1].value, "complete")
    w.mode.value = "roll"
    w.roll()
    w.stop_button.click()
    if w.pending is not None:
        w.confirm_yes.click()
    assert st.over
    assert "Your choices this turn:" in w.advice.value
    assert f"roll 1 <b class='p10-label-{label}'>{label}</b>" in w.advice.value


def test_in_a_game_a_stop_can_be_undone_until_next_turn():
    g = GameWidget(opponents=("greedy",), phases=2, seed=3)
    t = g.turn
    t.roll()
    sheet = g.sheet.value
    t.stop_button.click()
    if t.pending is not None:
        t.confirm_yes.click()
    assert t.state.over and g.sheet.value == sheet  # not scored yet
    assert t.new_button.description == "Score turn, next"
    t.undo_button.click()
    assert not t.state.over
    t.stop_button.click()
    if t.pending is not None:
        t.confirm_yes.click()
    t.new_button.click()
    assert g.sheet.value != sheet  # scored, next turn (or game over)
    assert t.state.rolls_done == 0 or g.session.over


def test_game_log_names_colors_in_a_color_phase():
    from phase10math.dice.faces import parse_faces
    from phase10math.game.engine import Event
    from phase10math.play.game_widget import event_text

    faces = parse_faces("5r 6r 7r 8r 9r Wr 10r 1b 2b 3b")
    text = event_text(Event("made", 0, 1, 8, tuple(faces), 40), ["you"])
    assert "7r 6r 5r" in text and "Wr" in text
    text = event_text(
        Event("made", 0, 1, 1, tuple(parse_faces("8 8 8 W 10 10 1 2 3 6")), 40), ["you"]
    )
    assert "8 8 8" in text and "8r" not in text


def test_tap_pad_types_a_roll_and_the_board_keeps_placed_faces():
    w = TurnWidget(phase=8, seed=1)
    w.mode.value = "type"
    keys = {b.description: b for b in w.pad.children}
    for k in ("10", "r", "W", "g", "\u232b", "7", "b"):
        keys[k].click()
    assert w.entry.value == "10r 7b"
    keys["r"].click()  # a color needs a number first: refused beside the box
    assert "number (or W) first" in w.entry_message.value and w.entry.value == "10r 7b"
    # placing a typed face on its die swaps two faces; the others stay on their dice
    w = TurnWidget(phase=1, seed=0)
    w.type_roll("10 10 W 5 6 7 1 2 3 8")
    st = w.state
    before = list(st.dice)
    i = 0
    j = next(
        d
        for d in st.rolled_last()
        if d != i and st.layout.dice[d].show(st.dice[i]) and st.layout.dice[i].show(st.dice[d])
    )
    st.place(i, j)
    moved = [k for k in range(10) if st.dice[k] != before[k]]
    assert set(moved) <= {i, j} and st.dice[j] == before[i]


def test_a_long_solve_shows_progress_with_controls_off_and_old_advice_hidden(monkeypatch):
    import phase10math.turn.tables as tables
    from phase10math.play import turn_view

    w = TurnWidget(phase=1, seed=2)
    w.roll()
    seen = []
    real = tables.cached_solution

    def slow_solve(*args, progress=None, **kw):
        for _ in range(3):
            progress("rolls left")
            seen.append(
                (
                    w.busy.value,
                    w.roll_button.disabled,
                    w.phase_select.disabled,
                    all(b.disabled for b in w.dice_buttons),
                    w.advice.layout.display,
                )
            )
        return real(*args, **kw)

    monkeypatch.setattr(tables, "heavy_phase", lambda *a: True)
    monkeypatch.setattr(tables, "cached_solution", slow_solve)
    monkeypatch.setattr(turn_view, "_READY", set())
    w.click_die(0)  # any refresh of a phase not yet solved in this kernel
    assert len(seen) == 3
    first, last = seen[0], seen[-1]
    assert "Solving phase 1" in first[0] and "step 1 of 3" in first[0] and "s left" in first[0]
    assert "step 3 of 3" in last[0]
    assert all(s[1] and s[2] and s[3] and s[4] == "none" for s in seen)
    # afterwards: controls back, advice shown, no second solve
    assert not w.roll_button.disabled and w.advice.layout.display == "" and w.busy.value == ""
    w.click_die(1)
    assert len(seen) == 3


def test_the_computers_rolls_and_holds_step_by_step_on_request():
    g = GameWidget(opponents=("greedy",), phases=2, seed=2)
    for _ in range(3):  # a few turns, so that the computer has rolled
        g.turn.roll()
        g.turn.stop_button.click()
        if g.turn.pending is not None:
            g.turn.confirm_yes.click()
        g.turn.new_button.click()
        if g.session.over:
            break
    assert "greedy (2): roll 1:" not in g.log.value
    g.steps_toggle.value = True
    assert "greedy (2): roll 1:" in g.log.value and "greedy (2): keeps" in g.log.value
    assert "you: roll" not in g.log.value  # the player's own rolls are on the board


def _play_a_game_stopping_at_once(g) -> list:
    """Play every human turn of ``g`` by one roll and a stop (asked: answered Yes when the
    phase is not made); return, per turn, the cost of that stop worked out here from the
    advisor: the best hold's chance minus the chance of stopping (1 when made, else 0)."""
    costs = []
    for _ in range(40):
        if g.session.over:
            break
        t = g.turn
        t.roll()
        st = t.state
        adv = advise(list(st.dice), st.rolls_left, st.phase, layout=st.layout, by_die=True)
        made = explain(st.phase, list(st.dice)).complete
        costs.append(adv.best.value - (1 if made else 0))
        t.stop_button.click()
        if t.pending is not None:
            t.confirm_yes.click()
        assert st.over
        t.new_button.click()  # Score turn, next (the end of the game at the last)
    assert g.session.over
    return costs


def _label(cost) -> str:
    """The documented thresholds: fine under 1 percentage point, mistake under 5."""
    return (
        "best" if cost == 0 else "fine" if cost < 0.01 else "mistake" if cost < 0.05 else "blunder"
    )


def test_after_game_over_the_board_offers_new_game_and_the_summary():
    g = GameWidget(opponents=("greedy",), phases=2, seed=6)  # best, blunder, best
    costs = _play_a_game_stopping_at_once(g)
    assert len(costs) >= 2 and 0 in costs and max(costs) > 0
    t = g.turn
    # the board: the game is over, its main button is New game; nothing else to press
    assert "the game is over: press New game" in t.status.value
    assert "Next turn" not in t.status.value
    assert t.new_button.description == "New game" and t.new_button.button_style == "primary"
    assert t.roll_button.disabled and t.stop_button.disabled and t.best_button.disabled
    assert t.undo_button.layout.display == "none"
    # the end-of-game summary beside the result: per label, in all, turn by turn
    summary = g.status.value
    assert "Game over" in summary and "Your choices this game" in summary
    assert f"({len(costs)} choices in {len(costs)} turns)" in summary
    for label in ("best", "fine", "mistake", "blunder"):
        n = sum(_label(c) == label for c in costs)
        assert (f"{n} <b class='p10-label-{label}'>{label}</b>" in summary) == (n > 0)
    total = sum(costs)
    if total:
        assert f"in all {float(total) * 100:.1f} percentage points of chance lost" in summary
        worst = max(costs)
        assert f"{float(worst) * 100:.1f} percentage points)." in summary  # the costliest
    else:
        assert "every choice was the best" in summary
    assert summary.count("<tr>") == 1 + len(costs)  # one row per turn under the header
    # New game on the board starts a new game (the finished one is not "under way")
    t.new_button.click()
    assert not g.session.over and t.state.rolls_done == 0
    assert "your turn at phase 1" in g.status.value and "Your choices" not in g.status.value
    assert t.new_button.description == "Next turn"


def test_the_turn_summary_adds_up_the_costs_of_the_turn():
    w = TurnWidget(phase=1, seed=11)
    costs = []
    while not w.state.over:
        w.roll_button.click()
        if w.pending is not None:
            w.confirm_yes.click()
        st = w.state
        if st.over:
            break
        adv = advise(list(st.dice), st.rolls_left, st.phase, by_die=True)
        worst = next(o for o in reversed(adv.options) if o.rerolled)  # the worst, on purpose
        w.state.hold_option(worst)
        costs.append(adv.best.value - worst.value)
    assert w.choices and [c.cost for c in w.choices] == costs
    total = sum(costs)
    assert f"in all {float(total) * 100:.1f} percentage points of chance lost" in w.advice.value


def test_game_log_says_who_starts_and_the_order_of_play_by_name():
    from phase10math.game.engine import Event
    from phase10math.play.game_widget import event_text

    names = ["you", "greedy (2)", "player 3"]
    line = event_text(Event("order", 1, 0, note="starts; order P2 P3 P1"), names)
    assert line == "greedy (2) starts; the order of play: greedy (2), player 3, you"
    assert event_text(Event("order", 0, 0, note="starts; order P1 P2"), names).startswith(
        "you start; the order of play: you, greedy (2)"
    )
    assert event_text(Event("order", 0, 0, note="rolls 9"), names) == "you rolled 9 in the roll-off"


def test_the_costliest_choice_compares_costs_of_different_aims_by_their_thresholds():
    """A game whose aim changed keeps choices costed in points and in chance. The costliest
    is the worst label, then the cost farthest past its aim's own "mistake" threshold:
    3 percentage points of chance (3/5 of its 5) outweigh 1 point (1/2.5 of its 2.5), though
    1 is the larger number."""
    from dataclasses import replace
    from fractions import Fraction

    from phase10math.play.game_widget import game_summary_html
    from phase10math.play.models import judge

    chance = judge(1, Fraction(3, 100), "complete", 3)
    points = judge(2, Fraction(1), "score", 3)
    assert chance.label == points.label == "mistake"  # the same label: the cost decides
    for order in ((chance, points), (points, chance)):
        page = game_summary_html([replace(c, who="you", turn=1) for c in order], ["you"])
        assert "The costliest: turn 1, phase 3, roll 1 (mistake, 3.0 percentage points)" in page
    # a worse label wins whatever its cost
    blunder = judge(2, Fraction(3), "score", 3)
    page = game_summary_html([replace(c, who="you", turn=1) for c in (chance, blunder)], ["you"])
    assert "roll 2 (blunder, 3.00 points)" in page
