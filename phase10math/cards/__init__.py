"""The Phase 10 card game: cards, phases, lay-down and hit rules, exact deal odds,
draw-by-draw odds and a game simulator.

>>> from phase10math.cards import dealt_probability, show
>>> show(dealt_probability(8))
'178592620277/6453803205135 (0.027672)'
"""

from phase10math.cards.dealt import (
    DealtOdds,
    Estimate,
    brute_force_odds,
    dealt_odds,
    dealt_probability,
    dealt_table,
    simulate_dealt,
)
from phase10math.cards.deck import (
    COLORS,
    SKIP,
    STANDARD,
    WILD,
    Card,
    DeckSpec,
    format_cards,
    hand_points,
    parse_card,
    parse_hand,
)
from phase10math.cards.draws import simulate_draws
from phase10math.cards.errors import (
    InvalidCardError,
    InvalidCardPhaseError,
    InvalidDeckError,
    InvalidHitError,
    InvalidLayDownError,
)
from phase10math.cards.game import play_game
from phase10math.cards.mixed import wilds_needed
from phase10math.cards.phases import (
    PHASE_TEXTS,
    Group,
    Phase,
    find_laydown,
    holds_phase,
    parse_phase,
    phase,
    shortfall,
)
from phase10math.cards.rules import LaidGroup, can_hit, hit, make_group, validate_laydown
from phase10math.exact import show

__all__ = [
    "COLORS",
    "SKIP",
    "STANDARD",
    "WILD",
    "Card",
    "DeckSpec",
    "format_cards",
    "hand_points",
    "parse_card",
    "parse_hand",
    "InvalidCardError",
    "InvalidCardPhaseError",
    "InvalidDeckError",
    "InvalidHitError",
    "InvalidLayDownError",
    "PHASE_TEXTS",
    "Group",
    "Phase",
    "find_laydown",
    "holds_phase",
    "parse_phase",
    "phase",
    "shortfall",
    "LaidGroup",
    "can_hit",
    "hit",
    "make_group",
    "validate_laydown",
    "DealtOdds",
    "Estimate",
    "brute_force_odds",
    "dealt_odds",
    "dealt_probability",
    "dealt_table",
    "simulate_dealt",
    "simulate_draws",
    "play_game",
    "wilds_needed",
    "show",
]
