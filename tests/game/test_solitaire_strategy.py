"""The solitaire strategy: it plays games that match its exact value, is offered without solving,
and its simulation needs at least two games."""

from __future__ import annotations

import numpy as np
import pytest
from clirun import one_line_error, run

from phase10math.dice.faces import parse_layout
from phase10math.dice.rules import Rules
from phase10math.errors import (
    InvalidRulesError,
)
from phase10math.game.engine import Game
from phase10math.game.solitaire import comparison, solve_solitaire
from phase10math.game.strategies import SolitaireStrategy, get_strategy

# two kinds of dice (six alike high, four alike low): every phase, the color phase 8 too, on a
# small state space (the strategy's solve on ten different dice, the tensor engine, is checked
# in test_solitaire_tensor.py)
TWO_KINDS = parse_layout("6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo")


@pytest.fixture(scope="module")
def small_solitaire(tmp_path_factory):
    """Optimal solitaire under reduced rules (two rolls, no five-phase bonus): 11 states."""
    rules = Rules(rolls=2, five_phase_threshold=10**6)
    return rules, solve_solitaire(rules, TWO_KINDS, show_progress=False)


def test_solitaire_strategy_plays_games_and_matches_the_exact_value(small_solitaire):
    rules, sol = small_solitaire
    strat = SolitaireStrategy(rules, TWO_KINDS, solution=sol)
    # in a game with another player
    greedy = get_strategy("greedy", rules, TWO_KINDS)
    res = Game([strat, greedy], rules=rules, layout=TWO_KINDS, seed=1).play()
    assert res.players[0].phase_done >= 1
    # simulated solitaire mean against the exact optimal value (4 standard errors)
    totals = [
        Game([strat], rules=rules, layout=TWO_KINDS, seed=s).play().players[0].total
        for s in range(300)
    ]
    mean, se = np.mean(totals), np.std(totals, ddof=1) / np.sqrt(len(totals))
    assert abs(mean - float(sol.value)) < 4 * se


def test_solitaire_strategy_is_offered_and_builds_without_solving():
    assert isinstance(get_strategy("solitaire"), SolitaireStrategy)
    with pytest.raises(InvalidRulesError, match="free holds"):
        get_strategy("solitaire", Rules(holds="sticky"))


def test_solitaire_simulate_needs_two_games():
    for n in ("1", "-5"):
        code, out, err = run(["solitaire", "--simulate", n, "--json"])
        one_line_error(err, code)
        assert out == ""


def test_comparison_from_a_fresh_cache_equals_one_without_a_cache(monkeypatch, tmp_path):
    """From a fresh cache the per-turn turns are solved first in a worker process and read
    back from the cache; without a cache all in this process: the same table."""
    rules = Rules(rolls=2, five_phase_threshold=10**6)
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", "off")
    alone = comparison(rules, TWO_KINDS, show_progress=False)
    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    fresh = comparison(rules, TWO_KINDS, show_progress=False)
    assert any(tmp_path.iterdir())  # the worker's solves are in the cache
    assert fresh["text"] == alone["text"]
    assert [r["expected_score"] for r in fresh["rows"]] == [
        r["expected_score"] for r in alone["rows"]
    ]
