"""The check and maxscore commands, including bad input (stderr message, exit code 2)."""

import json
import subprocess
import sys

import pytest

from phase10math.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_manual_example(capsys):
    code, out, err = run(
        capsys, "check", "--phase", "1", "8", "8", "8", "10", "W", "W", "1", "2", "5", "6"
    )
    assert code == 0 and err == ""
    assert "complete, score 34" in out and "W(=10)" in out


def test_check_json(capsys):
    code, out, _ = run(capsys, "check", "--phase", "4", "--json", *"1 2 3 4 5 6 7 8 9 9".split())
    data = json.loads(out)
    assert code == 0 and data["complete"] and data["score"] == sum(range(3, 10))
    assert [len(g["dice"]) for g in data["groups"]] == [7]


def test_check_color_phase_needs_colors_and_accepts_them(capsys):
    code, _, err = run(capsys, "check", "--phase", "8", *"5 6 7 8 9 10 1 2 3 4".split())
    assert code == 2 and "no color" in err
    from phase10math.dice.layouts import DEFAULT_LAYOUT

    faces = [str(d.faces[-1]) for d in DEFAULT_LAYOUT.dice]  # a real roll: each die's top face
    code, out, err = run(capsys, "check", "--phase", "8", *faces)
    assert code == 0 and "phase 8" in out


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["check", "--phase", "1", "1", "2", "3"], "10 dice"),  # wrong number of dice
        (["check", "--phase", "1", *"5 6 7 8 9 3 3 3 3 3".split()], "only the 4 low dice"),
        (["check", "--phase", "1", *"5x 6 7 8 9 10 1 2 3 4".split()], "unknown color 'x'"),
        (["check", "--phase", "21", *"5 6 7 8 9 10 1 2 3 4".split()], "phase 21 does not exist"),
        (["check", "--phase", "1"], "got 0"),  # empty input
        (["check", "--phase", "1", *"5 6 7 8 9 10 1 2 3 11".split()], "cannot read '11'"),
        (["maxscore", "--layout", "/nonexistent/layout.txt"], "cannot be read as a file"),
    ],
)
def test_bad_input_goes_to_stderr_with_exit_code_2(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert msg in err and err.startswith("phase10math: error:")


def test_maxscore_json(capsys):
    code, out, _ = run(capsys, "maxscore", "--json")
    data = json.loads(out)
    assert code == 0 and data["game_maximum_phases_1_10"] == 649
    assert data["phase_maxima"]["8"] == 56


def test_console_script_exit_code():
    res = subprocess.run(
        [sys.executable, "-m", "phase10math", "check", "--phase", "1", "1"],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 2 and "10 dice" in res.stderr and res.stdout == ""
