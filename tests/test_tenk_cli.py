"""The ``phase10math tenk`` command line."""

import json
from fractions import Fraction

import pytest

from phase10math.cli import main
from phase10math.tenthousand import TenKRules, solve_turn


def run(capsys, *argv):
    code = main(["tenk", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ev_json_matches_solver(capsys):
    code, out, _ = run(capsys, "ev", "--dice", "3", "--turn-total", "350", "--json")
    assert code == 0
    d = json.loads(out)
    assert Fraction(d["value"]["fraction"]) == solve_turn(TenKRules()).value(350, 3)
    assert d["action"] == "roll" and d["bank_value"] == 350


def test_ev_text_and_bank(capsys):
    code, out, _ = run(capsys, "ev", "--dice", "1", "--turn-total", "1000", "--no-wipe")
    assert code == 0 and "best action: bank" in out and "(" in out


def test_ev_off_board_with_open(capsys):
    code, out, _ = run(
        capsys, "ev", "--turn-total", "450", "--dice", "1", "--open", "--off-board", "--json"
    )
    d = json.loads(out)
    assert d["bank_value"] == 0 and d["action"] == "roll" and d["rules"]["open_score"] == 500


def test_thresholds(capsys):
    code, out, _ = run(capsys, "thresholds", "--json", "--open", "600")
    d = json.loads(out)
    assert code == 0 and set(d) == {"on_board", "off_board", "rules"}
    th = solve_turn(TenKRules()).thresholds()
    assert {int(k): v for k, v in d["on_board"]["thresholds"].items()} == th
    assert all(v >= 600 for v in d["off_board"]["thresholds"].values())
    code, out, _ = run(capsys, "thresholds", "--extra-of-a-kind", "add")
    assert code == 0 and "6 dice" in out


def test_duel_small(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    code, out, _ = run(capsys, "duel", "--target", "300", "--json")
    d = json.loads(out)
    assert code == 0 and 0.5 < d["first_player_wins"] < 1 and d["last_change"] < 1e-9
    code, out, _ = run(capsys, "duel", "--target", "300", "--no-progress")
    assert "P(first player wins)" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["ev", "--dice", "7"], "--dice: 7 is out of range; allowed 1..6"),
        (["ev", "--turn-total", "75"], "turn_total=75"),
        (["ev", "--straight", "120"], "straight=120"),
        (["duel", "--target", "0"], "--target: 0 is out of range; allowed 100..20000"),
        (["thresholds", "--open", "499"], "open_score=499"),
    ],
)
def test_bad_input_exit_2(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err


def test_tenk_alone_prints_help(capsys):
    assert main(["tenk"]) == 2
