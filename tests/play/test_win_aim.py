"""The app's aim "Win the game": the model (play.win) against the two-player table read by
hand, its refusals in words, and the game widget's menu, panel line and message."""

from __future__ import annotations

import pytest
from reduced_dice import DECIDED_BY_6O, REDUCED, other_colors, phase8_duel

from phase10math.dice.faces import parse_faces
from phase10math.dice.layouts import COMPACT_LAYOUT, DEFAULT_LAYOUT
from phase10math.game.duel import Play, shipped_table, win_advice
from phase10math.play.game_widget import GameSession, GameWidget
from phase10math.play.models import WIN_AIM
from phase10math.play.win import win_line, win_text
from phase10math.turn.advisor import advise


@pytest.fixture(scope="module")
def table():
    """The table the app reads on its default dice (the recorded set): their whole game,
    which holds the totals a game from phase 1 reaches (at phase 9 at least 173)."""
    return shipped_table((1, 10), DEFAULT_LAYOUT)


def at_phases(session: GameSession, me: tuple[int, int], opp: tuple[int, int]) -> None:
    """Put the human (seat 0) and the opponent at (phase, total) (the total as an earlier
    phase's score)."""
    for p, (k, total) in zip(session.game.players, (me, opp), strict=True):
        p.phase, p.scores, p.tries = k, {k - 1: total}, {}


def test_the_chance_to_win_and_the_hold_are_the_tables(table):
    s = GameSession(opponents=["stop"], seed=5)
    at_phases(s, (10, 240), (9, 275))
    st = s.new_turn_state()
    second = s.order[0] != 0
    g = table.game
    key = (int(second), (10, 0, 0), (9, 0, 0), 240 - 275)  # the reduced state, by hand
    before = win_line(s.game, 0, s.order, st)
    assert before.covered and before.best_keep is None
    assert before.chance == pytest.approx(table.value(key, (Play.OPTIMAL, Play.OPTIMAL))[0])
    st.roll()
    line = win_line(s.game, 0, s.order, st)
    adv = win_advice(table, (10, 240), (9, 275), st.faces, 2, second=second)
    assert line.best_keep == adv["best"]["keep"]
    assert line.best_chance == adv["best"]["chance_to_win"]
    assert line.aim_keep == adv["per_turn"]["complete"]["keep"]
    assert "Chance to win the game" in win_text(line, "make the phase")
    assert g.lo == 1


def test_a_last_chance_reads_the_finished_opponent(table):
    s = GameSession(opponents=["stop"], seed=8)
    at_phases(s, (10, 290), (10, 260))
    other = s.game.players[1]
    other.scores[10], other.bonuses["first_finish"], other.finished = 30, 40, True
    st = s.new_turn_state()
    line = win_line(s.game, 0, s.order, st)
    elig = int(s.order[0] != 0)  # the second seat may still earn the bonus this round
    want = table.last_value(Play.OPTIMAL, (10, 0, 0), 290 - (260 + 30 + 40), elig)[0]
    assert line.covered and line.chance == pytest.approx(want)
    assert line.error == table.error(((10, 0, 0), 290 - (260 + 30 + 40), elig))


def test_both_dice_sets_play_to_win_from_phase_one(table):
    """The widest shipped table for the dice: phases 1-10 on the compact dice (its phase 8
    was solved on their colors, from both at phase 1 with 0 points), and on the recorded
    dice their own 1-10 table (phase 8 solved on their colors)."""
    from phase10math.dice.layouts import COMPACT_LAYOUT

    wide = shipped_table((1, 10))
    s = GameSession(opponents=["stop"], seed=5, layout=COMPACT_LAYOUT)
    st = s.new_turn_state()
    second = s.order[0] != 0
    start = win_line(s.game, 0, s.order, st)  # the game's first turn
    first = wide.value(wide.game.key_of(int(second), (1, 0), (1, 0)))[0]
    assert start.covered and start.chance == pytest.approx(first)
    at_phases(s, (7, 160), (6, 150))
    st = s.new_turn_state()
    key = (int(second), (7, 0, 0), (6, 0, 0), 160 - 150)  # the reduced state, by hand
    before = win_line(s.game, 0, s.order, st)
    assert before.covered and before.chance == pytest.approx(wide.value(key)[0])
    st.roll()
    line = win_line(s.game, 0, s.order, st)
    adv = win_advice(wide, (7, 160), (6, 150), st.faces, 2, second=second, layout=COMPACT_LAYOUT)
    assert line.best_keep == adv["best"]["keep"]
    # 40 points at phase 7: no game from phase 1 has so few (at least 132), said in words
    at_phases(s, (7, 40), (6, 150))
    line = win_line(s.game, 0, s.order, s.new_turn_state())
    assert not line.covered and "cannot happen" in line.message
    # the recorded dice: their own whole game (its phase 8 solved on their colors)
    recorded = GameSession(opponents=["stop"], seed=5)
    at_phases(recorded, (7, 160), (6, 150))
    line = win_line(recorded.game, 0, recorded.order, recorded.new_turn_state())
    key = (int(recorded.order[0] != 0), (7, 0, 0), (6, 0, 0), 160 - 150)
    assert line.covered and line.chance == pytest.approx(table.value(key)[0])


def test_outside_the_table_it_says_why():
    s = GameSession(opponents=["stop"], seed=5)
    at_phases(s, (9, 60), (9, 75))  # at phase 9 a game from phase 1 has at least 173 points
    line = win_line(s.game, 0, s.order, s.new_turn_state())
    assert not line.covered and "cannot happen" in line.message and "173" in line.message
    # dice of other colors: the tables without a color phase ahead, from phase 9
    other = GameSession(opponents=["stop"], seed=5, layout=other_colors())
    line = win_line(other.game, 0, other.order, other.new_turn_state())
    assert not line.covered and "phase 9" in line.message and "phase 1" in line.message
    three = GameSession(opponents=["stop", "stop"], seed=5)
    line = win_line(three.game, 0, three.order, three.new_turn_state())
    assert not line.covered and "two players" in line.message
    short = GameSession(opponents=["stop"], phases=3, seed=5)
    line = win_line(short.game, 0, short.order, short.new_turn_state())
    assert not line.covered and "10 phases" in line.message


def test_typed_faces_are_fitted_to_the_dice(table):
    """A typed roll of a number phase (faces in any order): the hold to win of the same
    faces given die by die."""
    s = GameSession(opponents=["stop"], seed=5)
    at_phases(s, (9, 260), (9, 275))
    st = s.new_turn_state()
    second = s.order[0] != 0
    st.enter("W 1 10 9 9 9 W 5 6 2")
    line = win_line(s.game, 0, s.order, st)
    by_die = "10 9 9 9 5 6 W 1 W 2"  # the same faces, six high dice then four low
    adv = win_advice(table, (9, 260), (9, 275), by_die, 2, second=second, by_die=True)
    assert line.covered and line.question is None
    assert (line.best_keep, line.best_chance) == (adv["best"]["keep"], adv["best"]["chance_to_win"])


def test_typed_faces_of_a_color_phase_ask_which_die_decides():
    """A typed roll of phase 8 whose 6o may lie on two kinds of dice that change the hold
    to win: the panel asks which die (as the turn's advice does); placed, it names the hold
    of that way."""
    table = phase8_duel()
    s = GameSession(opponents=["stop"], phases=8, layout=REDUCED, seed=5)
    at_phases(s, (8, 0), (8, 0))
    st = s.new_turn_state()
    second = s.order[0] != 0
    st.enter(DECIDED_BY_6O)
    line = win_line(s.game, 0, s.order, st, table)
    assert line.covered and line.best_keep is None
    assert line.question == advise(DECIDED_BY_6O, 2, 8, layout=REDUCED).question
    assert "tap the face, then its die" in win_text(line, "make the phase")
    st.place(st.dice.index(parse_faces("6o")[0]), 5)  # the 6o lies on die 6
    line = win_line(s.game, 0, s.order, st, table)
    want = win_advice(table, (8, 0), (8, 0), DECIDED_BY_6O, 2, second=second, dice_of={4: 5})
    assert line.question is None and line.best_keep == want["best"]["keep"]


def test_the_game_widget_offers_win_the_game():
    gw = GameWidget(opponents=["complete"], seed=5, style=False)
    values = [v for _, v in gw.turn.objective_select.options]
    assert WIN_AIM in values
    gw.turn.objective_select.value = WIN_AIM
    assert gw.turn.aim_message.value == ""  # the recorded dice' whole game: from phase 1
    assert "Chance to win the game" in gw.turn.advice.value
    at_phases(gw.session, (9, 20), (9, 20))  # totals no game from phase 1 has
    gw.turn.state = gw.session.new_turn_state()
    gw.turn.refresh()
    assert "cannot happen" in gw.turn.aim_message.value  # said beside the menu
    assert "Chance to win" not in gw.turn.advice.value
    at_phases(gw.session, (9, 220), (9, 220))
    gw.turn.state = gw.session.new_turn_state()
    gw.turn.refresh()
    assert gw.turn.aim_message.value == ""
    assert "Chance to win the game" in gw.turn.advice.value
    gw.turn.objective_select.value = "score"  # back to a per-turn aim: the line goes
    assert "Chance to win" not in gw.turn.advice.value and str(gw.turn.state.objective) == "score"


def test_in_a_game_against_one_computer_player_the_aim_is_win_the_game():
    """The default aim of a 10-phase game against one computer player is "Win the game" (on
    both dice sets a table covers the start: the chance to win shows at once); other games
    keep the turn's own aim; an aim the player chose stays for the next games."""
    for layout in (COMPACT_LAYOUT, DEFAULT_LAYOUT):
        gw = GameWidget(opponents=["complete"], layout=layout, seed=5, style=False)
        assert gw.turn.objective_select.value == WIN_AIM and gw.turn.aim_win
        assert "Chance to win the game" in gw.turn.advice.value
        assert gw.turn.aim_message.value == ""
    # dice of other colors: no table solved their phase 8, so the tables start at phase 9;
    # until then a note, not a refusal
    other = GameWidget(opponents=["complete"], layout=other_colors(), seed=5, style=False)
    assert other.turn.objective_select.value == WIN_AIM
    assert "p10-note" in other.turn.aim_message.value
    assert "phase 9" in other.turn.aim_message.value
    assert "p10-refusal" not in other.turn.aim_message.value
    # three players, a person opposite, or a game shorter than the solved ones (10 phases):
    # the turn's own aim
    for opponents, phases in ((["complete", "greedy"], 10), (["person"], 10), (["complete"], 3)):
        other = GameWidget(
            opponents=opponents, phases=phases, layout=COMPACT_LAYOUT, seed=5, style=False
        )
        assert other.turn.objective_select.value == "complete" and not other.turn.aim_win
        assert "Chance to win" not in other.turn.advice.value
    # a game against one computer after a game of three: Win the game again
    gw3 = GameWidget(opponents=["complete", "greedy"], layout=COMPACT_LAYOUT, seed=5, style=False)
    gw3.remove_opponent()
    gw3.new_game()
    assert gw3.turn.objective_select.value == WIN_AIM
    gw3.add_opponent("greedy")
    gw3.new_game()
    assert gw3.turn.objective_select.value == "complete" and not gw3.turn.aim_win
    # the player's own choice stays
    gw.turn.objective_select.value = "score"
    gw.new_game()
    assert gw.turn.objective_select.value == "score" and not gw.turn.aim_win
    assert str(gw.turn.state.objective) == "score"


def test_the_hold_to_win_names_its_dice_and_the_players_hold_its_chance():
    """Rolled dice (die by die): the dice of the hold to win show its faces, and the chance
    of the player's own hold is the chance of that hold in the ranking (the hold to win's
    and the turn's aim's)."""
    s = GameSession(opponents=["stop"], seed=11)
    at_phases(s, (9, 260), (10, 275))
    for seed in range(4):
        st = s.new_turn_state()
        st.rng.seed(seed)
        st.roll()
        line = win_line(s.game, 0, s.order, st)
        assert line.covered and line.mine_chance is None  # nothing held yet
        shown = sorted(st.dice[i].value for i in line.best_dice)  # a number phase: values
        assert shown == sorted(f.value for f in parse_faces(line.best_keep))
        st.hold_dice(line.best_dice)
        assert win_line(s.game, 0, s.order, st).mine_chance == line.best_chance
        st.hold(line.aim_keep)
        assert win_line(s.game, 0, s.order, st).mine_chance == line.aim_chance


def test_win_the_game_marks_and_holds_the_hold_to_win():
    """In a game against one computer player on the compact dice: the stars mark the hold to
    win, Hold best holds it, the turn's own aim is shown beside it ("To make the phase:",
    the player's hold measured against it without a mistake label)."""
    gw = GameWidget(opponents=["complete"], layout=COMPACT_LAYOUT, seed=5, style=False)
    t = gw.turn
    t.roll_button.click()
    line = win_line(gw.session.game, 0, gw.session.order, t.state)
    stars = {i for i, b in enumerate(t.dice_buttons) if "p10-suggest" in b._dom_classes}
    assert stars == set(line.best_dice) and line.best_keep != line.aim_keep
    assert "To make the phase:" in t.advice.value and "<b>Best:</b>" not in t.advice.value
    assert "<summary>Why, to make the phase</summary>" in t.advice.value
    t.best_button.click()
    assert t.state.held == set(line.best_dice)
    assert "<b>Yours:</b> the hold to win." in t.advice.value
    assert "mistake" not in t.advice.value.split("p10-mine-line")[1][:200]
    # the turn's own aim again: its best hold, "Best:"
    t.objective_select.value = "complete"
    stars = {i for i, b in enumerate(t.dice_buttons) if "p10-suggest" in b._dom_classes}
    assert stars != set(line.best_dice) and "<b>Best:</b>" in t.advice.value
    assert "<summary>Why</summary>" in t.advice.value


def test_stopping_now_is_the_chance_after_the_turn(table):
    """The chance to win of stopping with the dice as they lie, read again from the table at
    the state the turn leaves (the opponent to move: one minus their chance, a tie counted
    half on both sides), the score counted by hand from the phase's groups."""
    from phase10math.dice.meld import explain

    s = GameSession(opponents=["stop"], seed=3)
    at_phases(s, (9, 260), (10, 275))
    seen = set()
    for seed in range(12):
        st = s.new_turn_state()
        second = s.order[0] != 0
        st.rng.seed(seed)
        st.roll()
        adv = win_advice(table, (9, 260), (10, 275), st.faces, 2, second=second, by_die=True)
        m = explain(9, st.faces)
        after = (10, 260 + m.score) if m.complete else (9, 260)
        assert (adv["stop"]["made"], adv["stop"]["score"]) == (m.complete, m.score * m.complete)
        theirs = table.value(table.game.key_of(int(not second), (10, 275), after))[0]
        assert adv["stop"]["chance_to_win"] == pytest.approx(1 - theirs, abs=1e-12)
        assert adv["stop"]["chance_to_win"] <= adv["best"]["chance_to_win"] + 1e-12
        assert win_line(s.game, 0, s.order, st).stop_chance == adv["stop"]["chance_to_win"]
        seen.add(m.complete)
    assert seen == {True, False}  # both a made and a failed stop were read


def test_choices_in_a_game_played_to_win_are_judged_by_the_chance_to_win():
    """With the aim "Win the game" a hold rolled on and a stop are judged against the hold to
    win, in percentage points of the chance to win (labels at 1 and 5 points, as for the
    chance to make the phase); the game's summary says so."""
    from dataclasses import replace
    from fractions import Fraction

    from phase10math.play import saved
    from phase10math.play.game_widget import game_summary_html
    from phase10math.play.models import judge
    from phase10math.play.widgets import lost_words

    def label(cost: float) -> str:
        return (
            "best"
            if cost <= 1e-12
            else "fine"
            if cost < 0.01
            else "mistake"
            if cost < 0.05
            else "blunder"
        )

    gw = GameWidget(opponents=["complete"], layout=COMPACT_LAYOUT, seed=5, style=False)
    t = gw.turn
    t.roll_button.click()
    line = win_line(gw.session.game, 0, gw.session.order, t.state)
    assert line.best_chance - line.aim_chance > 1e-12  # the turn's aim keeps something else
    t.state.hold(line.aim_keep)
    t.refresh()
    t.roll_button.click()
    c = t.choices[-1]
    assert c.objective == WIN_AIM and c.roll == 1
    assert float(c.cost) == pytest.approx(line.best_chance - line.aim_chance, abs=1e-15)
    assert c.label == label(line.best_chance - line.aim_chance)
    # stopping now, with a roll left: against the hold to win
    line = win_line(gw.session.game, 0, gw.session.order, t.state)
    t.stop_button.click()
    if t.pending is not None:  # stopping fails the phase: asked first
        t.confirm_yes.click()
    c = t.choices[-1]
    assert c.objective == WIN_AIM and c.roll == 2
    assert float(c.cost) == pytest.approx(max(0.0, line.best_chance - line.stop_chance), abs=1e-15)
    assert c.label == label(line.best_chance - line.stop_chance)
    assert saved.choices_from_list(saved.choices_to_list(t.choices)) == t.choices  # a reload
    words = lost_words(t.choices)
    assert "of chance to win" in words and words.count("and") == 0
    page = game_summary_html([replace(c, who="you", turn=1) for c in t.choices], ["you"])
    assert "percentage points of the chance to win" in page
    # a choice judged by the turn's own aim beside: each unit in its own words
    mixed = [t.choices[-1], judge(1, Fraction(3, 100), "complete", 1)]
    assert lost_words(mixed).endswith(" of chance to win and 3.0 percentage points of chance")


def test_typed_faces_in_a_game_played_to_win_are_judged_by_the_chance_to_win():
    """Typed faces on the compact dice (each face lies on dice of one type): the player's
    typed hold has its chance in the ranking, and holds and a stop are judged by the chance
    to win, as for rolled dice."""
    from phase10math.play import models as pm

    rolled = GameWidget(opponents=["complete"], layout=COMPACT_LAYOUT, seed=5, style=False)
    rolled.turn.roll_button.click()
    faces = " ".join(str(f) for f in rolled.turn.state.dice)
    gw = GameWidget(opponents=["complete"], layout=COMPACT_LAYOUT, seed=5, style=False)
    t, s = gw.turn, gw.session
    t.entry.value = faces  # the same roll, typed: the same ranking
    t.enter_button.click()
    assert t.state.typed
    line = win_line(s.game, 0, s.order, t.state)
    want = win_line(rolled.session.game, 0, rolled.session.order, rolled.turn.state)
    assert (line.best_keep, line.best_chance, line.reroll_chance, line.stop_chance) == (
        want.best_keep,
        want.best_chance,
        want.reroll_chance,
        want.stop_chance,
    )
    assert line.best_chance - line.aim_chance > 1e-12
    t.state.hold(line.aim_keep)
    t.refresh()
    assert win_line(s.game, 0, s.order, t.state).mine_chance == line.aim_chance
    t.entry.value = pm.example_faces(t.state)  # the dice rolled again, typed
    t.enter_button.click()
    c = t.choices[-1]
    assert c.objective == WIN_AIM and c.roll == 1
    assert float(c.cost) == pytest.approx(line.best_chance - line.aim_chance, abs=1e-15)
    line = win_line(s.game, 0, s.order, t.state)
    t.stop_button.click()
    if t.pending is not None:
        t.confirm_yes.click()
    c = t.choices[-1]
    assert c.objective == WIN_AIM and c.roll == 2
    assert float(c.cost) == pytest.approx(max(0.0, line.best_chance - line.stop_chance), abs=1e-15)


def test_typed_faces_whose_dice_change_the_ranking_are_not_judged_by_it():
    """A typed roll of phase 8 on the reduced dice whose 5r and 6o may each lie on die 6:
    two ways that the solver tells apart with the same hold to win (no question) but their
    own chances; the player's hold, holding nothing and stopping are not judged by the
    ranking of one of them (the turn's aim judges instead)."""
    from phase10math.play.win import win_cost
    from phase10math.turn.advisor import roll_fits

    table = phase8_duel()
    roll = "9o 5r 8g 7b 9o 6o Wr 4r 2r 3r"
    space = table.game.turns[8].space
    assert len(roll_fits(space, parse_faces(roll), REDUCED)) == 2
    s = GameSession(opponents=["stop"], phases=8, layout=REDUCED, seed=5)
    at_phases(s, (8, 0), (8, 0))
    st = s.new_turn_state()
    st.enter(roll)
    line = win_line(s.game, 0, s.order, st, table)
    assert line.covered and line.question is None and line.best_keep is not None
    assert (line.reroll_chance, line.stop_chance) == (None, None)
    st.hold(line.best_keep)
    line = win_line(s.game, 0, s.order, st, table)
    assert line.mine_chance is None
    assert [
        win_cost(line, held, stop) for held, stop in ((True, False), (False, False), (True, True))
    ] == [None] * 3
    # placed on its die, the 6o leaves one way: judged again
    st.place(st.dice.index(parse_faces("6o")[0]), 5)
    line = win_line(s.game, 0, s.order, st, table)
    assert None not in (line.mine_chance, line.reroll_chance, line.stop_chance)


def test_a_coarse_state_shows_its_margin_and_does_not_judge_by_the_chance():
    """A table is certified tightly where play from its start goes. At a state it left wide
    (the reduced phase-8 game, one player 20 points ahead) the panel gives the chance with
    its proven margin, and the choices are judged by the turn's aim; at the start (tight)
    neither."""
    from phase10math.play.win import COARSE, win_cost

    table = phase8_duel()
    for behind, coarse in ((20, True), (0, False)):
        s = GameSession(opponents=["stop"], phases=8, layout=REDUCED, seed=5)
        at_phases(s, (8, 0), (8, behind))
        st = s.new_turn_state()
        second = s.order[0] != 0
        key = (int(second), (8, 0, 0), (8, 0, 0), -behind)  # the reduced state, by hand
        line = win_line(s.game, 0, s.order, st, table)
        assert line.error == table.error(key)
        assert (line.error > COARSE) == coarse
        text = win_text(line, "make the phase")
        assert (f"\u00b1 {100 * table.error(key):.1f} percentage points" in text) == coarse
        st.rng.seed(3)
        st.roll()
        line = win_line(s.game, 0, s.order, st, table)
        adv = win_advice(table, (8, 0), (8, behind), st.faces, 2, second=second, by_die=True)
        assert line.bound == adv["bound"] >= max(o["error"] for o in adv["options"])
        assert (line.bound > COARSE) == coarse
        judged = [win_cost(line, held, stop) for held, stop in ((False, False), (False, True))]
        assert (judged == [None, None]) == coarse
        assert (
            "your choices are judged by the hold to make the phase"
            in win_text(line, "make the phase")
        ) == coarse
