"""The exact turn: one player's three rolls, solved by dynamic programming.

Modules, in reading order:

- :mod:`~phase10math.turn.projection` - which features of a face a phase looks at.
- :mod:`~phase10math.turn.statespace` - holds of projected dice as integer states.
- :mod:`~phase10math.turn.kernels` - the recurrence's steps: expectation over rerolls, subset max.
- :mod:`~phase10math.turn.tensor` - the same steps in place on one tensor, for distinct dice.
- :mod:`~phase10math.turn.sticky` - the step for sticky holds (set-aside dice stay aside).
- :mod:`~phase10math.turn.engine` - ``engine_for`` picks the engine; the one backward induction.
- :mod:`~phase10math.turn.batchsteps` - the batch engine's compiled steps (many float utilities).
- :mod:`~phase10math.turn.solver` - the dynamic program for any utility; ``solve_turn``.
- :mod:`~phase10math.turn.policy` - fixed policies (greedy) and their exact evaluation.
- :mod:`~phase10math.turn.batch` - many utilities of a turn's outcome solved at once (float64).
- :mod:`~phase10math.turn.family` - exactly solved policies kept: a proven interval for any utility.
- :mod:`~phase10math.turn.holdtable` - decisions by lookup: a solved policy's best holds.
- :mod:`~phase10math.turn.tables` - cached solutions and the per-phase tables.
- :mod:`~phase10math.turn.advisor` - ranked holds for a roll, with a reason in plain words.
- :mod:`~phase10math.turn.maxima` - the highest score per phase and per game.
- :mod:`~phase10math.turn.assess` - a strategy written as a function, evaluated exactly; grading.
- :mod:`~phase10math.turn.thumb` - rules of thumb: short keep rules, each priced exactly.
"""

from phase10math._base.lazy import lazy_exports

# the public API: name -> the module that defines it (imported on first use)
__all__, __getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "solve_turn": "solver",
        "solve_custom": "solver",
        "Advice": "advisor",
        "advise": "advisor",
        "best_hold": "advisor",
        "cached_solution": "tables",
        "cached_holds": "tables",
        "HoldTable": "holdtable",
        "phase_row": "tables",
        "phase_table": "tables",
        "shipped_row": "tables",
        "format_table": "tables",
        "values_by_rolls_left": "tables",
        "phase_maxima": "maxima",
        "game_maximum": "maxima",
        "assess_strategy": "assess",
        "grade": "assess",
        "class_table": "assess",
        "solver_strategy": "assess",
        "strategy_policy": "assess",
        "load_hand_in": "assess",
        "shipped_rules": "thumb",
        "card_strategy": "thumb",
    },
)
