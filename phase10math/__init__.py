"""phase10math: exact probabilities and optimal strategies for Phase 10 Dice.

Also covers the Phase 10 card game (:mod:`phase10math.cards`) and the dice game
10,000 (:mod:`phase10math.tenthousand`).

The package reads in layers, each importing only those below it:
:mod:`phase10math.dice` (the rules as data), :mod:`phase10math.turn` (the exact turn solver),
:mod:`phase10math.game` (whole games), :mod:`phase10math.play` (the Jupyter play UI), with the
card game, 10,000 and the command line beside them. The names below are the public API: what a
notebook needs, importable from ``phase10math`` itself.

A tour (each line is checked as a doctest):

>>> import phase10math as p10
>>> roll = p10.parse_faces("8 8 8 10 W W 1 2 5 6")
>>> p10.score(1, roll)                      # phase 1: 8 8 8 + 10 W W
34
>>> p10.PHASES[7].text
'2 sets of 4'
>>> p10.show(p10.solve_turn(1, rules=p10.Rules(rolls=1)).value())
'139241/279936 (0.497403)'
>>> p10.advise(roll, rolls_left=1, phase=1).best.value
Fraction(1, 1)
>>> p10.Objective.parse("score"), p10.Holds.parse("sticky")
(<Objective.SCORE: 'score'>, <Holds.STICKY: 'sticky'>)
"""

import phase10math.startup  # noqa: F401  (first: a Ctrl-C while the rest is imported)
from phase10math import cards, tenthousand
from phase10math.cache import package_version
from phase10math.dice.faces import Die, Face, Layout, parse_face, parse_faces, parse_layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import explain, score
from phase10math.dice.partial import greedy_hold
from phase10math.dice.phases import PHASES, Phase, as_phase, parse_phase
from phase10math.dice.rules import DEFAULT_RULES, Holds, Objective, Rules
from phase10math.errors import Phase10MathError
from phase10math.exact import percent, readable, show
from phase10math.game.engine import Game
from phase10math.game.length import GameLength, simulate_optimal_turns
from phase10math.game.solitaire import comparison as solitaire_comparison
from phase10math.game.strategies import STRATEGY_NAMES, get_strategy, play_game
from phase10math.play import figures
from phase10math.turn.advisor import advise, best_hold
from phase10math.turn.maxima import game_maximum, phase_maxima
from phase10math.turn.solver import solve_custom, solve_turn
from phase10math.turn.tables import (
    cached_solution,
    format_table,
    phase_row,
    phase_table,
    values_by_rolls_left,
)

__version__ = package_version()

__all__ = [
    # dice, layouts, phases, rules
    "Face",
    "Die",
    "Layout",
    "parse_face",
    "parse_faces",
    "parse_layout",
    "DEFAULT_LAYOUT",
    "Phase",
    "PHASES",
    "as_phase",
    "parse_phase",
    "Rules",
    "DEFAULT_RULES",
    "Holds",
    "Objective",
    # does a roll make the phase
    "score",
    "explain",
    "phase_maxima",
    "game_maximum",
    # the exact turn
    "solve_turn",
    "solve_custom",
    "cached_solution",
    "advise",
    "best_hold",
    "phase_row",
    "phase_table",
    "format_table",
    "values_by_rolls_left",
    "greedy_hold",
    # whole games
    "Game",
    "play_game",
    "get_strategy",
    "STRATEGY_NAMES",
    "GameLength",
    "solitaire_comparison",
    "simulate_optimal_turns",
    # numbers and errors
    "show",
    "percent",
    "readable",
    "figures",
    "Phase10MathError",
    # the other games
    "cards",
    "tenthousand",
]
