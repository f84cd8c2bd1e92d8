"""Requests refused before any work, with a message that names what is wrong: options that
mean nothing alone, a state no table can hold, an output file that cannot be written, an
empty layout name, a very long value."""

from __future__ import annotations

import pytest

from phase10math.game import duel as game_duel
from tests.clirun import one_line_error, run

ROLL = "1 2 3 4 5 6 7 8 9 10".split()
ADVISE = ["advise", "--phase", "9", "--rolls-left", "2", *ROLL]


def never(*args, **kwargs):
    raise AssertionError("work started before the request was checked")


@pytest.mark.parametrize(
    "extra, option",
    [
        (["--me", "9:0"], "--me"),
        (["--opponent", "9:0"], "--opponent"),
        (["--second"], "--second"),
        (["--last-chance"], "--last-chance"),
        (["--table", "x.npz"], "--table"),
    ],
)
@pytest.mark.parametrize("objective", ["complete", "score"])
def test_win_options_without_the_win_objective_are_refused(extra, option, objective):
    line = one_line_error(*_code_err(run([*ADVISE, "--objective", objective, *extra])))
    assert f"{option} is an option of --objective win" in line, line


@pytest.mark.parametrize(
    "extra, option", [(["--keep", "10"], "--keep"), (["--set-aside", "10"], "--set-aside")]
)
def test_one_turn_options_with_the_win_objective_are_refused(extra, option):
    argv = [*ADVISE, "--objective", "win", "--me", "9:0", "--opponent", "9:0", *extra]
    line = one_line_error(*_code_err(run(argv)))
    assert f"{option} is not an option of --objective win" in line, line


def _code_err(result):
    code, _, err = result
    return err, code


def test_a_last_chance_against_an_opponent_not_finished_is_refused():
    argv = [*ADVISE, "--objective", "win", "--me", "9:0", "--opponent", "9:0", "--last-chance"]
    line = one_line_error(*_code_err(run(argv)))
    assert "so is at phase 10 (made) or 11, not 9" in line, line


def test_a_last_chance_against_a_finished_opponent_is_answered():
    argv = [*ADVISE, "--objective", "win", "--me", "9:0", "--opponent", "11:50", "--last-chance"]
    code, out, err = run(argv)
    assert code == 0 and "chance to win" in out, err


@pytest.mark.parametrize(
    "argv",
    [
        ["advise", "--phase", "1", "--rolls-left", "2", "--layout", "", *ROLL],
        ["table", "--layout", "  "],
        ["duel", "--layout", ""],
    ],
)
def test_an_empty_layout_is_refused(argv):
    line = one_line_error(*_code_err(run(argv)))
    assert "--layout" in line and "give a built-in layout" in line, line


@pytest.mark.parametrize(
    "me, opponent, words",
    [
        ("11:0", "10:0", "no shipped table holds a player at phase 11"),
        ("12:0", "3:0", "no shipped table holds a player at phase 12"),
    ],
)
def test_a_phase_no_table_holds_is_named(me, opponent, words):
    line = one_line_error(*_code_err(run(["duel", "--me", me, "--opponent", opponent])))
    assert words in line and "phases 11 and" not in line, line


def test_a_player_outside_a_chosen_table_is_named():
    argv = ["duel", "--phases", "9-10", "--me", "3:0", "--opponent", "9:0"]
    line = one_line_error(*_code_err(run(argv)))
    assert "the player to move is at phase 3, outside the solved table (phases 9-10)" in line


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--write", "/nonexistent-folder/t.npz"], "nothing can be written in its folder"),
        (["--write", "/tmp"], "is a folder"),
        (["--checkpoint", "/nonexistent-folder/c.pkl"], "nothing can be written in its folder"),
    ],
)
def test_a_solve_refuses_an_output_it_cannot_write_before_solving(monkeypatch, extra, words):
    monkeypatch.setattr(game_duel, "solve_duel", never)  # imported on demand
    monkeypatch.setattr(game_duel.DuelGame, "standard", never)
    line = one_line_error(*_code_err(run(["duel", "--solve", *extra])))
    assert words in line, line


@pytest.mark.parametrize(
    "extra, option",
    [
        (["--write", "t.npz"], "--write"),
        (["--checkpoint", "c"], "--checkpoint"),
        (["--target", "1e-4"], "--target"),
        (["--picks", "3"], "--picks"),
        (["--family-phases", "9-10"], "--family-phases"),
    ],
)
def test_solve_options_without_solve_are_refused(extra, option):
    line = one_line_error(*_code_err(run(["duel", *extra])))
    assert f"{option} is an option of --solve" in line, line


def test_second_without_a_state_and_table_with_solve_are_refused():
    assert "needs --me" in one_line_error(*_code_err(run(["duel", "--second"])))
    line = one_line_error(*_code_err(run(["duel", "--solve", "--table", "t.npz"])))
    assert "give one of them" in line


def test_a_very_long_value_is_shortened_not_dropped():
    line = one_line_error(*_code_err(run(["table", "--phases", "7" * 5000])))
    assert "write 1-10, 11-20, 1-20" in line and "'777" in line and len(line) < 300, line
