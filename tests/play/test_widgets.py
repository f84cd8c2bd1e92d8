"""Widget logic, tested by driving the widgets (buttons, values) and reading the game state
and the advisor panel."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

from phase10math.dice.faces import parse_faces, split_faces  # noqa: E402
from phase10math.dice.layouts import DEFAULT_LAYOUT  # noqa: E402
from phase10math.dice.rolls import match_roll  # noqa: E402
from phase10math.dice.rules import Rules  # noqa: E402
from phase10math.play.models import TurnState, standing, suggested_dice, value_words  # noqa: E402  # noqa: E402
from phase10math.play.widgets import DIE_COLORS, TurnWidget  # noqa: E402
from phase10math.turn.advisor import advise  # noqa: E402


def faces_on_dice(w: TurnWidget) -> list[str]:
    return [b.description for b in w.dice_buttons]


def roll_anyway(w: TurnWidget) -> None:
    """Roll, answering Yes when the widget asks (the roll could lose a phase made)."""
    w.roll()
    if w.pending is not None:
        w.confirm_yes.click()


def a_roll(seed: int = 0) -> str:
    """Ten faces that can be rolled with the default layout (never hard-coded)."""
    import random

    rng = random.Random(seed)
    return " ".join(str(rng.choice(d.faces)) for d in DEFAULT_LAYOUT.dice)


def test_seeded_rolls_are_reproducible_and_valid():
    a, b = TurnWidget(phase=1, seed=11), TurnWidget(phase=1, seed=11)
    a.roll_button.click()
    b.roll_button.click()
    assert a.state.dice == b.state.dice
    assert faces_on_dice(a) == faces_on_dice(b)
    match_roll(a.state.faces, DEFAULT_LAYOUT)  # raises if the roll is impossible
    for i, f in enumerate(a.state.dice):
        assert f in DEFAULT_LAYOUT.dice[i].faces


def test_dice_buttons_show_value_and_color():
    w = TurnWidget(phase=1, seed=1)
    assert faces_on_dice(w) == ["?"] * 10
    w.roll()
    for b, f in zip(w.dice_buttons, w.state.dice, strict=True):
        assert b.description == ("W" if f.value == 0 else str(f.value))
        assert b.style.button_color == DIE_COLORS[f.color]
        assert "p10-die" in b._dom_classes
    assert "p10-roll" in w.roll_button._dom_classes
    assert "p10-advice" in w.advice._dom_classes


def test_roll_shows_advice_matching_the_advisor():
    w = TurnWidget(phase=1, seed=5)
    assert "Roll to start" in w.advice.value
    w.roll()
    adv = advise(w.state.dice, 2, 1, by_die=True)
    text = w.advice.value
    assert "Best holds" in text and "Best:" in text
    assert "Yours:" not in text  # no verdict on a hold before the player holds anything
    assert str(adv.best.value) in text  # exact fraction shown (on demand, in <details>)
    st = standing(w.state)
    assert value_words(st.best.value, "complete") in text
    # the dice of the best hold are marked on the dice themselves
    marked = {i for i, b in enumerate(w.dice_buttons) if "p10-suggest" in b._dom_classes}
    assert marked == suggested_dice(w.state) and len(marked) == len(adv.best.keep)
    assert w.state.rolls_done == 1 and w.state.rolls_left == 2


def test_clicking_dice_holds_them_and_highlights_the_choice():
    w = TurnWidget(phase=1, seed=5)
    w.roll()
    # nothing held yet: the highlighted hold is "(nothing)"
    assert re.search(r'class="p10-current".*\(nothing\)', w.advice.value)
    w.click_die(0)
    w.click_die(1)
    assert w.state.held == {0, 1}
    assert "p10-held" in w.dice_buttons[0]._dom_classes
    assert "p10-held" not in w.dice_buttons[2]._dom_classes
    rank, opt = w.state.current_option()
    kept = sorted(str(f) for f in (w.state.dice[0], w.state.dice[1]))
    assert sorted(str(f) for f in opt.keep) == kept
    st = standing(w.state)
    mine = w.advice.value.split("p10-mine-line")[1].split("</span></div>")[0]
    assert st.label in mine and "rank" not in mine and "tied" not in mine  # no ranks
    assert str(opt.value) in w.advice.value
    w.click_die(1)  # release
    assert w.state.held == {0}


def test_hold_the_best_then_roll_keeps_held_dice():
    w = TurnWidget(phase=7, seed=2)
    w.roll()
    best = w.state.advice().best
    w.best_button.click()
    rank, opt = w.state.current_option()
    assert opt.value == best.value and "the best hold" in w.advice.value or opt.tie
    held = {i: w.state.dice[i] for i in w.state.held}
    if len(held) < 10:
        w.roll()
        assert w.state.rolls_done == 2
        assert all(w.state.dice[i] == f for i, f in held.items())


def test_turn_ends_after_three_rolls_with_meld_result():
    ended = []
    w = TurnWidget(phase=1, seed=3, on_turn_end=ended.append)
    for _ in range(3):
        roll_anyway(w)
    assert w.state.over and w.roll_button.disabled
    assert "Turn over" in w.advice.value
    assert len(ended) == 1
    w.roll()  # refused: the state does not change and a message is shown
    assert w.state.rolls_done == 3
    assert "turn is over" in w.message.value
    w.new_button.click()
    assert w.state.rolls_done == 0 and not w.state.over


def test_stop_ends_the_turn_and_scores():
    w = TurnWidget(phase=1, seed=0)
    w.type_roll("8 8 8 10 W W 1 2 5 6")
    w.stop_button.click()
    assert w.state.over
    assert "complete, score 34" in w.advice.value


def test_typed_roll_is_used_and_advised():
    w = TurnWidget(phase=1, seed=0)
    w.type_roll("10 10 W 5 6 7 1 2 3 8")
    assert w.message.value == ""
    assert w.state.rolls_done == 1 and w.state.typed
    assert sorted(faces_on_dice(w)) == sorted("10 10 W 5 6 7 1 2 3 8".split())
    assert "Best:" in w.advice.value
    assert w.roll_button.layout.display == "none"  # typing mode: the player rolls real dice


@pytest.mark.parametrize(
    "bad, words",
    [
        ("11 10 10 W 5 6 7 1 2", "'11' is not a die face"),
        ("10 10 W 5 6 7 1 2", "type 9 faces, not 8"),
        ("10 10 10 10 10 10 10 1 2", "7 faces show 5-10"),
        ("10 10 W 5 6 7 1 2 8x", "'8x' is not a die face"),
        ("10 10 W W W 7 1 2 3", "6 faces show 1-4 or W"),
    ],
)
def test_bad_typed_roll_shows_message_and_changes_nothing(bad, words):
    w = TurnWidget(phase=1, seed=4)
    w.roll()
    w.click_die(3)
    before = w.state.snapshot()
    shown = faces_on_dice(w)
    advice = w.advice.value
    w.type_roll(bad)
    assert words in w.entry_message.value  # next to the entry box
    assert w.state.snapshot() == before
    assert faces_on_dice(w) == shown
    assert w.advice.value == advice


def test_typed_reroll_keeps_held_dice_and_names_bad_faces():
    w = TurnWidget(phase=1, seed=0)
    w.type_roll("10 10 W 5 6 7 1 2 3 8")
    i = next(i for i, f in enumerate(w.state.dice) if f.value == 10)
    w.click_die(i)
    held = w.state.dice[i]
    before = w.state.snapshot()
    w.type_roll("10 10 W 5 6 7 1 2 3 8")  # ten faces, but only nine dice were rolled
    assert "you rolled 9 dice" in w.entry_message.value
    assert w.state.snapshot() == before
    assert w.message.value == ""
    w.type_roll("9 W 5 6 7 1 2 3 8")  # only the rerolled dice; the held 10 stays
    assert w.entry_message.value == "" and w.state.rolls_done == 2
    assert w.state.dice[i] == held and i in w.state.held
    assert sorted(f.value for f in w.state.dice) == sorted([10, 9, 0, 5, 6, 7, 1, 2, 3, 8])


def test_example_entry_is_a_valid_roll_in_every_phase():
    for ph in (1, 4, 8, 9):
        w = TurnWidget(phase=ph, seed=0)
        w.mode.value = "type"
        example = w.entry.placeholder.removeprefix("e.g. ")
        w.type_roll(example)
        assert w.entry_message.value == "" and w.state.rolls_done == 1, ph
        w.click_die(0)
        example = w.entry.placeholder.removeprefix("e.g. ")
        assert len(example.split()) == 9
        w.type_roll(example)
        assert w.entry_message.value == "" and w.state.rolls_done == 2, ph


def test_color_phase_needs_colors_when_typed():
    w = TurnWidget(phase=8, seed=0)
    w.type_roll("10 10 W 5 6 7 1 2 3 8")
    assert "has no color" in w.entry_message.value
    assert w.state.rolls_done == 0
    w.type_roll(a_roll(3))
    assert w.entry_message.value == "" and w.state.rolls_done == 1
    assert "Best holds" in w.advice.value


def test_sticky_holds_keep_set_aside_dice():
    w = TurnWidget(rules=Rules(holds="sticky"), phase=1, seed=8)
    w.roll()
    w.click_die(0)
    roll_anyway(w)
    assert w.state.aside == {0}
    before = w.state.snapshot()
    w.click_die(0)
    assert "stays set aside" in w.message.value
    assert w.state.snapshot() == before
    assert "p10-aside" in w.dice_buttons[0]._dom_classes


def test_changing_phase_or_objective_starts_a_new_turn():
    w = TurnWidget(phase=1, seed=8)
    w.roll()
    before = w.state.snapshot()
    w.phase_select.value = 2  # mid-turn: refused, the dice stay
    assert "finish this turn first" in w.settings_message.value
    assert w.state.snapshot() == before and w.phase_select.value == 1
    w.stop_button.click()
    w.phase_select.value = 2  # once the turn is over, a new phase starts a new turn
    assert w.state.phase.number == 2 and w.state.rolls_done == 0
    w.objective_select.value = "score"
    w.roll()
    assert "E[score]" in w.advice.value and "expected score" in w.advice.value
    assert "points" in w.advice.value


def test_roll_with_every_die_held_is_refused():
    w = TurnWidget(phase=1, seed=9)
    w.roll()
    for i in range(10):
        w.click_die(i)
    before = w.state.snapshot()
    w.roll()
    assert "every die is held" in w.message.value
    assert w.state.snapshot() == before


def test_state_without_widgets():
    st = TurnState(phase=1, seed=1)
    st.enter("10 10 W 5 6 7 1 2 3 8")
    st.hold(parse_faces("10 10 W"))
    assert sorted(str(f) for f in st.held_faces()) == sorted(["10r", "10r", "Wr"]) or sorted(
        f.value for f in st.held_faces()
    ) == [0, 10, 10]
    rank, opt = st.current_option()
    assert opt.value == st.advice().value_of("10 10 W").value


def test_split_faces():
    assert split_faces("10 o, W green 7") == ["10o", "Wgreen", "7"]
    assert split_faces("11") == ["11"]


# ---------------------------------------------------------------------- whole game

from phase10math.dice.faces import parse_layout  # noqa: E402
from phase10math.game.engine import Game  # noqa: E402
from phase10math.play.game_widget import GameSession, GameWidget  # noqa: E402


def play_best(w: TurnWidget) -> None:
    """Play one turn in the widget with the advisor's holds."""
    w.roll()
    while not w.state.over:
        w.best_button.click()
        if len(w.state.held) == 10:
            w.stop_button.click()
        else:
            w.roll()


def test_game_widget_plays_to_the_end_and_updates_the_score_sheet():
    g = GameWidget(opponents=("complete", "greedy"), phases=2, seed=4)
    assert "your turn at phase 1" in g.status.value
    assert g.sheet.value.count("<tr>") >= 3
    for _ in range(30):
        if g.session.over:
            break
        before = g.sheet.value
        play_best(g.turn)
        assert g.sheet.value == before  # scored when the player hands the turn over
        g.turn.new_button.click()
        assert g.sheet.value != before  # the score sheet shows the turn
    assert g.session.over
    assert "Game over" in g.status.value
    res = g.session.result
    for p in res.players:
        assert f"class='p10-total'>{p.total}<" in g.sheet.value
    assert any(p.finished for p in res.players)
    # the board says so and its button is New game now (no "press Next turn")
    assert "game is over" in g.turn.status.value and "Next turn" not in g.turn.status.value
    assert g.turn.new_button.description == "New game"
    g.new_game_button.click()
    assert not g.session.over and g.turn.state.rolls_done == 0


def test_next_turn_refused_while_the_turn_goes_on():
    g = GameWidget(opponents=("greedy",), phases=2, seed=1)
    g.turn.roll()
    before = g.turn.state.snapshot()
    g.turn.new_button.click()
    assert "finish this turn first" in g.turn.message.value
    assert g.turn.state.snapshot() == before


def test_human_turn_is_scored_by_the_engine():
    s = GameSession(opponents=[], phases=2, seed=2)  # solitaire
    assert s.game.solitaire
    st = s.new_turn_state()
    st.enter("8 8 8 10 W W 1 2 5 6")
    st.stop()
    s.human_turn_done(st)
    assert s.human.scores == {1: 34}
    assert s.human_phase.number == 2
    st = s.new_turn_state()
    for _ in range(3):
        st.roll()
    s.human_turn_done(st)
    made = 2 in s.human.scores
    assert s.over == made


def test_game_session_matches_engine_with_same_holds():
    """The session replays the human's turn through the engine: a game where the human
    always stops after the first roll scores exactly what the engine's 'stop' strategy
    scores on the same faces."""
    s = GameSession(opponents=["greedy"], phases=2, seed=9)
    while s.waiting:
        st = s.new_turn_state()
        st.roll()
        st.stop()
        faces = st.dice
        s.human_turn_done(st)
        made = [e for e in s.game.log if e.player == 0 and e.kind in ("made", "failed")][-1]
        assert sorted(map(str, made.dice)) == sorted(map(str, faces))
    assert s.over and isinstance(s.game, Game)


def test_game_widget_refuses_a_phase_change(issue=12):
    """In a game the phase is the game's: changing it mid-turn cannot throw a bad roll away."""
    g = GameWidget(opponents=("greedy",), phases=2, seed=1)
    g.turn.roll()
    before = g.turn.state.snapshot()
    g.turn.phase_select.value = 2
    assert "set by the game" in g.turn.settings_message.value
    assert g.turn.state.snapshot() == before


def test_turn_widget_with_identical_dice():
    """A layout whose dice all look alike to the phase (one die type) builds and advises."""
    lay = parse_layout("6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo")
    w = TurnWidget(phase=8, layout=lay, seed=3)
    w.roll()
    assert w.state.advice() is not None


def test_bad_objective_is_refused_by_the_one_objective_check():
    from phase10math.errors import InvalidRulesError

    with pytest.raises(InvalidRulesError, match="objective='fast'"):
        TurnState(phase=1, objective="fast")
    st = TurnState(phase=1, seed=2)
    with pytest.raises(InvalidRulesError):
        st.new_turn(objective="fast")
    assert st.objective == "complete"


def test_the_stylesheet_is_a_css_file_shipped_with_the_package():
    import tomllib
    from importlib import resources

    from phase10math.play.style import app_css, style_widget

    css = resources.files("phase10math.play").joinpath("app.css").read_text()
    assert ".p10-die" in css and "\\2605" in css  # the star of a suggested die, as CSS
    data = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert "*.css" in data["tool"]["setuptools"]["package-data"]["phase10math.play"]
    assert app_css() == css and css in style_widget().value


def test_no_module_of_the_play_app_is_over_a_thousand_lines():
    import phase10math.play as play

    for path in Path(play.__file__).parent.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 1000, path.name
