"""The ``win`` strategy in the game engine, against the shipped two-player table (phases
9-10): seeded whole games of win against complete from the table's start, one turn at a
state where playing to win and playing to complete differ most, the strategy's hold against
``win_advice`` at sampled states, and its refusals and announced fallback.

The game engine rolls the recorded dice and runs the turn order, bonuses and last chances
itself; the solved values are read from the table.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re

import numpy as np
import pytest
from clirun import one_line_error, run

from phase10math.dice.layouts import COMPACT_LAYOUT, DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidRulesError, OutsideTableError, Phase10MathError
from phase10math.game.duel import (
    DuelGame,
    DuelStrategy,
    Play,
    WinStrategy,
    shipped_table,
    win_advice,
)
from phase10math.game.engine import Game, RandomDice, TurnView
from phase10math.game.headtohead import head_to_head
from phase10math.game.strategies import STRATEGY_NAMES, StopStrategy, get_strategy

Z99 = 2.576  # the two-sided 99% normal quantile


@pytest.fixture(scope="module")
def table():
    return shipped_table()


@pytest.fixture(scope="module")
def win():
    return get_strategy("win")


@pytest.fixture(scope="module")
def complete():
    return get_strategy("complete")


def result_of(res, seat: int) -> float:
    w = res.winners
    return 1.0 if w == [seat] else (0.5 if seat in w else 0.0)


def test_win_is_a_strategy_name():
    assert "win" in STRATEGY_NAMES
    assert isinstance(get_strategy(" Win "), WinStrategy)


# ------------------------------------------------------------------ whole games


def test_win_against_complete_from_phase_nine_agrees_with_the_table(table, win, complete):
    """160 seeded games from the table's start (both players at phase 9 with 0 points): the
    win strategy's mean result lies within the 99% interval of the solved chance to win,
    which depends on who starts (the roll-off decides)."""
    g = table.game
    start = g.start()
    o, c = Play.OPTIMAL, Play.COMPLETE
    worth = {0: table.value(start, (o, c))[0], 1: 1 - table.value(start, (c, o))[0]}
    got, want = [], []
    for i in range(160):
        seats = (win, complete) if i % 2 == 0 else (complete, win)
        mine = i % 2
        res = Game(list(seats), start_phase=9, seed=9000 + i).play()
        got.append(result_of(res, mine))
        want.append(worth[0] if res.order[0] == mine else worth[1])
    got, want = np.array(got), np.array(want)
    se = got.std(ddof=1) / math.sqrt(len(got))
    assert abs(got.mean() - want.mean()) < Z99 * se
    assert win.fell_back == 0  # every decision of these games came from the table
    assert want.mean() > 0.5  # and the table says playing to win beats playing to complete


def _mover_game(strategy, opponent_total: int, seed: int) -> tuple[Game, int]:
    """A game at phase 10 for both players whose first player in turn order is behind by
    ``opponent_total`` points; returns it and the first player's seat."""
    game = Game([strategy, strategy], start_phase=10, seed=seed)
    first = game.roll_off()[0]
    game.players[1 - first].scores[9] = opponent_total
    return game, first


def test_one_turn_played_to_win_realises_the_tables_value(table, win, complete):
    """Both at phase 10, the mover first in turn order and 86 points behind: completing
    with few points ends a lost game, so the winning turn plays for many points or fails on
    purpose. The mean table value after the win strategy's turn (300 turns on physical
    dice) is the state's value within its 99% interval; after the completion-optimal
    turn it is lower by more than four standard errors."""
    g = table.game
    key = (0, g.player(10, 0), g.player(10, 0), -86)
    value = table.value(key)[0]
    after = table.utility(key)[0]  # the mover's chance to win after each outcome
    scores = [int(x) for x in g.turns[10].scores]

    def turns(strategy, seed):
        out = []
        for i in range(300):
            game, first = _mover_game(strategy, 86, seed + i)
            made = game.play_turn(first)
            p = game.players[first]
            out.append(after[1 + scores.index(p.scores[10])] if made else after[0])
        return np.array(out)

    w = turns(win, 500)
    assert abs(w.mean() - value) < Z99 * w.std(ddof=1) / math.sqrt(len(w))
    c = turns(complete, 500)
    assert value - c.mean() > 4 * c.std(ddof=1) / math.sqrt(len(c))


# ------------------------------------------------------------------ the hold against win_advice


def _faces_text(faces) -> str:
    vals = sorted((f.value for f in faces), reverse=True)
    return " ".join("W" if v == 0 else str(v) for v in vals) or "(nothing: reroll all)"


def _view_at(
    win,
    me,
    opp,
    first: bool,
    last_chance: bool,
    faces,
    rolls_left: int,
    layout=DEFAULT_LAYOUT,
    start: int = 9,
):
    """A two-player game begun at phase ``start``, set to the state, and the mover's view of
    ``faces``."""
    game = Game([win, get_strategy("stop")], start_phase=start, seed=1, layout=layout)
    starter = game.roll_off()[0]
    mover = game.players[starter if first else 1 - starter]
    other = game.players[1 - mover.seat]
    for p, (k, total) in ((mover, me), (other, opp)):
        p.phase = k
        p.scores[k - 1] = total
    if last_chance:
        other.finished = True
    view = TurnView(
        phase=PHASES[me[0]],
        number=me[0],
        faces=tuple(faces),
        rolls_left=rolls_left,
        held=frozenset(),
        rules=game.rules,
        layout=game.layout,
        player=mover,
        solitaire=False,
        last_chance=last_chance,
    )
    return game, view


def test_the_strategys_hold_is_win_advices_best(table):
    """At seeded random states (normal play and last chances) and random rolls of the
    recorded dice, the win strategy keeps the hold that win_advice ranks first (or one of the
    same chance to win); among them are rolls where the completion-optimal hold is worse."""
    win = get_strategy("win")
    rng = np.random.default_rng(7)
    dice = RandomDice(DEFAULT_LAYOUT, seed=3)
    differs = 0
    for i in range(10):
        last = i >= 7
        k_me = int(rng.integers(9, 11))
        k_opp = 10 if last else int(rng.integers(9, 11))
        me = (k_me, int(rng.integers(0, 60)))
        ahead = me[1] + int(rng.integers(-20, 70))  # a finished opponent is usually ahead
        opp = (k_opp, max(0, ahead) if last else int(rng.integers(0, 60)))
        first = bool(rng.integers(0, 2))
        rolls_left = int(rng.integers(1, 3))
        faces = dice.roll(range(10))
        game, view = _view_at(win, me, opp, first, last, faces, rolls_left)
        keep = win.hold(view)
        adv = win_advice(
            table, me, opp, faces, rolls_left, second=not first, last_chance=last,
            layout=DEFAULT_LAYOUT,
        )  # fmt: skip
        mine = _faces_text([faces[j] for j in keep])
        chance = {o["keep"]: o["chance_to_win"] for o in adv["options"]}
        assert mine == adv["best"]["keep"] or chance[mine] >= adv["best"]["chance_to_win"] - 1e-12
        if adv["per_turn"]["complete"]["chance_to_win"] < adv["best"]["chance_to_win"] - 1e-9:
            differs += 1
    assert win.fell_back == 0 and win.from_table == 10
    assert differs >= 2


def test_on_the_compact_dice_win_plays_the_whole_game():
    """By name, ``win`` reads the widest shipped table for the game's dice: on the compact
    dice (on whose colors phase 8 was solved) the table of phases 1-10, whose holds it plays
    from phase 1 (win_advice's best there); on the recorded dice the 1-10 table solved on
    their colors."""
    rec = get_strategy("win").solution
    assert rec.game.describe() == "phases 1-10" and rec is shipped_table((1, 10), DEFAULT_LAYOUT)
    win = get_strategy("win", layout=COMPACT_LAYOUT)
    wide = win.solution
    assert wide is shipped_table((1, 10))
    rng = np.random.default_rng(11)
    dice = RandomDice(COMPACT_LAYOUT, seed=4)
    for _ in range(4):
        me, opp = [int(rng.integers(2, 8)) for _ in range(2)]
        # totals a game from phase 1 reaches (the table holds only those)
        me, opp = ((k, int(rng.integers(*wide.game.totals_at(k)))) for k in (me, opp))
        faces = dice.roll(range(10))
        game, view = _view_at(win, me, opp, True, False, faces, 2, COMPACT_LAYOUT, start=1)
        assert win.solution is wide
        mine = _faces_text([faces[j] for j in win.hold(view)])
        adv = win_advice(wide, me, opp, faces, 2, layout=COMPACT_LAYOUT)
        chance = {o["keep"]: o["chance_to_win"] for o in adv["options"]}
        assert chance[mine] >= adv["best"]["chance_to_win"] - 1e-12
    assert win.fell_back == 0 and win.from_table == 4
    # a total no game from phase 1 has (at least 132 points at phase 7): the fallback plays
    faces = dice.roll(range(10))
    _, view = _view_at(win, (7, 40), (7, 150), True, False, faces, 2, COMPACT_LAYOUT, start=1)
    win.hold(view)
    assert win.fell_back == 1 and "cannot happen" in win.note()


def test_a_game_begun_later_plays_from_the_table_that_serves_it():
    """The 1-10 table holds only the totals of games from phase 1: a game begun at phase 6
    (0 points each) is played from the table of phases 6-10, chosen when it attaches."""
    win = get_strategy("win", layout=COMPACT_LAYOUT)
    Game([win, StopStrategy()], start_phase=6, seed=1, layout=COMPACT_LAYOUT)
    assert win.solution is shipped_table((6, 10))
    faces = RandomDice(COMPACT_LAYOUT, seed=3).roll(range(10))
    _, view = _view_at(win, (6, 0), (6, 0), True, False, faces, 2, COMPACT_LAYOUT, start=6)
    win.hold(view)
    assert win.fell_back == 0 and win.from_table == 1
    Game([win, StopStrategy()], seed=1, layout=COMPACT_LAYOUT)  # from phase 1 again
    assert win.solution is shipped_table((1, 10))
    # the recorded dice: the whole game solved on their colors (1-10) from phase 1, their
    # end game (8-10, any totals) for a game begun at phases 2-8, the table of 9-10 (fewer
    # phases) for one begun there
    rec = get_strategy("win")
    Game([rec, StopStrategy()], seed=1)
    assert rec.solution is shipped_table((1, 10), DEFAULT_LAYOUT)
    Game([rec, StopStrategy()], start_phase=6, seed=1)
    assert rec.solution is shipped_table((8, 10), DEFAULT_LAYOUT)
    Game([rec, StopStrategy()], start_phase=9, seed=1)
    assert rec.solution is shipped_table((9, 10))


# ------------------------------------------------------------------ refusals, the fallback


def test_other_rules_or_player_counts_are_refused(win):
    with pytest.raises(InvalidRulesError, match="other rules"):
        get_strategy("win", rules=Rules(first_finish_bonus=30))
    with pytest.raises(InvalidRulesError, match="two-player"):
        Game([win, StopStrategy(), StopStrategy()])
    with pytest.raises(InvalidRulesError, match="start_phase"):
        Game([win, StopStrategy()], start_phase=11)


def test_outside_the_table_the_fallback_plays_and_is_announced(table):
    """At phase 7 the table has nothing: the strategy keeps what the completion-optimal turn
    keeps and its note says so; without a fallback it refuses."""
    win = get_strategy("win")
    complete = get_strategy("complete")
    faces = RandomDice(DEFAULT_LAYOUT, seed=11).roll(range(10))
    _, view = _view_at(win, (9, 0), (9, 0), True, False, faces, 2)
    view = dataclasses.replace(view, number=7, phase=PHASES[7])
    view.player.phase = 7
    assert win.hold(view) == complete.hold(view)
    assert win.fell_back == 1 and win.from_table == 0
    assert "phase 7" in win.note() and "complete-optimal" in win.note()
    strict = WinStrategy(table, fallback=None)
    strict.attach(win.game_ref)
    with pytest.raises(OutsideTableError, match="phase 7"):
        strict.hold(view)
    assert strict.note() is None


# ------------------------------------------------------------------ the command line


def test_game_and_headtohead_commands_play_win():
    code, out, err = run(
        ["game", "--strategies", "win,complete", "--start-phase", "9", "--seed", "4", "--json"]
    )
    assert code == 0, err
    d = json.loads(out)
    assert d["notes"] == [] and d["players"][0]["name"].startswith("win")
    code, out, err = run(
        ["headtohead", "--strategies", "win,complete", "--start-phase", "9", "--games", "6"]
    )
    assert code == 0 and "win" in out and "note:" not in out, err
    res = head_to_head(["win", "complete"], 2, seed=3, phases=20, start_phase=19,
                       show_progress=False)  # fmt: skip
    assert len(res.notes) == 1 and "ends with phase 20" in res.notes[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["game", "--players", "3", "--strategies", "win", "--start-phase", "9"],
        ["game", "--strategies", "win,complete", "--start-phase", "11"],
        ["game", "--strategies", "win,complete", "--start-phase", "0"],
    ],
)
def test_game_command_refuses_what_win_cannot_play(argv):
    code, _, err = run(argv)
    one_line_error(err, code)


def test_states_outside_the_table_are_refused_before_any_work(table):
    """The duel game's states and the strategy's batches name what they refuse: a phase
    outside the table (9-10), a negative total, a seat other than 0 and 1, a key that is not
    a state of the table; a refused batch solves nothing; a state already decided is
    accepted and needs no solve."""
    g = table.game
    for call, words in [
        (lambda: g.player(8, 0), "k=8"),
        (lambda: g.player(9, -1), "total=-1"),
        (lambda: g.start((0, -5)), "totals=-5"),
        (lambda: g.key_of(2, (9, 0), (9, 0)), "seat=2"),
        (lambda: g.key_of(0, (9, 0), (11, 0)), "opp phase=11"),
        (lambda: g.key_of(0, (9, 0), (9, 0, 0)), "opp="),
        (lambda: DuelGame.standard("9"), "lo="),
    ]:
        with pytest.raises(Phase10MathError, match=re.escape(words)):
            call()
    strategy = WinStrategy(table)
    good = g.key_of(0, (9, 0), (9, 0))
    for keys, last in [
        ([(0, (3, 0, 0), (9, 0, 0), 0)], []),
        ([good] * 40 + [(0, (9, 0, 0), (9, 0, 0), "x")], []),
        ([good], [((9, 0, 0), -3, 0)] * 40 + [((9, 0, 0), -3)]),
    ]:
        with pytest.raises(Phase10MathError, match="prepare"):
            strategy.prepare(keys, last)
        assert strategy._holds == {}  # refused: nothing solved
    strategy.prepare([(0, (9, 0, 0), (9, 0, 0), 10**6)], [((9, 0, 0), 5, 1)])
    assert strategy._holds == {}  # decided states: nothing to solve
    strategy.prepare([good])
    assert list(strategy._holds) == [(False, good)]


def test_a_strategy_not_attached_refuses_to_play(table):
    faces = RandomDice(DEFAULT_LAYOUT, seed=11).roll(range(10))
    _, view = _view_at(get_strategy("win"), (9, 0), (9, 0), True, False, faces, 2)
    with pytest.raises(OutsideTableError, match="not attached"):
        WinStrategy(table).hold(view)
    with pytest.raises(InvalidRulesError, match="not attached"):
        DuelStrategy(table).hold(view)
