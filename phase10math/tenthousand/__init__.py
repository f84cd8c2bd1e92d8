"""10,000 (six-dice game of the Farkle family): scoring, exact odds, optimal play.

- :mod:`~phase10math.tenthousand.rules`: the rule options (:class:`TenKRules`).
- :mod:`~phase10math.tenthousand.scoring`: every legal set-aside of a roll.
- :mod:`~phase10math.tenthousand.odds`: exact single-roll statistics.
- :mod:`~phase10math.tenthousand.turn`: the optimal turn (exact expected points banked).
- :mod:`~phase10math.tenthousand.layered`: the proven two-player solver (score layers).
- :mod:`~phase10math.tenthousand.penalty`: the proven duel with a farkle penalty (facebook).
- :mod:`~phase10math.tenthousand.duel`: optimal two-player play (win probability, advice).
- :mod:`~phase10math.tenthousand.simulate`: seeded Monte Carlo checks.

>>> from phase10math.tenthousand import TenKRules, roll_stats
>>> roll_stats(6, TenKRules()).p_no_score
Fraction(5, 216)
"""

from phase10math.tenthousand.duel import DuelMethod, DuelSolution, solve_duel
from phase10math.tenthousand.errors import TenKRollError, TenKRulesError, TenKStateError
from phase10math.tenthousand.odds import RollGroup, RollStats, roll_groups, roll_stats
from phase10math.tenthousand.penalty import PenaltySolution, solve_penalty, solve_penalty_duel
from phase10math.tenthousand.rules import EXTRA_OF_A_KIND, UNIT, TenKPreset, TenKRules
from phase10math.tenthousand.scoring import (
    ScoringOption,
    best_option,
    play_turn,
    roll_outcomes,
    score_options,
)
from phase10math.tenthousand.simulate import (
    roll_frequencies,
    simulate_duels,
    simulate_penalty_duels,
    simulate_turns,
)
from phase10math.tenthousand.turn import TurnSolution, bank_cap, solve_turn, turn_ev

__all__ = [
    "DuelMethod",
    "DuelSolution",
    "PenaltySolution",
    "EXTRA_OF_A_KIND",
    "UNIT",
    "RollGroup",
    "RollStats",
    "ScoringOption",
    "TenKRollError",
    "TenKPreset",
    "TenKRules",
    "TenKRulesError",
    "TenKStateError",
    "TurnSolution",
    "bank_cap",
    "best_option",
    "play_turn",
    "roll_frequencies",
    "roll_groups",
    "roll_outcomes",
    "roll_stats",
    "score_options",
    "simulate_duels",
    "simulate_penalty_duels",
    "simulate_turns",
    "solve_duel",
    "solve_penalty",
    "solve_penalty_duel",
    "solve_turn",
    "turn_ev",
]
