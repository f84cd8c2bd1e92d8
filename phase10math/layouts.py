"""Dice layouts shipped with the kit (the face-to-color layout of the real dice is not published).

>>> DEFAULT_LAYOUT.color_count()
{'r': 15, 'o': 15, 'b': 15, 'g': 15}
"""

from __future__ import annotations

from phase10math.dice import Layout, parse_layout

# PROVISIONAL default layout (to be replaced by the result of the layout search):
# faces of high dice in the order 5 6 7 8 9 10, of low dice 1 2 3 4 W W.
DEFAULT_LAYOUT_TEXT = """\
5o 6b 7g 8g 9r 10g
5g 6b 7o 8r 9o 10g
5b 6r 7b 8r 9r 10r
5g 6o 7o 8o 9r 10r
5g 6b 7r 8g 9b 10o
5g 6b 7o 8r 9o 10g
1b 2g 3r 4b Wb Wg
1b 2g 3b 4o Wb Wr
1b 2r 3r 4r Wo Wo
1b 2o 3o 4g Wo Wg
"""

DEFAULT_LAYOUT: Layout = parse_layout(DEFAULT_LAYOUT_TEXT, name="default")
