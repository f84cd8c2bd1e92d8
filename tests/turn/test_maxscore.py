"""Highest scores: the figures of RULES.md, and hand-derived ones for the Phase 20 phases."""

from phase10math.dice.rules import Rules
from phase10math.turn.maxima import game_maximum, phase_maxima

# RULES.md "Checks any implementation must pass" (found there by exhaustive search)
RULES_MAXIMA = {1: 60, 2: 57, 3: 59, 4: 49, 5: 52, 6: 54, 7: 60, 9: 60, 10: 62}
RULES_MAXIMA_NO_SHARE = {1: 57, 2: 57, 3: 59, 4: 49, 5: 52, 6: 54, 7: 58, 9: 59, 10: 62}


def test_rules_reference_maxima():
    assert phase_maxima(RULES_MAXIMA) == RULES_MAXIMA
    no_share = Rules(sets_may_share_number=False)
    assert phase_maxima(RULES_MAXIMA_NO_SHARE, rules=no_share) == RULES_MAXIMA_NO_SHARE


def test_game_maximum_is_the_manuals_649():
    assert game_maximum() == 649
    # without the bonuses it is the sum of the ten phase maxima
    assert game_maximum(rules=Rules(five_phase_bonus=0, first_finish_bonus=0)) == 649 - 80


def test_phase_20_extension_maxima_derived_by_hand():
    # six high dice show at most 10 each, four low dice at most 4 each
    expected = {
        16: sum(range(1, 11)),  # run of 10 needs every number: 1..10
        20: 6 * 10 + 3 * 4,  # set of 6 tens + set of 3 fours
        19: 6 * 10 + 2 * 4,  # set of 6 tens + set of 2 fours
        17: 5 * 10 + 4 * 4,  # set of 5 tens + set of 4 fours
        11: 3 * (2 * 10) + 2 * 4,  # three pairs of tens + a pair of fours
    }
    assert phase_maxima(expected) == expected
