"""A widget's output carries, beside its interactive view, a static picture of the state it
shows (``text/html``): what a handout or the documentation site prints where no kernel runs."""

import re

import phase10math as p10
from phase10math.play import GameWidget, TurnWidget

VIEW = "application/vnd.jupyter.widget-view+json"
DIE = re.compile(r"<span class='p10-static-die'.*?title='([^']*)'.*?<small>(die \d+[^<]*)</small>")


def test_turn_picture_shows_the_dice_the_holds_and_the_advice():
    turn = TurnWidget(phase=3, seed=5)
    turn.roll()
    turn.click_die(0)
    turn.click_die(4)
    bundle = turn._repr_mimebundle_()
    assert VIEW in bundle  # the live board is still what Jupyter shows
    page = bundle["text/html"]
    dice = DIE.findall(page)
    assert [face for face, _ in dice] == [str(f) for f in turn.state.dice]
    assert [label for _, label in dice] == [
        f"die {i + 1}{' held' if i in (0, 4) else ''}" for i in range(10)
    ]
    assert f"Phase 3</b> ({p10.PHASES[3].text})" in page and "2 rolls left" in page
    best = turn.state.advice().best
    assert " ".join(str(f) for f in best.keep) in page  # the advisor's best hold, written out


def test_turn_picture_before_the_roll_and_after_the_turn():
    turn = TurnWidget(phase=1, seed=2024)
    page = turn._repr_mimebundle_()["text/html"]
    value = f"{float(p10.phase_row(1)['p_optimal']):.1%}"  # the turn's value, computed apart
    assert "3 rolls left" in page and "Roll to start" in page and value in page
    assert page.count("p10-static-die") == page.count("p10-c-x'>?</span>") == 10  # not rolled
    turn.state.enter("10 10 10 9 9 9 1 2 3 4")
    turn.state.stop()
    page = turn._repr_mimebundle_()["text/html"]
    assert "phase 1 complete, score 57" in page  # 10 + 10 + 10 + 9 + 9 + 9


def test_game_picture_shows_the_score_sheet_and_the_board():
    game = GameWidget(opponents=("complete", "greedy"), seed=7)
    page = game._repr_mimebundle_()["text/html"]
    for name in ("you", "complete (2)", "greedy (3)", "Score sheet", "Round 1"):
        assert name in page, name
    assert page.count("p10-static-die") == 10 and "p10-static-game" in page
