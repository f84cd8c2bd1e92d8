"""Dice layouts shipped with the kit: the recorded physical set (the default) and a compact one.

The manual does not print which color each face has. **The default layout is the recorded
set** (:data:`RECORDED_LAYOUT`): the one transcription of a physical set we know of (the
comments of a public student project, GitHub ``ladyrayrays/Phase-10-Dice-Virtual-Board-Game``,
files ``Die1.java`` and ``Die2.java``, list every face's color). It meets every published fact
(RULES.md section 1): the manual's example hand "2, 4, W, 5, 8, 9, 10, all orange" is rollable
on seven different dice, each color is on 15 of the 60 faces, the eight W faces come in all four
colors, and the best "7 of one color" is 56 (orange), so the manual's maximum game score 649
holds. How sure we are: it is one person's transcription of one set; it agrees with every fact
the manual states, but nothing else confirms it. No two of its ten dice are alike, so
color-aware play has 7**10 holds (solved by :mod:`phase10math.turn.tensor`).

:data:`COMPACT_LAYOUT` (``compact``; the kit's default before the recorded set was found) is
the result of the search in :mod:`phase10math.dice.layout_search` (reproduce with ``python -m
phase10math.dice.layout_search``): the layout with the fewest kinds of dice that meets the same
facts (5 kinds; no layout with 4 or fewer does, see the proof there). Its color phases solve
in a second on 84 * 28 * 7 * 84 * 7 = 9,680,832 states:

====  =====  =========================
type  dice   faces
====  =====  =========================
A     3 high 5o 6g 7b 8b 9r 10r
B     2 high 5g 6r 7r 8o 9o 10b
C     1 high 5b 6b 7g 8r 9b 10o
D     3 low  1g 2o 3b 4o Wr Wg
E     1 low  1r 2g 3g 4g Wo Wb
====  =====  =========================

>>> DEFAULT_LAYOUT is RECORDED_LAYOUT
True
>>> DEFAULT_LAYOUT.color_count(), COMPACT_LAYOUT.color_count()
({'r': 15, 'o': 15, 'b': 15, 'g': 15}, {'r': 15, 'o': 15, 'b': 15, 'g': 15})
>>> sorted(n for _, n in DEFAULT_LAYOUT.groups()), sorted(n for _, n in COMPACT_LAYOUT.groups())
([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 2, 3, 3])
"""

from __future__ import annotations

from phase10math._base.checks import unchecked
from phase10math.dice.faces import Layout, parse_layout
from phase10math.errors import InvalidLayoutError

# faces of high dice in the order 5 6 7 8 9 10, of low dice 1 2 3 4 W W
COMPACT_LAYOUT_TEXT = """\
3 x 5o 6g 7b 8b 9r 10r
2 x 5g 6r 7r 8o 9o 10b
1 x 5b 6b 7g 8r 9b 10o
3 x 1g 2o 3b 4o Wr Wg
1 x 1r 2g 3g 4g Wo Wb
"""


# the one transcription of a physical set (RULES.md section 1): ten different dice
RECORDED_LAYOUT_TEXT = """\
1 x 5r 6o 7b 8g 9o 10g
1 x 5g 6r 7g 8o 9b 10r
1 x 5o 6b 7r 8b 9g 10o
1 x 5r 6g 7o 8b 9r 10b
1 x 5b 6b 7r 8o 9r 10g
1 x 5b 6o 7g 8r 9g 10o
1 x 1b 2g 3o 4g Wr Wo
1 x 1r 2b 3g 4o Wb Wo
1 x 1o 2r 3r 4b Wg Wb
1 x 1g 2o 3b 4r Wr Wg
"""

with unchecked():  # the shipped layouts, known good: no argument checks at import
    _RECORDED = parse_layout(RECORDED_LAYOUT_TEXT, name="recorded")
    _COMPACT = parse_layout(COMPACT_LAYOUT_TEXT, name="compact")

RECORDED_LAYOUT: Layout = _RECORDED
"""The recorded physical dice: no two alike, so color-aware play has 7**10 holds (solved by
:mod:`phase10math.turn.tensor`)."""

COMPACT_LAYOUT: Layout = _COMPACT
"""The layout with the fewest kinds of dice that meets every published fact (five kinds)."""

DEFAULT_LAYOUT: Layout = RECORDED_LAYOUT
"""The default layout: the recorded physical set (RULES.md section 1)."""

#: The layouts shipped with the kit, by name.
LAYOUTS: dict[str, Layout] = {"recorded": RECORDED_LAYOUT, "compact": COMPACT_LAYOUT}

#: The manual's example hand, "2, 4, W, 5, 8, 9, 10, all orange" (seven different dice).
EXAMPLE_HAND = "2o 4o Wo 5o 8o 9o 10o"


def get_layout(spec: str | Layout) -> Layout:
    """A layout from its name (``"recorded"``, ``"compact"``), a layout's text (one die a line,
    see :func:`~phase10math.dice.faces.parse_layout`) or a :class:`Layout` (returned as is).

    >>> get_layout("compact").name, get_layout(" Recorded ").name
    ('compact', 'recorded')
    >>> get_layout("default") is DEFAULT_LAYOUT
    True
    >>> get_layout("fancy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    phase10math.errors.InvalidLayoutError: unknown layout 'fancy': give recorded, compact, or ...
    """
    if isinstance(spec, Layout):
        return spec
    if not isinstance(spec, str):
        raise InvalidLayoutError(f"a layout is a name or text, not {type(spec).__name__}")
    key = spec.strip().lower()
    if key == "default":
        return DEFAULT_LAYOUT
    if key in LAYOUTS:
        return LAYOUTS[key]
    if "\n" not in spec.strip():
        raise InvalidLayoutError(
            f"unknown layout {spec!r}: give {', '.join(LAYOUTS)}, or the ten dice one a line "
            "(e.g. '5r 6o 7b 8g 9r 10o')"
        )
    return parse_layout(spec)
