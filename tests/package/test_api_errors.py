"""The public API raises only the package's errors for wrong types and values (hand-picked cases
beside the generated fuzz), takes ten dice as a list, and its phase messages are clear; a
command without its sub-command prints to stderr."""

from __future__ import annotations

import pytest
from clirun import run

from phase10math.dice.faces import Face, parse_faces, parse_layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import as_phase, parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import (
    InvalidLayoutError,
    InvalidPhaseError,
    Phase10MathError,
)
from phase10math.turn.solver import solve_custom, solve_turn

SAME_LAYOUT = "6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo"
HIGH = parse_layout(SAME_LAYOUT).dice[0]


@pytest.mark.parametrize(
    "call",
    [
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(None, 2, 1),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", 2, 1, rules="sticky"
        ),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", 2, 1, layout=None
        ),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", 2, 1, layout=SAME_LAYOUT
        ),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", 2, 1, set_aside=None
        ),
        lambda: __import__("phase10math.turn.advisor").turn.advisor.advise(
            "1 2 3 4 5 6 7 8 9 10", True, 1
        ),
        lambda: (
            __import__("phase10math.turn.advisor")
            .turn.advisor.advise("1 2 3 4 5 6 7 8 9 10", 2, 1)
            .value_of(None)
        ),
        lambda: solve_turn(1, layout=list(DEFAULT_LAYOUT.dice[:3])),
        lambda: __import__("phase10math.dice.meld").dice.meld.explain(1, [Face(5, "x")] * 10),
        lambda: __import__("phase10math.dice.meld").dice.meld.explain(1, [Face(11)] * 10),
        lambda: __import__("phase10math.turn.maxima").turn.maxima.phase_maxima([0, 21]),
        lambda: solve_custom(lambda faces: None, Rules(), [HIGH]),
        lambda: Rules(rolls=True),
        lambda: __import__("phase10math.cards.dealt").cards.dealt.dealt_odds(1, hand_size=True),
        lambda: as_phase(None),
        lambda: parse_phase("1 set of 3 + " * 40),
        lambda: parse_layout(None),
    ],
)
def test_api_raises_only_package_errors(call):
    with pytest.raises(Phase10MathError):
        call()


def test_solve_turn_accepts_ten_dice_as_a_list():
    assert solve_turn(4, layout=list(DEFAULT_LAYOUT.dice)).value() == solve_turn(4).value()


def test_phase_messages():
    with pytest.raises(InvalidPhaseError, match="phase -1 does not exist"):
        as_phase("-1")
    with pytest.raises(InvalidLayoutError, match="mixes high numbers"):
        parse_layout("5r 6o 7b 8g 9r Wo")
    assert parse_faces("10o W")[0] == Face(10, "o")


def test_help_without_sub_command_goes_to_stderr():
    for argv in (["cards"], ["tenk"]):
        code, out, err = run(argv)
        assert code == 2 and out == "" and "a command is required: " in err
