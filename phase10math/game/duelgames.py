"""Seeded whole two-player games through the game engine, against a solved table's values.

The second way of checking a two-player table (:mod:`phase10math.game.duel`): the game
engine rolls the physical dice of the table's layout, runs the turn order, the bonuses and the
last chances itself, and the seats' strategies only choose holds - the table's optimal policy
(:class:`~phase10math.game.duel.DuelStrategy`) or a per-turn objective. Each game starts with
both players at one phase of the table with 0 points; two means must agree with the table's
values within their standard errors: seat 0's result (1 a win, 1/2 a tie), which tests the
matchup of the two plays, and the result of the seat that began, which tests what moving
first is worth (under the same play on both seats seat 0's mean is about 1/2 whatever the
first seat is worth).

>>> from phase10math.game.duel import DuelGame, Play, solve_duel
>>> sol = solve_duel(DuelGame.standard(10, 10))
>>> s = simulate_duel(sol, (Play.OPTIMAL, Play.COMPLETE), games=200, seed=1)
>>> s.games, abs(s.z) < 4, abs(s.first_z) < 4
(200, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from phase10math._base.checks import check_int, public
from phase10math.dice.faces import Layout
from phase10math.errors import InvalidPhaseError, OutsideTableError, WrongTypeError
from phase10math.game.duel import DuelSolution, DuelStrategy, Play, color_reason
from phase10math.game.duel.samples import ResultSample, z_score
from phase10math.game.engine import Game
from phase10math.game.strategies import OptimalStrategy

__all__ = ["DuelSample", "simulate_duel"]


@public
@dataclass(frozen=True)
class DuelSample(ResultSample):
    """Seeded games of two seats' plays: per game the result of seat 0 (``got``: 1, 1/2 or 0),
    the table's value of the start for seat 0 given who began (``want``), whether it was a
    tie (``ties``) and the seat that began (``first``: 0 or 1); the phase the players
    started at. ``given_up[i, s]``: the chance to win seat ``s``'s candidate turns gave up
    in game ``i`` (proven, once per turn played at a costly color phase:
    :attr:`~phase10math.game.duel.DuelStrategy.given_up_played`; zeros where none)."""

    plays: tuple[Play, Play]
    phase: int
    got: np.ndarray
    want: np.ndarray
    ties: np.ndarray
    first: np.ndarray
    given_up: np.ndarray | None = None

    def _first(self, a: np.ndarray) -> np.ndarray:
        """Seat 0's figures turned into those of the seat that began."""
        return np.where(self.first == 0, a, 1 - a)

    @property
    def first_mean(self) -> float:
        """The mean result of the seat that began (ties counted half)."""
        return float(self._first(self.got).mean())

    @property
    def first_expected(self) -> float:
        """What the table says the seat that began should score (its worth, averaged over
        the games' draws of which play began)."""
        return float(self._first(self.want).mean())

    @property
    def first_se(self) -> float:
        """The standard error of :attr:`first_mean`."""
        return float(self._first(self.got).std(ddof=1) / math.sqrt(self.games))

    @property
    def first_z(self) -> float:
        """(first_mean - first_expected) in standard errors."""
        return z_score(self.first_mean - self.first_expected, self.first_se)

    def gave_up(self, first: bool) -> float:
        """The mean chance given up per game by the seat that began (``first``), else by the
        other."""
        if self.given_up is None:
            return 0.0
        seat = self.first if first else 1 - self.first
        return float(self.given_up[np.arange(self.games), seat].mean())

    @property
    def first_range(self) -> tuple[float, float]:
        """Where the expected result of the seat that began belongs, the candidate turns'
        price counted: its worth ``w`` (the table's value of the start) less, and plus, the
        mean chance given up per game by both seats' candidate turns.

        Why: with the table's values as the potential, a game's result is exactly ``w``
        plus the sum over its turns of ``d . u - v`` (the turn's distribution against the
        table's values ``u`` of its outcomes, less the table's value ``v`` of its state),
        in expectation. A turn re-solved from the table has ``d . u = max_d d . u``, which
        is ``v`` to the table's convergence; a candidate turn's term lies between minus its
        price (``v + e - low``, :class:`~phase10math.game.duel.candidates.Choice`) and
        ``e`` (``v`` is within ``e`` of the optimum), at most that price. A turn of the
        other seat counts with the opposite sign, so both seats' prices widen both ends."""
        w, g = self.first_expected, self.gave_up(True) + self.gave_up(False)
        return w - g, w + g

    @property
    def first_z_range(self) -> float:
        """The first seat's mean result outside :attr:`first_range`, in standard errors (0
        inside it)."""
        lo, hi = self.first_range
        m, se = self.first_mean, self.first_se
        return z_score(m - hi, se) if m > hi else z_score(m - lo, se) if m < lo else 0.0


@public
def simulate_duel(
    sol: DuelSolution,
    plays: Sequence[Play] = (Play.OPTIMAL, Play.OPTIMAL),
    games: int = 800,
    seed: int = 0,
    phase: int | None = None,
    layout: Layout | None = None,
    totals: tuple[int, int] = (0, 0),
) -> DuelSample:
    """``games`` seeded games (game ``i`` from seed ``seed + i``) of seat 0 playing
    ``plays[0]`` against seat 1 playing ``plays[1]``, both players starting at ``phase``
    (default: the table's last) with ``totals`` points (seat 0's, seat 1's; a total the
    table's game cannot have there is refused, :class:`~phase10math.errors.OutsideTableError`),
    on dice ``layout`` (default: the table's own; others only where no color phase is left
    to play); the game engine draws who begins. A phase outside the table is refused
    (:class:`~phase10math.errors.InvalidPhaseError`), and so are dice the table's color
    phases were not solved for (:class:`~phase10math.errors.OutsideTableError`)."""
    g = sol.game
    plays = (Play(plays[0]), Play(plays[1]))
    games = check_int(games, "games", 2, 10**7)
    seed = check_int(seed, "seed", 0, 2**32)
    phase = g.hi if phase is None else check_int(phase, "phase", g.lo, g.hi, InvalidPhaseError)
    if not isinstance(totals, (tuple, list)) or len(totals) != 2:
        raise WrongTypeError(f"simulate_duel(): totals={totals!r:.40}; accepts two whole numbers")
    totals = tuple(check_int(t, "totals", 0, 10**6) for t in totals)
    why = color_reason(sol, (phase, phase), layout)
    for t in totals:
        why = why or g.total_reason(phase, t)
    if why:
        raise OutsideTableError(f"simulate_duel(): {why}")
    layout = g.layout if layout is None else layout
    # the start as the seat that begins sees it (the mover first), by who begins
    starts = [
        (0, g.player(phase, totals[f]), g.player(phase, totals[1 - f]), totals[f] - totals[1 - f])
        for f in (0, 1)
    ]
    strategies = [seat_strategy(sol, p, starts, layout) for p in plays]
    values = {(f, m): sol.value(starts[f], m) for f in (0, 1) for m in {plays, plays[::-1]}}
    got, want, ties, firsts, gave = [], [], [], [], []
    for i in range(games):
        game = Game(strategies, phases=g.hi, layout=layout, seed=seed + i)
        for player, t in zip(game.players, totals, strict=True):
            player.phase = phase
            # the points of the phases before, as made (the first holds them all)
            player.scores = {k: (t if k == 1 else 0) for k in range(1, phase)}
        for s in strategies:
            if isinstance(s, DuelStrategy):
                s.attach(game)
        before = [getattr(s, "given_up_played", 0.0) for s in strategies]
        res = game.play()
        gave.append([getattr(s, "given_up_played", 0.0) - b for s, b in zip(strategies, before)])
        first, w = res.order[0], res.winners
        got.append(1.0 if w == [0] else (0.5 if len(w) == 2 else 0.0))
        ties.append(1.0 if len(w) == 2 else 0.0)
        worth, _ = values[(first, (plays[first], plays[1 - first]))]  # the first seat's worth
        want.append(worth if first == 0 else 1 - worth)
        firsts.append(first)
    arrays = (np.array(got), np.array(want), np.array(ties), np.array(firsts))
    return DuelSample(plays, phase, *arrays, np.array(gave, dtype=np.float64).reshape(-1, 2))


def seat_strategy(sol: DuelSolution, play: Play, starts: list, layout: Layout):
    """A seat's strategy: the table's optimal policy (prepared for the ``starts``, from
    either seat), else the per-turn play on ``layout``."""
    if play != Play.OPTIMAL:
        return OptimalStrategy(play.label, layout=layout)
    strat = DuelStrategy(sol)
    strat.prepare([(s, st[1], st[2], st[3]) for st in starts for s in (0, 1)])
    return strat
