"""Optimal two-player 10,000: maximise the probability of winning.

State (my banked score ``a``, opponent's ``b``, turn total ``t``, dice ``n``), all in units of
50; ``P(a, b)`` is the chance that the player about to start a turn wins. Within a turn the
values follow from ``P`` by backward induction over ``t`` (every scoring roll raises ``t``):

- bank: win at once if ``a + t >= target``, else ``1 - P(b, a + t)``;
- bust: ``1 - P(b, a)``; wipe (four or more 2s): ``1 - P(b, 0)``; six of a kind: win;
- otherwise the best set-aside (the most points for each number of dice left).

A player who is not on the board (``a == 0``) may not bank less than the opening score; they
may stop with nothing, which is worth the same as a bust. Six of a kind that is also four or
more 2s counts as six of a kind (the game is over before any score is wiped).

The turn-start values are found, by default, by the proven solver of
:mod:`~phase10math.tenthousand.layered` (score layers, 2x2 pair solves, certified lower and
upper bounds: ``sol.interval``). ``method=DuelMethod.JACOBI`` keeps the plain value iteration
(Jacobi sweeps, each a full backward pass over the turn vectorised over all score pairs, until
no value changes by more than ``tol``), whose stopping rule is an estimate, not a proof; the
benchmark runs both. The first player's chance is ``P(0, 0)``. Results are cached on disk.

>>> sol = solve_duel(TenKRules(target=200, dice=2), progress=False)
>>> lo, hi = sol.interval
>>> 0.5 < lo <= sol.first_player_wins <= hi < 1 and hi - lo < 1e-9
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from phase10math._base.checks import public
from phase10math._base.progress import progress_bar
from phase10math.cache import cache_key, cached
from phase10math.tenthousand.errors import TenKRulesError, TenKStateError
from phase10math.tenthousand.layered import check_memory, pair_tables, solve_layered
from phase10math.tenthousand.odds import duel_roll_data
from phase10math.tenthousand.rules import (
    UNIT,
    DuelMethod,
    TenKRules,
    check_count,
    check_flag,
    check_positive_float,
    check_rules,
)
from phase10math.tenthousand.scoring import check_roll, is_six_of_a_kind, is_wipe, score_options


@dataclass(frozen=True)
class _Plan:
    """The roll data of one number of dice, in units of 50 (data for the sweeps)."""

    n: int
    total: int  # 6**n
    w_none: int
    w_wipe: int
    w_win: int  # six of a kind with the six-wins rule
    groups: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (weight, ((s, next n), ...))


def _plans(rules: TenKRules) -> list[_Plan]:
    plans = []
    for n in range(1, rules.dice + 1):
        w_none, w_wipe, w_win, groups = duel_roll_data(n, rules)
        plans.append(_Plan(n, 6**n, w_none, w_wipe, w_win, tuple(groups)))
    return plans


def _turn_pass(P: np.ndarray, rules: TenKRules, plans: list[_Plan], keep: bool = False):
    """One backward pass over the turn given turn-start values ``P`` (shape U x U).

    Returns the new turn-start values and, with ``keep``, the within-turn values
    ``V[t, n - 1, a, b]`` and roll values ``R`` (same shape).
    """
    U = P.shape[0]
    D = rules.dice
    open_u = rules.open_score // UNIT
    Pt = P.T  # Pt[x, y] = P(y, x): the opponent's chance when I have x and they have y
    bust = 1.0 - Pt  # [a, b]
    wipe = np.broadcast_to(1.0 - P[:, 0], (U, U))  # [a, b] = 1 - P(b, 0)
    ext = np.ones((2 * U + 1, U))
    ext[:U] = 1.0 - Pt  # ext[a + t, b] = bank value
    V = np.ones((U + 1, D, U, U))
    R = np.ones((U + 1, D, U, U)) if keep else None
    new = np.empty_like(P)
    maxg = max(len(p.groups) for p in plans)
    buf = np.empty((maxg, U, U))
    for t in range(U - 1, -1, -1):
        r = U - t  # rows a < r are still playing at this turn total
        for plan in plans:
            if t == 0 and plan.n != D:
                continue
            G = len(plan.groups)
            for gi, (_, opts) in enumerate(plan.groups):
                out = buf[gi, :r]
                s, m = opts[0]
                np.copyto(out, V[min(t + s, U), m - 1, :r])
                for s, m in opts[1:]:
                    np.maximum(out, V[min(t + s, U), m - 1, :r], out=out)
            w = np.array([g[0] for g in plan.groups], dtype=float)
            roll = np.tensordot(w, buf[:G, :r], axes=1)
            if plan.w_none:
                roll += plan.w_none * bust[:r]
            if plan.w_wipe:
                roll += plan.w_wipe * wipe[:r]
            if plan.w_win:
                roll += plan.w_win
            roll /= plan.total
            if t == 0:
                new[:] = roll
                continue
            bank = ext[t : t + r].copy()
            if open_u and t < open_u:
                bank[0] = bust[0]  # not on the board: stopping banks nothing
            if keep:
                R[t, plan.n - 1, :r] = roll
            np.maximum(roll, bank, out=V[t, plan.n - 1, :r])
    if keep:
        V[0, D - 1] = new
        R[0, D - 1] = new
        return new, V, R
    return new, None, None


@public
def check_duel_state(rules: TenKRules, my: int, opp: int, turn_total: int, dice: int) -> None:
    """:class:`TenKStateError` unless the two banked scores, the turn total and the dice to
    roll are a state of a duel under ``rules`` (checked before anything is solved)."""
    T = rules.target
    for name, v in (("my", my), ("opp", opp), ("turn_total", turn_total)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0 or v % UNIT:
            raise TenKStateError(f"{name}={v!r}; allowed: a multiple of {UNIT} >= 0")
    if my >= T or opp >= T:
        raise TenKStateError(f"scores {my}, {opp}; allowed: below the target {T}")
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= rules.dice:
        raise TenKStateError(f"dice={dice!r}; allowed: 1..{rules.dice}")
    if turn_total == 0 and dice != rules.dice:
        raise TenKStateError(
            f"dice={dice} at turn total 0; a turn starts with all {rules.dice} dice"
        )


@dataclass
class DuelSolution:
    """Optimal two-player play; ``P[a, b]`` is the chance that the player to start a turn
    with ``50 a`` points against ``50 b`` wins."""

    rules: TenKRules
    P: np.ndarray = field(repr=False)
    sweeps: int
    last_change: float
    seconds: float
    lower: Any = field(default=None, repr=False)  # proven bounds of P (layered method)
    upper: Any = field(default=None, repr=False)
    method: DuelMethod = DuelMethod.LAYERED
    _V: Any = field(default=None, repr=False)
    _R: Any = field(default=None, repr=False)

    @property
    def first_player_wins(self) -> float:
        """The first player's chance of winning under optimal play by both."""
        return float(self.P[0, 0])

    @property
    def interval(self) -> tuple[float, float] | None:
        """Proven (lower, upper) bounds on the first player's chance; None without a proof."""
        if self.lower is None:
            return None
        return float(self.lower[0, 0]), float(self.upper[0, 0])

    @property
    def states(self) -> int:
        """Number of (my score, opponent score, turn total, dice) states below the target."""
        U = self.P.shape[0]
        return U * (U * (U + 1) // 2) * self.rules.dice

    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """Within-turn values ``V[t, n - 1, a, b]`` and roll values ``R`` of every state (units
        of 50; about 3 * 8 * (U + 1) * 6 * U * U bytes: refused at once where that does not
        fit, see :func:`~phase10math.tenthousand.layered.memory_allowed`)."""
        U = self.P.shape[0]
        check_memory(
            3 * 8 * (U + 1) * self.rules.dice * U * U,
            f"the within-turn tables of the duel to {self.rules.target} need",
        )
        if self._V is None:
            _, self._V, self._R = _turn_pass(self.P, self.rules, _plans(self.rules), keep=True)
        return self._V, self._R

    def _index(self, my: int, opp: int, turn_total: int, dice: int) -> tuple[int, ...]:
        check_duel_state(self.rules, my, opp, turn_total, dice)
        T = self.rules.target
        return my // UNIT, opp // UNIT, min(turn_total // UNIT, T // UNIT), dice

    def win_probability(self, my: int = 0, opp: int = 0, turn_total: int = 0, dice: int = 6):
        """Chance to win from a state with optimal play (turn start: ``turn_total=0``)."""
        a, b, t, n = self._index(my, opp, turn_total, dice)
        if t == 0:
            return float(self.P[a, b])
        return float(self.tables()[0][t, n - 1, a, b])

    def bank_value(self, my: int, opp: int, turn_total: int) -> float:
        """Chance to win if the player banks now (stopping below the opening banks nothing)."""
        a, b, t, _ = self._index(my, opp, turn_total, self.rules.dice)
        U = self.P.shape[0]
        if a + t >= U:
            return 1.0
        if a == 0 and t * UNIT < self.rules.open_score:
            return float(1.0 - self.P[b, a])
        return float(1.0 - self.P[b, a + t])

    def roll_value(self, my: int, opp: int, turn_total: int, dice: int) -> float:
        """Chance to win if the player rolls ``dice`` dice now, then plays optimally."""
        a, b, t, n = self._index(my, opp, turn_total, dice)
        if t == 0:
            return float(self.P[a, b])
        if a + t >= self.P.shape[0]:
            return 1.0
        return float(self.tables()[1][t, n - 1, a, b])

    def should_roll(self, my: int, opp: int, turn_total: int, dice: int) -> bool:
        """True when rolling beats banking in win probability (ties bank; a turn starts with a
        roll)."""
        self._index(my, opp, turn_total, dice)
        if turn_total == 0:
            return True
        return self.roll_value(my, opp, turn_total, dice) > self.bank_value(my, opp, turn_total)

    def bank_thresholds(self, dice: int) -> np.ndarray:
        """``th[a, b]``: the least turn total (points) at which a player with ``50 a`` points
        against ``50 b``, with ``dice`` dice to roll, banks rather than rolls; ``target - 50 a``
        means "roll on until the target is reached".

        >>> sol = solve_duel(TenKRules(target=300, dice=3), progress=False, use_cache=False)
        >>> th = sol.bank_thresholds(1)     # one die: behind, roll longer
        >>> [int(x) for x in th[0]]
        [100, 100, 150, 200, 300, 300]
        >>> sol.should_roll(0, 100, 100, 1), sol.should_roll(0, 100, 150, 1)
        (True, False)
        """
        if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= self.rules.dice:
            raise TenKStateError(f"dice={dice!r}; allowed: 1..{self.rules.dice}")
        _, R = self.tables()
        U = self.P.shape[0]
        a = np.arange(U)[:, None, None]
        b = np.arange(U)[None, :, None]
        t = np.arange(1, U + 1)[None, None, :]
        at = a + t
        bank = np.where(at >= U, 1.0, 1.0 - self.P[b, np.minimum(at, U - 1)])
        open_u = self.rules.open_score // UNIT
        if open_u:
            stop = 1.0 - self.P[b, a]
            bank = np.where((a == 0) & (t < open_u), stop, bank)
        roll = np.moveaxis(R[1 : U + 1, dice - 1], 0, -1)  # [a, b, t]
        banks = (roll <= bank) | (at >= U)
        return UNIT * (1 + np.argmax(banks, axis=-1))

    def advise(
        self, my: int, opp: int, turn_total: int, dice: int, roll: tuple[int, ...] | None = None
    ) -> dict:
        """Each choice's chance to win: bank or roll ``dice`` dice (``roll=None``), or, for a
        roll of ``dice`` dice at ``turn_total``, every legal set-aside (best first) with the
        chance to win after it and whether to bank or roll next."""
        a, b, t, n = self._index(my, opp, turn_total, dice)
        U, D = self.P.shape[0], self.rules.dice
        _, R = pair_tables(self.rules, self.P, a, b)
        out: dict[str, Any] = {"me": my, "opponent": opp, "turn_total": turn_total, "dice": n}
        if roll is None:
            bank = None if t == 0 else self.bank_value(my, opp, turn_total)
            rv = 1.0 if a + t >= U else float(R[t, n - 1])
            best = "roll" if bank is None or rv > bank else "bank"
            return {**out, "bank": bank, "roll": rv, "best": best}
        dice_rolled = check_roll(roll, self.rules)
        if len(dice_rolled) != n:
            raise TenKStateError(f"roll {tuple(roll)!r} has {len(dice_rolled)} dice; allowed: {n}")
        out["roll"] = list(dice_rolled)
        if self.rules.six_wins and is_six_of_a_kind(dice_rolled):
            return {**out, "keep": [], "best": "six of a kind: you win"}
        if is_wipe(dice_rolled, self.rules):
            return {**out, "keep": [], "best": "four or more 2s: your score is wiped"}
        keep = []
        for o in score_options(dice_rolled, self.rules):
            t2 = t + o.points // UNIT
            m = o.next_dice(self.rules)
            if a + t2 >= U:
                win, then = 1.0, "bank"
            else:
                bank = self.bank_value(my, opp, t2 * UNIT)
                rv = float(R[t2, m - 1])
                win, then = (rv, "roll") if rv > bank else (bank, "bank")
            keep.append(
                {
                    "kept": list(o.kept),
                    "points": o.points,
                    "dice_next": m if m else D,
                    "then": then,
                    "win": win,
                }
            )
        if not keep:
            return {**out, "keep": [], "best": "nothing scores: the turn is lost"}
        keep.sort(key=lambda k: (-k["win"], -k["points"]))
        return {**out, "keep": keep, "best": "keep " + " ".join(map(str, keep[0]["kept"]))}

    def choose(self, roll: tuple[int, ...], my: int, opp: int, turn_total: int):
        """Best set-aside for ``roll``: (points, dice left); None on a bust, wipe or win."""
        dice = check_roll(roll, self.rules)
        if (self.rules.six_wins and is_six_of_a_kind(dice)) or is_wipe(dice, self.rules):
            return None
        best = None
        for o in score_options(dice, self.rules):
            v = self.win_probability(my, opp, turn_total + o.points, o.next_dice(self.rules))
            if best is None or v > best[0]:
                best = (v, (o.points, o.dice_left))
        return None if best is None else best[1]


def _solve_layered(rules: TenKRules, progress: bool) -> DuelSolution:
    bar = progress_bar(desc=f"10,000 duel to {rules.target}", unit="pass") if progress else None

    def report(passes: int, change: float) -> None:
        if bar is not None:
            bar.update(1)
            bar.set_postfix(change=f"{change:.1e}")

    try:
        s = solve_layered(rules, progress=report)
    finally:
        if bar is not None:
            bar.close()
    if not s.certified:
        raise TenKStateError(f"the duel to {rules.target} could not be certified")
    return DuelSolution(rules, s.P, s.passes, s.last_change, s.seconds, s.L, s.U)


def _solve(rules: TenKRules, tol: float, progress: bool, max_sweeps: int) -> DuelSolution:
    U = rules.target // UNIT
    plans = _plans(rules)
    P = np.full((U, U), 0.5)
    start = time.perf_counter()
    bar = None
    if progress:
        bar = progress_bar(desc=f"10,000 duel to {rules.target}", unit="sweep")
    change = np.inf
    sweeps = 0
    try:
        while change > tol:
            if sweeps >= max_sweeps:
                raise TenKStateError(f"no convergence after {max_sweeps} sweeps (change {change})")
            new, _, _ = _turn_pass(P, rules, plans)
            change = float(np.max(np.abs(new - P)))
            P = new
            sweeps += 1
            if bar is not None:
                bar.update(1)
                bar.set_postfix(change=f"{change:.1e}")
    finally:
        if bar is not None:
            bar.close()
    secs = time.perf_counter() - start
    return DuelSolution(rules, P, sweeps, change, secs, method=DuelMethod.JACOBI)


def _duel_method(method: DuelMethod | str) -> DuelMethod:
    """``method`` as a :class:`DuelMethod` (refused: a flag, or a name of none)."""
    if isinstance(method, bool):
        raise TenKRulesError(f"method={method!r}; allowed: layered, jacobi")
    try:
        return DuelMethod(method)
    except ValueError:
        allowed = ", ".join(m.value for m in DuelMethod)
        raise TenKRulesError(f"method={method!r}; allowed: {allowed}") from None


@public
def solve_duel(
    rules: TenKRules | None = None,
    target: int | None = None,
    tol: float = 1e-9,
    progress: bool = True,
    use_cache: bool = True,
    max_sweeps: int = 10_000,
    method: DuelMethod | str = DuelMethod.LAYERED,
) -> DuelSolution:
    """Solve the two-player game (cached on disk; progress bar when asked).

    ``method``: :class:`DuelMethod` (default: the proven layered solver; ``tol`` and
    ``max_sweeps`` apply to the Jacobi iteration only).
    """
    rules = check_rules(rules)
    if target is not None:
        rules = rules.replace(target=target)
    if rules.penalised:
        raise TenKRulesError(
            "rules with a farkle penalty (the facebook preset): solve them with "
            "phase10math.tenthousand.penalty.solve_penalty_duel"
        )
    tol = check_positive_float(tol, "tol")
    progress = check_flag(progress, "progress")
    use_cache = check_flag(use_cache, "use_cache")
    max_sweeps = check_count(max_sweeps, "max_sweeps")
    method = _duel_method(method)

    def run() -> DuelSolution:
        if method is DuelMethod.LAYERED:
            return _solve_layered(rules, progress)
        return _solve(rules, tol, progress, max_sweeps)

    if not use_cache:
        return run()
    key = cache_key(kind="tenk-duel", rules=rules.as_dict(), tol=tol, method=method.value, algo=2)

    def compute() -> dict:
        s = run()
        out = {"P": s.P, "sweeps": s.sweeps, "last_change": s.last_change, "seconds": s.seconds}
        if s.lower is not None:
            out["lower"], out["upper"] = s.lower, s.upper
        return out

    d = cached(key, compute)
    return DuelSolution(
        rules,
        d["P"],
        d["sweeps"],
        d["last_change"],
        d["seconds"],
        d.get("lower"),
        d.get("upper"),
        method,
    )
