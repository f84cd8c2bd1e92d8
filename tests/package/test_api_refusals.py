"""Public functions refuse what they cannot answer with the package's own errors (never
numpy's), and read what they are given as written."""

from __future__ import annotations

import numpy as np
import pytest

from phase10math.cards.draws import simulate_draws
from phase10math.cards.errors import InvalidCardPhaseError
from phase10math.cards.phases import parse_phase as parse_card_phase
from phase10math.dice.faces import parse_layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import best_scores, profile
from phase10math.dice.phases import as_phase
from phase10math.dice.reroll import reroll_value, simulate_reroll
from phase10math.errors import (
    InvalidDiceError,
    InvalidLayoutError,
    InvalidPhaseError,
    Phase10MathError,
)
from phase10math.game.duel import table_for_state
from phase10math.game.length import simulate_game_lengths

DICE = DEFAULT_LAYOUT.dice[:3]


@pytest.mark.parametrize("text", ["0 sets of 3 + 1 run of 4", "1 run of 4, 0 sets of 2"])
def test_a_part_of_no_groups_is_refused(text):
    with pytest.raises(InvalidPhaseError, match="at least one"):
        as_phase(text)


@pytest.mark.parametrize("text", ["0 sets of 3 + 1 run of 4", "1 run of 4 + 0 sets of 2"])
def test_a_card_phase_part_of_no_groups_is_refused_as_such(text):
    with pytest.raises(InvalidCardPhaseError, match="at least one group"):
        parse_card_phase(text)


def test_a_face_of_an_unknown_color_is_not_read_as_a_repeat_count():
    with pytest.raises(InvalidLayoutError, match="unknown color 'x'"):
        parse_layout("5x 6o 7b 8g 9r 10o\n" * 6 + "1r 2o 3b 4g Wr Wo\n" * 4)
    text = "6x 5r 6o 7b 8g 9r 10o\n4x 1r 2o 3b 4g Wr Wo"  # counts: still read as counts
    assert len(parse_layout(text).dice) == 10


@pytest.mark.parametrize(
    "call",
    [
        lambda: simulate_reroll(1, "1 1", DICE, n=-1),
        lambda: simulate_reroll(1, "1 1", DICE, n=0),
        lambda: simulate_reroll(1, "1 1", DICE, seed=-1),
        lambda: simulate_reroll(1, "1 1", [], n=10),
        lambda: reroll_value(1, "1 1", []),
        lambda: best_scores(1, np.zeros(5, dtype=int)),
        lambda: best_scores(1, np.zeros((2, 3, 4), dtype=int)),
        lambda: best_scores(1, profile("1 1 1")[None], chunk=0),
        lambda: simulate_game_lengths("greedy", -1, phases=1),
        lambda: simulate_game_lengths("greedy", 3, phases=1, seed=-1),
        lambda: simulate_draws(1, trials=-1),
        lambda: simulate_draws(1, trials=5, seed=-1),
    ],
)
def test_bad_arguments_of_the_helpers_raise_package_errors(call):
    with pytest.raises(Phase10MathError):
        call()


def test_the_helpers_still_answer_good_arguments():
    assert best_scores(1, profile("8 8 8 10 W W 1 2 5 6")[None], chunk=1).tolist() == [34]
    with pytest.raises(InvalidDiceError):
        reroll_value(1, "1", [])


def test_a_packed_table_reads_numpy_integer_states():
    sol = table_for_state((3, 60), (7, 140), DEFAULT_LAYOUT)
    g = sol.game
    plain = g.key_of(0, (3, 60), (7, 140))
    numpy = g.key_of(0, (np.int64(3), np.int64(60)), (np.int64(7), np.int64(140)))
    assert np.array_equal(sol.utility(numpy)[0], sol.utility(plain)[0])
