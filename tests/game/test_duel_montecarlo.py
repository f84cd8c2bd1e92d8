"""Seeded whole games on physical dice through the game engine against the solved values of
the shipped two-player table: optimal against optimal, optimal against a per-turn policy.

Both players start at phase 10 with 0 points (a state of the shipped table); the game
engine rolls the recorded dice, runs the turn order, bonuses and last chances itself, and
the strategies only choose holds.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from reduced_dice import other_colors

from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.errors import (
    InvalidPhaseError,
    InvalidRulesError,
    OutsideTableError,
    WrongTypeError,
)
from phase10math.game.duel import (
    SHIPPED_DICE,
    Play,
    first_covered,
    read_table,
    shipped_ranges,
    shipped_table,
    widest_table,
    win_advice,
)
from phase10math.game.duelgames import DuelSample, simulate_duel
from phase10math.game.spacemap import SpaceMap
from phase10math.turn.family import TurnFamily

GAMES = 800
PHASE = 10
LAYOUT = DEFAULT_LAYOUT  # the recorded dice: phases 9-10 have no colors


@pytest.fixture(scope="module")
def table():
    sol, _ = read_table()
    return sol


def test_optimal_against_optimal(table):
    s = simulate_duel(
        table, (Play.OPTIMAL, Play.OPTIMAL), games=GAMES, seed=11, phase=PHASE, layout=LAYOUT
    )
    assert s.games == GAMES and abs(s.z) < 4
    # the seat that began against its worth (seat 0's mean is about 1/2 whatever it is)
    assert abs(s.first_z) < 4
    start = (0, table.game.player(PHASE, 0), table.game.player(PHASE, 0), 0)
    assert s.first_expected == pytest.approx(table.value(start)[0], abs=1e-15)
    t = table.value(start)[1]
    assert abs(s.ties.mean() - t) < 4 * math.sqrt(t * (1 - t) / s.games) + 1e-9


def test_optimal_against_complete(table):
    s = simulate_duel(
        table, (Play.OPTIMAL, Play.COMPLETE), games=GAMES, seed=5000, phase=PHASE, layout=LAYOUT
    )
    assert abs(s.z) < 4 and abs(s.first_z) < 4


def test_first_seat_statistics_see_what_seat_0_cannot():
    """Seat 0 wins half of 400 games; it began in 200 of them: when it won exactly those, the
    seat that began won them all, which a worth of 1/2 cannot explain; when the wins are
    spread evenly over who began, it can."""
    first = np.tile([0, 1], 200)
    want = np.full(400, 0.5)
    s = DuelSample((Play.OPTIMAL,) * 2, 10, (first == 0) * 1.0, want, np.zeros(400), first)
    assert s.mean == 0.5 and s.z == 0
    assert s.first_mean == 1.0 and s.first_expected == 0.5
    assert math.isinf(s.first_z)  # every game to the first seat: no spread at all
    wins = np.tile([1.0, 1.0, 0.0, 0.0], 100)  # seat 0 wins games 0, 1, 4, 5, ...
    even = DuelSample((Play.OPTIMAL,) * 2, 10, wins, want, np.zeros(400), first)
    assert even.first_mean == 0.5 and even.first_z == 0
    # 260 of 400 to the first seat: 6 standard errors above a worth of 1/2
    got = np.where(np.arange(400) < 260, first == 0, first == 1) * 1.0
    skew = DuelSample((Play.OPTIMAL,) * 2, 10, got, want, np.zeros(400), first)
    assert skew.first_mean == 0.65
    se = math.sqrt(0.65 * 0.35 * 400 / 399 / 400)
    assert skew.first_z == pytest.approx(0.15 / se)


def test_simulated_games_refuse_a_phase_outside_the_table(table):
    with pytest.raises(InvalidPhaseError, match="phase=8"):
        simulate_duel(table, games=10, phase=8)


def test_simulated_games_refuse_dice_a_color_phase_was_not_solved_for():
    sol, _ = read_table(phases=(6, 10))
    with pytest.raises(OutsideTableError, match="dice"):
        simulate_duel(sol, games=10, phase=8, layout=DEFAULT_LAYOUT)


# ------------------------------------------------------------------ the shipped table, the command


def assert_turn_solve_agrees(table, key) -> None:
    """Bellman check at one state: its value equals the optimal turn's value for the utility
    the table's own successors give (batched float solve within its margin; a color phase's
    exact solve), within the state's error and the largest error after it."""
    uw, _ = table.utility(key)
    tb = table.game.turns[key[1][0]]
    res = (tb.exact if isinstance(tb, TurnFamily) else tb.solve)(uw[None, :])
    # the successors' errors move the turn's value by at most the largest of them
    slack = max(table.error(n) for _, n in table.after(key))
    slack += table.error((1 - key[0], key[2], key[1], -key[3]))  # the fail entry's
    assert abs(res.values[0] - table.value(key)[0]) <= table.error(key) + slack + res.margin[0]


def assert_tables_agree(table, other, keys, matchup=(Play.OPTIMAL, Play.OPTIMAL)) -> None:
    """Two tables of one game solved apart hold the same values of ``matchup`` at ``keys``
    (states both hold), within both tables' errors. A value's P(tie) is that of the table's
    own policy: where a color phase lies ahead, each table plays the best of its own family
    of exact turn policies there (near-optimal, not the same), so their ties agree within the
    tie bounds only where both players are past every color phase."""
    colors = [p for p, ph in table.game.phases.items() if ph.uses_color]
    for k in keys:
        (w, t), (w2, t2) = table.values[matchup][k], other.values[matchup][k]
        assert abs(w - w2) <= table.error(k) + other.error(k) + 1e-12
        if all(k[1][0] > c and k[2][0] > c for c in colors):
            assert abs(t - t2) <= table.tie_bound + other.tie_bound + 1e-12


@pytest.mark.parametrize("phases", shipped_ranges())
def test_shipped_table_matches_its_own_turn_solves(phases):
    """Bellman check at sampled states of every shipped table: each value equals the optimal
    turn's value for the utility that the table's own successors give (batched float solve
    within its margin; a color phase's exact solve)."""
    table, _ = read_table(phases=phases)
    g = table.game
    colors = [k for k, ph in g.phases.items() if ph.uses_color]
    # reading a table builds no color phase's turn (seconds, most of a gigabyte)...
    assert not set(colors) & set(dict.keys(g.turns))
    rng = np.random.default_rng(2)
    keys = list(table.values[(Play.OPTIMAL, Play.OPTIMAL)])
    plain = [k for k in keys if not table.game.phases[k[1][0]].uses_color]
    colored = [k for k in keys if table.game.phases[k[1][0]].uses_color]
    sample = [plain[int(i)] for i in rng.choice(len(plain), size=12, replace=False)]
    if colored:  # a color phase's exact solve takes seconds: one of them
        sample.append(colored[int(rng.integers(len(colored)))])
    for key in sample:
        assert_turn_solve_agrees(table, key)
    # ... whose best score, found without listing the rolls, is the built turn's
    for k in colors:
        assert g.max_score[k] == int(g.turns[k].scores.max())


def test_every_shipped_table_is_on_the_shipped_dice_and_the_widest_is_chosen():
    from phase10math.dice.layouts import COMPACT_LAYOUT

    for r in shipped_ranges():
        g = shipped_table(r).game
        assert g.dice.to_dict() == SHIPPED_DICE.to_dict()
        # serves_start's rule: a table from phase 1 holds the totals reached from there only
        assert g.reachable == (r[0] == 1) and (g.totals_at(g.hi)[1] < math.inf) == g.reachable
    assert {(1, 10), (6, 10), (9, 10)} <= set(shipped_ranges())
    # the compact dice are the shipped dice: the table that starts lowest
    assert widest_table(COMPACT_LAYOUT) is shipped_table((1, 10))
    assert widest_table() is shipped_table((1, 10))
    # ... but a game begun at phase 6 has totals the 1-10 table does not hold; at 9, 9-10
    assert widest_table(COMPACT_LAYOUT, start=6) is shipped_table((6, 10))
    assert widest_table(COMPACT_LAYOUT, start=9) is shipped_table((9, 10))
    for bad in (0, 21):  # a start that is no phase: refused in words
        with pytest.raises(InvalidRulesError, match="start"):
            widest_table(COMPACT_LAYOUT, start=bad)
    for bad in (2.5, True):
        with pytest.raises(WrongTypeError, match="start"):
            widest_table(COMPACT_LAYOUT, start=bad)
    # the recorded dice show other colors: 1-10 and 6-10 serve them from phase 9 only ...
    assert first_covered((6, 10), DEFAULT_LAYOUT) == first_covered((1, 10), DEFAULT_LAYOUT) == 9
    # ... and the tables solved on them (their phase 8 on their colors) from their first
    # phase: the whole game, and the end game, which holds any totals at phase 8
    assert shipped_ranges(DEFAULT_LAYOUT) == [(8, 10), (1, 10)]
    recorded = shipped_table((8, 10), DEFAULT_LAYOUT)
    whole = shipped_table((1, 10), DEFAULT_LAYOUT)
    for t in (recorded, whole):
        assert t.game.dice.to_dict() == DEFAULT_LAYOUT.to_dict() != SHIPPED_DICE.to_dict()
    assert not recorded.game.reachable  # any totals at phase 8: it serves games begun later
    assert whole.game.reachable  # the totals a game from phase 1 reaches
    assert widest_table(DEFAULT_LAYOUT) is whole
    assert widest_table(DEFAULT_LAYOUT, start=6) is recorded  # 0 points at 6: not in 1-10
    assert widest_table(DEFAULT_LAYOUT, start=8) is recorded
    assert widest_table(DEFAULT_LAYOUT, start=9) is shipped_table((9, 10))  # fewer phases
    assert widest_table(COMPACT_LAYOUT) is shipped_table((1, 10))  # never on other colors
    # the compact dice with two colors swapped on one die: other colors, the same numbers
    other = other_colors()
    assert other.to_dict() != COMPACT_LAYOUT.to_dict()
    assert first_covered((6, 10), other) == 9 and first_covered((9, 10), other) == 9


def test_the_table_solved_on_the_recorded_dice_serves_them_from_its_first_phase():
    """The recorded end game (phases 8-10, phase 8 solved on the recorded set's colors):
    the recorded dice read it from phase 8, the compact dice from after its color phase
    only; read without building phase 8's turn; its values at sampled states equal the
    optimal turn's value for the utility its own successors give (a mover at phase 9 or 10,
    most against a player at phase 8, whose values the successors are); and where both
    players are past phase 8 it is the game of the shipped 9-10 table (solved on its own),
    value for value within both tables' errors."""
    import phase10math.game.duel as duel
    from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT

    table = shipped_table((8, 10), RECORDED_LAYOUT)
    g = table.game
    assert 8 not in dict.keys(g.turns)  # reading it built no family of phase 8
    assert duel.shipped_dice(table) is RECORDED_LAYOUT
    assert duel.shipped_dice(shipped_table((6, 10))) is None  # a compact dice' table
    assert first_covered((8, 10), RECORDED_LAYOUT, RECORDED_LAYOUT) == 8
    assert first_covered((8, 10), COMPACT_LAYOUT, RECORDED_LAYOUT) == 9
    with pytest.raises(OutsideTableError, match="phases 6-10 solved on the recorded dice"):
        duel.read_table(phases=(6, 10), dice=RECORDED_LAYOUT)
    # Bellman check at sampled states (a turn of phase 9 or 10: a batched float solve)
    rng = np.random.default_rng(3)
    keys = [k for k in table.values[(Play.OPTIMAL, Play.OPTIMAL)] if k[1][0] > 8]
    facing = [k for k in keys if k[2][0] == 8]
    others = [k for k in keys if k[2][0] > 8]
    sample = [facing[int(i)] for i in rng.choice(len(facing), size=10, replace=False)]
    sample += [others[int(i)] for i in rng.choice(len(others), size=2, replace=False)]
    for key in sample:
        assert_turn_solve_agrees(table, key)
    assert 8 not in dict.keys(g.turns)
    # past phase 8: the end game's table, every matchup, every state both hold
    end = shipped_table((9, 10))
    for m, values in end.values.items():
        common = [k for k in values if k in table.values[m]]
        assert len(common) == len(values) > 1000
        assert_tables_agree(table, end, common, m)


def test_the_whole_game_solved_on_the_recorded_dice_agrees_with_its_turns_and_end_game():
    """The recorded dice' 10-phase game (phase 8 solved on their colors, from both at phase 1
    with 0 points): read without building phase 8's turn; its values at sampled states whose
    mover is not at phase 8 equal the optimal turn's value for the utility its own
    successors give; and where both players are at phase 8 or later it is the end game
    solved on its own (8-10, any totals), value for value within both tables' errors."""
    import phase10math.game.duel as duel
    from phase10math.dice.layouts import RECORDED_LAYOUT

    whole = shipped_table((1, 10), RECORDED_LAYOUT)
    g = whole.game
    assert g.reachable and (g.lo, g.hi) == (1, 10)
    assert duel.shipped_dice(whole) is RECORDED_LAYOUT
    assert first_covered((1, 10), RECORDED_LAYOUT, RECORDED_LAYOUT) == 1
    assert 8 not in dict.keys(g.turns)  # reading it built no family of phase 8
    rng = np.random.default_rng(5)
    keys = list(whole.values[(Play.OPTIMAL, Play.OPTIMAL)])
    plain = [k for k in keys if k[1][0] != 8]
    for i in rng.choice(len(plain), size=12, replace=False):
        assert_turn_solve_agrees(whole, plain[int(i)])
    assert 8 not in dict.keys(g.turns)
    # from phase 8 on: the end game's table, every state both hold
    end = shipped_table((8, 10), RECORDED_LAYOUT)
    late = [k for k in keys if k[1][0] >= 8 and k[2][0] >= 8]
    held = end.values[(Play.OPTIMAL, Play.OPTIMAL)]
    assert sum(k in held for k in late) == len(late) > 1000
    assert_tables_agree(whole, end, late)


def test_optimal_play_inside_the_recorded_whole_game_matches_its_table():
    """Optimal against optimal through the game engine on the recorded dice, from states of
    their 10-phase table (both at phase 9 with different totals, so who begins decides
    which state the table reads): seat 0's mean result and the first seat's within the
    games' confidence interval of the table's values; a total no game from phase 1 has
    there, and totals that are not two whole numbers, are refused."""
    from phase10math.dice.layouts import RECORDED_LAYOUT

    whole = shipped_table((1, 10), RECORDED_LAYOUT)
    g = whole.game
    s = simulate_duel(
        whole,
        (Play.OPTIMAL,) * 2,
        games=600,
        seed=7,
        phase=9,
        layout=RECORDED_LAYOUT,
        totals=(250, 235),
    )
    assert abs(s.z) < 4 and abs(s.first_z) < 4
    # who begins picks the state: seat 0 ahead by 15 when it begins, behind by 15 when not
    ahead = whole.value((0, g.player(9, 250), g.player(9, 235), 15))[0]
    behind = whole.value((0, g.player(9, 235), g.player(9, 250), -15))[0]
    assert ahead > behind
    assert set(np.round(s.want, 12)) == {round(ahead, 12), round(1 - behind, 12)}
    with pytest.raises(OutsideTableError, match="cannot happen"):
        simulate_duel(whole, games=10, phase=9, layout=RECORDED_LAYOUT, totals=(0, 240))
    with pytest.raises(WrongTypeError, match="totals"):
        simulate_duel(whole, games=10, phase=9, layout=RECORDED_LAYOUT, totals=(240,))


def test_duel_command_on_the_recorded_dice_reads_the_tables_that_serve_them(capsys):
    """``duel --layout recorded``: the headline is the recorded dice' whole game (1-10,
    solved on those dice), its interval at most 1e-4 wide; a state reads the table of fewest
    phases that holds it (9-10 past phase 8, a compact dice' table with no colors; 8-10 at
    phase 8; 1-10 before); a total no game from phase 1 reaches is refused in one line."""
    from phase10math.cli import main

    assert main(["duel", "--layout", "recorded", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["headline"]["game"] == "phases 1-10" and "--layout recorded" in d["command"]
    h = d["headline"]
    assert 0 < h["p_first_wins"] < 1 and 0 < 2 * h["bound"] <= 1e-4  # the certified headline
    table = shipped_table((1, 10), DEFAULT_LAYOUT)
    w, t = table.value(table.game.start())
    assert h["p_first_wins"] == pytest.approx(w - t / 2, abs=1e-12)
    assert main(["duel", "--layout", "recorded", "--me", "8:100", "--opponent", "9:90"]) == 0
    assert "the table of phases 8-10" in capsys.readouterr().out
    assert main(["duel", "--layout", "recorded", "--me", "9:100", "--opponent", "10:90"]) == 0
    assert "the table of phases 9-10" in capsys.readouterr().out
    assert main(["duel", "--layout", "recorded", "--me", "3:60", "--opponent", "7:140"]) == 0
    assert "the table of phases 1-10" in capsys.readouterr().out
    # 0 points at phase 7: no game from phase 1 gets there, and no other table holds phase 3
    assert main(["duel", "--layout", "recorded", "--me", "3:60", "--opponent", "7:0"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "0 points at phase 7 cannot happen" in err
    assert main(["duel", "--layout", "compact", "--me", "3:60", "--opponent", "2:40"]) == 0
    assert "the table of phases 1-10" in capsys.readouterr().out


def test_duel_command_prints_the_headline(capsys):
    """Plain ``duel`` reads the recorded dice' table of the whole game, as every command
    defaults to the recorded dice, and says so: the dice and where the game starts."""
    from phase10math.cli import main

    assert main(["duel"]) == 0  # the table of most phases: the whole game
    out = capsys.readouterr().out
    assert "P(first player wins)" in out and "recompute:" in out
    assert max(shipped_ranges(DEFAULT_LAYOUT), key=lambda r: r[1] - r[0]) == (1, 10)
    assert "--phases 1-10" in out and "--layout recorded" in out
    first = out.splitlines()[0]
    assert "on the recorded dice" in first and "both players at phase 1 with 0 points" in first
    assert main(["duel", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["game"]["lo"], d["game"]["hi"]) == (1, 10)
    whole = shipped_table((1, 10), DEFAULT_LAYOUT)
    w, t = whole.value(whole.game.start())
    assert d["headline"]["p_first_wins"] == pytest.approx(w - t / 2, abs=1e-12)
    assert main(["duel", "--phases", "9-10"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "on the recorded dice" in first and "both players at phase 9 with 0 points" in first
    # the compact dice' 6-10 table solved phase 8 on their colors: it is not the recorded
    # dice' table, and is not read for them
    assert main(["duel", "--phases", "6-10"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no shipped table of phases 6-10" in err
    assert main(["duel", "--layout", "compact"]) == 0
    assert "on the compact dice" in capsys.readouterr().out.splitlines()[0]
    whole = shipped_table((1, 10))
    # the certified headline: its interval (the worth plus or minus the bound) at most
    # 1e-4 wide
    assert 0 < 2 * d["headline"]["bound"] <= 1e-4
    assert main(["duel", "--me", "10:100", "--opponent", "10:130", "--json"]) == 0
    d = __import__("json").loads(capsys.readouterr().out)
    assert 0 <= d["p_win"] <= d["chance_to_win"] <= 1
    # a state before phase 9: the shipped table of phases 6-10 holds it
    compact = ["duel", "--layout", "compact"]
    assert main([*compact, "--me", "7:100", "--opponent", "8:90", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    wide = shipped_table((6, 10))
    w, t = wide.value(wide.game.key_of(0, (7, 100), (8, 90)))
    assert d["table"] == "phases 6-10" and (d["chance_to_win"], d["p_tie"]) == (w, t)
    # before phase 6: the table of the whole game
    assert main([*compact, "--me", "3:60", "--opponent", "2:40", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    w, t = whole.value(whole.game.key_of(0, (3, 60), (2, 40)))
    assert d["table"] == "phases 1-10" and (d["chance_to_win"], d["p_tie"]) == (w, t)


@pytest.mark.parametrize(
    "argv",
    [
        ["duel", "--solve", "--phases", "9-10", "--target", "0"],
        ["duel", "--solve", "--phases", "9-10", "--target", "nan"],
        ["duel", "--solve", "--phases", "9-10", "--target", "inf"],
        ["duel", "--solve", "--phases", "9-10", "--picks", "0"],
        ["duel", "--solve", "--phases", "9-10", "--layout", "nosuch"],
        ["duel", "--me", "3:10", "--opponent", "10:0"],
        ["duel", "--me", "10:x", "--opponent", "10:0"],
        ["duel", "--me", "10:10"],
        ["duel", "--phases", "3-10"],
        ["duel", "--me", "5:10", "--opponent", "8:190"],  # 10 points: no game has so few
    ],
)
def test_duel_command_refuses_bad_input(argv, capsys):
    from phase10math.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("target", [0, -1e-5, float("nan"), float("inf"), "1e-5", True])
def test_solve_duel_refuses_a_target_that_is_not_a_finite_positive_number(target):
    """Refused before any work (a game of one phase would otherwise be solved), with one of
    the package's errors."""
    from phase10math.errors import Phase10MathError
    from phase10math.game.duel import DuelGame, solve_duel

    with pytest.raises(Phase10MathError, match="target"):
        solve_duel(DuelGame.standard(10, 10), target=target)


def test_a_recorded_dice_solve_that_would_not_fit_is_refused_at_once(capsys, monkeypatch):
    """Phase 8 on the recorded dice solves on the tensor engine; where memory is short the
    command says so in one line before any work."""
    from phase10math.cli import main

    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", "1")
    argv = ["duel", "--solve", "--phases", "8-10", "--layout", "recorded"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "7 of one color" in err and "needs about" in err


def test_a_table_file_that_is_not_a_table_is_refused_in_one_line(tmp_path, capsys):
    import gzip

    from phase10math.cli import main

    garbage = tmp_path / "garbage.json.gz"
    garbage.write_bytes(b"not gzip")
    no_rows = tmp_path / "no_rows.json.gz"
    no_rows.write_bytes(gzip.compress(b'{"fingerprint": "x"}'))
    roll = ["10", "10", "10", "10", "7", "7", "2", "1", "W", "W"]
    advise = ["advise", "--phase", "10", "--rolls-left", "1", "--objective", "win"]
    advise += ["--me", "10:0", "--opponent", "10:0"]
    for path in (tmp_path / "missing.json.gz", garbage, no_rows):
        for argv in (["duel", "--table", str(path)], [*advise, "--table", str(path), *roll]):
            assert main(argv) == 2
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and "not a two-player table" in err


def test_advise_win_reads_a_table_file_given(capsys):
    """``advise --objective win --table FILE`` (a table `duel --solve --write` wrote) answers
    from that file: here the shipped file of phases 9-10, the same answer as without it,
    where the state reads the shipped table of fewest phases that holds it (that table)."""
    from importlib import resources

    from phase10math.cli import main
    from phase10math.game.duel import TABLE_FILES, TABLE_PACKAGE, table_for_state

    assert table_for_state((10, 0), (10, 20), DEFAULT_LAYOUT) is shipped_table((9, 10))
    table_file = TABLE_FILES[(9, 10)]

    argv = ["advise", "--phase", "10", "--rolls-left", "1", "--objective", "win", "--json"]
    argv += ["--me", "10:0", "--opponent", "10:20", "10", "10", "10", "10", "7", "7", "2", "1"]
    argv += ["W", "W"]
    assert main(argv) == 0
    shipped = capsys.readouterr().out
    with resources.as_file(resources.files(TABLE_PACKAGE).joinpath(table_file)) as path:
        assert main([*argv[:8], "--table", str(path), *argv[8:]]) == 0
    assert capsys.readouterr().out == shipped and '"chance_to_win"' in shipped


def test_advise_win_ranks_holds(capsys):
    from phase10math.cli import main

    argv = ["advise", "--phase", "10", "--rolls-left", "1", "--objective", "win"]
    argv += ["--me", "10:0", "--opponent", "10:0", "--json", "--top", "3"]
    argv += ["10", "10", "10", "10", "7", "7", "2", "1", "W", "W"]
    assert main(argv) == 0
    d = __import__("json").loads(capsys.readouterr().out)
    chances = [o["chance_to_win"] for o in d["options"]]
    assert all(a >= b - 1e-12 for a, b in zip(chances, chances[1:]))  # ties: larger hold first
    assert d["best"]["chance_to_win"] >= d["per_turn"]["complete"]["chance_to_win"]
    assert max(o["error"] for o in d["options"]) <= d["bound"] < 1e-6  # phase 10: no colors
    assert d["stop"]["error"] <= d["bound"]  # stopping now (the dice make phase 10)
    assert d["stop"]["chance_to_win"] <= d["best"]["chance_to_win"] + d["bound"]
    assert main(argv[:-13] + argv[-10:]) == 0  # as text: the bound below the holds
    text = capsys.readouterr().out
    assert f"every chance within {d['bound']:.1e}" in text
    assert d["certified"] and "not certified" not in text  # phase 10's table is tight
    # 10 10 10 10 7 7 2 1 W W makes phase 10 (a set of 5, a set of 3): 10 10 10 10 W and
    # 7 7 W score the dice they use, a W 0 (RULES.md)
    assert d["stop"]["made"] and d["stop"]["score"] == 4 * 10 + 2 * 7 == 54
    stop = f"stop now (phase made, 54 points): chance to win {d['stop']['chance_to_win']:.6f}"
    assert stop in text


def test_a_certified_best_hold_stays_best_for_any_chances_within_the_errors():
    """``certified`` claims that the best hold stays best (up to ties) for any chances after
    the turn within their proven errors. Checked by solving the roll's holds again for
    utilities moved within the errors at random (corners of the error box and points inside
    it), on the reduced phase-8 game at its tight start and at a coarse state."""
    import random

    from reduced_dice import REDUCED, phase8_duel

    table = phase8_duel()
    tb = table.game.turns[8]
    pick, rng = random.Random(4), np.random.default_rng(4)
    seen = set()
    for behind in (0, 20):
        key = (0, (8, 0, 0), (8, 0, 0), -behind)  # the mover first, by hand
        U = table.utility(key)[0]
        partner = (1, key[2], key[1], -key[3])
        E = np.array([table.error(partner)] + [table.error(n) for _, n in table.after(key)])
        for _ in range(6):
            faces = " ".join(str(pick.choice(d.faces)) for d in REDUCED.dice)
            adv = win_advice(table, (8, 0), (8, behind), faces, 2, by_die=True)
            ids = np.array([o["hold_id"] for o in adv["options"]])
            chance = dict(zip(ids.tolist(), (o["chance_to_win"] for o in adv["options"])))
            w0 = adv["best"]["chance_to_win"]
            moved = [np.sign(rng.uniform(-1, 1, len(U))) for _ in range(8)]
            moved += [rng.uniform(-1, 1, len(U)) for _ in range(4)]
            overtaken = False
            for m in moved:
                values = tb.hold_values((U + m * E)[:, None], 2, ids)[:, 0]
                top = int(ids[np.argmax(values)])
                overtaken |= chance[top] < w0 - 1e-12  # a hold of a smaller chance now leads
            if adv["certified"]:
                assert not overtaken
            seen.add((adv["certified"], overtaken))
    # both kinds seen, and where not certified, the errors do reorder the holds
    assert {c for c, _ in seen} == {True, False} and (False, True) in seen


def test_win_advice_per_turn_holds_are_the_per_turn_solvers():
    """win_advice reads the per-turn objectives' holds from the kit's cached turn solutions
    of the game's dice; at random rolls they equal a turn solved here for the objective's
    lexicographic utility on the table's own space."""
    from phase10math.dice.layouts import COMPACT_LAYOUT
    from phase10math.dice.rules import Objective
    from phase10math.game.engine import RandomDice
    from phase10math.turn.engine import final_scores
    from phase10math.turn.kernels import lexicographic_utilities
    from phase10math.turn.solver import solve_utility

    table = shipped_table((6, 10))
    g = table.game
    dice = RandomDice(COMPACT_LAYOUT, seed=9)
    for k in (6, 7, 9, 10):
        space = g.turns[k].space
        best = np.asarray(final_scores(g.phases[k], space, g.rules), dtype=np.int64)
        here = {
            str(o): solve_utility(space, *lexicographic_utilities(best, o)[:1], g.rules,
                                  second=lexicographic_utilities(best, o)[1])
            for o in (Objective.COMPLETE, Objective.SCORE)
        }  # fmt: skip
        for rolls_left in (1, 2):
            faces = dice.roll(range(10))
            adv = win_advice(table, (k, 30), (k, 45), faces, rolls_left, layout=COMPACT_LAYOUT)
            smap = SpaceMap(space, COMPACT_LAYOUT)
            pos = int(np.searchsorted(space.full_ids, smap.roll_id(faces)))
            for name, s in here.items():
                hid = int(s.roll_arg[rolls_left][pos])
                kept = sorted((v for _, v in space.faces_of(hid)), reverse=True)
                text = " ".join("W" if v == 0 else str(v) for v in kept) or "(nothing: reroll all)"
                mine = adv["per_turn"][name]
                chance = {o["keep"]: o["chance_to_win"] for o in adv["options"]}
                assert mine["keep"] == text and mine["chance_to_win"] == chance[text]


def test_a_typed_state_reads_the_table_of_fewest_phases_that_holds_it():
    """``table_for_state``: a state typed at the command line reads the shipped table of
    fewest phases whose phases, dice and totals hold it; where none does, the reason of the
    table of fewest phases that spans the players, in words."""
    from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
    from phase10math.game.duel import serving_tables, table_for_state

    assert [d for _, d in serving_tables(COMPACT_LAYOUT)] == [None] * len(shipped_ranges())
    own = [r for r, d in serving_tables(RECORDED_LAYOUT) if d is RECORDED_LAYOUT]
    assert own == [(8, 10), (1, 10)]
    # both at phase 10 with 0 points: no game from phase 1 or 6 has that, 9-10 holds any total
    for layout in (COMPACT_LAYOUT, RECORDED_LAYOUT):
        assert table_for_state((10, 0), (10, 0), layout) is shipped_table((9, 10))
    # phase 8 on the recorded dice: their end game (any totals); on the compact dice 6-10
    assert table_for_state((8, 0), (9, 0), RECORDED_LAYOUT) is shipped_table(
        (8, 10), RECORDED_LAYOUT
    )
    assert table_for_state((8, 0), (9, 0), COMPACT_LAYOUT) is shipped_table((6, 10))
    # phase 3 with totals a game from phase 1 reaches: each dice' own whole game
    assert table_for_state((3, 60), (7, 140), RECORDED_LAYOUT) is shipped_table(
        (1, 10), RECORDED_LAYOUT
    )
    assert table_for_state((3, 60), (7, 140), COMPACT_LAYOUT) is shipped_table((1, 10))
    # 0 points at phase 7 with the other player at phase 3: only 1-10 spans them, and no
    # game of it has that total
    with pytest.raises(OutsideTableError, match="0 points at phase 7 cannot happen"):
        table_for_state((3, 60), (7, 0), RECORDED_LAYOUT)
    with pytest.raises(OutsideTableError, match="no shipped table holds a player at phase 11"):
        table_for_state((11, 0), (11, 0), RECORDED_LAYOUT)
