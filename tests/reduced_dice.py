"""A reduced layout for tests of typed faces on different dice: five identical high dice and
a sixth that shares 5r and 6o with them, four identical low dice. Its color phase 8 solves in
well under a second, and where the 6o of ``DECIDED_BY_6O`` lies (one of the five, or die 6)
changes the best hold."""

from __future__ import annotations

import json
from functools import cache

from phase10math.dice.faces import Layout, parse_layout
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Rules
from phase10math.game.duel import DuelGame, DuelSolution, solve_duel
from phase10math.turn.family import TurnFamily

REDUCED_TEXT = """\
5 x 5r 6o 7b 8g 9o 10g
1 x 5r 6o 7o 8b 9r 10b
4 x 1r 2r 3r 4r Wr Wr
"""
REDUCED = parse_layout(REDUCED_TEXT, name="reduced")
#: the 6o on an A die (1-5) or on die 6 changes the best hold of phase 8
DECIDED_BY_6O = "7b 5r 5r 5r 6o 5r 3r 2r 4r 3r"
SIXTH = "die 6 (5r 6o 7o 8b 9r 10b)"


def other_colors() -> Layout:
    """The compact dice with two colors swapped on one die: the same numbers, other colors
    (no shipped table solved phase 8 on them)."""
    text = json.dumps(COMPACT_LAYOUT.to_dict()).replace('"10r"', '"10g"', 1)
    return parse_layout(json.loads(text))


@cache
def phase8_duel() -> DuelSolution:
    """The two-player game of phase 8 alone on the reduced dice, the kit's rules (solved in
    a few seconds)."""
    fam = TurnFamily.for_phase(PHASES[8], Rules(), REDUCED, tol=1e-6)
    return solve_duel(DuelGame({8: PHASES[8]}, Rules(), REDUCED, turns={8: fam}), target=1e-4)
