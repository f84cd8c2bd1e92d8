"""The per-phase table that ships with the package (phases 1-20 of the recorded dice, default
rules): every phase without colors solved again and compared, fraction for fraction; the color
phases are compared where the test command solves them anyway (the score objective of phase 8
in ``test_solver_montecarlo.py``, the completion of phase 18 in notebook 3b);
``python tools/ship_phase_rows.py --check`` solves all twenty."""

from __future__ import annotations

from fractions import Fraction

import pytest

from phase10math.dice.layouts import COMPACT_LAYOUT, DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES, parse_phase
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.turn.tables import (
    COLUMNS,
    phase_row,
    phase_table,
    shipped_row,
    values_by_rolls_left,
)

PLAIN = [n for n in range(1, 21) if not PHASES[n].uses_color]


@pytest.mark.parametrize("n", PLAIN)
def test_a_shipped_row_without_colors_equals_its_solve_now(n):
    row = shipped_row(n)
    assert row is not None and set(COLUMNS) <= set(row)
    assert row == phase_row(n, shipped=False)
    assert values_by_rolls_left(n) == values_by_rolls_left(n, shipped=False)


def test_every_phase_ships_and_reads_as_exact_fractions():
    for n in range(1, 21):
        row = shipped_row(n)
        assert all(isinstance(v, Fraction) for v in row.values())
        assert 0 < row["p_single_roll"] < row["p_optimal"] <= 1
        assert row["p_greedy"] <= row["p_optimal"] and row["p_score_policy"] <= row["p_optimal"]
        assert row["e_score_complete_policy"] <= row["e_score_optimal"]
        by = values_by_rolls_left(n)
        assert by[1] == row["p_single_roll"] and by[3] == row["p_optimal"]
        assert by[1] < by[2] < by[3]


def test_other_rules_dice_or_phases_are_solved_not_read():
    assert shipped_row(1, Rules(rolls=2)) is None
    assert shipped_row(1, layout=COMPACT_LAYOUT) is None
    own = parse_phase("1 set of 3")  # a phase of one's own has no shipped row
    assert shipped_row(own) is None
    two = phase_row(1, Rules(rolls=2))
    assert two["p_optimal"] == values_by_rolls_left(1)[2]  # two rolls: the 2-roll value
    assert phase_table([1, 9])[9] == shipped_row(9, DEFAULT_RULES, DEFAULT_LAYOUT)


def test_the_table_command_solves_when_asked(capsys):
    from phase10math.cli import main

    assert main(["table", "--phases", "1-2", "--json"]) == 0
    shipped = capsys.readouterr().out
    assert main(["table", "--phases", "1-2", "--json", "--solve"]) == 0
    assert capsys.readouterr().out == shipped
