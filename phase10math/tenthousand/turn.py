"""Optimal single turn of 10,000: maximise the expected points banked this turn.

A state is (turn total ``T``, dice ``n`` the player may roll next). The player either banks ``T``
or rolls ``n`` dice; a roll with nothing to score (or, with the wipe rule, four or more 2s)
ends the turn with 0; otherwise the player picks a set-aside and goes on from
(``T`` + points, dice left; six again after hot dice). With ``V`` the optimal value::

    V(T, n) = max(T, R(T, n)),   R(T, n) = sum over rolls of P(roll) * max over set-asides V(...)

**Why the values are exact although totals are unbounded (the cap).** Let ``p_n`` be the chance
that ``n`` dice bust and ``S_n`` the expected best immediate score of one roll (0 on a bust),
and ``B = max_n S_n / p_n``. Put ``g = sup{V(T, n) - T : T >= B}``; ``g`` is finite because each
roll busts with chance at least ``min p_n > 0``, so the expected number of further rolls is
bounded. For ``T >= B`` every successor total is ``>= B`` too, hence
``R(T, n) - T <= S_n - p_n T + (1 - p_n) g``. If ``g > 0`` this gives, for the ``n`` attaining
the supremum, ``p_n g <= S_n - p_n B <= 0``: a contradiction. So ``g = 0``: **banking is
optimal at every total T >= B, including the hot-dice continuation**, and ``V(T, n) = T`` there.
Below the cap (``B`` rounded up to a multiple of 50) the state space is finite and every
successor has a larger total, so ``V`` is computed exactly, in fractions, from the cap down.
Choices between set-asides leaving the same number of dice keep the most points, which is
right because ``V`` does not decrease in ``T``.

The opening rule (``open_score``) applies to a player not yet on the board: a total below it
banks nothing, so such a player rolls on.

>>> sol = solve_turn(TenKRules(dice=1))
>>> sol.value(0, 1)     # one die: roll once, then bank any score: (100 + 50) / 6
Fraction(25, 1)
>>> sol.thresholds()    # at 50 or more, (T + 100)/6 + (T + 50)/6 < T: bank
{1: 50}
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from phase10math._base.checks import public
from phase10math.tenthousand.errors import TenKStateError
from phase10math.tenthousand.odds import roll_groups, roll_stats
from phase10math.tenthousand.rules import UNIT, TenKRules, check_flag, check_rules
from phase10math.tenthousand.scoring import check_roll, is_wipe, score_options

_TOL = 1e-9  # float pre-screen; ties closer than this are decided exactly


@public
def bank_cap(rules: TenKRules) -> tuple[int, Fraction]:
    """(cap, B): B = max_n S_n / p_n (exact) and the cap, B rounded up to a multiple of 50
    (and at least the opening score). Banking is optimal at every total >= cap.

    >>> bank_cap(TenKRules(wipe=False))[0]
    17500
    """
    rules = check_rules(rules)
    bound = max(
        roll_stats(n, rules).expected_best / roll_stats(n, rules).p_bust
        for n in range(1, rules.dice + 1)
    )
    cap = max(UNIT * math.ceil(bound / UNIT), rules.open_score)
    return cap, bound


@public
@dataclass
class TurnSolution:
    """Exact optimal values of one turn; ``on_board=False`` applies the opening rule."""

    rules: TenKRules
    on_board: bool
    cap: int
    bound: Fraction
    # values[u][n] = V(50 u, n), rolls[u][n] = R(50 u, n), for 50 u < cap
    values: list[list[Fraction]] = field(repr=False)
    rolls: list[list[Fraction]] = field(repr=False)

    def _check(self, turn_total: int, dice: int) -> None:
        if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= self.rules.dice:
            raise TenKStateError(f"dice={dice!r}; allowed: 1..{self.rules.dice}")
        if (
            isinstance(turn_total, bool)
            or not isinstance(turn_total, int)
            or turn_total < 0
            or turn_total % UNIT
        ):
            raise TenKStateError(
                f"turn_total={turn_total!r}; allowed: a whole number >= 0, a multiple of {UNIT}"
            )

    def bank_value(self, turn_total: int) -> int:
        """Points banked by stopping now (0 below the opening score when not on the board)."""
        if not self.on_board and turn_total < self.rules.open_score:
            return 0
        return turn_total

    def value(self, turn_total: int, dice: int) -> Fraction:
        """Optimal expected points banked from (turn total, dice to roll), exact."""
        self._check(turn_total, dice)
        if turn_total >= self.cap:
            return Fraction(turn_total)
        return self.values[turn_total // UNIT][dice]

    def roll_value(self, turn_total: int, dice: int) -> Fraction:
        """Expected points banked if the player rolls now and then plays optimally."""
        self._check(turn_total, dice)
        if turn_total >= self.cap:
            return _roll(self, turn_total // UNIT, dice)
        return self.rolls[turn_total // UNIT][dice]

    def should_roll(self, turn_total: int, dice: int) -> bool:
        """True when rolling is strictly better than banking (ties bank)."""
        return self.roll_value(turn_total, dice) > self.bank_value(turn_total)

    def thresholds(self) -> dict[int, int]:
        """For each number of dice, the least total from which banking is optimal for good.

        Rolling is strictly better just below it (unless it is 0); :meth:`roll_region`
        shows whether rolling is optimal at *every* smaller total.
        """
        out = {}
        for n in range(1, self.rules.dice + 1):
            t = self.cap
            while t > 0 and not self.should_roll(t - UNIT, n):
                t -= UNIT
            out[n] = t
        return out

    def roll_region(self, dice: int) -> list[int]:
        """All totals below the cap at which rolling ``dice`` dice is strictly best."""
        return [u * UNIT for u in range(self.cap // UNIT) if self.should_roll(u * UNIT, dice)]

    def choose(self, roll: tuple[int, ...], turn_total: int) -> tuple[int, int] | None:
        """Best set-aside for ``roll`` at ``turn_total``: (points, dice left); None on a bust."""
        dice = check_roll(roll, self.rules)
        if is_wipe(dice, self.rules):
            return None
        best = None
        for o in score_options(dice, self.rules):
            v = self.value(turn_total + o.points, o.next_dice(self.rules))
            if best is None or v > best[0]:
                best = (v, (o.points, o.dice_left))
        return None if best is None else best[1]


def _value(sol: TurnSolution, u: int, n: int) -> Fraction:
    if u * UNIT >= sol.cap:
        return Fraction(u * UNIT)
    return sol.values[u][n]


def _roll(sol: TurnSolution, u: int, n: int) -> Fraction:
    """R(50 u, n) from the values of larger totals (exact)."""
    dice = sol.rules.dice
    counts: dict[tuple[int, int], int] = {}
    cache: dict[tuple[int, int], tuple[float, Fraction]] = {}

    def get(p: int, m: int) -> tuple[float, Fraction]:
        key = (u + p // UNIT, m if m else dice)
        if key not in cache:
            v = _value(sol, *key)
            cache[key] = (float(v), v)
        return cache[key]

    for g in roll_groups(n, sol.rules):
        if g.kind != "score":
            continue
        cands = [(get(p, m), (u + p // UNIT, m if m else dice)) for p, m in g.options]
        top = max(c[0][0] for c in cands)
        close = [c for c in cands if c[0][0] >= top - _TOL * max(1.0, abs(top))]
        key = max(close, key=lambda c: c[0][1])[1] if len(close) > 1 else close[0][1]
        counts[key] = counts.get(key, 0) + g.weight
    total = sum((w * _value(sol, *k) for k, w in counts.items()), Fraction(0))
    return total / 6**n


@lru_cache(maxsize=32)
def _solve(rules: TenKRules, on_board: bool) -> TurnSolution:
    cap, bound = bank_cap(rules)
    top = cap // UNIT
    sol = TurnSolution(rules, on_board, cap, bound, values=[[]] * top, rolls=[[]] * top)
    for u in range(top - 1, -1, -1):
        vals: list[Fraction] = [Fraction(0)] * (rules.dice + 1)
        rolls: list[Fraction] = [Fraction(0)] * (rules.dice + 1)
        for n in range(1, rules.dice + 1):
            r = _roll(sol, u, n)
            rolls[n] = r
            vals[n] = max(r, Fraction(sol.bank_value(u * UNIT)))
        sol.values[u] = vals
        sol.rolls[u] = rolls
    return sol


@public
def solve_turn(rules: TenKRules | None = None, on_board: bool = True) -> TurnSolution:
    """Solve the single turn exactly (memoised per rules); see the module docstring."""
    rules = check_rules(rules)
    on_board = check_flag(on_board, "on_board")
    # the target, six-wins and opening score (when on the board) do not affect one turn
    key = rules.replace(
        target=10000, six_wins=False, open_score=0 if on_board else rules.open_score
    )
    return _solve(key, bool(on_board))


@public
def turn_ev(
    dice: int = 6, turn_total: int = 0, rules: TenKRules | None = None, on_board: bool = True
) -> Fraction:
    """Optimal expected points banked from (turn total, dice to roll), exact.

    >>> float(turn_ev(6, 0, TenKRules(wipe=False))) > 500
    True
    """
    return solve_turn(rules, on_board).value(turn_total, dice)
