"""Phases as data and user phrases."""

import pytest

from phase10math.dice.phases import PHASES, Group, as_phase, parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidPhaseError, InvalidRulesError


def test_table_matches_rules_reference():
    assert [g.size for g in PHASES[1].groups] == [3, 3]
    assert {(g.kind, g.size) for g in PHASES[14].groups} == {("run", 4), ("color", 4)}
    assert PHASES[18].groups == (Group("color", 9),)
    assert len(PHASES) == 20 and all(p.number == n for n, p in PHASES.items())
    assert all(p.dice_needed <= 10 for p in PHASES.values())


@pytest.mark.parametrize(
    "text,groups",
    [
        ("1 set of 4 + 1 run of 5", [("set", 4), ("run", 5)]),
        ("7 of one color", [("color", 7)]),
        ("4 sets of 2", [("set", 2)] * 4),
        ("two sets of three", [("set", 3)] * 2),
        ("1 run of 4 and 4 cards of 1 colour", [("run", 4), ("color", 4)]),
        ("9 of all one color", [("color", 9)]),
    ],
)
def test_parse_phrases(text, groups):
    assert [(g.kind, g.size) for g in parse_phase(text).groups] == groups


@pytest.mark.parametrize(
    "bad,msg",
    [
        ("", "empty"),
        ("3 pairs of 2", "cannot read"),
        ("3 sets of 4", "needs 12 dice"),
        ("1 run of 11", "at most 10"),
    ],
)
def test_bad_phrases(bad, msg):
    with pytest.raises(InvalidPhaseError, match=msg):
        parse_phase(bad)


def test_phase_lookup_errors():
    with pytest.raises(InvalidPhaseError, match="phase 21 does not exist"):
        as_phase(21)
    assert as_phase("3") is PHASES[3]


def test_rules_options_validated():
    assert Rules().holds == "free"
    with pytest.raises(InvalidRulesError, match="holds='loose'"):
        Rules(holds="loose")
    with pytest.raises(InvalidRulesError, match="unknown rule option"):
        Rules().replace(wilds=3)
    assert Rules().replace(holds="sticky").holds == "sticky"
