"""A game that survives a reload: the app saves its state on every action under the session
key, and a new app with the same key (a reload of the same page) shows the same turn, the same
game and the same dice to come."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from phase10math.play.game_widget import PlayApp  # noqa: E402


@pytest.fixture(autouse=True)
def save_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PHASE10MATH_SAVE_DIR", str(tmp_path))
    return tmp_path


def test_a_reload_restores_the_practice_turn_and_the_game(save_dir):
    key = "testkey-0123"
    app = PlayApp(session=key)
    assert not app.restored
    t = app.practice
    t.roll()
    t.click_die(2)
    g = app.game
    g.turn.roll()
    g.turn.stop_button.click()
    if g.turn.pending is not None:
        g.turn.confirm_yes.click()
    g.turn.new_button.click()  # scored: the game moves on
    g.turn.roll()
    g.turn.click_die(0)
    app.tabs.selected_index = 1
    assert (save_dir / f"{key}.json").exists()

    back = PlayApp(session=key)  # the reload
    assert back.restored
    assert back.practice.state.snapshot() == t.state.snapshot()
    assert back.game.turn.state.snapshot() == g.turn.state.snapshot()
    assert back.game.sheet.value == g.sheet.value and back.game.log.value == g.log.value
    assert back.tabs.selected_index == 1
    assert back.practice.advice.value == t.advice.value
    # the same dice to come, in practice and in the game
    t.roll()
    back.practice.roll()
    if t.pending is not None:
        t.confirm_yes.click()
        back.practice.confirm_yes.click()
    assert back.practice.state.dice == t.state.dice
    g.turn.roll()
    back.game.turn.roll()
    assert back.game.turn.state.dice == g.turn.state.dice


def test_bad_keys_and_damaged_files_start_afresh(save_dir):
    from phase10math.errors import Phase10MathError

    with pytest.raises(Phase10MathError):
        PlayApp(session="../../etc/passwd")
    (save_dir / "damaged-key-1.json").write_text("{not json")
    assert not PlayApp(session="damaged-key-1").restored
    (save_dir / "damaged-key-2.json").write_text('{"practice": {"phase": "bogus"}}')
    assert not PlayApp(session="damaged-key-2").restored


def test_new_game_asks_while_a_game_is_under_way():
    app = PlayApp()
    g = app.game
    g.turn.roll()
    before = g.turn.state.snapshot()
    g.new_game_button.click()
    assert "Start a new game?" in g.setup_message.value
    assert g.turn.state.snapshot() == before  # asked, nothing lost yet
    g.new_game_button.click()
    assert g.turn.state.rolls_done == 0 and g.new_game_button.description == "New game"


def test_pass_and_play_two_people_and_a_computer(save_dir):
    from phase10math.play.game_widget import GameSession, GameWidget

    g = GameWidget(opponents=("person", "greedy"), phases=1, seed=6)
    s = g.session
    assert s.humans == [0, 1]
    seen = set()
    for _ in range(30):
        if s.over:
            break
        seen.add(s.human.name)
        assert ("your turn" if s.human.name == "you" else "player 2's turn") in g.status.value
        g.turn.roll()
        g.turn.stop_button.click()
        if g.turn.pending is not None:
            g.turn.confirm_yes.click()
        g.turn.new_button.click()
        s = g.session
    assert seen == {"you", "player 2"}
    # a saved pass-and-play game replays to the same scores
    back = GameSession.from_dict(s.to_dict())
    assert [p.total for p in back.game.players] == [p.total for p in s.game.players]


def _roll(t) -> None:
    t.roll()
    if t.pending is not None:  # the roll could lose a phase made: roll anyway
        t.confirm_yes.click()


def test_a_reload_keeps_what_the_choices_cost(save_dir):
    key = "testkey-choices"
    app = PlayApp(session=key)
    t, g = app.practice, app.game
    t.roll()
    t.click_die(0)
    _roll(t)  # the hold of die 1 is judged
    g.turn.roll()
    g.turn.stop_button.click()
    if g.turn.pending is not None:
        g.turn.confirm_yes.click()
    g.turn.new_button.click()  # the game keeps the stop's cost
    g.turn.roll()
    g.turn.click_die(1)
    _roll(g.turn)
    assert t.choices and g.choices and g.turn.choices
    back = PlayApp(session=key)  # the reload
    assert back.practice.choices == t.choices
    assert back.game.choices == g.choices
    assert back.game.turn.choices == g.turn.choices
