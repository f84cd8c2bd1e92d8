"""Head-to-head: seeded simulations of 2-4 player games between strategies.

Win rates come with 95% Wilson confidence intervals (ties share the win), average scores with
standard errors, and the value of moving first (win rate of whoever starts, over all seats).

>>> res = head_to_head(["complete", "greedy"], 4, seed=1, phases=2, show_progress=False)
>>> res.games, float(res.wins.sum())  # four games of the first two phases, each won once
(4, 4.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from phase10math._base.checks import check_int, check_seed, check_type, derived_seed, public
from phase10math._base.progress import progress_bar
from phase10math.dice.faces import Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.errors import InvalidRulesError
from phase10math.game.engine import Game
from phase10math.game.strategies import get_strategy, strategy_notes


@public
def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion.

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    check_int(n, "n", 0)
    if not 0 <= wins <= n:
        raise InvalidRulesError(f"wins={wins!r}; allowed: 0..n (n={n})")
    if not z > 0:
        raise InvalidRulesError(f"z={z!r}; allowed: a positive number")
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


@dataclass
class HeadToHead:
    strategies: list[str]
    games: int
    wins: np.ndarray  # per seat (ties split)
    scores: np.ndarray  # (games, seats)
    first_wins: float
    starts: np.ndarray = field(default_factory=lambda: np.zeros(0))
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        rows = []
        for i, s in enumerate(self.strategies):
            lo, hi = wilson(self.wins[i], self.games)
            sc = self.scores[:, i]
            rows.append(
                {
                    "seat": i + 1,
                    "strategy": s,
                    "win_rate": self.wins[i] / self.games,
                    "ci95": [lo, hi],
                    "mean_score": float(sc.mean()),
                    "se_score": float(sc.std(ddof=1) / math.sqrt(len(sc))) if len(sc) > 1 else 0.0,
                }
            )
        lo, hi = wilson(self.first_wins, self.games)
        return {
            "games": self.games,
            "players": rows,
            "starter_win_rate": self.first_wins / self.games,
            "starter_ci95": [lo, hi],
            "fair_share": 1 / len(self.strategies),
            "notes": self.notes,
        }

    def format(self) -> str:
        d = self.to_dict()
        lines = [
            f"{self.games} games, seeded; 95% Wilson intervals",
            f"{'seat':>4} {'strategy':<12} {'win rate':>9} {'95% CI':>17} {'mean score':>11}",
        ]
        for r in d["players"]:
            lines.append(
                f"{r['seat']:>4} {r['strategy']:<12} {r['win_rate']:>9.3f} "
                f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] "
                f"{r['mean_score']:>7.1f} +- {r['se_score']:.1f}"
            )
        lines.append(
            f"the starting player wins {d['starter_win_rate']:.3f} "
            f"[{d['starter_ci95'][0]:.3f}, {d['starter_ci95'][1]:.3f}] of games "
            f"(fair share {d['fair_share']:.3f})"
        )
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


MAX_GAMES = 100_000


@public
def head_to_head(
    strategies: list[str],
    games: int,
    seed: int = 0,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    phases: int = 10,
    show_progress: bool = True,
    start_phase: int = 1,
) -> HeadToHead:
    """Play ``games`` seeded games (game i uses seed ``seed + i``), every player from
    ``start_phase`` with 0 points. A strategy's :meth:`note` (``win``: its decisions outside
    the two-player table) is kept in ``notes``."""
    check_type(strategies, (list, tuple), "strategies")
    if not 2 <= len(strategies) <= 4:
        raise InvalidRulesError(f"head-to-head is for 2-4 players; got {len(strategies)}")
    if any(isinstance(s, str) and s.strip().lower() == "human" for s in strategies):
        raise InvalidRulesError("head-to-head simulates games; 'human' cannot take part")
    games = check_int(games, "games", 1, MAX_GAMES)
    seed = check_seed(seed)
    strats = [
        get_strategy(s, rules, layout, seed=derived_seed(seed, 7919 * i))
        for i, s in enumerate(strategies)
    ]
    n = len(strats)
    wins = np.zeros(n)
    scores = np.zeros((games, n))
    first_wins = 0.0
    it = range(games)
    if show_progress:
        it = progress_bar(it, desc="games", unit="game")
    for g in it:
        seed_g = derived_seed(seed, g)
        res = Game(
            strats, phases=phases, rules=rules, layout=layout, seed=seed_g, start_phase=start_phase
        ).play()
        w = res.winners
        for s in w:
            wins[s] += 1 / len(w)
        if res.order[0] in w:
            first_wins += 1 / len(w)
        scores[g] = [p.total for p in res.players]
    notes = strategy_notes(strats)
    return HeadToHead(list(strategies), games, wins, scores, first_wins, notes=notes)
