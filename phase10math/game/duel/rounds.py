"""Targeted refinement rounds: the estimated visits of every state from the start
(:func:`visits`), the states whose visits times error weigh most, and those to solve again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from phase10math._base.checks import public
from phase10math.errors import InvalidRulesError
from phase10math.game.duel.columns import fixed_distribution
from phase10math.game.duel.layers import pair_key
from phase10math.game.duel.refinement import wide_weighed
from phase10math.game.duel.setting import PLAYS, DuelGame, Key, LastKey, Play, families, partner_of
from phase10math.game.duel.table import DuelSolution
from phase10math.turn.family import TurnFamily

MAX_GAIN = 50.0  # the most a state's error is taken to amplify those after it


def round_states(
    sol: DuelSolution, seen: Mapping[Any, float], changed: set, leave: float
) -> tuple[set, set]:
    """The states a round of targeted refinement solves again and those it leaves stale
    (:func:`pair_key` keys): of the ``changed`` states (solved exactly, or left stale by
    an earlier round) and the visited states whose values depend on them, all but those of
    least expected visits times proven error whose sum is at most ``leave`` (what the
    start's error can lose by leaving them, where the policies stay near these). A state
    left keeps its interval, proven from the intervals after it that were true before and
    are still true."""
    g = sol.game
    hit = set(changed)
    for k in range(g.hi, g.lo - 1, -1):  # last chances: on those of later phases
        for lk in [x for x in seen if len(x) == 3 and x[0][0] == k]:
            if any(n is not None and n in hit for n in sol.after_last(lk)):
                hit.add(lk)
    pairs: dict[int, set] = {}
    for key in seen:
        if len(key) == 4:
            pk = pair_key(key)
            pairs.setdefault(pk[1][0] + pk[2][0], set()).add(pk)
    for layer in sorted(pairs, reverse=True):  # a pair: on the states after either seat's
        for k0 in pairs[layer]:
            nxt = [n for kk in (k0, partner_of(k0)) for _, n in sol.after(kk)]
            if any(pair_key(n) in hit for n in nxt):
                hit.add(k0)
    weight = dict.fromkeys(hit, 0.0)
    for key, v in seen.items():
        pk = pair_key(key)
        if pk in hit:
            weight[pk] += v * sol.error(key)
    order = sorted(weight, key=weight.__getitem__)
    left = int(np.searchsorted(np.cumsum([weight[k] for k in order]), leave, side="right"))
    # a state no play from the start reaches weighs nothing: left, but never stale
    stale = {k for k in order[:left] if weight[k] > 0}
    return set(order[left:]), stale


def color_steps(game: DuelGame) -> list[Any]:
    """The ``layers_done`` tags of the steps with a color phase's turns."""
    fams = families(game)
    tags = [1000 + k for k in fams]
    layers = range(2 * game.lo, 2 * game.hi + 1)
    return tags + [L for L in layers if any(L - k in game.phases for k in fams)]


def depends(game: DuelGame, step: tuple[str, int], on: tuple[str, int]) -> bool:
    """Whether a step's values depend on those of step ``on`` (or it is ``on``): a layer on
    the layers above it and on the last chances of phases it holds a player at; a last
    chance on those of later phases."""
    (kind, n), (kind_on, m) = step, on
    if kind == "last":
        return kind_on == "last" and n <= m
    return n <= m if kind_on == "layer" else n <= m + game.hi


def step_of(key: Key | LastKey) -> tuple[str, int]:
    """The step of the solve a state belongs to."""
    if len(key) == 3:
        return ("last", key[0][0])
    return ("layer", key[1][0] + key[2][0])


def current_utility(sol: DuelSolution, key: Key | LastKey) -> np.ndarray:
    """The chance-to-win utility of the turn at a solved state (its fail entry from the
    partner's value now in the table)."""
    return sol.last_utility(Play.OPTIMAL, key)[0] if len(key) == 3 else sol.utility(key)[0]


@public
def visits(
    sol: DuelSolution, totals: tuple[int, int] = (0, 0), proxy: Play | None = None
) -> dict[Any, float]:
    """The expected number of visits of every state (normal play and last chances) from the
    start with ``totals``, both players playing the solution's optimal policies (their outcome
    distributions). A pair's visits: ``v0 = (m0 + q m1) / (1 - p q)``, ``v1 = (m1 + p m0) /
    (1 - p q)`` for arrivals ``m0, m1`` and fail chances ``p, q``. ``proxy`` (a per-turn
    play): where a state is not solved yet (a solve in progress), its mover plays that
    per-turn policy instead, an estimate of where play goes before the layers below are
    solved; without it such states are not entered."""
    if proxy is not None and proxy not in PLAYS[1:]:
        raise InvalidRulesError(f"proxy {proxy!r}: expected a per-turn play")
    return flow(sol, totals, proxy)


def flow(
    sol: DuelSolution,
    totals: tuple[int, int] = (0, 0),
    proxy: Play | None = None,
    gain: Callable[[Any, list], float] | None = None,
) -> dict[Any, float]:
    """:func:`visits`, each state's outflow (to its partner and after its outcomes)
    multiplied by ``gain(key, states after its outcomes)`` where given."""
    g = sol.game
    stand_in: dict[int, np.ndarray] = {}

    def dist(key: Any) -> np.ndarray | None:
        d = sol.dists.get(key)
        if d is not None or proxy is None or sol.decided(key):
            return d  # solved, no stand-in, or decided: no turn is played
        k = key[0][0] if len(key) == 3 else key[1][0]
        if k not in stand_in:
            fixed = sol.fixed.get(k)
            stand_in[k] = (
                fixed[PLAYS.index(proxy) - 1]
                if fixed is not None
                else fixed_distribution(g, k, proxy)
            )
        return stand_in[k]

    arrive: dict[Any, float] = {g.start(totals): 1.0}
    out: dict[Any, float] = {}
    for layer in range(2 * g.lo, 2 * g.hi + 1):
        here = [k for k in arrive if len(k) == 4 and k[1][0] + k[2][0] == layer]
        pairs = {pair_key(k) for k in here}
        for k0 in sorted(pairs):
            k1 = partner_of(k0)
            d0, d1 = dist(k0), dist(k1)
            if d0 is None or d1 is None:
                continue  # decided (or not solved): no turn is played
            m0, m1 = arrive.pop(k0, 0.0), arrive.pop(k1, 0.0)
            n0, n1 = [n for _, n in sol.after(k0)], [n for _, n in sol.after(k1)]
            g0, g1 = (1.0, 1.0) if gain is None else (gain(k0, n0), gain(k1, n1))
            p, q = d0[0], d1[0]
            if gain is not None:  # a gain stays short of a cycle that never ends
                p, q = min(g0 * p, 0.99), min(g1 * q, 0.99)
            v0, v1 = (m0 + q * m1) / (1 - p * q), (m1 + p * m0) / (1 - p * q)
            out[k0], out[k1] = v0, v1
            for v, d, nxts in ((v0 * g0, d0, n0), (v1 * g1, d1, n1)):
                for j, nxt in enumerate(nxts, 1):
                    if not sol.decided(nxt):
                        arrive[nxt] = arrive.get(nxt, 0.0) + v * d[j]
    for k in range(g.lo, g.hi + 1):
        for lk in sorted(x for x in arrive if len(x) == 3 and x[0][0] == k):
            d = dist(lk)
            if d is None:
                continue
            v = arrive.pop(lk)
            out[lk] = out.get(lk, 0.0) + v
            nxts = sol.after_last(lk)
            v *= 1.0 if gain is None else gain(lk, nxts)
            for j, nxt in enumerate(nxts, 1):
                if nxt is not None and dist(nxt) is not None:
                    arrive[nxt] = arrive.get(nxt, 0.0) + v * d[j]
    return out


def amplification(sol: DuelSolution) -> Callable[[Any, list], float]:
    """How much more than its policy's share of the errors after it a state's proven error
    is (the certificate's own growth, its policies for the shifted utilities, its local
    margins counted three times), between 1 and ``MAX_GAIN``: the gain of :func:`flow`
    that makes it blame, for the start's error, the states it rests on."""

    def gain(key: Any, nxt: list) -> float:
        d = sol.dists.get(key)
        if d is None:
            return 1.0
        fail = 0.0 if len(key) == 3 else d[0] * sol.error(partner_of(key))
        share = fail + sum(d[j] * sol.error(n) for j, n in enumerate(nxt, 1) if n is not None)
        share += 3 * sol.gaps.get(key, 0.0) + 1e-15
        return float(min(max(sol.error(key) / share, 1.0), MAX_GAIN))

    return gain


def still_picked(
    sol: DuelSolution, fam: TurnFamily, keys: list[Any], U: np.ndarray, seen: Mapping[Any, float]
) -> Callable[[np.ndarray], np.ndarray] | None:
    """For a costly family: which of a round's picks ``keys`` (utilities ``U``) are still to
    solve once some are solved: those still wide whose weight in ``seen`` times the family's
    interval now is at least the least weight times gap that got a state picked (the others
    are covered by the new policies). None for a family whose exact solves are cheap."""
    if not fam.costly:
        return None
    w = np.array([seen[key] for key in keys])
    cut = float(np.min(w * np.array([sol.gaps[key] for key in keys])))

    def left(rows: np.ndarray) -> np.ndarray:
        rows, weighed = wide_weighed(fam, U, rows, w)
        return rows[weighed >= cut]

    return left


def pick_refinements(
    sol: DuelSolution, most: int, leave: float, seen: Mapping[Any, float]
) -> tuple[dict[int, list[Any]], list[Any]]:
    """The color phases' states whose weight in ``seen`` (visits, or blame) times interval
    width is largest, each wider than its family's ``tol``: at most ``most`` of them, and no
    more than it takes for those not picked to sum to at most ``leave``. Those the family
    still finds wide, by phase, to solve exactly; and those whose interval the family now
    gives less than half as wide as when they were solved (an exact solve made for another
    state, at the same or a nearby utility), to solve again only."""
    fams = families(sol.game)
    scored = []
    for key, v in seen.items():
        k = key[0][0] if len(key) == 3 else key[1][0]
        gap = sol.gaps.get(key, 0.0)
        if k in fams and gap > fams[k].tol and v * gap > 0:
            scored.append((v * gap, k, key))
    scored.sort(key=lambda t: t[0])
    rest = np.cumsum([w for w, _, _ in scored])
    scored = scored[int(np.searchsorted(rest, leave, side="right")) :][::-1]
    out: dict[int, list[Any]] = {}
    narrowed = []
    for _, k, key in scored[:most]:
        u = current_utility(sol, key)[None]
        if len(fams[k].wide(u)):
            out.setdefault(k, []).append(key)
            continue
        # the margin the state's gap was recorded as, at its utility now
        if float(fams[k].solve(u, distribution=False).margin[0]) < sol.gaps[key] / 2:
            narrowed.append(key)
    return out, narrowed


def round_progress(
    todo: int, save: Callable[[], None], log: Callable[[str], None] | None
) -> Callable[[int], None]:
    """``after(rows)`` for a round's ``todo`` exact solves: a checkpoint, then a line with
    how many are done and an estimate of the time left."""
    done, began = [0], time.monotonic()

    def after(rows: int) -> None:
        save()
        done[0] += rows
        spent = time.monotonic() - began
        if log:
            left = spent / done[0] * (todo - done[0])
            log(
                f"  round's exact solves: {done[0]} of {todo}, {spent:.0f} s, "
                f"about {left:.0f} s left"
            )

    return after
