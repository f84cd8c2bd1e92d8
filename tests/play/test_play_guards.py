"""The app's range guard: a chance outside [0, 1] (forced through the percent formatter here)
is an internal error, shown in the app as a message where the advice goes; never a number
clamped into range, never a traceback."""

from __future__ import annotations

import dataclasses
import math
import re
from fractions import Fraction

import pytest

pytest.importorskip("ipywidgets")

from phase10math.dice.layouts import COMPACT_LAYOUT  # noqa: E402
from phase10math.errors import ResultOutOfRangeError  # noqa: E402
from phase10math.play.labels import pct, value_words  # noqa: E402
from phase10math.play.models import TurnState  # noqa: E402
from phase10math.play.widgets import TurnWidget  # noqa: E402

#: a chance of 4078% (a score read as a probability) and others outside [0, 1]
OUT_OF_RANGE = [Fraction(4078, 100), Fraction(-1, 7), 1.5, -0.25, math.nan, math.inf]


@pytest.mark.parametrize("x", OUT_OF_RANGE, ids=repr)
def test_the_percent_formatter_refuses_a_chance_outside_0_1(x):
    with pytest.raises(ResultOutOfRangeError, match=r"lies outside \[0, 1\]"):
        pct(x)
    with pytest.raises(ResultOutOfRangeError):
        value_words(Fraction(x) if isinstance(x, Fraction) else x, "complete")


def test_rounding_at_the_ends_is_not_an_error():
    """A float a rounding step past 0 or 1 is the end itself (the guard's slack)."""
    assert pct(1 + 1e-12) == "100%" and pct(-1e-12) == "0%"
    assert pct(Fraction(1)) == "100%" and pct(Fraction(0)) == "0%"


def shown(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def assert_internal_error(w: TurnWidget) -> None:
    text = shown(w.advice.value)
    assert "internal error" in text and "lies outside [0, 1]" in text, text
    assert "%" not in text, text  # no percentage at all: not 4078%, not a clamped 100%
    assert "Traceback" not in text


def test_an_out_of_range_chance_before_the_roll_shows_an_internal_error(monkeypatch):
    monkeypatch.setattr(TurnState, "phase_value", lambda self: Fraction(4078, 100))
    w = TurnWidget(phase=1, layout=COMPACT_LAYOUT, seed=1)  # draws the board: no exception
    assert_internal_error(w)
    assert "Roll to start" not in w.advice.value


def test_an_out_of_range_chance_after_a_roll_shows_an_internal_error(monkeypatch):
    real = TurnState.advice

    def bad(self):
        adv = real(self)
        if adv is None:
            return adv
        best = adv.options[0]
        wrong = dataclasses.replace(best, numerator=1000 * best.denominator)
        return dataclasses.replace(adv, options=[wrong, *adv.options[1:]])

    w = TurnWidget(phase=1, layout=COMPACT_LAYOUT, seed=1)
    assert "Roll to start" in w.advice.value and "internal error" not in w.advice.value
    monkeypatch.setattr(TurnState, "advice", bad)
    w.roll_button.click()  # the click's handler draws the board: no exception escapes
    assert w.state.rolls_done == 1
    assert [b.description for b in w.dice_buttons] != ["?"] * 10  # the board follows the roll
    assert_internal_error(w)


def test_the_check_sees_a_clamped_number():
    """:func:`assert_internal_error` fails on advice that shows a percentage."""
    w = TurnWidget(phase=1, layout=COMPACT_LAYOUT, seed=1)
    with pytest.raises(AssertionError):
        assert_internal_error(w)
