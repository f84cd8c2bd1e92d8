"""Range guards where results are formatted: a value outside its range (forced through the
formatter here) is an internal error, one line on stderr and exit code 70, and nothing of the
answer is printed."""

from __future__ import annotations

import dataclasses
import os
from fractions import Fraction

import pytest

from phase10math.dice.phases import PHASES
from phase10math.errors import ResultOutOfRangeError
from phase10math.game import duel as game_duel
from phase10math.guards import check_expected_score, check_probability
from phase10math.turn import advisor, tables
from tests.clirun import run


def internal_error(code: int, out: str, err: str) -> str:
    assert code == 70, (code, err)
    assert out == "", out
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("phase10math: internal error: "), err
    return lines[0]


@pytest.mark.parametrize(
    "column, value",
    [("p_optimal", Fraction(4078, 100)), ("p_greedy", Fraction(-1, 7)), ("e_score_optimal", 101)],
)
@pytest.mark.parametrize("json", [False, True])
def test_a_table_value_out_of_range_is_never_printed(monkeypatch, column, value, json):
    real = tables.phase_table

    def bad(*a, **k):
        rows = real(*a, **k)
        rows[1][column] = Fraction(value)
        return rows

    monkeypatch.setattr(tables, "phase_table", bad)  # the command line imports it on demand
    line = internal_error(*run(["table", "--phases", "1-2", *(["--json"] if json else [])]))
    assert f"phase 1's {column}" in line and "lies outside" in line


@pytest.mark.parametrize("objective", ["complete", "score"])
@pytest.mark.parametrize("json", [False, True])
def test_advice_out_of_range_is_never_printed(monkeypatch, objective, json):
    real = advisor.advise

    def bad(*a, **k):
        adv = real(*a, **k)
        wrong = dataclasses.replace(adv.options[0], numerator=1000 * adv.options[0].denominator)
        return dataclasses.replace(adv, options=[wrong, *adv.options[1:]])

    monkeypatch.setattr(advisor, "advise", bad)
    argv = ["advise", "--phase", "1", "--rolls-left", "2", "--objective", objective]
    argv += ["--layout", "compact", *(["--json"] if json else []), *"1 1 2 3 5 5 6 7 8 9".split()]
    line = internal_error(*run(argv))
    assert ("P(complete)" if objective == "complete" else "E[score]") in line


def test_a_chance_to_win_out_of_range_is_never_printed(monkeypatch):
    monkeypatch.setattr(game_duel, "chance_to_win", lambda *a, **k: (1.5, 0.0))
    internal_error(*run(["duel", "--me", "9:0", "--opponent", "9:0"]))


def test_a_headline_out_of_range_is_never_printed(monkeypatch):
    real = game_duel.read_table

    def bad(*a, **k):
        sol, data = real(*a, **k)
        data = {**data, "headline": {**data["headline"], "p_tie": -0.25}}
        return sol, data

    monkeypatch.setattr(game_duel, "read_table", bad)
    internal_error(*run(["duel"]))


def test_the_guards_accept_the_ends_of_their_ranges_and_refuse_beyond():
    for ok in (Fraction(0), Fraction(1), 1.0 + 1e-12):
        check_probability(ok, "p")
    for wrong in (Fraction(-1, 10**30), Fraction(1) + Fraction(1, 10**30), float("nan"), 1.01):
        with pytest.raises(ResultOutOfRangeError):
            check_probability(wrong, "p")
    check_expected_score(Fraction(100), "e")
    with pytest.raises(ResultOutOfRangeError):
        check_expected_score(Fraction(10001, 100), "e")


def test_every_shipped_row_lies_in_its_range():
    tables.check_rows({n: tables.shipped_row(n) for n in range(1, len(PHASES))})


def test_a_dealt_chance_out_of_range_is_never_printed(monkeypatch):
    import phase10math.cards.dealt as dealt

    real = dealt.dealt_odds

    def bad(*a, **k):
        odds = real(*a, **k)
        return dataclasses.replace(odds, hands=odds.total * 3 // 2)

    monkeypatch.setattr(dealt, "dealt_odds", bad)
    line = internal_error(*run(["cards", "dealt", "--phase", "1"]))
    assert "a dealt hand's chance" in line


def test_a_phase_chance_of_the_game_length_out_of_range_is_never_printed(monkeypatch):
    from phase10math.game.length import GameLength

    class Solved:  # what the command reads first: each phase's chance in a turn
        p = {1: Fraction(1, 2), 2: Fraction(5, 4)}

    monkeypatch.setattr(GameLength, "for_strategy", lambda *a, **k: Solved())
    line = internal_error(*run(["turns", "--strategy", "greedy", "--layout", "compact"]))
    assert "a phase's chance in a turn" in line


def test_advise_with_the_complete_and_score_entries_swapped_answers_right(tmp_path, monkeypatch):
    """The probe's case: a phase's two entries swapped in the cache (each intact): the advice
    is the clean one, with one warning naming what the entry answers."""
    from phase10math import cache

    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(tables, "_MEMORY", {})
    argv = ["advise", "--phase", "1", "--rolls-left", "2", "--layout", "compact", "--json"]
    roll = "1 1 2 3 5 5 6 7 8 9".split()
    code, clean, _ = run([*argv, *roll])
    run([*argv, "--objective", "score", *roll])
    a, b = sorted(tmp_path.glob("*.pkl"))
    a.rename(tmp_path / "x")
    b.rename(a)
    (tmp_path / "x").rename(b)
    monkeypatch.setattr(tables, "_MEMORY", {})
    monkeypatch.setattr(cache, "_WARNED", set())
    for k in [k for k in os.environ if k.startswith("PHASE10MATH_WARNED_")]:
        monkeypatch.delenv(k)
    code, out, err = run([*argv, *roll])
    assert code == 0 and out == clean
    (line,) = err.splitlines()
    assert "a different objective than asked for" in line, err


def test_a_ten_thousand_chance_out_of_range_is_never_printed(monkeypatch):
    class Solved:  # a duel whose advice has a chance above 1
        def advise(self, *args):
            return {"bank": 1.5, "roll": 0.25, "best": "bank"}

    monkeypatch.setattr("phase10math.tenthousand.duel.solve_duel", lambda *a, **k: Solved())
    argv = ["tenk", "advise", "--me", "100", "--turn-total", "100", "--dice", "3"]
    line = internal_error(*run([*argv, "--no-progress"]))
    assert "a chance to win = 1.5" in line, line
