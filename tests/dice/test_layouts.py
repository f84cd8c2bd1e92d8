"""Named layouts, the recorded physical dice, and the layout report (``phase10math layout``)."""

import json
from collections import Counter

import numpy as np
import pytest

from phase10math.cli import main
from phase10math.dice.faces import COLORS, WILD, parse_layout
from phase10math.dice.layouts import (
    COMPACT_LAYOUT,
    DEFAULT_LAYOUT,
    LAYOUTS,
    RECORDED_LAYOUT,
    get_layout,
)
from phase10math.dice.meld import best_scores
from phase10math.dice.phases import parse_phase
from phase10math.errors import InvalidLayoutError, InvalidPhaseError
from phase10math.turn.maxima import (
    layout_report,
    min_phase_score,
    one_color_group_max,
    one_color_group_min,
    roll_profiles,
)

# RULES.md, "Checks any implementation must pass" (default rules, any layout)
PHASE_MAXIMA = {1: 60, 2: 57, 3: 59, 4: 49, 5: 52, 6: 54, 7: 60, 9: 60, 10: 62}


def test_names_resolve_and_junk_is_refused():
    assert set(LAYOUTS) == {"recorded", "compact"}
    assert get_layout("recorded") is RECORDED_LAYOUT and get_layout("COMPACT") is COMPACT_LAYOUT
    assert get_layout(RECORDED_LAYOUT) is RECORDED_LAYOUT
    assert get_layout("default") is DEFAULT_LAYOUT
    assert get_layout(COMPACT_LAYOUT.to_text()).fingerprint() == COMPACT_LAYOUT.fingerprint()
    for bad in ("fancy", "", None, 3):
        with pytest.raises(InvalidLayoutError):
            get_layout(bad)


def test_recorded_dice_meet_the_facts_of_the_rules():
    dice = RECORDED_LAYOUT.dice
    assert len(set(dice)) == 10  # no two alike
    assert RECORDED_LAYOUT.color_count() == dict.fromkeys(COLORS, 15)
    low = [d for d in dice if d.kind == "low"]
    for n in (1, 2, 3, 4):  # each low number once in each color
        assert Counter(f.color for d in low for f in d.faces if f.value == n) == Counter(COLORS)
    assert {f.color for d in low for f in d.faces if f.value == WILD} == set(COLORS)


@pytest.mark.parametrize("k", [7, 9])
def test_one_color_group_closed_form_equals_enumerating_every_roll(k):
    ph = parse_phase(f"{k} of one color")
    best = max(int(best_scores(ph, prof).max()) for prof in roll_profiles(COMPACT_LAYOUT, ph))
    assert one_color_group_max(k, COMPACT_LAYOUT) == best


def _least_by_every_roll(ph, layout):
    """The least of the rolls' best scores, by scoring every roll (the reference)."""
    made = [s[s >= 0] for s in (best_scores(ph, prof) for prof in roll_profiles(layout, ph))]
    return min(int(s.min()) for s in made if len(s))


@pytest.mark.parametrize("k", [7, 9])
def test_least_score_of_one_color_equals_enumerating_every_roll(k):
    ph = parse_phase(f"{k} of one color")
    least = _least_by_every_roll(ph, COMPACT_LAYOUT)
    assert one_color_group_min(k, COMPACT_LAYOUT) == min_phase_score(ph, COMPACT_LAYOUT) == least
    # dice with a die of one color only (it always shows that color): green on the first die
    d = COMPACT_LAYOUT.to_dict()
    d["dice"][0] = ["5g", "6g", "7g", "8g", "9g", "10g"]
    other = parse_layout(d)
    assert one_color_group_min(k, other) == _least_by_every_roll(ph, other)


def test_least_score_of_one_color_refuses_where_two_colors_could_make_it():
    with pytest.raises(InvalidPhaseError, match="two colors"):
        one_color_group_min(5, COMPACT_LAYOUT)
    # ... where min_phase_score scores every roll instead
    ph = parse_phase("5 of one color")
    assert min_phase_score(ph, COMPACT_LAYOUT) == _least_by_every_roll(ph, COMPACT_LAYOUT)


@pytest.mark.parametrize("name", ["recorded", "compact"])
def test_layout_report_gives_the_manuals_facts(name):
    r = layout_report(get_layout(name))
    assert r.example_hand_rollable
    assert {k: v for k, v in r.phase_maxima.items() if k != 8} == PHASE_MAXIMA
    assert r.phase_maxima[8] == 56 and r.game_maximum == 649
    assert r.faces_per_color == dict.fromkeys(COLORS, 15)
    assert set(r.wild_colors) == set(COLORS)


def test_layout_command_json_round_trips(capsys):
    assert main(["layout", "--layout", "recorded", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["name"] == "recorded" and out["game_maximum"] == 649
    assert len(out["dice"]) == 10 and all(len(d) == 6 for d in out["dice"])
    again = parse_layout("\n".join(" ".join(d) for d in out["dice"]))
    assert again.fingerprint() == RECORDED_LAYOUT.fingerprint()


def test_layout_command_text_and_bad_name(capsys):
    assert main(["layout"]) == 0
    assert "649" in capsys.readouterr().out
    assert main(["layout", "--layout", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "built-in layout (recorded, compact)" in err and "\n" not in err.strip()


def test_recorded_example_faces_are_on_seven_different_dice():
    from phase10math.dice.faces import parse_faces
    from phase10math.dice.rolls import match_roll

    where = match_roll(parse_faces("2o 4o Wo 5o 8o 9o 10o"), RECORDED_LAYOUT)
    assert len(set(where)) == 7
    assert np.all(np.array(where) < 10)
