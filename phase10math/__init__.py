"""phase10math: exact probabilities and optimal strategies for Phase 10 Dice.

Also covers the Phase 10 card game (:mod:`phase10math.cards`) and the dice game
10,000 (:mod:`phase10math.tenthousand`).

The package reads in layers, each importing only those below it:
:mod:`phase10math.dice` (the rules as data), :mod:`phase10math.turn` (the exact turn solver),
:mod:`phase10math.game` (whole games), :mod:`phase10math.play` (the Jupyter play UI), with the
card game, 10,000 and the command line beside them. The names below are the public API: what a
notebook needs, importable from ``phase10math`` itself; each is imported from its module on
first use, so that ``import phase10math`` (and the command line's ``--help``) stays light.

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

import phase10math._base.startup  # noqa: F401  (first: a Ctrl-C while the rest is imported)
from phase10math._base.lazy import lazy_exports

# the public API: name -> its module ("module:attribute" where the name differs); and
# __version__, read on first use (importlib.metadata takes a while to import)
__all__, __getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "__version__": "version:VERSION",
        # dice, layouts, phases, rules
        "Face": "dice.faces",
        "Die": "dice.faces",
        "Layout": "dice.faces",
        "parse_face": "dice.faces",
        "parse_faces": "dice.faces",
        "parse_layout": "dice.faces",
        "DEFAULT_LAYOUT": "dice.layouts",
        "Phase": "dice.phases",
        "PHASES": "dice.phases",
        "as_phase": "dice.phases",
        "parse_phase": "dice.phases",
        "Rules": "dice.rules",
        "DEFAULT_RULES": "dice.rules",
        "Holds": "dice.rules",
        "Objective": "dice.rules",
        # does a roll make the phase
        "score": "dice.meld",
        "explain": "dice.meld",
        "phase_maxima": "turn.maxima",
        "game_maximum": "turn.maxima",
        # the exact turn
        "solve_turn": "turn.solver",
        "solve_custom": "turn.solver",
        "cached_solution": "turn.tables",
        "advise": "turn.advisor",
        "best_hold": "turn.advisor",
        "phase_row": "turn.tables",
        "phase_table": "turn.tables",
        "format_table": "turn.tables",
        "values_by_rolls_left": "turn.tables",
        "greedy_hold": "dice.partial",
        # whole games
        "Game": "game.engine",
        "play_game": "game.strategies",
        "get_strategy": "game.strategies",
        "STRATEGY_NAMES": "game.strategies",
        "GameLength": "game.length",
        "solitaire_comparison": "game.solitaire:comparison",
        "simulate_optimal_turns": "game.length",
        # numbers and errors
        "show": "exact",
        "percent": "exact",
        "readable": "exact",
        "figures": "play:figures",
        "Phase10MathError": "errors",
        # the other games
        "cards": "cards",
        "tenthousand": "tenthousand",
    },
)
__all__.remove("__version__")
