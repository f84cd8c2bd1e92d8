"""The Phase 10 card game: cards, phases, lay-down and hit rules, exact deal odds,
draw-by-draw odds and a game simulator.

>>> from phase10math.cards import dealt_probability, show
>>> show(dealt_probability(8))
'178592620277/6453803205135 (0.027672)'
"""

from phase10math._base.lazy import lazy_exports
from phase10math.exact import show as show  # re-exported

# the public API: name -> the module that defines it (imported on first use)
__all__, __getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "COLORS": "deck",
        "SKIP": "deck",
        "STANDARD": "deck",
        "WILD": "deck",
        "Card": "deck",
        "DeckSpec": "deck",
        "format_cards": "deck",
        "hand_points": "deck",
        "parse_card": "deck",
        "parse_hand": "deck",
        "InvalidCardError": "errors",
        "InvalidCardPhaseError": "errors",
        "InvalidDeckError": "errors",
        "InvalidHitError": "errors",
        "InvalidLayDownError": "errors",
        "PHASE_TEXTS": "phases",
        "Group": "phases",
        "Phase": "phases",
        "find_laydown": "phases",
        "holds_phase": "phases",
        "parse_phase": "phases",
        "phase": "phases",
        "shortfall": "phases",
        "LaidGroup": "rules",
        "can_hit": "rules",
        "hit": "rules",
        "make_group": "rules",
        "validate_laydown": "rules",
        "DealtOdds": "dealt",
        "Estimate": "dealt",
        "brute_force_odds": "dealt",
        "dealt_odds": "dealt",
        "dealt_probability": "dealt",
        "dealt_table": "dealt",
        "simulate_dealt": "dealt",
        "simulate_draws": "draws",
        "play_game": "game",
        "wilds_needed": "mixed",
    },
)
__all__.append("show")  # the exact fractions as text, as everywhere in the kit
