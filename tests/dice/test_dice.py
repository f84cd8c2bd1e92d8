"""Faces, dice, layouts: parsing, validation messages, identical dice."""

import pytest

from phase10math.dice.faces import Face, parse_face, parse_faces, parse_layout
from phase10math.dice.layouts import COMPACT_LAYOUT, DEFAULT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.rolls import match_roll
from phase10math.errors import InvalidDiceError, InvalidLayoutError, Phase10MathError

GOOD = """\
6 x 5r 6o 7b 8g 9r 10o
2 x 1r 2o 3b 4g Wr Wo
2 x 1b 2g 3r 4o Wb Wg
"""


def test_parse_face_forms():
    assert parse_face("10o") == Face(10, "o")
    assert parse_face("Wg") == Face(0, "g") and parse_face("w").is_wild
    assert parse_face("7") == Face(7, None)
    assert parse_face("8 red") == Face(8, "r")
    assert parse_faces("10o, Wg 7") == (Face(10, "o"), Face(0, "g"), Face(7, None))


@pytest.mark.parametrize("bad", ["11", "0", "x", "10q", "", "W purple"])
def test_parse_face_errors_are_clear(bad):
    with pytest.raises(InvalidDiceError) as err:
        parse_face(bad, where="die 3")
    assert "die 3" in str(err.value)
    assert isinstance(err.value, ValueError) and isinstance(err.value, Phase10MathError)


def _printed_dice(text: str) -> list[tuple[int, tuple[Face, ...]]]:
    """(position, faces) of every die a printed layout names, read back from the text."""
    out = []
    for line in text.splitlines()[1:]:
        head, faces = line.split(":", 1)  # "  dice 1-3  3 x high", "5o 6g ..."
        spans = head.split()[1]
        if "-" in spans:
            lo, hi = map(int, spans.split("-"))
            at = range(lo, hi + 1)
        else:
            at = map(int, spans.split(","))
        out += [(i, parse_faces(faces)) for i in at]
    return sorted(out)


@pytest.mark.parametrize("lay", [DEFAULT_LAYOUT, COMPACT_LAYOUT, RECORDED_LAYOUT])
def test_printed_layout_names_each_die_at_its_position(lay):
    """A printed layout lists the dice in layout order with their positions, the order in
    which a roll typed die by die gives the faces."""
    text = str(lay)
    assert _printed_dice(text) == [(i + 1, d.faces) for i, d in enumerate(lay.dice)]
    assert text.splitlines()[1].lstrip().startswith(("die 1 ", "dice 1-", "dice 1,"))


def test_layout_groups_identical_dice():
    lay = parse_layout(GOOD)
    assert sorted(n for _, n in lay.groups()) == [2, 2, 6]
    assert lay.color_count() == {"r": 18, "o": 18, "b": 12, "g": 12}
    # the same layout from the dict form
    again = parse_layout({"dice": [d.faces for d in lay.dice]})
    assert again.fingerprint() == lay.fingerprint()
    assert parse_layout(lay.to_text()).fingerprint() == lay.fingerprint()


def test_layout_errors_name_die_and_face():
    with pytest.raises(InvalidLayoutError, match="10 dice"):
        parse_layout("5r 6o 7b 8g 9r 10o")
    with pytest.raises(InvalidLayoutError, match=r"line 1, face 6 \(10x\)|line 1.*face 6"):
        parse_layout(GOOD.replace("10o", "10x", 1))
    bad_faces = GOOD.replace("6 x 5r 6o 7b 8g 9r 10o", "6 x 5r 6o 7b 8g 9r")
    with pytest.raises(InvalidLayoutError, match="5 faces"):
        parse_layout(bad_faces)
    with pytest.raises(InvalidLayoutError, match=r"die 1 \(high\) shows 5, 6, 7, 8, 9, 9"):
        parse_layout(GOOD.replace("10o", "9o", 1))
    with pytest.raises(InvalidLayoutError, match="needs a color"):
        parse_layout(GOOD.replace("10o", "10", 1))


def test_default_layout_facts():
    assert DEFAULT_LAYOUT.color_count() == {c: 15 for c in "robg"}
    wild_colors = {f.color for d in DEFAULT_LAYOUT.dice for f in d.faces if f.is_wild}
    assert wild_colors == set("robg")
    # the manual's example hand can be rolled (seven different dice)
    hand = parse_faces("2o 4o Wo 5o 8o 9o 10o")
    owners = match_roll(hand, DEFAULT_LAYOUT)
    assert len(set(owners)) == 7


def test_match_roll_errors():
    with pytest.raises(InvalidDiceError, match="only the 4 low"):
        match_roll(parse_faces("5 6 7 8 9 3 3 3 3 3"), DEFAULT_LAYOUT)
    with pytest.raises(InvalidDiceError, match="only the 6 high"):
        match_roll(parse_faces("5 6 7 8 9 10 10 1 2 3"), DEFAULT_LAYOUT)
    # a face no die of the layout has (the recorded dice show every high face in every color;
    # the compact ones do not)
    missing = next(
        f"{v}{c}"
        for v in range(5, 11)
        for c in "robg"
        if not any(g.value == v and g.color == c for d in COMPACT_LAYOUT.dice for g in d.faces)
    )
    with pytest.raises(InvalidDiceError, match="no die of layout"):
        match_roll(parse_faces(missing + " 5 6 7 8 9 1 2 3 4"), COMPACT_LAYOUT)
