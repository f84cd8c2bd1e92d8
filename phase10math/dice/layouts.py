"""Dice layouts shipped with the kit (the face-to-color layout of the real dice is not published).

The default layout is the result of the search in :mod:`phase10math.dice.layout_search`
(reproduce with ``python -m phase10math.dice.layout_search``). It satisfies every published fact
(RULES.md section 1):

1. the manual's example hand "2, 4, W, 5, 8, 9, 10, all orange" is rollable on seven different
   dice: 5o on a die of type A, 8o and 9o on the two dice of type B, 10o on die C, 2o and 4o on
   two dice of type D, Wo on die E;
2. each color is on exactly 15 of the 60 faces;
3. the 8 W faces come in all four colors (Wr Wg on the D dice, Wo Wb on E);
4. the best "7 of one color" (phase 8) score is 56, so the manual's maximum game score
   649 = 513 + 56 + 40 + 40 holds. Best per color: red 53, orange 47, blue 56
   (10b 10b 9b 8b 8b 8b 3b), green 39.

Why this one. It has as few distinct dice as possible, 5 types (no layout with 4 or fewer
satisfies 1-3, see the proof in :mod:`phase10math.dice.layout_search`); of the three 5-type
structures that work it gives the solver the fewest states; every (value, color) face is on one
die type only (a roll written as faces tells which dice show it); and every die shows all four
colors (so phase 8 can be made in every color).

====  =====  =========================  ==========================================
type  dice   faces                      states C(m + f, f), f distinct faces
====  =====  =========================  ==========================================
A     3 high 5o 6g 7b 8b 9r 10r         C(9, 6) = 84
B     2 high 5g 6r 7r 8o 9o 10b         C(8, 6) = 28
C     1 high 5b 6b 7g 8r 9b 10o         C(7, 6) = 7
D     3 low  1g 2o 3b 4o Wr Wg          C(9, 6) = 84
E     1 low  1r 2g 3g 4g Wo Wb          C(7, 6) = 7
====  =====  =========================  ==========================================

Solver states for color-aware play: 84 * 28 * 7 * 84 * 7 = 9,680,832.

>>> DEFAULT_LAYOUT.color_count()
{'r': 15, 'o': 15, 'b': 15, 'g': 15}
>>> sorted(n for _, n in DEFAULT_LAYOUT.groups())
[1, 1, 2, 3, 3]
"""

from __future__ import annotations

from phase10math.dice.faces import Layout, parse_layout

# faces of high dice in the order 5 6 7 8 9 10, of low dice 1 2 3 4 W W
DEFAULT_LAYOUT_TEXT = """\
3 x 5o 6g 7b 8b 9r 10r
2 x 5g 6r 7r 8o 9o 10b
1 x 5b 6b 7g 8r 9b 10o
3 x 1g 2o 3b 4o Wr Wg
1 x 1r 2g 3g 4g Wo Wb
"""

DEFAULT_LAYOUT: Layout = parse_layout(DEFAULT_LAYOUT_TEXT, name="default")

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

RECORDED_LAYOUT: Layout = parse_layout(RECORDED_LAYOUT_TEXT, name="recorded")
"""The recorded physical dice: no two alike, so color-aware play has 7**10 holds (solved by
:mod:`phase10math.turn.tensor`)."""
