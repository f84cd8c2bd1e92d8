"""A phase's turn solved at many utilities at once (one column each): values, margins and
distributions (:func:`solve_columns`), a per-turn policy's distribution
(:func:`fixed_distribution`), and the most any policy gains from errors (:func:`error_spread`).
"""

from __future__ import annotations

import numpy as np

from phase10math.dice.rules import Objective
from phase10math.game.duel.setting import DuelGame, Play, families
from phase10math.turn.engine import final_scores
from phase10math.turn.family import TurnFamily
from phase10math.turn.kernels import lexicographic_utilities
from phase10math.turn.solver import solve_utility


def fixed_distribution(game: DuelGame, k: int, play: Play) -> np.ndarray:
    """Outcome distribution of the per-turn policy ``play`` at phase ``k`` (the kit's exact
    lexicographic turn, its holds pushed forward)."""
    tb = game.turns[k]
    best = np.asarray(final_scores(game.phases[k], tb.space, game.rules), dtype=np.int64)
    obj = Objective.COMPLETE if play == Play.COMPLETE else Objective.SCORE
    first, second = lexicographic_utilities(best, obj)
    sol = solve_utility(tb.space, first, game.rules, second=second)
    holds = {r: np.asarray(sol.roll_arg[r])[:, None] for r in range(1, game.rules.rolls)}
    return tb.forward(holds, 1)[0]


def solve_columns(game: DuelGame, k: int, U: np.ndarray, dist: bool = True, margin: bool = True):
    """Batched turn solves of phase ``k``: values, margins, distributions (zeros without
    ``dist``); a color phase's family without ``margin`` gives its best members only (no
    upper values: the margins are NaN)."""
    tb = game.turns[k]
    if not len(U):
        return np.zeros(0), np.zeros(0), np.zeros((0, tb.n_outcomes)), 0.0
    if not margin and isinstance(tb, TurnFamily):
        v, _, idx = tb.lower(tb.utilities(U))
        return v, np.full(len(v), np.nan), tb.members[idx], tb.dist_margin
    r = tb.solve(U, distribution=dist)
    dists = r.dist if dist else np.zeros((len(r.values), tb.n_outcomes))
    return r.values, r.margin, dists, r.dist_margin


def error_spread(g: DuelGame, k: int, E: np.ndarray) -> np.ndarray:
    """A proven upper bound of the most any policy of phase ``k``'s turn can gain from errors
    ``E`` (rows: per outcome): a batched solve of ``E`` without colors, the largest error with
    them (a family's cuts are not made for such utilities)."""
    if not len(E) or not E.any():
        return np.zeros(len(E))
    if k in families(g):
        return E.max(axis=1)
    vals, marg, _, _ = solve_columns(g, k, E, dist=False)
    return np.minimum(vals + marg, E.max(axis=1))
