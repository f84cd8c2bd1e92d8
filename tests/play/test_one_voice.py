"""One voice per aim: under each aim (make the phase, score most, win the game) the main
button, the stars, the verdict and the questions before a move follow that aim's best move;
a question only where the move tapped is not the aim's best. Verdicts judge what the player
did (a hold carried over from the last roll is not judged yet), without ranks, in plain
percentages. Compact dice and phases without colors: cheap to solve."""

from __future__ import annotations

import re

import pytest

from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.play.game_widget import GameWidget
from phase10math.play.models import cost_words, made_now, meld_dice, pct
from phase10math.play.widgets import TurnWidget

MADE = "6o 9b 6b 9r 6b 9g Wr 3g Wg 3b"  # phase 1 made: 6 6 6 + 9 9 9


def main_button(t: TurnWidget):
    """The filled button: what a player who follows the app presses."""
    shown = [
        b
        for b in (t.roll_button, t.best_button, t.stop_button, t.new_button)
        if b.button_style in ("primary", "success") and b.layout.display != "none"
    ]
    assert len(shown) == 1, [(b.description, b.button_style) for b in shown]
    return shown[0]


def stars(t: TurnWidget) -> set[int]:
    return {i for i, b in enumerate(t.dice_buttons) if "p10-suggest" in b._dom_classes}


def test_make_the_phase_a_made_phase_stops_and_stars_only_the_dice_that_make_it():
    t = TurnWidget(phase=1, seed=4)
    t.type_roll(MADE)
    t.mode.value = "roll"
    assert main_button(t) is t.stop_button and t.best_button.layout.display == "none"
    # the 3 3 do not make the phase: not starred as kept
    assert stars(t) == meld_dice(t.state) and len(stars(t)) == 6
    assert "stop now" in t.advice.value and "equally good" not in t.advice.value
    t.roll_button.click()  # rolling can lose it: asked, with the aim's numbers
    assert t.confirm_box.layout.display == "" and "100% to" in t.confirm_text.value
    t.confirm_no.click()
    t.stop_button.click()  # the aim's best: no question
    assert t.state.over and t.confirm_box.layout.display == "none"
    assert main_button(t) is t.new_button


def test_score_most_the_main_button_is_hold_best_then_roll_and_roll_asks_nothing():
    t = TurnWidget(phase=1, objective="score", seed=4)
    for seed in range(60):  # a made phase where rolling on for points is best
        t.state.new_turn()
        t.state.rng.seed(seed)
        t.roll_button.click()
        if made_now(t.state) is not None and t.best_move()[0] == "hold":
            break
    else:
        pytest.fail("no made phase where rolling on is best for points")
    move, dice = t.best_move()
    assert stars(t) == set(dice) and "roll again for points (" in t.advice.value
    assert "you made the phase, but for the score roll again" in t.status.value
    assert main_button(t) is t.best_button and t.stop_button.button_style == ""
    t.best_button.click()
    assert t.state.held == set(dice) and main_button(t) is t.roll_button
    assert "<b>Yours:</b> the best hold." in t.advice.value
    t.roll_button.click()  # the aim's best move: rolled at once
    assert t.confirm_box.layout.display == "none" and t.state.rolls_done == 2
    assert [c.label for c in t.choices] == ["best"]


def _made_and_rolling_is_best_to_win() -> GameWidget:
    gw = GameWidget(opponents=["complete"], layout=COMPACT_LAYOUT, seed=5, style=False)
    t = gw.turn
    for seed in range(60):
        t.state.new_turn()
        t.state.rng.seed(seed)
        t.refresh()
        t.roll_button.click()
        if made_now(t.state) is not None and t.best_move()[0] == "hold":
            return gw
    pytest.fail("no made phase where rolling on is best to win")


def test_win_the_game_says_roll_again_for_points_and_every_control_agrees():
    gw = _made_and_rolling_is_best_to_win()
    t = gw.turn
    line = t._win
    move, dice = t.best_move()
    assert set(dice) == set(line.best_dice) and stars(t) == set(dice)
    best_line = re.sub("<[^>]+>", "", t.advice.value.split("p10-best-line'>")[1])
    want = f"Best to win: roll again for points ({pct(line.best_chance)} vs "
    assert best_line.startswith(want + f"{pct(line.stop_chance)} if you stop)")
    assert re.fullmatch(r"\d+\.\d%", pct(line.best_chance))
    # the win hold as chips, and why in sentences with the deciding numbers
    assert "p10-chip" in t.advice.value.split("p10-best-line")[1].split("</span>.")[0]
    why = t.advice.value.split("<summary>Why, to win</summary>")[1].split("</details>")[0]
    assert why.count("<li>") in (2, 3) and "Your opponent is at phase" in why
    assert pct(line.stop_chance) in why
    # Stop is not the main button, Hold best is; the status says so
    assert main_button(t) is t.best_button and t.stop_button.button_style == ""
    assert "to win roll again for points" in t.status.value
    # stopping asks (a mistake's worth), in the aim's words
    t.stop_button.click()
    if t.confirm_box.layout.display == "":
        assert "Best to win: roll again for points" in t.confirm_text.value
        assert "can lose" not in t.confirm_text.value
        t.confirm_no.click()
    t.best_button.click()
    assert main_button(t) is t.roll_button and "the hold to win" in t.advice.value
    # one voice: the turn's own aim below says what it would keep, nothing of the player's
    assert t.advice.value.count("<b>Yours:</b>") == 1 and "of chance less" not in t.advice.value
    t.roll_button.click()  # rolling on with the hold to win: no question
    assert t.confirm_box.layout.display == "none" and t.state.rolls_done == 2
    assert [(c.label, c.objective) for c in t.choices] == [("best", "win")]


def test_a_carried_hold_is_not_judged_until_the_player_touches_it():
    t = TurnWidget(phase=1, seed=5)
    t.type_roll("4 4 1 2 5 6 7 8 9 10")  # nothing made
    for i in [i for i, f in enumerate(t.state.dice) if f.value == 4]:
        t.click_die(i)
    assert "<b>Yours:</b>" in t.advice.value and "mistake" in t.advice.value
    t.type_roll("1 2 5 6 7 8 9 10")  # the two 4s stay held
    assert t.state.rolls_done == 2
    mine = t.advice.value.split("p10-mine-line")[1][:400]
    assert "from the last roll" in mine and "blunder" not in mine and "Yours" not in mine
    assert not any(w in t.advice.value.split("p10-details")[0] for w in ("rank", "tied"))
    t.click_die(2)  # changed: judged now
    assert "<b>Yours:</b>" in t.advice.value
    # typing the real dice, Use roll is the main button once the best hold is held
    t.best_button.click()
    assert t.enter_button.button_style == "primary" and t.best_button.button_style == ""


def test_costs_are_never_in_scientific_notation():
    from fractions import Fraction

    assert cost_words(Fraction(66, 10**9), "win") == "under 0.1 percentage points"
    assert cost_words(Fraction(3, 100), "complete") == "3.0 percentage points"
    assert pct(Fraction(1, 10**7)) == "under 0.1%"


@pytest.mark.slow
def test_a_whole_game_to_win_played_by_the_main_button_loses_nothing():
    """A player who always presses the filled button (Hold best, Roll, Stop & score, Next
    turn) is never asked a question and every choice is the best to win."""
    gw = GameWidget(opponents=["complete"], layout=COMPACT_LAYOUT, seed=5, style=False)
    t = gw.turn
    assert t.aim_win
    clicks = 0
    while not gw.session.over:
        main_button(t).click()
        clicks += 1
        assert t.confirm_box.layout.display == "none", t.confirm_text.value
        assert not t.message.value, t.message.value
        assert clicks < 400
    assert gw.choices and {c.objective for c in gw.choices} == {"win"}
    assert all(c.label == "best" for c in gw.choices)
    assert "every choice was the best" in gw.status.value
