"""Seeded Monte Carlo checks of the exact results (a second way to get every number).

>>> from phase10math.tenthousand.turn import solve_turn
>>> m, se = simulate_turns(solve_turn(TenKRules(dice=1)), 4000, seed=1)
>>> abs(m - 25) < 4 * se
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from phase10math._base.checks import check_seed, public
from phase10math.tenthousand.duel import DuelSolution
from phase10math.tenthousand.errors import TenKRollError, TenKStateError
from phase10math.tenthousand.penalty import PenaltySolution
from phase10math.tenthousand.rules import UNIT, TenKRules, check_count, check_rules
from phase10math.tenthousand.scoring import (
    is_six_of_a_kind,
    is_wipe,
    options_for_key,
    roll_outcomes,
)
from phase10math.tenthousand.turn import TurnSolution


@lru_cache(maxsize=64)
def _lookup(n: int, key: tuple) -> dict[tuple[int, ...], tuple[str, bool, tuple]]:
    """sorted roll -> (kind, six of a kind, ((points, dice_left), ...)) for ``n`` dice."""
    rules = TenKRules.from_scoring_key(key)
    out = {}
    for dice, _ in roll_outcomes(n):
        opts = tuple((o.points, o.dice_left) for o in options_for_key(dice, key))
        kind = "wipe" if is_wipe(dice, rules) else ("score" if opts else "none")
        out[dice] = (kind, is_six_of_a_kind(dice), opts)
    return out


def _roll(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    return tuple(sorted(int(x) for x in rng.integers(1, 7, size=n)))


@public
def roll_frequencies(
    n: int, rules: TenKRules | None = None, samples: int = 100_000, seed: int = 0
) -> dict[str, float]:
    """Simulated single-roll statistics of ``n`` dice (compare with :func:`roll_stats`)."""
    rules = check_rules(rules)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= rules.dice:
        raise TenKRollError(f"n={n!r} dice; allowed: 1..{rules.dice}")
    samples = check_count(samples, "samples", 1, 10**8)
    rng = np.random.default_rng(check_seed(seed))
    rolls = np.sort(rng.integers(1, 7, size=(samples, n)), axis=1)
    table = _lookup(n, rules.scoring_key())
    none = bust = 0
    best = 0.0
    for row in map(tuple, rolls.tolist()):
        kind, _, opts = table[row]
        if kind == "none":
            none += 1
        if kind != "score":
            bust += 1
        else:
            best += max(p for p, _ in opts)
    return {"p_no_score": none / samples, "p_bust": bust / samples, "expected_best": best / samples}


@public
def simulate_turns(
    solution, turns: int = 10_000, seed: int = 0, turn_total: int = 0, dice: int | None = None
) -> tuple[float, float]:
    """Play ``turns`` turns with the optimal policy of a :class:`TurnSolution`; returns the mean
    points banked and its standard error."""
    if not isinstance(solution, TurnSolution):
        raise TenKStateError(f"solution: expected TurnSolution; got {type(solution).__name__}")
    rules: TenKRules = solution.rules
    turns = check_count(turns, "turns", 2, 10**8)
    rng = np.random.default_rng(check_seed(seed))
    if dice is not None:
        check_count(dice, "dice", 1, rules.dice)
    solution.value(turn_total, dice or rules.dice)  # checks the state
    D = rules.dice
    key = rules.scoring_key()
    top = solution.cap // UNIT
    fv = [[float(v) for v in row] for row in solution.values]  # float copy for choosing
    roll_on = [
        [False] + [solution.should_roll(u * UNIT, n) for n in range(1, D + 1)] for u in range(top)
    ]

    def value(total: int, n: int) -> float:
        return fv[total // UNIT][n] if total < solution.cap else float(total)

    results = np.empty(turns)
    for i in range(turns):
        t, n = turn_total, dice or D
        first = True
        while True:
            if not first and (t >= solution.cap or not roll_on[t // UNIT][n]):
                break
            first = False
            kind, _, opts = _lookup(n, key)[_roll(rng, n)]
            if kind != "score":
                t = None
                break
            p, m = max(opts, key=lambda o: value(t + o[0], o[1] or D))
            t, n = t + p, (m or D)
        results[i] = 0 if t is None else solution.bank_value(t)
    return float(results.mean()), float(results.std(ddof=1) / np.sqrt(turns))


@public
def simulate_duels(solution, games: int = 10_000, seed: int = 0) -> tuple[float, float]:
    """Play ``games`` games between two optimal players (a :class:`DuelSolution`); returns the
    first player's share of wins and its standard error."""
    if not isinstance(solution, DuelSolution):
        raise TenKStateError(f"solution: expected DuelSolution; got {type(solution).__name__}")
    rules: TenKRules = solution.rules
    games = check_count(games, "games", 2, 10**8)
    rng = np.random.default_rng(check_seed(seed))
    V, R = solution.tables()
    P = solution.P
    U = P.shape[0]
    D = rules.dice
    key = rules.scoring_key()
    open_u = rules.open_score // UNIT
    wins = 0
    for _ in range(games):
        scores = [0, 0]
        player = 0
        while True:
            a, b = scores[player], scores[1 - player]
            t, n = 0, D
            won = False
            while True:
                kind, six, opts = _lookup(n, key)[_roll(rng, n)]
                if six and rules.six_wins:
                    won = True
                    break
                if kind == "wipe":
                    scores[player] = 0
                    break
                if kind == "none":
                    break
                s, m = max(opts, key=lambda o: V[min(t + o[0] // UNIT, U), (o[1] or D) - 1, a, b])
                t, n = min(t + s // UNIT, U), (m or D)
                if a + t >= U:
                    won = True
                    break
                can_bank = not (a == 0 and t < open_u)
                if can_bank and R[t, n - 1, a, b] <= 1.0 - P[b, a + t]:
                    scores[player] = a + t
                    break
            if won:
                wins += player == 0
                break
            player = 1 - player
    p = wins / games
    return p, float(np.sqrt(p * (1 - p) / games))


def simulate_penalty_duels(solution, games: int = 10_000, seed: int = 0) -> tuple[float, float]:
    """Play ``games`` games with the farkle penalty between two optimal players (a
    :class:`~phase10math.tenthousand.penalty.PenaltySolution`); returns the first player's
    share of wins and its standard error. Every decision reads the turn's own tables."""
    if not isinstance(solution, PenaltySolution):
        raise TenKStateError(f"solution: expected PenaltySolution; got {type(solution).__name__}")
    rules: TenKRules = solution.rules
    games = check_count(games, "games", 2, 10**8)
    rng = np.random.default_rng(check_seed(seed))
    P = solution.P
    N, D = P.shape[2], rules.dice
    key = rules.scoring_key()
    # per turn-start state: its turn values, roll values and the state after a bust
    tables: dict[tuple[int, int, int, int], tuple[np.ndarray, np.ndarray, list[int]]] = {}
    z = solution.zero
    wins = 0
    for _ in range(games):
        state = [0, 0, z, z]  # mover's busts, opponent's busts, mover's score, opponent's
        player = 0
        while True:
            i, j, a, b = state
            if (i, j, a, b) not in tables:
                V, R = solution.turn_tables(i, j, a, b)
                tables[(i, j, a, b)] = V, R, list(solution.bust_state(i, j, a, b))
            V, R, after_bust = tables[(i, j, a, b)]
            t, n = 0, D
            result = None
            while True:
                kind, six, opts = _lookup(n, key)[_roll(rng, n)]
                if six and rules.six_wins:
                    result = "win"
                    break
                if kind != "score":
                    result = "bust"
                    break
                s, m = max(opts, key=lambda o: V[min(t + o[0] // UNIT, N), (o[1] or D) - 1])
                t, n = min(t + s // UNIT, N), (m or D)
                if a + t >= N:
                    result = "win"
                    break
                if R[t, n - 1] <= 1.0 - P[j, 0, b, a + t]:
                    result = "bank"
                    break
            if result == "win":
                wins += player == 0
                break
            state = list(after_bust) if result == "bust" else [j, 0, b, a + t]
            player = 1 - player
    p = wins / games
    return p, float(np.sqrt(p * (1 - p) / games))
