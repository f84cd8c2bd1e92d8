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

from phase10math._base.lazy import lazy_exports

# the public API: name -> the module that defines it (imported on first use)
__all__, __getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "DuelMethod": "rules",
        "DuelSolution": "duel",
        "PenaltySolution": "penalty",
        "EXTRA_OF_A_KIND": "rules",
        "UNIT": "rules",
        "RollGroup": "odds",
        "RollStats": "odds",
        "ScoringOption": "scoring",
        "TenKRollError": "errors",
        "TenKPreset": "rules",
        "TenKRules": "rules",
        "TenKRulesError": "errors",
        "TenKStateError": "errors",
        "TurnSolution": "turn",
        "bank_cap": "turn",
        "best_option": "scoring",
        "play_turn": "scoring",
        "roll_frequencies": "simulate",
        "roll_groups": "odds",
        "roll_outcomes": "scoring",
        "roll_stats": "odds",
        "score_options": "scoring",
        "simulate_duels": "simulate",
        "simulate_penalty_duels": "simulate",
        "simulate_turns": "simulate",
        "solve_duel": "duel",
        "solve_penalty": "penalty",
        "solve_penalty_duel": "penalty",
        "solve_turn": "turn",
        "turn_ev": "turn",
    },
)
