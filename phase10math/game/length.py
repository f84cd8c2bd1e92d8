"""Exact game length: how many turns a player needs to finish phases 1-10 (or 1-20).

With a stationary per-turn strategy, phase k is made on each turn independently with the
strategy's exact probability ``p_k``, so the tries at phase k are geometric (mean ``1/p_k``)
and the number of turns ``N`` is a sum of independent geometrics. Its exact distribution is
a convolution done in integers: with every ``p_k = a_k / D`` over one common denominator,
``P(N = n) = c_n / D**n`` with integer ``c_n``.

>>> from fractions import Fraction
>>> gl = GameLength.from_probabilities({1: Fraction(1, 2), 2: Fraction(1, 2)})
>>> gl.expected_turns, gl.pmf(2), gl.cdf(3)
(Fraction(4, 1), Fraction(1, 4), Fraction(1, 2))
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from phase10math import cache
from phase10math._base.checks import BOUNDS, check_int, check_seed, public
from phase10math._base.progress import progress_bar
from phase10math.dice.faces import Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.errors import InvalidRulesError
from phase10math.exact import as_fraction, to_json
from phase10math.turn.engine import final_scores
from phase10math.turn.kernels import utility_from_scores
from phase10math.turn.policy import random_policy_value
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import (
    cached_solution,
    completion_utility,
    greedy_holds,
    phase_row,
    shipped_row,
    solution_key,
)

TURN_STRATEGIES = ("complete", "score", "greedy", "random")


# --------------------------------------------------------------------------- per-turn p_k


def turn_probability(
    number: int, strategy: str, rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT
) -> Fraction:
    """Exact P(the strategy makes phase k in one turn) (cached on disk)."""
    if strategy not in TURN_STRATEGIES:
        raise InvalidRulesError(f"strategy {strategy!r}; allowed: {', '.join(TURN_STRATEGIES)}")
    if not isinstance(number, int) or not 1 <= number <= 20:
        raise InvalidRulesError(f"phase {number!r}; allowed: 1..20")
    if strategy == "complete":  # the shipped row where one ships, else the solve alone
        row = shipped_row(number, rules, layout)
        if row:
            return row["p_optimal"]
        return cached_solution(number, "complete", rules, layout).value()
    if strategy == "score":
        return phase_row(number, rules, layout)["p_score_policy"]
    if strategy == "greedy":
        return phase_row(number, rules, layout)["p_greedy"]
    if rules.holds != "free":
        raise InvalidRulesError("the exact random strategy is computed for free holds only")

    def compute() -> Fraction:
        space, made = completion_utility(PHASES[number], rules, layout)
        return random_policy_value(space, made, rules.rolls)

    return cache.cached(solution_key("random_p", PHASES[number], rules, layout), compute, Fraction)


def turn_probabilities(
    strategy: str,
    phases: Iterable[int] = range(1, 11),
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    show_progress: bool = False,
) -> dict[int, Fraction]:
    """``{k: p_k}`` for several phases, with a progress bar when asked."""
    phases = list(phases)
    it: Iterable[int] = phases
    if show_progress:
        it = progress_bar(phases, desc=f"per-turn p ({strategy})", unit="phase")
    return {k: turn_probability(k, strategy, rules, layout) for k in it}


# --------------------------------------------------------------------------- the distribution


#: The longest game length the exact distribution is computed to (``turns --max-turns``).
MAX_LENGTH_TURNS = BOUNDS["max-turns"][1]
#: The most digits of an exact fraction the JSON summary writes.
MAX_JSON_DIGITS = 4000


@public
@dataclass
class GameLength:
    """The exact distribution of the number of turns to finish, from per-phase ``p``."""

    p: dict[int, Fraction]
    _cache: dict[int, list[int]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_probabilities(cls, p: dict[int, Fraction]) -> GameLength:
        for k, v in p.items():
            if not 0 < Fraction(v) <= 1:
                raise InvalidRulesError(f"phase {k}: per-turn probability {v} must be in (0, 1]")
        return cls({k: Fraction(v) for k, v in p.items()})

    @classmethod
    def for_strategy(
        cls,
        strategy: str,
        phases: int = 10,
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        show_progress: bool = False,
    ) -> GameLength:
        if phases not in (10, 20) and not 1 <= phases <= 20:
            raise InvalidRulesError(f"phases={phases}; allowed 1..20")
        return cls.from_probabilities(
            turn_probabilities(strategy, range(1, phases + 1), rules, layout, show_progress)
        )

    @property
    def expected_tries(self) -> dict[int, Fraction]:
        """Expected turns spent on each phase: 1 / p_k."""
        return {k: 1 / v for k, v in self.p.items()}

    @property
    def expected_turns(self) -> Fraction:
        return sum(self.expected_tries.values(), Fraction(0))

    @property
    def variance(self) -> Fraction:
        return sum(((1 - v) / v**2 for v in self.p.values()), Fraction(0))

    @property
    def denominator(self) -> int:
        return math.lcm(*(v.denominator for v in self.p.values()))

    def _numerators(self, n_max: int) -> list[int]:
        """c_n with P(N = n) = c_n / D**n for n = 0..n_max.

        The generating function of N in w = z / D is ``A w^k / Q(w)`` with ``A`` the product of
        the numerators a_i = p_i D and ``Q(w) = prod(1 - b_i w)``, b_i = D - a_i; so
        ``c_n = [n = k] A - sum_j q_j c_(n-j)``: O(n k) integer steps (k phases)."""
        n_max = check_int(n_max, "n", None, MAX_LENGTH_TURNS, InvalidRulesError)
        for m, c in self._cache.items():
            if m >= n_max:
                return c[: n_max + 1]
        D = self.denominator
        q = [1]
        A = 1
        for v in self.p.values():
            a = int(v * D)
            b = D - a
            A *= a
            q = [x - b * y for x, y in zip(q + [0], [0] + q)]
        k = len(self.p)
        conv = [0] * (n_max + 1)
        for n in range(n_max + 1):
            acc = A if n == k else 0
            for j in range(1, min(k, n) + 1):
                acc -= q[j] * conv[n - j]
            conv[n] = acc
        self._cache = {n_max: conv}
        return conv

    def _cdf_numerators(self, n_max: int) -> list[int]:
        """F_n with P(N <= n) = F_n / D**n (F_n = F_(n-1) D + c_n)."""
        c, D, acc, out = self._numerators(n_max), self.denominator, 0, []
        for cn in c:
            acc = acc * D + cn
            out.append(acc)
        return out

    def pmf(self, n: int) -> Fraction:
        """Exact P(N = n) (n at most :data:`MAX_LENGTH_TURNS`)."""
        if check_int(n, "n", None, MAX_LENGTH_TURNS, InvalidRulesError) < 0:
            return Fraction(0)
        return Fraction(self._numerators(n)[n], self.denominator**n)

    def cdf(self, n: int) -> Fraction:
        """Exact P(N <= n): finished within n turns (n at most :data:`MAX_LENGTH_TURNS`)."""
        if check_int(n, "n", None, MAX_LENGTH_TURNS, InvalidRulesError) < 0:
            return Fraction(0)
        return Fraction(self._cdf_numerators(n)[n], self.denominator**n)

    def tail(self, n: int) -> Fraction:
        """Exact P(N > n)."""
        return 1 - self.cdf(n)

    def table(self, n_max: int) -> list[tuple[int, Fraction, Fraction]]:
        """``[(n, P(N = n), P(N <= n)), ...]`` for n = minimum..n_max."""
        n_max = check_int(n_max, "n_max", 0, MAX_LENGTH_TURNS, InvalidRulesError)
        c = self._numerators(n_max)
        F = self._cdf_numerators(n_max)
        D = self.denominator
        out, Dn = [], 1
        for n in range(n_max + 1):
            if n >= len(self.p):
                out.append((n, Fraction(c[n], Dn), Fraction(F[n], Dn)))
            Dn *= D
        return out

    def float_table(self, n_max: int) -> list[tuple[int, float, float]]:
        """:meth:`table` as correctly rounded floats of the exact values (no fractions are
        reduced, so thousands of turns take a moment)."""
        n_max = check_int(n_max, "n_max", 0, MAX_LENGTH_TURNS, InvalidRulesError)
        c, F, D = self._numerators(n_max), self._cdf_numerators(n_max), self.denominator
        out, Dn = [], 1
        for n in range(n_max + 1):
            if n >= len(self.p):
                out.append((n, c[n] / Dn, F[n] / Dn))
            Dn *= D
        return out

    def quantile(self, q: Fraction | float, n_max: int = MAX_LENGTH_TURNS) -> int:
        """Smallest n with P(N <= n) >= q (q in 0..1, n_max at most :data:`MAX_LENGTH_TURNS`)."""
        n_max = check_int(n_max, "n_max", 0, MAX_LENGTH_TURNS, InvalidRulesError)
        q = as_fraction(q)
        if not 0 <= q <= 1:
            raise InvalidRulesError(f"q={q}; allowed: a probability 0..1")
        n = len(self.p)
        F = self._cdf_numerators(n_max) if n <= n_max else []
        D, Dn = self.denominator, self.denominator**n
        while n <= n_max:
            if F[n] * q.denominator >= q.numerator * Dn:
                return n
            n += 1
            Dn *= D
        raise InvalidRulesError(f"quantile {q} beyond {n_max} turns")

    def json_turns(self) -> int:
        """The most turns whose exact fractions stay within :data:`MAX_JSON_DIGITS` digits
        (the denominator of P(N = n) divides D**n)."""
        return max(len(self.p), MAX_JSON_DIGITS // len(str(self.denominator)))

    def summary(self, n_max: int) -> dict[str, Any]:
        n_max = check_int(n_max, "n_max", 0, MAX_LENGTH_TURNS, InvalidRulesError)
        if n_max > self.json_turns():
            raise InvalidRulesError(
                f"the exact distribution to {n_max} turns has fractions of more than "
                f"{MAX_JSON_DIGITS:,} digits; as JSON it goes to {self.json_turns()} turns "
                "(the text table to 1000)"
            )
        return {
            "per_phase": {
                str(k): {"p_turn": to_json(v), "expected_tries": to_json(1 / v)}
                for k, v in self.p.items()
            },
            "expected_turns": to_json(self.expected_turns),
            "variance": to_json(self.variance),
            "distribution": [
                {"n": n, "pmf": to_json(pn), "cdf": to_json(cn)} for n, pn, cn in self.table(n_max)
            ],
            "tail_after": {"n": n_max, "p": to_json(self.tail(n_max))},
        }

    def format(self, n_max: int, name: str = "") -> str:
        lines = [
            f"Game length{' (' + name + ')' if name else ''}: turns to finish phases "
            f"1-{max(self.p)}",
            f"{'phase':>5} {'P(make in a turn)':>20} {'expected tries':>16}",
        ]
        for k, v in self.p.items():
            lines.append(f"{k:>5} {float(v):>20.6f} {float(1 / v):>16.6f}")
        e = self.expected_turns
        lines.append(
            f"expected turns: {float(e):.6f} (exact {e.numerator}/{e.denominator})"
            if len(str(e)) < 120
            else f"expected turns: {float(e):.6f} (exact fraction "
            f"with a {len(str(e.denominator))}-digit denominator; --json gives it)"
        )
        lines.append(f"standard deviation: {math.sqrt(float(self.variance)):.4f}")
        lines.append(f"{'n':>5} {'P(N = n)':>12} {'P(N <= n)':>12}")
        for n, pn, cn in self.float_table(n_max):
            lines.append(f"{n:>5} {pn:>12.6f} {cn:>12.6f}")
        lines.append(f"P(N > {n_max}) = {float(self.tail(n_max)):.3e} (exact)")
        return "\n".join(lines)


# --------------------------------------------------------------------------- Monte Carlo


def simulate_turns(
    space: StateSpace,
    finals: np.ndarray,
    holds: dict[int, np.ndarray],
    rolls: int,
    n: int,
    rng: np.random.Generator,
    keep_random: bool = False,
) -> np.ndarray:
    """Final utilities of ``n`` simulated turns of a free-hold policy (vectorised): holds[r]
    is the hold id per roll state (``full_ids`` order); ``keep_random`` keeps each die with
    probability 1/2 instead."""
    pos = sample_rolls(space, np.zeros(n, dtype=np.int64), rng)
    for r in range(rolls - 1, 0, -1):
        if keep_random:
            hold = random_holds(space, space.full_ids[pos], rng)
        else:
            hold = holds[r][pos]
        pos = sample_rolls(space, hold, rng)
    return np.asarray(finals)[pos]


def random_holds(space: StateSpace, gids: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Keep each die of every state with probability 1/2."""
    return space.ids_of([rng.binomial(cnt, 0.5) for cnt in space.counts_per_type(gids)])


def sample_rolls(space: StateSpace, holds: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Roll the dice missing from each hold; returns positions in ``space.full_ids``."""
    rolled = []
    for typ, have in zip(space.types, space.counts_per_type(np.asarray(holds, dtype=np.int64))):
        missing = typ.count - have.sum(axis=1)
        pv = np.asarray(typ.weights, dtype=float) / sum(typ.weights)
        rolled.append(have + rng.multinomial(missing, pv))
    return space.positions(space.ids_of(rolled))  # ten different dice: no table of every id


def policy_for(
    strategy: str, number: int, rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT
) -> tuple[StateSpace, dict[int, np.ndarray]]:
    """``(space, holds_by_r)`` of a per-turn strategy at phase k (random: empty holds)."""
    if strategy in ("complete", "score"):
        sol = cached_solution(number, strategy, rules, layout)
        return sol.space, sol.roll_arg
    if strategy == "greedy":
        return greedy_holds(number, rules, layout)
    if strategy == "random":
        return completion_utility(PHASES[number], rules, layout)[0], {}
    raise InvalidRulesError(f"strategy {strategy!r}; allowed: {', '.join(TURN_STRATEGIES)}")


def made_indicator(space: StateSpace, number: int, rules: Rules, layout: Layout) -> np.ndarray:
    """1 if the roll state completes phase k, else 0 (``full_ids`` order; int8: 60 million
    rolls on ten different dice)."""
    return utility_from_scores(final_scores(PHASES[number], space, rules), "complete", np.int8)


@public
def simulate_game_lengths(
    strategy: str,
    n_games: int,
    phases: int = 10,
    seed: int = 0,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
) -> np.ndarray:
    """Seeded Monte Carlo: turns needed by ``n_games`` players to finish (vectorised)."""
    n_games = check_int(n_games, "n_games", 1)
    rng = np.random.default_rng(check_seed(seed))
    total = np.zeros(n_games, dtype=np.int64)
    for k in range(1, phases + 1):
        space, holds = policy_for(strategy, k, rules, layout)
        made = made_indicator(space, k, rules, layout)
        todo = np.arange(n_games)
        while len(todo):
            total[todo] += 1
            ok = simulate_turns(
                space, made, holds, rules.rolls, len(todo), rng, keep_random=strategy == "random"
            ).astype(bool)
            todo = todo[~ok]
    return total


@dataclass(frozen=True)
class SimulationCheck:
    """A simulation of optimal turns against the exact value: ``z`` is the difference in
    standard errors (|z| < 4 is the kit's test, see the glossary's "within 4 sigma")."""

    phase: int
    objective: str
    exact: Fraction
    mean: float
    standard_error: float
    turns: int

    @property
    def z(self) -> float:
        return (self.mean - float(self.exact)) / self.standard_error


@public
def simulate_optimal_turns(
    number: int,
    objective: str = "complete",
    turns: int = 20_000,
    seed: int = 0,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
) -> SimulationCheck:
    """Play ``turns`` seeded turns of phase ``number`` with the solver's own optimal holds (free
    holds), rolling the dice of the layout, and compare the mean utility (1/0 made, or the
    score) with the exact value of the turn.

    >>> c = simulate_optimal_turns(1, turns=2000, seed=1)
    >>> c.exact == phase_row(1)["p_optimal"], abs(c.z) < 4
    (True, True)
    """
    check_int(turns, "turns", 2, BOUNDS["simulate"][1])  # two at least: the spread needs them
    rng = np.random.default_rng(check_seed(seed))
    sol = cached_solution(number, objective, rules, layout)
    finals = np.asarray(sol.roll_num[0]) / sol.utility_den  # the utility of each final roll
    out = simulate_turns(sol.space, finals, sol.roll_arg, sol.rolls, turns, rng)
    se = float(out.std(ddof=1)) / math.sqrt(turns)
    return SimulationCheck(number, str(objective), sol.value(), float(out.mean()), se, turns)
