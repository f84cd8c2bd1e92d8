"""The chance-to-win advice (``win_advice``, ``advise --objective win``) takes faces typed in
any order, as the per-turn advisor does: one answer where every way the faces fit the dice
gives the same best hold, else the best hold of each way and the face whose die decides it;
``dice_of`` / ``--die`` and ``by_die`` / ``--by-die`` place faces. Checked on a game of phase
8 alone on the reduced layout (solved in seconds) against the same faces placed on their dice,
and on the shipped table for a number phase against the faces in the order of the dice.
"""

from __future__ import annotations

import json
import re

import pytest
from clirun import one_line_error, run
from reduced_dice import DECIDED_BY_6O, REDUCED, REDUCED_TEXT, SIXTH, phase8_duel

from phase10math.errors import InvalidDiceError
from phase10math.game.duel import shipped_table, win_advice, write_table
from phase10math.turn.advisor import advise

ME, OPP = (8, 0), (8, 0)
#: DECIDED_BY_6O in the order of the dice, the 6o on die 2 (one of the five) or on die 6
ON_FIVE = "5r 6o 5r 5r 7b 5r 3r 2r 4r 3r"
ON_SIXTH = "5r 5r 5r 5r 7b 6o 3r 2r 4r 3r"


@pytest.fixture(scope="module")
def phase8():
    return phase8_duel()


def test_ways_that_change_the_best_hold_name_the_deciding_die(phase8):
    adv = win_advice(phase8, ME, OPP, DECIDED_BY_6O, 2)
    placed = {
        "five": win_advice(phase8, ME, OPP, DECIDED_BY_6O, 2, dice_of={4: 0}),
        "sixth": win_advice(phase8, ME, OPP, DECIDED_BY_6O, 2, dice_of={4: 5}),
    }
    assert not placed["five"]["fits"] and not placed["sixth"]["fits"]
    assert placed["five"]["best"]["keep"] != placed["sixth"]["best"]["keep"]
    assert len(adv["fits"]) == 2 and adv["deciding_face"] == 5
    # the question the per-turn advisor asks of the same faces
    assert adv["question"] == advise(DECIDED_BY_6O, 2, 8, layout=REDUCED).question
    assert adv["question"].endswith(" or " + SIXTH + "?")
    for f in adv["fits"]:
        way = placed["sixth" if f["deciding_face_on"] == [6] else "five"]
        assert f["best"] == way["best"]
    assert {tuple(f["deciding_face_on"]) for f in adv["fits"]} == {(1, 2, 3, 4, 5), (6,)}
    # the ranking is the first way's
    first = placed["sixth" if adv["fits"][0]["deciding_face_on"] == [6] else "five"]
    assert adv["options"] == first["options"]
    # the faces in the order of the dice say where the 6o is
    for text, way in ((ON_FIVE, "five"), (ON_SIXTH, "sixth")):
        by = win_advice(phase8, ME, OPP, text, 2, by_die=True)
        assert by["options"] == placed[way]["options"] and not by["fits"]


def test_one_answer_when_the_ways_agree(phase8):
    """Where the opponent is far ahead every way gives the same best hold: said once."""
    for opp in ((8, 0), (8, 40)):
        adv = win_advice(phase8, ME, opp, "5r 6o 7b 8g 9o 10g 1r 2r 3r 4r", 2)
        assert not adv["fits"] and adv["question"] is None
        assert adv["note"].endswith("ways; the best hold is the same for all")


@pytest.mark.parametrize(
    "faces, kw, words",
    [
        (
            "3r 5r 5r 5r 6o 5r 7b 2r 4r 3r",
            {"by_die": True},
            "die 1 (5r 6o 7b 8g 9o 10g) has no face 3r",
        ),
        (ON_FIVE, {"by_die": True, "dice_of": {0: 0}}, "not both"),
        (DECIDED_BY_6O, {"dice_of": {4: 6}}, "face 5 (6o) cannot be on die 7"),
        (DECIDED_BY_6O, {"dice_of": {1: 5, 4: 5}}, "are both given on die 6"),
    ],
)
def test_placing_faces_is_checked(phase8, faces, kw, words):
    with pytest.raises(InvalidDiceError, match=re.escape(words)):
        win_advice(phase8, ME, OPP, faces, 2, **kw)


def test_number_phase_faces_in_any_order():
    """Phase 10 of the shipped table: the faces typed in any order get the answer of the
    same faces in the order of the dice (six high dice, then four low)."""
    table = shipped_table()
    ordered = "10 10 10 10 7 7 2 1 W W"
    shuffled = "W 10 2 10 7 1 10 W 7 10"
    want = win_advice(table, (10, 0), (10, 20), ordered, 1, by_die=True)
    got = win_advice(table, (10, 0), (10, 20), shuffled, 1)
    assert got["options"] == want["options"] and got["per_turn"] == want["per_turn"]
    assert "the best hold is the same for all" in got["note"]
    argv = ["advise", "--phase", "10", "--rolls-left", "1", "--objective", "win"]
    code, out, _ = run([*argv, "--me", "10:0", "--opponent", "10:20", *shuffled.split()])
    assert code == 0 and f"{want['best']['keep']:<24} {want['best']['chance_to_win']:>14.6f}" in out
    assert "note: these faces fit the dice in" in out


def test_cli_names_the_deciding_die_and_takes_die(phase8, tmp_path):
    table = tmp_path / "phase8.npz"
    write_table(phase8, table)
    dice = tmp_path / "reduced.txt"
    dice.write_text(REDUCED_TEXT)
    argv = ["advise", "--phase", "8", "--rolls-left", "2", "--objective", "win"]
    argv += ["--me", "8:0", "--opponent", "8:0", "--table", str(table), "--layout", str(dice)]
    code, out, _ = run([*argv, *DECIDED_BY_6O.split()])
    assert code == 0 and "the best hold depends on the dice: is your 6o on" in out
    assert "way 1: your 6o on" in out and "way 2: your 6o on" in out
    sixth = win_advice(phase8, ME, OPP, DECIDED_BY_6O, 2, dice_of={4: 5})
    code, out, _ = run([*argv, "--die", "5=6", "--json", *DECIDED_BY_6O.split()])
    d = json.loads(out)
    assert code == 0 and d["fits"] == [] and d["best"] == sixth["best"]
    code, out, _ = run([*argv, "--by-die", *ON_SIXTH.split()])
    assert code == 0 and "depends" not in out and sixth["best"]["keep"] in out
    code, _, err = run([*argv, "--by-die", "--die", "1=1", *ON_SIXTH.split()])
    assert "give one of them" in one_line_error(err, code)
