"""Bad input on the command line: one line on stderr and exit 2 for bad numbers and layout files;
the human player with stdin closed; a closed pipe is quiet; Ctrl-C prints "interrupted"."""

from __future__ import annotations

import io
import time

import pytest
from clirun import one_line_error, run

from phase10math.cli import main
from phase10math.dice.faces import parse_layout
from phase10math.game.engine import Game
from phase10math.game.strategies import HumanStrategy

SAME_LAYOUT = "6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo"
HIGH = parse_layout(SAME_LAYOUT).dice[0]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["game", "--seed", "-1"], "--seed: -1 is out of range"),
        (["headtohead", "--seed", "-1"], "--seed: -1 is out of range"),
        (["cards", "game", "--seed", "-1"], "--seed: -1 is out of range"),
        (["cards", "draws", "--seed", "-1"], "--seed: -1 is out of range"),
        (["check", "--phase", "²"], "cannot read"),
        (["check", "--phase", "2 sets of ²"], "cannot read the number '²'"),
        (["check", "--phase", "1" * 5000], "too long"),
        (["check", "--phase", "2 sets of " + "9" * 5000], "too long"),
        (["game", "--seed", "9" * 5000], "not a whole number"),
        (["headtohead", "--games", "10000000000"], "--games: 10000000000 is out of range"),
        (["turns", "--max-turns", "99999999999"], "out of range"),
        (["cards", "draws", "--trials", "99999999999"], "out of range"),
        (["tenk", "duel", "--target", "99999999999"], "out of range"),
        (["tenk", "ev", "--straight", "99999999999"], "out of range"),
        (["tenk", "ev", "--open", "99999999999"], "out of range"),
        (["tenk", "ev", "--three-pairs", "5000000"], "out of range"),
        (["check", "--phase", "-1"], "phase -1 does not exist"),
        (["table", "--phases", "3-1"], "runs backwards"),
        (["turns", "--max-turns", "-5"], "-5 is out of range"),
        (["advise", "--phase", "1", "--rolls-left", "2", "--top", "-1"], "-1 is out of range"),
        (["check", "--phase", "10 sets of 1"], "at most 6"),
    ],
)
def test_bad_numbers_one_line_exit_2(argv, words):
    t = time.time()
    code, out, err = run(argv)
    assert words in one_line_error(err, code)
    assert time.time() - t < 10


@pytest.mark.parametrize(
    "content, words",
    [
        (b"\x00\x01\x02binary", "not a text file"),
        (SAME_LAYOUT.encode("utf-16"), "not a text file"),
        ("6 x 5r 6o 7b 8g 9r 10o # caf\xe9".encode("latin-1"), "not UTF-8"),
        (b"99999999999999999999 x 5r 6o 7b 8g 9r 10o", "a layout has 10 dice"),
        (b"10 x 5r 6o 7b 8g 9r Wo", "mixes high numbers"),
    ],
)
def test_bad_layout_files(tmp_path, content, words):
    f = tmp_path / "layout.txt"
    f.write_bytes(content)
    code, _out, err = run(["maxscore", "--layout", str(f)])
    assert words in one_line_error(err, code)


def test_human_with_stdin_closed_and_prompts_on_stderr(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = run(["game", "--players", "1", "--strategies", "human", "--seed", "1"])
    assert code == 2 and "Traceback" not in err
    assert "stdin closed" in err.splitlines()[-1]
    assert "keep" not in out  # the prompt went to stderr


def test_human_bad_keep_is_asked_again(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("11 11\n4 4 4 4 4\nall\n" * 40))
    res = Game([HumanStrategy()], phases=1, seed=2).play()
    assert res.players[0].finished or res.players[0].failed_turns >= 1


def test_broken_pipe_is_quiet(monkeypatch):
    class Closed(io.StringIO):
        def write(self, s):
            raise BrokenPipeError(32, "Broken pipe")

    err = io.StringIO()
    monkeypatch.setattr("sys.stdout", Closed())
    monkeypatch.setattr("sys.stderr", err)
    assert main(["maxscore"]) == 0
    assert err.getvalue() == ""


def test_ctrl_c_prints_interrupted(monkeypatch):
    import phase10math.cli.dice as cd

    def boom(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cd, "cmd_maxscore", boom)
    code, _out, err = run(["maxscore"])
    assert code == 130 and err.strip() == "phase10math: interrupted"
