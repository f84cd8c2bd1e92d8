"""The smaller items of the play app's third round: hint mode gives nothing away (no Hold
best, no stars, no hold to win), a refused menu change is told beside the menus, the typed
faces are previewed as chips, the score sheet explains "(1×)", a place for a rule of thumb in
hint mode, and a phase's first long solve names the phase at once and lets its estimate grow
when a step runs long. The browser checks of the same items at 390 px are in
test_app_browser.py (inputmode, the scroll cue, the page title)."""

from __future__ import annotations

import time

from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.play.game_widget import GameWidget, scoresheet_html
from phase10math.play.turn_widget import TurnWidget


def test_hint_mode_gives_nothing_away_and_has_a_place_for_a_rule_of_thumb():
    gw = GameWidget(opponents=["complete"], layout=COMPACT_LAYOUT, seed=5, style=False)
    t = gw.turn
    t.rule_of_thumb = lambda st: f"keep what fits phase {st.phase.number}"
    t.hint_toggle.value = True
    t.roll_button.click()
    assert t.best_button.layout.display == "none"
    assert not any("p10-suggest" in b._dom_classes for b in t.dice_buttons)
    assert "Best to win" not in t.advice.value and "Chance to win the game" in t.advice.value
    assert "Rule of thumb:</b> keep what fits phase 1" in t.advice.value
    assert t.roll_button.button_style == "primary"  # no main button that tells the answer
    t.reveal_button.click()
    assert "Best to win" in t.advice.value and "keep what fits phase 1" not in t.advice.value
    assert t.best_button.layout.display == ""


def test_a_refused_menu_change_is_told_beside_the_menus():
    t = TurnWidget(phase=1, seed=3, style=False)
    t.roll()
    t.phase_select.value = 2
    assert t.phase_select.value == 1 and t.message.value == ""
    assert "finish this turn first" in t.settings_message.value
    assert t.settings_message in t.settings_box.children


def test_typed_faces_are_previewed_as_chips():
    t = TurnWidget(phase=1, seed=3, style=False)
    t.mode.value = "type"
    t.entry.value = "10o W x"
    assert "You typed 3 of 10" in t.preview.value
    assert t.preview.value.count("<span class='p10-chip") == 3 and "p10-chip-bad" in t.preview.value
    t.entry.value = ""
    assert t.preview.value == ""


def test_the_score_sheet_explains_the_turns_at_a_phase():
    gw = GameWidget(opponents=["greedy"], phases=2, seed=2, style=False)
    t = gw.turn
    t.roll()
    t.stop_button.click()
    if t.pending is not None:
        t.confirm_yes.click()
    t.new_button.click()
    sheet = scoresheet_html(gw.session)
    assert "&times;)" in sheet and "the turns a player took at that phase" in sheet


def test_a_first_long_solve_names_the_phase_and_its_estimate_grows(monkeypatch):
    import phase10math.turn.tables as tables
    from phase10math.play import turn_view

    t = TurnWidget(phase=1, seed=2, style=False)
    t.state.new_turn(2)  # the board still shows phase 1 until the next refresh
    seen = []
    real = tables.cached_solution

    def slow_solve(*args, progress=None, **kw):
        seen.append(("status", t.status.value))
        time.sleep(0.2)
        progress("rolls left")  # step 1 took 0.2 s; step 2 runs long
        time.sleep(1.5)
        seen.append(("busy", t.busy.value))
        progress("rolls left")
        progress("rolls left")
        return real(*args, **kw)

    monkeypatch.setattr(turn_view, "TICK", 0.1)
    monkeypatch.setattr(tables, "heavy_phase", lambda *a: True)
    monkeypatch.setattr(tables, "cached_solution", slow_solve)
    monkeypatch.setattr(turn_view, "_READY", set())
    t.refresh()
    assert "Phase 2" in seen[0][1] and "solving it" in seen[0][1]
    assert "step 1 of 3" in seen[1][1] and "longer than usual on a busy server" in seen[1][1]
    assert "Phase 2" in t.status.value and t.busy.value == ""


def test_the_people_of_pass_and_play_are_named_and_a_bad_name_is_refused_beside_it():
    from phase10math.play.game_widget import GameSession

    gw = GameWidget(opponents=["person", "greedy"], phases=1, seed=4, style=False)
    gw.names.value = "Ann, Ben"
    gw.new_game()
    names = [p.name for p in gw.session.game.players]
    assert names == ["Ann", "Ben", "greedy (3)"]
    assert "Ann" in gw.sheet.value and "Ben" in gw.sheet.value
    assert GameSession.from_dict(gw.session.to_dict()).game.players[1].name == "Ben"
    before = gw.session
    gw.names.value = "Ann, ann"
    gw.new_game()
    assert gw.session is before and "given twice" in gw.setup_message.value
    gw.names.value = "Ann, Ben, Cy"  # one person seat only
    gw.new_game()
    assert gw.session is before and "3 names for 2 people" in gw.setup_message.value
