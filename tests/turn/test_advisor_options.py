"""Advice options that once gave wrong results: --top and --set-aside rules; only rolls the dice
can show are scored, and the trials of a simulation are checked."""

from __future__ import annotations

import pytest
from clirun import one_line_error, run

from phase10math.cards.dealt import simulate_dealt
from phase10math.dice.meld import score
from phase10math.dice.rules import Rules
from phase10math.errors import (
    InvalidDiceError,
    InvalidHoldError,
    InvalidRulesError,
    Phase10MathError,
)
from phase10math.turn.advisor import advise


def test_advise_top_and_set_aside_rules():
    roll = "10 10 W 5 6 7 1 2 3 8"
    adv = advise(roll, 2, 1)
    with pytest.raises(InvalidRulesError):
        adv.table(top=-1)
    assert "more holds" not in adv.table(top=0)
    sticky = Rules(holds="sticky")
    with pytest.raises(InvalidHoldError, match="first roll"):
        advise(roll, 2, 1, rules=sticky, set_aside="10 10")
    code, _out, err = run(
        [
            "advise",
            "--phase",
            "1",
            "--rolls-left",
            "2",
            "--holds",
            "sticky",
            "--set-aside",
            "10 10",
            *roll.split(),
        ]
    )
    assert "first roll" in one_line_error(err, code)
    code, _out, err = run(
        [
            "advise",
            "--phase",
            "1",
            "--rolls-left",
            "1",
            "--holds",
            "sticky",
            "--set-aside",
            roll,
            *roll.split(),
        ]
    )
    assert "nothing is left to roll" in one_line_error(err, code)


def test_scores_only_rolls_the_dice_can_show_and_trials_checked():
    with pytest.raises(InvalidDiceError, match="only the 6 high"):
        score(7, ["10"] * 10)
    with pytest.raises(Phase10MathError):
        simulate_dealt(1, trials=-1)
