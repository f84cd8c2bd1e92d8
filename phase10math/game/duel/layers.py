"""The layers: the states of each layer (sum of both phases) and of each phase's last
chances, and the last chances solved (:func:`solve_last`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from phase10math.game.duel import columns
from phase10math.game.duel.columns import error_spread
from phase10math.game.duel.refinement import REFINE_ALL, refine
from phase10math.game.duel.setting import PLAYS, DuelGame, Key, LastKey, Play, families, partner_of
from phase10math.game.duel.table import DuelSolution


def layer_keys(game: DuelGame, layer: int) -> list[Key]:
    """The seat-0 states of a layer (sum of both phases); each has its seat-1 partner."""
    keys = []
    for ka in range(game.lo, game.hi + 1):
        kb = layer - ka
        if not game.lo <= kb <= game.hi:
            continue
        for a in game._players_at(ka):
            for b in game._players_at(kb):
                keys += [(0, a, b, d) for d in game._d_range(a, b)]
    return keys


def last_keys(game: DuelGame, k: int) -> list[LastKey]:
    out = []
    for p in game._players_at(k):
        for elig in (0, 1):
            out += [(p, dc, elig) for dc in range(-game._reach(p, bool(elig)), 1)]
    return out


def total_work(game: DuelGame) -> int:
    n = sum(len(last_keys(game, k)) for k in range(game.lo, game.hi + 1))
    n += sum(8 * len(layer_keys(game, L)) for L in range(2 * game.lo, 2 * game.hi + 1))
    return n


def pair_key(key: Key | LastKey) -> Key | LastKey:
    """A state's key in a round's set: seat 0's key of a normal-play pair, a last-chance
    key itself."""
    return key if len(key) == 3 or key[0] == 0 else partner_of(key)


def solve_last(
    sol: DuelSolution,
    k: int,
    keys: list[LastKey],
    fixed,
    strides=REFINE_ALL,
    reach: Mapping[Any, float] | None = None,
    least: float = 0.0,
    log: Callable[[str], None] | None = None,
    save: Callable[[], None] | None = None,
) -> None:
    """Last chances at phase ``k``: the optimal chaser (one batched solve), the per-turn
    chasers (their fixed distributions). A value's error: its turn's margin plus the largest
    gain any policy makes of the errors after its outcomes (a turn solve of those errors).
    A color phase's wide intervals are solved exactly first: every ``strides[0]``-th, or
    with ``reach`` those whose estimated visits times width is more than ``least``."""
    if not keys:
        return
    g = sol.game
    U = np.array([sol.last_utility(Play.OPTIMAL, lk) for lk in keys])  # n x 2 x outcomes
    if k in families(g) and (reach is not None or strides):  # no cycle: solve, then read
        # (a failed last chance ends the game: its fail entry is already final)
        weight = None if reach is None else np.array([reach.get(lk, 0.0) for lk in keys])
        side = (U, np.full(len(keys), k), U[:, 0, 0], weight)
        stride = 1 if reach is not None or strides == REFINE_ALL else strides[0]
        refine(g, side, stride=stride, save=save, least=None if reach is None else least, log=log)
    vals, marg, dist, dm = columns.solve_columns(g, k, U[:, 0])
    E = np.array([sol.utility_errors(lk) for lk in keys])
    spread = error_spread(g, k, E)
    ties = np.einsum("no,no->n", dist, U[:, 1])
    for i, lk in enumerate(keys):
        sol.last[Play.OPTIMAL][lk] = (float(vals[i]), float(ties[i]))
        sol.errors[lk] = float(marg[i] + spread[i])
        sol.dists[lk] = dist[i]
        sol.gaps[lk] = float(marg[i])
    n_out = U.shape[2]
    sol.bound = max(sol.bound, max(sol.errors[lk] for lk in keys))
    sol.tie_bound = sol.tie_bound + n_out * dm + 1e-15
    for p in PLAYS[1:]:
        d = fixed[(k, p)]
        for lk in keys:
            uw, ut = sol.last_utility(p, lk)
            sol.last[p][lk] = (float(d @ uw), float(d @ ut))
