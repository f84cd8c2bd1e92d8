"""The table and advise commands."""

import json
from fractions import Fraction

import pytest

from phase10math.cli import main
from phase10math.turn.tables import COLUMNS, phase_row


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table_json_carries_fraction_and_float(capsys):
    code, out, _ = run(capsys, "table", "--phases", "1-2", "--json")
    data = json.loads(out)
    assert code == 0 and set(data["phases"]) == {"1", "2"}
    cell = data["phases"]["1"]["p_optimal"]
    assert Fraction(cell["fraction"]) == phase_row(1)["p_optimal"]
    assert cell["float"] == pytest.approx(float(Fraction(cell["fraction"])))
    for row in data["phases"].values():
        p = {k: Fraction(v["fraction"]) for k, v in row.items() if isinstance(v, dict)}
        # optimal play beats one roll, the greedy baseline and the score-optimal policy
        assert p["p_single_roll"] < p["p_greedy"] <= p["p_optimal"]
        assert p["p_score_policy"] <= p["p_optimal"]


def test_table_text_explains_its_columns_and_keeps_the_fractions_one_flag_away(capsys):
    code, out, _ = run(capsys, "table", "--phases", "1-2")
    assert code == 0 and "2 sets of 3" in out and "exact values:" not in out
    for name in COLUMNS.values():  # each column in the legend, with its unit for the score
        assert sum(line.startswith(name + ":") for line in out.splitlines()) == 1, name
    assert "points a turn scores on average" in out and "--exact" in out
    legend = out.split("\n\n")[1].splitlines()
    assert max(len(line) for line in legend) <= 100, legend
    code, out, _ = run(capsys, "table", "--phases", "1-2", "--exact")
    row = phase_row(1)
    assert code == 0 and "exact values:" in out and f"p_optimal = {row['p_optimal']}" in out


def test_sticky_table_names_the_phase_that_does_not_fit(capsys):
    """Sticky holds on the recorded dice: the color phase 8 does not fit (137,858,491,849
    (held, rolled) pairs) and is named under the table; the others are solved."""
    code, out, err = run(capsys, "table", "--holds", "sticky", "--phases", "7-8", "--json")
    data = json.loads(out)
    assert code == 0 and set(data["phases"]) == {"7"} and err == ""
    assert "137,858,491,849" in data["not_solved"]["8"]
    code, out, _ = run(capsys, "table", "--holds", "sticky", "--phases", "7-8")
    assert code == 0 and "phase 8 not solved with sticky holds on the recorded dice" in out
    # nothing left to solve: the refusal is the error (one line, exit 2)
    code, out, err = run(capsys, "table", "--holds", "sticky", "--phases", "8")
    assert code == 2 and out == "" and "137,858,491,849" in err and len(err.splitlines()) == 1


def test_advise_text_and_json(capsys):
    dice = "10 10 W 5 6 7 1 2 3 8".split()
    code, out, _ = run(capsys, "advise", "--phase", "1", "--rolls-left", "2", *dice)
    assert code == 0 and "best: keeps 10, 10, W" in out
    code, out, _ = run(
        capsys,
        "advise",
        "--phase",
        "1",
        "--rolls-left",
        "2",
        "--json",
        "--keep",
        "10 10",
        "--top",
        "3",
        *dice,
    )
    data = json.loads(out)
    assert len(data["options"]) == 3 and data["options"][0]["best"]
    best = Fraction(data["options"][0]["value"]["fraction"])
    mine = Fraction(data["your_hold"]["value"]["fraction"])
    assert mine < best


@pytest.mark.parametrize(
    "argv,msg",
    [
        (["table", "--phases", "0-30"], "phases are numbered 1 to 20"),
        (["table", "--phases", "x"], "--phases 'x'"),
        (
            ["advise", "--phase", "1", "--rolls-left", "3", *"10 10 W 5 6 7 1 2 3 8".split()],
            "rolls_left=3",
        ),
        (["advise", "--phase", "1", "--rolls-left", "2", "10", "10"], "10 dice"),
        (
            [
                "advise",
                "--phase",
                "1",
                "--rolls-left",
                "2",
                "--keep",
                "4 4",
                *"10 10 W 5 6 7 1 2 3 8".split(),
            ],
            "cannot keep 4",
        ),
    ],
)
def test_bad_input(capsys, argv, msg):
    code, out, err = run(capsys, *argv)
    assert code == 2 and msg in err and out == ""
