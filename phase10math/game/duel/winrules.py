"""Rules for playing to win that a person can remember, each priced exactly in the game
against the optimal player (as Neller and Presser priced their rules for Pig).

A **win rule** says, at each turn, which of two turn plays to use: *stop at a made phase*
(:attr:`Play.COMPLETE`: the turn that makes the phase most often, taking points only where
they cost no chance of making it) or *keep rolling for points* (:attr:`Play.SCORE`: the turn of
the most points on average). It decides by what a player sees on the score sheets: the
phase of each, the points behind or ahead, and whether the opponent has finished (the last
chance). Both plays are the kit's exact lexicographic turns (one outcome distribution per
phase, :func:`~phase10math.game.duel.columns.fixed_distribution`).

**The price** (:meth:`WinPricer.worth`): the rule's seat plays the rule, the other seat the
table's optimal policy (its outcome distribution at every state, from the solved table), and
the chance to win of the rule's seat (a tie counted half) is the exact value of that pair of
fixed policies: the last chances first (later phases first), then the layers of decreasing
sum of both phases, each "both fail" pair the exact solution of its 2 x 2 linear system
(:func:`~phase10math.game.duel.pair.policy_fixed_point`), the same evaluation the table's
matchups use, without sampling (in float64; the optimum's values are within the table's
proven bound). :meth:`WinPricer.worth_bounds` and :meth:`WinPricer.price_bounds` prove it:
the same chain in intervals (:func:`dot_bounds`, :func:`pair_bounds`), every float rounding
and the distributions' own proven relative rounding (:func:`dist_margin`) widened outward,
the optimum's values within the table's proven errors. The opponent is the table's optimal
policy as solved: where optimal turns tie, another optimal policy can leave a rule another
chance to win. The price of a rule is the optimum's chance to win minus the rule's, seat by
seat and over a random seat. :func:`simulate_rule` checks a price a second way: seeded games
on physical dice through the game engine (:class:`WinRuleStrategy` against the table's
optimal player).

The rules are priced on a reduced game where the whole game is too costly (a table of every
state's optimal distribution): the end game, phases 9-10 on the compact dice
(:data:`WIN_GAME`), both players starting at phase 9 with 0 points, solved in about 30 s.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

import numpy as np

from phase10math._base.checks import public
from phase10math.dice.rules import DEFAULT_RULES
from phase10math.errors import InvalidRulesError
from phase10math.game.duel.columns import fixed_distribution
from phase10math.game.duel.pair import policy_fixed_point
from phase10math.game.duel.samples import ResultSample
from phase10math.game.duel.setting import DuelGame, Key, LastKey, Play, outcome_of, partner_of
from phase10math.game.duel.strategy import DuelStrategy
from phase10math.game.duel.table import DuelSolution
from phase10math.game.engine import Game, TurnView
from phase10math.game.strategies import OptimalStrategy
from phase10math.turn.batch import gamma

#: the reduced game the win rules are priced on: phases 9-10, compact dice, default rules
WIN_GAME = (9, 10)
DATA_PACKAGE = "phase10math.game.data"
FINISH_BONUS = DEFAULT_RULES.first_finish_bonus
#: thresholds beyond any difference of points: always keep rolling / always stop
ALWAYS, NEVER = 1000, -1000

Choose = Callable[[bool, "Key | LastKey"], Play]


@public
@dataclass(frozen=True)
class WinRule:
    """A rule for playing to win: keep rolling for points (:attr:`Play.SCORE`) while the
    points ahead ``D`` (your total minus the opponent's) are below a threshold, else stop at
    a made phase (:attr:`Play.COMPLETE`). The threshold depends on the phases: ``level``
    (both at the same phase, before the last), ``level_last`` (both at the last phase),
    ``ahead`` (you are a phase ahead), ``behind`` (a phase behind). In your last chance (the
    opponent has finished) keep rolling for points when you need more than ``need`` points
    to pass the opponent (your finish bonus counted, where you get it); or, with ``chase``,
    play the last chance to pass the opponent: the turns of the most chance to end with more
    points than the opponent (:attr:`Play.OPTIMAL` there: the last chance is a game of one
    player, and its best play is the table's). :data:`ALWAYS`
    (a threshold beyond any difference): always roll for points, :data:`NEVER`: always stop."""

    name: str
    level: int
    level_last: int
    ahead: int
    behind: int
    need: int
    chase: bool = False
    last_phase: int = WIN_GAME[1]
    finish_bonus: int = FINISH_BONUS

    def choose(self, last: bool, key: Key | LastKey) -> Play:
        """The turn play at a state (a normal-play key, or a last-chance key)."""
        if last:
            _, dc, elig = key
            if self.chase:
                return Play.OPTIMAL
            needed = -dc - (self.finish_bonus if elig else 0)
            return Play.SCORE if needed > self.need else Play.COMPLETE
        return Play.SCORE if key[3] < self.threshold(key[1][0], key[2][0]) else Play.COMPLETE

    def threshold(self, mine: int, theirs: int) -> int:
        if mine == theirs:
            return self.level_last if mine == self.last_phase else self.level
        return self.ahead if mine > theirs else self.behind

    def words(self) -> list[str]:
        """The rule in plain words: a line per case that has a threshold, the other cases in
        one line, then the last chance."""
        cases = (
            ("Level on phases (before the last)", self.level),
            ("Both on the last phase", self.level_last),
            ("A phase ahead", self.ahead),
            ("A phase behind", self.behind),
        )
        lims = {lim for _, lim in cases}
        if lims <= {ALWAYS}:
            out = [f"{STOP_NOT}, whatever the score."]
        elif lims <= {NEVER}:
            out = [f"{STOP}, whatever the score."]
        else:
            out = [_line(case, lim) for case, lim in cases if lim < ALWAYS]
            out.append(f"Otherwise: {STOP_NOT[0].lower()}{STOP_NOT[1:]}.")
        return out + [_chase_line() if self.chase else _last_line(self.need)]

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "words": self.words(),
            "thresholds": {
                f: getattr(self, f) for f in ("level", "level_last", "ahead", "behind", "need")
            },
            "chase": self.chase,
        }


#: the two turn plays in words
STOP = "Stop at a made phase (take points only where they cost no chance of making it)"
STOP_NOT = "Keep rolling for points at a made phase (hold the dice that score most on average)"


def _line(case: str, lim: int) -> str:
    if lim <= NEVER:
        return f"{case}: always stop at a made phase."
    lead = int(lim)
    if lead > 0:
        when = f"stop at a made phase once you lead by {lead} or more"
    elif lead == 0:
        when = "stop at a made phase once you are level or ahead"
    else:
        when = f"stop at a made phase unless you trail by more than {-lead}"
    return f"{case}: keep rolling for points; {when}."


def _chase_line() -> str:
    return (
        "Opponent finished: play to pass their total: keep the dice that give the most chance "
        "of the points you need (not the most points), and stop once you have them."
    )


def _last_line(need: int) -> str:
    if need >= ALWAYS:
        return "Opponent finished: stop at a made phase."
    if need <= NEVER:
        return "Opponent finished: keep rolling for points."
    return (
        f"Opponent finished: keep rolling for points if you need more than {int(need)} "
        "to pass them (your finish bonus counted); else stop at a made phase."
    )


# --------------------------------------------------------------------------- evaluation


@public
class WinPricer:
    """Prices win rules on a solved game ``sol`` (not a packed table: it keeps every state's
    optimal distribution): the turn plays' distributions, each state's outcomes and the
    pairs in layer order are found once, then :meth:`worth` evaluates a rule."""

    def __init__(self, sol: DuelSolution) -> None:
        if sol.packed:
            raise InvalidRulesError("a packed table keeps no policies: solve the game (solve_duel)")
        self.sol, self.g = sol, sol.game
        self.fixed = {
            (k, p): fixed_distribution(self.g, k, p)
            for k in self.g.phases
            for p in (Play.COMPLETE, Play.SCORE)
        }
        opt = (Play.OPTIMAL, Play.OPTIMAL)
        keys0 = [k for k in sol.values[opt] if k[0] == 0 and not sol.decided(k)]
        keys0.sort(key=lambda k: -(k[1][0] + k[2][0]))  # later layers first
        self.pairs = [(a, partner_of(a)) for a in keys0]
        self.after = {k: sol.after(k) for ab in self.pairs for k in ab}

    def worth(self, rule: WinRule | Choose, seat: int) -> float:
        """The chance to win (a tie counted half) of seat ``seat`` (0: moves first) playing
        ``rule`` (a :class:`WinRule`, or any ``choose(last, key) -> Play``) from the start
        against the table's optimal policy."""
        if seat not in (0, 1):
            raise InvalidRulesError(f"seat={seat!r}; allowed: 0 (moves first) or 1")
        choose = rule.choose if isinstance(rule, WinRule) else rule
        chain = _Chain(self, choose, seat)
        for a, b in self.pairs:
            d0, m0 = chain.turn(a)
            d1, m1 = chain.turn(b)
            x, y = policy_fixed_point(d0[None], d1[None], m0[None], m1[None])
            chain.values[a], chain.values[b] = float(x[0]), float(y[0])
        w = chain.worth(self.g.start())
        return w if seat == 0 else 1 - w

    def optimal(self, seat: int) -> float:
        """The optimum's chance to win from the start in seat ``seat``."""
        w = self.sol.value(self.g.start())[0]
        return w if seat == 0 else 1 - w

    def worth_bounds(self, rule: WinRule | Choose, seat: int) -> tuple[float, float]:
        """Proven lower and upper bounds on the exact chance to win of :meth:`worth` (see
        the module text: the same chain in intervals, every rounding outward)."""
        if seat not in (0, 1):
            raise InvalidRulesError(f"seat={seat!r}; allowed: 0 (moves first) or 1")
        choose = rule.choose if isinstance(rule, WinRule) else rule
        chain = _Bounds(self, choose, seat)
        for a, b in self.pairs:
            chain.values[a], chain.values[b] = pair_bounds(chain.turn(a), chain.turn(b))
        lo, hi = chain.worth(self.g.start())
        return (lo, hi) if seat == 0 else (_down(1 - hi), _up(1 - lo))

    def optimal_bounds(self, seat: int) -> tuple[float, float]:
        """Proven bounds on the optimum's exact chance to win in seat ``seat`` (its value
        within the table's proven error at the start)."""
        start = self.g.start()
        w, e = self.sol.value(start)[0], self.sol.error(start)
        lo, hi = _down(w - e), _up(w + e)
        return (lo, hi) if seat == 0 else (_down(1 - hi), _up(1 - lo))

    def price_bounds(self, rule: WinRule | Choose, seat: int) -> tuple[float, float]:
        """Proven bounds on the rule's exact price in seat ``seat``: the optimum's chance
        to win minus the rule's."""
        o_lo, o_hi = self.optimal_bounds(seat)
        w_lo, w_hi = self.worth_bounds(rule, seat)
        return _down(o_lo - w_hi), _up(o_hi - w_lo)


class _Chain:
    """The fixed-policy chain of one seat playing ``choose`` against the table's optimum."""

    def __init__(self, pricer: WinPricer, choose: Choose, seat: int) -> None:
        self.p, self.sol, self.g = pricer, pricer.sol, pricer.g
        self.choose, self.seat = choose, seat
        self.values: dict[Key, float] = {}
        self.chased: dict[LastKey, float] = {}

    def chase(self, lk: LastKey) -> float:
        """The rule's seat's chance to win in its last chance at ``lk``."""
        if lk in self.chased:
            return self.chased[lk]
        g = self.g
        p, dc, elig = lk
        if self.sol.decided(lk):
            return 1.0 if dc > 0 else 0.0
        play = self.choose(True, lk)
        if play == Play.OPTIMAL:  # the table's last chance (a game of one player)
            return self.sol.last_value(Play.OPTIMAL, *lk)[0]
        d = self.p.fixed[(p[0], play)]
        u = np.empty(len(d))
        u[0] = outcome_of(dc)[0]
        for j, x in enumerate(g.scores(p[0]), 1):
            p2, gain = g.advance(p, int(x))
            if p[0] == g.hi:
                u[j] = outcome_of(dc + gain + (g.rules.first_finish_bonus if elig else 0))[0]
            else:
                u[j] = self.chase((p2, dc + gain, elig))
        self.chased[lk] = v = float(d @ u)
        return v

    def worth(self, key: Key) -> float:
        """The mover's chance to win at a normal-play state (solved, or decided)."""
        if self.sol.decided(key):
            return self.sol.value(key)[0]
        return self.values[key]

    def turn(self, key: Key) -> tuple[np.ndarray, np.ndarray]:
        """The mover's outcome distribution at ``key`` and its chance to win after each made
        outcome."""
        rule = key[0] == self.seat
        if rule:
            d = self.p.fixed[(key[1][0], self.choose(False, key))]
        else:
            d = self.sol.dists[key]
        m = np.empty(len(d) - 1)
        for j, (last, nxt) in enumerate(self.p.after[key]):
            if not last:
                m[j] = 1 - self.worth(nxt)
            elif rule:  # the rule's seat finished: the optimal player chases
                m[j] = 1 - self.sol.last_value(Play.OPTIMAL, *nxt)[0]
            else:
                m[j] = 1 - self.chase(nxt)
        return d, m


# --------------------------------------------------------------------------- proven bounds

Interval = tuple[float, float]


def _down(x: float) -> float:
    """The float below ``x``: a bound below the exact result of the one operation that
    gave ``x`` (rounded to nearest, it is within half a unit in the last place)."""
    return float(np.nextafter(x, -np.inf))


def _up(x: float) -> float:
    return float(np.nextafter(x, np.inf))


def dot_bounds(d: np.ndarray, lo: np.ndarray, hi: np.ndarray, margin: float) -> Interval:
    """Proven bounds on ``d* . u`` for every ``u`` between ``lo >= 0`` and ``hi``, ``d*``
    the exact distribution whose float ``d`` is within ``margin`` of it relatively (each
    ``|d_o - d*_o| <= margin d*_o``).

    The float dot product ``r`` of ``n`` nonnegative terms is within ``gamma_n`` of the
    exact ``d . lo`` relatively (any order of summation, fused or not), and ``d*_o >= d_o /
    (1 + margin)``: so ``d* . lo >= r / ((1 + gamma_n)(1 + margin)) >= r (1 - t)``, ``t =
    gamma_n + margin``; above, ``d* . hi <= r / ((1 - gamma_n)(1 - margin)) <= r (1 + 2
    t)`` (``t <= 1/2``). ``gamma_(n+1)`` covers the rounding of ``gamma_n`` itself, and
    each remaining operation is rounded outward by one float (:func:`_down`, :func:`_up`)."""
    t = _up(gamma(len(d) + 1) + margin)
    if t > 0.5:
        raise InvalidRulesError(f"a distribution's margin {margin} is too wide to bound")
    r_lo, r_hi = float(d @ lo), float(d @ hi)
    return max(0.0, _down(r_lo * _down(1 - t))), _up(r_hi * _up(1 + 2 * t))


@dataclass(frozen=True)
class TurnBounds:
    """A turn of a pair in intervals: ``A`` the chance to win through a made outcome (the
    exact distribution's ``sum_o d_o m_o``), ``p`` the chance to fail, ``C`` the chance to
    make the phase and yet lose (``sum_o d_o (1 - m_o)``, that is ``1 - A - p``)."""

    A: Interval
    p: Interval
    C: Interval


def pair_bounds(t0: TurnBounds, t1: TurnBounds) -> tuple[Interval, Interval]:
    """Proven bounds on the pair's exact fixed point ``x = A + p (1 - y)``, ``y = B + q (1
    - x)``: ``x = (A + p C1) / (1 - p q)`` and ``y = (B + q C0) / (1 - p q)`` (``C0 = 1 - A
    - p``, ``C1 = 1 - B - q``), each increasing in all of its nonnegative inputs, so the
    lower ends of the inputs give a lower bound and the upper ends an upper bound, each
    operation rounded outward."""

    def one(a: TurnBounds, b: TurnBounds) -> Interval:
        num = _down(a.A[0] + _down(a.p[0] * b.C[0]))
        lo = _down(num / _up(1 - _down(a.p[0] * b.p[0])))
        den = _down(1 - _up(a.p[1] * b.p[1]))
        hi = _up(_up(a.A[1] + _up(a.p[1] * b.C[1])) / den) if den > 0 else 1.0
        return max(0.0, lo), min(1.0, hi)

    return one(t0, t1), one(t1, t0)


def dist_margin(game: DuelGame, k: int) -> float:
    """The relative rounding bound of phase ``k``'s float outcome distributions (forward
    passes: the fixed turn plays' and the solve's)."""
    tb = game.turns[k]
    forward = tb.forward_margin() if hasattr(tb, "forward_margin") else 0.0
    return max(forward, float(getattr(tb, "dist_margin", 0.0)))


class _Bounds(_Chain):
    """:class:`_Chain` in intervals: each value a proven (lower, upper) pair."""

    def __init__(self, pricer: WinPricer, choose: Choose, seat: int) -> None:
        super().__init__(pricer, choose, seat)
        self.margin = {k: dist_margin(self.g, k) for k in self.g.phases}
        self.ivals: dict[Key, Interval] = {}
        self.values = self.ivals  # type: ignore[assignment]
        self.chased_i: dict[LastKey, Interval] = {}

    def table_last(self, lk: LastKey) -> Interval:
        """The optimum's chance to win in its last chance, within the table's error."""
        v, e = self.sol.last_value(Play.OPTIMAL, *lk)[0], self.sol.error(lk)
        return max(0.0, _down(v - e)), min(1.0, _up(v + e))

    def chase(self, lk: LastKey) -> Interval:  # type: ignore[override]
        if lk in self.chased_i:
            return self.chased_i[lk]
        g, (p, dc, elig) = self.g, lk
        if self.sol.decided(lk):
            return (1.0, 1.0) if dc > 0 else (0.0, 0.0)
        play = self.choose(True, lk)
        if play == Play.OPTIMAL:
            return self.table_last(lk)
        d = self.p.fixed[(p[0], play)]
        lo, hi = np.empty(len(d)), np.empty(len(d))
        lo[0] = hi[0] = outcome_of(dc)[0]
        for j, x in enumerate(g.scores(p[0]), 1):
            p2, gain = g.advance(p, int(x))
            if p[0] == g.hi:
                bonus = g.rules.first_finish_bonus if elig else 0
                lo[j] = hi[j] = outcome_of(dc + gain + bonus)[0]
            else:
                lo[j], hi[j] = self.chase((p2, dc + gain, elig))
        self.chased_i[lk] = out = dot_bounds(d, lo, hi, self.margin[p[0]])
        return out

    def worth(self, key: Key) -> Interval:  # type: ignore[override]
        if self.sol.decided(key):
            v = self.sol.value(key)[0]
            return v, v
        return self.ivals[key]

    def turn(self, key: Key) -> TurnBounds:  # type: ignore[override]
        """The turn at ``key`` in intervals (its policy as in :meth:`_Chain.turn`)."""
        rule = key[0] == self.seat
        if rule:
            d = self.p.fixed[(key[1][0], self.choose(False, key))]
        else:
            d = self.sol.dists[key]
        lo, hi = np.empty(len(d) - 1), np.empty(len(d) - 1)
        for j, (last, nxt) in enumerate(self.p.after[key]):
            if not last:
                w = self.worth(nxt)
            else:  # the rule's seat finished: the optimal player chases; else the rule does
                w = self.table_last(nxt) if rule else self.chase(nxt)
            lo[j], hi[j] = _down(1 - w[1]), _up(1 - w[0])
        lo, hi = np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)
        m = self.margin[key[1][0]]
        made = d[1:]
        c_lo = np.maximum(np.nextafter(1 - hi, -np.inf), 0.0)
        c_hi = np.nextafter(1 - lo, np.inf)
        p = (_down(d[0] * _down(1 - m)), _up(d[0] * _up(1 + 2 * m)))
        return TurnBounds(dot_bounds(made, lo, hi, m), p, dot_bounds(made, c_lo, c_hi, m))


# --------------------------------------------------------------------------- Monte Carlo


class WinRuleStrategy:
    """A game strategy playing a win rule on physical dice: the state from both score
    sheets (:meth:`DuelStrategy.state`), the rule's turn play there (the kit's exact
    lexicographic turn for 'complete' or 'score'; the table's turn where the rule plays the
    last chance to pass the opponent)."""

    name = "win rule"

    def __init__(self, rule: WinRule, sol: DuelSolution) -> None:
        g = sol.game
        self.rule, self.sol = rule, sol
        self.table = DuelStrategy(sol)
        self.turns = {
            Play.COMPLETE: OptimalStrategy("complete", g.rules, g.layout),
            Play.SCORE: OptimalStrategy("score", g.rules, g.layout),
        }

    def attach(self, game: Game) -> WinRuleStrategy:
        self.table.attach(game)
        return self

    def hold(self, view: TurnView) -> frozenset[int]:
        last, key = self.table.state(view)
        if self.sol.decided(key):
            return frozenset(range(len(view.faces)))
        play = self.rule.choose(last, key)
        return self.table.hold(view) if play == Play.OPTIMAL else self.turns[play].hold(view)


@dataclass
class RuleSample(ResultSample):
    """Seeded games of a win rule against the optimal player: the rule's result per game
    (1 win, 1/2 tie, 0 loss) and its exact chance to win in the seat it drew."""

    got: np.ndarray
    want: np.ndarray


def simulate_rule(pricer: WinPricer, rule: WinRule, games: int, seed: int = 0) -> RuleSample:
    """``games`` seeded games (game ``i`` from seed ``seed + i``, the engine drawing who
    begins) of ``rule`` against the table's optimal policy, both from the start of the
    priced game; the rule's exact chance to win in each game's seat order beside."""
    sol, g = pricer.sol, pricer.g
    worth = {s: pricer.worth(rule, s) for s in (0, 1)}
    mine, theirs = WinRuleStrategy(rule, sol), DuelStrategy(sol)
    got, want = [], []
    for i in range(games):
        game = Game([mine, theirs], phases=g.hi, layout=g.layout, seed=seed + i)
        for player in game.players:
            player.phase = g.lo
            player.scores = {k: 0 for k in range(1, g.lo)}
        mine.attach(game)
        theirs.attach(game)
        res = game.play()
        w = res.winners
        got.append(1.0 if w == [0] else (0.5 if len(w) == 2 else 0.0))
        want.append(worth[0 if res.order[0] == 0 else 1])
    return RuleSample(np.array(got), np.array(want))


#: the win rules shipped (priced by ``tools/ship_win_rules.py``): the two plain turn plays,
#: a rule of thresholds alone (Neller and Presser's kind), the simplest rule within about
#: 1 point of chance in 100 of the optimum, and the best the threshold search found
WIN_RULES = (
    WinRule("always stop", NEVER, NEVER, NEVER, NEVER, ALWAYS),
    WinRule("always roll for points", ALWAYS, ALWAYS, ALWAYS, ALWAYS, NEVER),
    WinRule("roll for points, need 28", ALWAYS, ALWAYS, ALWAYS, ALWAYS, 28),
    WinRule("roll for points, chase", ALWAYS, ALWAYS, ALWAYS, ALWAYS, 0, chase=True),
    WinRule("best found", ALWAYS, 20, ALWAYS, ALWAYS, 0, chase=True),
)
#: the rule the card shows first
CARD_RULE = "roll for points, chase"
WIN_RULES_FILE = "win_rules.json"


@public
def shipped_win_rules() -> dict:
    """The shipped win rules and their prices (``phase10math/game/data/win_rules.json``,
    written by ``tools/ship_win_rules.py``)."""
    text = resources.files(DATA_PACKAGE).joinpath(WIN_RULES_FILE).read_text()
    return json.loads(text)


def win_game() -> DuelGame:
    """The reduced game the win rules are priced on (:data:`WIN_GAME`)."""
    return DuelGame.standard(*WIN_GAME)
