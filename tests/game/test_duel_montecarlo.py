"""Seeded whole games on physical dice through the game engine against the solved values of
the shipped two-player table: optimal against optimal, optimal against a per-turn policy.

Both players start at phase 10 with 0 points (a state of the shipped table); the game
engine rolls the recorded dice, runs the turn order, bonuses and last chances itself, and
the strategies only choose holds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.errors import InvalidPhaseError, OutsideTableError
from phase10math.game.duel import Play, read_table, shipped_ranges
from phase10math.game.duelgames import simulate_duel
from phase10math.turn.family import TurnFamily

GAMES = 800
PHASE = 10
LAYOUT = DEFAULT_LAYOUT  # the recorded dice: phases 9-10 have no colors


@pytest.fixture(scope="module")
def table():
    sol, _ = read_table()
    return sol


def test_optimal_against_optimal(table):
    s = simulate_duel(
        table, (Play.OPTIMAL, Play.OPTIMAL), games=GAMES, seed=11, phase=PHASE, layout=LAYOUT
    )
    assert s.games == GAMES and abs(s.z) < 4
    t = table.value((0, table.game.player(PHASE, 0), table.game.player(PHASE, 0), 0))[1]
    assert abs(s.ties.mean() - t) < 4 * math.sqrt(t * (1 - t) / s.games) + 1e-9


def test_optimal_against_complete(table):
    s = simulate_duel(
        table, (Play.OPTIMAL, Play.COMPLETE), games=GAMES, seed=5000, phase=PHASE, layout=LAYOUT
    )
    assert abs(s.z) < 4


def test_simulated_games_refuse_a_phase_outside_the_table(table):
    with pytest.raises(InvalidPhaseError, match="phase=8"):
        simulate_duel(table, games=10, phase=8)


def test_simulated_games_refuse_dice_a_color_phase_was_not_solved_for():
    sol, _ = read_table(phases=(6, 10))
    with pytest.raises(OutsideTableError, match="dice"):
        simulate_duel(sol, games=10, phase=8, layout=DEFAULT_LAYOUT)


# ------------------------------------------------------------------ the shipped table, the command


@pytest.mark.parametrize("phases", shipped_ranges())
def test_shipped_table_matches_its_own_turn_solves(phases):
    """Bellman check at sampled states of every shipped table: each value equals the optimal
    turn's value for the utility that the table's own successors give (batched float solve
    within its margin; a color phase's exact solve)."""
    table, _ = read_table(phases=phases)
    rng = np.random.default_rng(2)
    keys = list(table.values[(Play.OPTIMAL, Play.OPTIMAL)])
    plain = [k for k in keys if not table.game.phases[k[1][0]].uses_color]
    colored = [k for k in keys if table.game.phases[k[1][0]].uses_color]
    sample = [plain[int(i)] for i in rng.choice(len(plain), size=12, replace=False)]
    if colored:  # a color phase's exact solve takes seconds: one of them
        sample.append(colored[int(rng.integers(len(colored)))])
    for key in sample:
        uw, _ = table.utility(key)
        tb = table.game.turns[key[1][0]]
        res = (tb.exact if isinstance(tb, TurnFamily) else tb.solve)(uw[None, :])
        # the successors' errors move the turn's value by at most the largest of them
        slack = max(table.error(n) for _, n in table.after(key))
        slack += table.error((1 - key[0], key[2], key[1], -key[3]))  # the fail entry's
        assert abs(res.values[0] - table.value(key)[0]) <= table.error(key) + slack + res.margin[0]


def test_duel_command_prints_the_headline(capsys):
    from phase10math.cli import main

    assert main(["duel"]) == 0
    out = capsys.readouterr().out
    assert "P(first player wins)" in out and "recompute:" in out
    assert main(["duel", "--me", "10:100", "--opponent", "10:130", "--json"]) == 0
    d = __import__("json").loads(capsys.readouterr().out)
    assert 0 <= d["p_win"] <= d["chance_to_win"] <= 1


@pytest.mark.parametrize(
    "argv",
    [
        ["duel", "--solve", "--phases", "9-10", "--target", "0"],
        ["duel", "--solve", "--phases", "9-10", "--target", "nan"],
        ["duel", "--solve", "--phases", "9-10", "--picks", "0"],
        ["duel", "--me", "3:10", "--opponent", "10:0"],
        ["duel", "--me", "10:x", "--opponent", "10:0"],
        ["duel", "--me", "10:10"],
        ["duel", "--phases", "3-10"],
    ],
)
def test_duel_command_refuses_bad_input(argv, capsys):
    from phase10math.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_advise_win_ranks_holds(capsys):
    from phase10math.cli import main

    argv = ["advise", "--phase", "10", "--rolls-left", "1", "--objective", "win"]
    argv += ["--me", "10:0", "--opponent", "10:0", "--json", "--top", "3"]
    argv += ["10", "10", "10", "10", "7", "7", "2", "1", "W", "W"]
    assert main(argv) == 0
    d = __import__("json").loads(capsys.readouterr().out)
    chances = [o["chance_to_win"] for o in d["options"]]
    assert all(a >= b - 1e-12 for a, b in zip(chances, chances[1:]))  # ties: larger hold first
    assert d["best"]["chance_to_win"] >= d["per_turn"]["complete"]["chance_to_win"]
