"""Optimal solitaire: the policy that maximises the expected final solitaire score.

Solitaire scoring (RULES.md section 1): phase scores, the five-phase bonus (+40 if the total
of phase scores is over 220 when phase 5 is made; the -5 penalties are counted at the end and
do not lower that total), -5 per failed turn, and the first-finish bonus (+40) only if phase 10
is made at the first try. The game is a Markov decision process with states

- ``(k, T)`` for phases k <= 5: T = points so far; T matters only while the five-phase bonus
  is undecided, so T is grouped into ``'low'`` (bonus out of reach), ``'high'`` (bonus sure once
  phase 5 is made) and the individual values in between (``dependent_range``);
- ``(k, None)`` for phases 6..9, and ``(10, 'first')`` / ``(10, 'later')``.

A state's value ``v`` satisfies ``v = max over turn policies of E[U]`` with ``U = x + bonus +
v(next)`` when the phase is made with score x and ``U = -5 + v(fail state)`` otherwise - for
all states but ``(10, 'first')`` the fail state is the state itself, a fixed point. It is solved
from phase 10 backwards by Dinkelbach / policy iteration: solve the turn with the current
guess as the fail value, evaluate the new policy's stationary value, repeat until the policy's
value does not improve. Iteration is in float64
(:func:`~phase10math.turn.policy.float_optimal_turn`, on the turn engine of the state space: on
ten different dice, the color phases of the recorded set, the in-place tensor engine in floating
point); the final policy of every state is then evaluated **exactly** (integer arithmetic,
:func:`~phase10math.turn.policy.policy_moments`), so every reported value is the exact expected
final score of the policy found.

What is proven about optimality: at the last iteration ``F(lam) <= lam + gap`` where F is the
float optimal turn value with fail value lam = the policy's value. Every float quantity is a
sum of products of nonnegative numbers (utilities are shifted to be >= 0), so its relative
error is below ``REL_ERR`` (about 3e-14 by the standard bound n*u with n < 300 roundings,
taken as 1e-11). Hence the exact optimum beats the policy in that state by at most
``(gap + REL_ERR * |U|max) * (1 + (Umax - v) / 5)`` points given the continuation values (the
factor bounds 1/P(made) of any policy at least as good, from v = (E[gain] - 5 P(fail)) / P(made)).
These bounds are added over the phases into ``SolitaireSolution.proven_gap``.

Example (about a minute for the last two phases; ``solve_solitaire()`` solves all ten)::

    sol = solve_solitaire(phases=(9, 10))
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np

from phase10math import cache
from phase10math._base.checks import check_int, check_seed, public
from phase10math._base.progress import progress_bar
from phase10math._base.workers import WorkerPool
from phase10math.dice.faces import Layout, check_layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules, check_rules
from phase10math.errors import InvalidRulesError, StateSpaceTooLargeError
from phase10math.exact import show
from phase10math.game.length import sample_rolls
from phase10math.turn.engine import final_scores
from phase10math.turn.policy import (
    column_means,
    evaluate_free_policy,
    float_optimal_turn,
    float_turn_bytes,
    policy_moments,
)
from phase10math.turn.projection import projection_for
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_solution, forget_large_solutions, too_large
from phase10math.turn.tensor import held_heap, memory_budget, release_buffers

REL_ERR = 1e-11
LAST = 10
#: a policy: per number of rolls left, the hold of every roll state (hold ids, or on ten
#: different dice their two-byte codes, :class:`~phase10math.turn.tensor.codes.HoldIds`)
Holds = dict[int, Any]


# --------------------------------------------------------------------------- turn kernels


@dataclass
class PhaseData:
    """Phase k on its score state space: ``score[pos]`` best score of roll state
    ``space.full_ids[pos]`` or -1 when the phase is not made (as the meld pass gives them:
    two bytes a roll on the recorded dice' 60 million, shared with its memo)."""

    k: int
    space: StateSpace
    score: np.ndarray

    @property
    def made(self) -> np.ndarray:
        return self.score >= 0

    @cached_property
    def scores(self) -> np.ndarray:
        """Distinct scores a made phase can have (computed once: simulations ask per turn)."""
        return np.unique(self.score[self.score >= 0])


@public
def phase_data(
    number: int, rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT
) -> PhaseData:
    """What the solitaire solver needs of one phase: its hold states and final scores."""
    space = StateSpace.build(layout, projection_for(PHASES[number], Objective.SCORE))
    sc = final_scores(PHASES[number], space, rules)
    return PhaseData(number, space, np.asarray(sc))


# --------------------------------------------------------------------------- the state space


def maxima(data: dict[int, PhaseData]) -> dict[int, int]:
    return {k: int(d.scores.max()) for k, d in data.items()}


def dependent_range(k: int, data: dict[int, PhaseData], rules: Rules) -> tuple[int, int]:
    """T values at phase k <= 5 for which the five-phase bonus is still undecided:
    lo <= T <= hi (T < lo: 'low', T > hi: 'high')."""
    thr = rules.five_phase_threshold + 1
    mx = maxima(data)
    return thr - sum(mx[j] for j in range(k, 6)), thr - 1


def state_key(k: int, T: int, data: dict[int, PhaseData], rules: Rules) -> tuple:
    """The MDP state of a player at phase k with T points (first try at 10 not tracked)."""
    if k > 5:
        return (k, None)
    lo, hi = dependent_range(k, data, rules)
    return (k, "low" if T < lo else "high" if T > hi else T)


def reachable_totals(k: int, data: dict[int, PhaseData]) -> set[int]:
    """Possible point totals on reaching phase k (sums of achievable scores of 1..k-1)."""
    tot = {0}
    for j in range(1, k):
        tot = {a + int(b) for a in tot for b in data[j].scores}
    return tot


# --------------------------------------------------------------------------- solving


@dataclass
class StateResult:
    value: Fraction
    p_made: Fraction
    holds: Holds = field(repr=False)  # HoldIds on ten different dice
    gap: float = 0.0
    bound: float = 0.0
    iterations: int = 0


@dataclass
class SolitaireSolution:
    """Optimal solitaire values and policy per state (see module docstring)."""

    rules: Rules
    states: dict[tuple, StateResult]
    seconds: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def value(self) -> Fraction:
        """The optimal expected final score from the start (exact value of the policy)."""
        return self.states[(1, 0) if (1, 0) in self.states else (1, "low")].value

    @property
    def proven_gap(self) -> float:
        """No policy's expected score exceeds :attr:`value` by more than this (points)."""
        worst: dict[int, float] = {}
        for (k, _), st in self.states.items():
            worst[k] = max(worst.get(k, 0.0), st.bound)
        return sum(worst.values())

    def key(self, k: int, T: int, first_try: bool, data: dict[int, PhaseData]) -> tuple:
        if k == LAST:
            return (LAST, "first" if first_try else "later")
        return state_key(k, T, data, self.rules)


def _lookup(table: np.ndarray, score: np.ndarray) -> np.ndarray:
    """``table[score]`` (``score`` -1: the table's last entry, not made), a slab at a time:
    no index array of 8 bytes a roll beside the result."""
    out = np.empty(len(score), dtype=table.dtype)
    for i in range(0, len(score), LOOKUP_SLAB):
        out[i : i + LOOKUP_SLAB] = table[score[i : i + LOOKUP_SLAB]]
    return out


LOOKUP_SLAB = 1 << 22


def _means(pd: PhaseData, gain: np.ndarray, holds: Holds, rolls: int) -> tuple[float, float]:
    """Float ``(E[gain if made], P(made))`` of a policy, each column made by lookup when it
    is evaluated (:func:`~phase10math.turn.policy.column_means`)."""
    tables = (np.append(gain, 0.0), np.append(np.ones(len(gain)), 0.0))
    a, p = column_means(pd.space, [lambda t=t: _lookup(t, pd.score) for t in tables], holds, rolls)
    return a, p


def _exact_value(
    pd: PhaseData,
    holds: Holds,
    exact_gain: Callable[[], tuple[list[np.ndarray], list]],
    fail_exact: Fraction | None,
    rules: Rules,
) -> tuple[Fraction, Fraction]:
    """The exact value and P(made) of a state's final policy: integer policy evaluations of
    the columns of ``exact_gain`` (per-score tables), one roll-sized column at a time."""
    pen = rules.solitaire_penalty
    tables, coefs = exact_gain()
    mom = [evaluate_free_policy(pd.space, _lookup(t, pd.score), holds, rules.rolls) for t in tables]
    p_made = mom[0]
    gain = sum((c * m for c, m in zip(coefs, mom[1:], strict=True)), Fraction(0))
    if fail_exact is None:
        return (gain - pen * (1 - p_made)) / p_made, p_made
    return gain + (1 - p_made) * (fail_exact - pen), p_made


def _solve_state(
    pd: PhaseData,
    gain: np.ndarray,
    fail_const: float | None,
    rules: Rules,
    lam0: float,
    exact_gain: Callable[[], tuple[list[np.ndarray], list]],
    fail_exact: Fraction | None,
) -> StateResult:
    """One state: made with score s -> ``gain[s]`` (float); fail -> -5 + fail_const, or -5 +
    own value when fail_const is None (fixed point, Dinkelbach). Roll-sized arrays are made
    from the per-score tables by lookup, one at a time."""
    pen = rules.solitaire_penalty
    sp = pd.space
    R = rules.rolls
    lam = lam0
    holds: dict = {}
    it = 0
    gap = 0.0
    umax = 0.0
    occurring = gain[pd.scores]  # the utilities of made rolls
    fails = bool((pd.score < 0).any())
    while True:
        it += 1
        fail_val = (lam if fail_const is None else fail_const) - pen
        seen = np.append(occurring, fail_val) if fails else occurring
        shift = max(0.0, -float(seen.min()))
        umax = float(seen.max()) + shift
        util = _lookup(np.append(gain, fail_val) + shift, pd.score)
        F, arg = float_optimal_turn(sp, util, R, codes=True)
        del util
        F -= shift
        a, p = _means(pd, gain, arg, R)
        if fail_const is not None:
            holds, gap = arg, 0.0
            break
        new = (a - pen * (1 - p)) / p
        gap = F - lam
        if holds and new <= lam + 1e-12 * max(1.0, abs(lam)):
            break
        holds, lam = arg, new
        if it > 30:
            break
    value, p_made = _exact_value(pd, holds, exact_gain, fail_exact, rules)
    err = REL_ERR * umax
    bound = (
        0.0
        if fail_const is not None
        else (max(gap, 0.0) + 2 * err)
        * (1 + max(0.0, float(occurring.max()) - float(value)) / max(pen, 1))
    )
    if fail_const is not None:
        bound = 2 * err
    kept = {r: h.astype(np.int32) if isinstance(h, np.ndarray) else h for r, h in holds.items()}
    return StateResult(value, p_made, kept, gap, bound, it)


def solve_solitaire(
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    show_progress: bool = True,
    use_cache: bool = True,
    phases_data: dict[int, PhaseData] | None = None,
    workers: int = 2,
) -> SolitaireSolution:
    """The optimal solitaire policy and its exact expected final score (cached on disk)."""
    if rules.holds != "free":
        raise InvalidRulesError("optimal solitaire is solved for free holds only")
    key = solitaire_key(rules, layout)
    use_cache = use_cache and phases_data is None
    if use_cache and (hit := cache.load(key, SolitaireSolution) or load_solution(key)):
        return hit
    spaces = {k: d.space for k, d in (phases_data or {}).items()}
    check_solitaire_fits(spaces or phase_spaces(layout), rules)
    t0 = time.time()
    data = dict(phases_data or {k: phase_data(k, rules, layout) for k in range(1, LAST + 1)})
    todo = states_to_solve(data, rules)
    bar = None
    if show_progress:
        bar = progress_bar(total=len(todo), desc="solitaire states", unit="state")
    states: dict[tuple, StateResult] = {}
    global _CTX
    by_phase: dict[int, list[tuple]] = {}
    for st in todo:
        by_phase.setdefault(st[0], []).append(st)
    guess: dict[int, float] = {}
    for k in sorted(by_phase, reverse=True):
        group = by_phase[k]
        # 'later' before 'first' at phase 10, 'low' first elsewhere (sequential, as warm start)
        head, rest = group[:1], group[1:]
        for part in (head, rest):
            _CTX = (data, states, rules, guess)
            if workers > 1 and len(part) > 2:
                give_back_memory()  # each forked worker would count the parent's pages again
                with WorkerPool(workers, "fork") as pool:
                    results = list(pool.map(_state_task, part))
            else:
                results = [_state_task(st) for st in part]
            for st, res in zip(part, results, strict=True):
                states[st] = res
                guess[k] = float(res.value)
            if bar is not None:
                bar.update(len(part))
                bar.set_postfix_str(f"phase {k}")
        if k > 5:  # the states below need its solved values only, not its scores
            del data[k]
    if bar is not None:
        bar.close()
    _CTX = None  # the states' policies in memory: the cached solution maps them instead
    give_back_memory()  # the tensor work buffers (0.4 GB on the recorded dice)
    out = SolitaireSolution(rules, states, time.time() - t0)
    return store_solution(key, out) if use_cache else out


def states_to_solve(data: dict[int, PhaseData], rules: Rules) -> list[tuple]:
    """Every MDP state, in the order they are solved: phase 10's two, phases 9..6, then per
    phase 5..1 its reachable point classes ('low' first, 'high' last)."""
    todo: list[tuple] = [(10, "later"), (10, "first")] + [(k, None) for k in range(9, 5, -1)]
    for k in range(5, 0, -1):
        ks = sorted(
            {state_key(k, T, data, rules)[1] for T in reachable_totals(k, data)},
            key=lambda c: -1e9 if c == "low" else 1e9 if c == "high" else c,
        )
        todo += [(k, c) for c in ks]
    return todo


def solitaire_key(rules: Rules, layout: Layout) -> str:
    """The disk cache key of the solitaire solution of these rules and dice."""
    return cache.cache_key(kind="solitaire", rules=rules.to_dict(), layout=layout.fingerprint())


def cached_solitaire(rules: Rules, layout: Layout) -> SolitaireSolution | None:
    """The solitaire solution from the disk cache (memory-mapped where large), or None."""
    key = solitaire_key(rules, layout)
    return cache.load(key, SolitaireSolution) or load_solution(key)


def give_back_memory() -> None:
    """Free the tensor work buffers and give the process's free heap back to the system
    (leaving a :func:`~phase10math.turn.tensor.memory.held_heap` block trims it): between
    stages, so that one stage's peak does not stack on what the last one left."""
    release_buffers()
    with held_heap():
        pass


def load_solution(key: str) -> SolitaireSolution | None:
    """A solution with hold codes from its large cache entry (memory-mapped), or None."""
    return cache.load_large(key, SolitaireSolution)


def store_solution(key: str, sol: SolitaireSolution) -> SolitaireSolution:
    """Write a solution to the disk cache; one with hold codes (ten different dice) as a
    large entry, returned memory-mapped from it (read-only pages, shared by processes)."""
    if not cache.large_bytes(sol):
        cache.save(key, sol)
    elif cache.save_large(key, sol):
        return load_solution(key) or sol
    return sol


def phase_spaces(layout: Layout) -> dict[int, StateSpace]:
    """The score state space of every phase (no final scores computed)."""
    return {
        k: StateSpace.build(layout, projection_for(PHASES[k], Objective.SCORE))
        for k in range(1, LAST + 1)
    }


def solve_bytes(space: StateSpace, rolls: int) -> int:
    """Peak bytes of solving one solitaire state on ``space``: a step of the float iteration
    (:func:`~phase10math.turn.policy.float_turn_bytes`: the float turn, or a float column's
    evaluation, with both policies' hold codes beside) and the scores and the made mask
    (three bytes a roll). The exact evaluations need less (integer columns of one or two
    bytes a roll). 0 off the tensor engine."""
    return float_turn_bytes(space, rolls, per_roll=3)


def check_solitaire_fits(spaces: dict[int, StateSpace], rules: Rules) -> None:
    """Refuse at once (:class:`~phase10math.errors.StateSpaceTooLargeError`) a solitaire solve
    whose largest state would not fit in
    :func:`~phase10math.turn.tensor.memory.memory_budget` (:func:`solve_bytes`)."""
    for k, space in spaces.items():
        need, have = solve_bytes(space, rules.rolls), memory_budget()
        if need > have:
            raise StateSpaceTooLargeError(
                f"optimal solitaire: phase {k} has {space.n_states:,} "
                f"holds; solving its states needs about {need / 2**30:.1f} GiB and the limit on "
                f"this machine is {have / 2**30:.1f} GiB (set PHASE10MATH_MEMORY_GB to change it)"
            )


_CTX: Any = None


@public
def solve_state(
    st: tuple,
    data: dict[int, PhaseData],
    states: dict[tuple, StateResult],
    rules: Rules = DEFAULT_RULES,
) -> StateResult:
    """Solve one MDP state given the solved states it leads to (e.g. ``(10, 'later')``
    needs nothing, ``(10, 'first')`` needs ``(10, 'later')``)."""
    global _CTX
    _CTX = (data, states, rules, {})
    return _state_task(st)


def _state_task(st: tuple) -> StateResult:
    data, states, rules, guess = _CTX
    k, c = st
    thr = rules.five_phase_threshold + 1
    pd = data[k]
    xs = pd.scores
    # continuation per distinct score: g(x) = x + extra(x)
    if k == LAST:
        extra = {int(s): Fraction(rules.first_finish_bonus if c == "first" else 0) for s in xs}
    elif k >= 6:
        nxt = states[(LAST, "first")] if k == 9 else states[(k + 1, None)]
        extra = {int(s): nxt.value for s in xs}
    elif k == 5:
        v6 = states[(6, None)].value
        T = {"low": -(10**9), "high": 10**9}.get(c, c)
        extra = {int(s): v6 + (rules.five_phase_bonus if T + int(s) >= thr else 0) for s in xs}
    else:
        extra = {}
        for s in xs:
            nk = (k + 1, c) if c in ("low", "high") else state_key(k + 1, c + int(s), data, rules)
            extra[int(s)] = states[nk].value
    ext_f = np.zeros(int(xs.max()) + 1)
    for s, v in extra.items():
        ext_f[s] = float(v)
    gain = np.arange(len(ext_f)) + ext_f  # per score s: s + the continuation, as a float
    groups: dict[Fraction, list[int]] = {}
    for s, v in extra.items():
        groups.setdefault(v, []).append(s)

    def exact_gain() -> tuple[list[np.ndarray], list]:
        """Per-score tables (last entry: not made) of the exact columns: made, then per
        continuation value the indicator (one score) or the score and the indicator."""
        top = len(ext_f)
        ones = np.zeros(top + 1, dtype=np.int8)
        ones[:top] = 1
        tables = [ones]
        coefs: list[Fraction] = []
        for v, ss in groups.items():
            ind = np.zeros(top + 1, dtype=np.int8)
            ind[ss] = 1
            if len(ss) == 1:
                tables.append(ind)
                coefs.append(ss[0] + v)
            else:
                tables.append((np.append(np.arange(top), 0) * ind).astype(np.int16))
                coefs.append(Fraction(1))
                tables.append(ind)
                coefs.append(v)
        return tables, coefs

    fail_const = fail_exact = None
    if st == (LAST, "first"):
        fail_exact = states[(LAST, "later")].value
        fail_const = float(fail_exact)
    lam0 = guess[k] if k in guess else float(gain[pd.score[pd.made]].mean())
    return _solve_state(pd, gain, fail_const, rules, lam0, exact_gain, fail_exact)


# --------------------------------------------------------------------------- per-turn policies


PER_TURN = {
    "complete": "complete-optimal per turn (ties: higher score)",
    "complete_worst": "complete-optimal per turn (ties: lower score)",
    "score": "score-optimal per turn",
}


def _objective(strategy: str) -> str:
    """The turn objective of a per-turn strategy (a key of :data:`PER_TURN`)."""
    return "score" if strategy == "score" else "complete"


def per_turn_policy(
    strategy: str,
    number: int,
    data: dict[int, PhaseData],
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
) -> dict[int, np.ndarray]:
    """Holds of a per-turn strategy on phase k's score space: 'complete' (the lexicographic
    completion-optimal turn: among the holds of highest P(complete), the highest expected
    score), 'score' (highest expected score, then P(complete)) or 'complete_worst' (highest
    P(complete), then the *lowest* expected score: what the tie rule is worth)."""
    if strategy not in PER_TURN:
        raise InvalidRulesError(f"strategy {strategy!r}; allowed: {', '.join(PER_TURN)}")
    sol = cached_solution(
        number, _objective(strategy), rules, layout, worst_second=strategy == "complete_worst"
    )
    if sol.space.projection.name != data[number].space.projection.name:  # pragma: no cover
        raise InvalidRulesError(
            f"phase {number}: the turn and the phase data use other projections"
        )
    return sol.roll_arg


def check_comparison_fits(rules: Rules, layout: Layout) -> None:
    """Refuse at once (:class:`~phase10math.errors.StateSpaceTooLargeError`) a comparison
    whose solitaire solve or per-turn turn solves would not fit in
    :func:`~phase10math.turn.tensor.memory.memory_budget`, before any of them starts."""
    if rules.holds != "free":
        raise InvalidRulesError("optimal solitaire is solved for free holds only")
    check_solitaire_fits(phase_spaces(layout), rules)
    for k in range(1, LAST + 1):
        if why := too_large(k, rules, layout):
            raise StateSpaceTooLargeError(f"the per-turn policies of phase {k}: {why}")


def per_turn_solutions(rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT) -> None:
    """Solve every per-turn strategy's turn at every phase into the disk cache (where found
    there, nothing) in a worker process, whose memory goes back to the system when it ends:
    a comparison does this before the solitaire solve, so that the turn solves' peak and
    what they leave behind do not stack on the solitaire's; it then reads the large
    solutions memory-mapped from the cache. Without a disk cache, nothing (the comparison
    solves them in its own process, as it needs them)."""
    if not cache.usable():
        return
    with WorkerPool(1, "fork") as pool:
        list(pool.map(_per_turn_task, [(rules, layout)]))


def _per_turn_task(args: tuple[Rules, Layout]) -> None:
    rules, layout = args
    for k in range(1, LAST + 1):
        for s in PER_TURN:
            cached_solution(k, _objective(s), rules, layout, worst_second=s == "complete_worst")
            release_buffers()  # the tensor work buffers, before the next solve
        forget_large_solutions()  # their mappings


def score_distribution(pd: PhaseData, holds: Holds, rolls: int) -> dict[int, Fraction]:
    """Exact ``{x: P(made with score x)}`` of a fixed policy."""
    xs = [int(s) for s in pd.scores]
    cols = np.stack([(pd.score == s).astype(np.int64) for s in xs], axis=1)
    return dict(zip(xs, policy_moments(pd.space, cols, holds, rolls), strict=True))


def per_turn_expected_score(
    strategy: str,  # a key of PER_TURN
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    data: dict[int, PhaseData] | None = None,
) -> dict[str, Any]:
    """Exact expected final solitaire score of a stationary per-turn strategy: each phase's
    tries are geometric, scores independent across phases.

    E = sum_k E[x_k | made] - 5 sum_k (1 - p_k) / p_k + 40 P(x_1 + .. + x_5 > 220) + 40 p_10."""
    data = data or {k: phase_data(k, rules, layout) for k in range(1, LAST + 1)}
    R = rules.rolls
    p: dict[int, Fraction] = {}
    mean: dict[int, Fraction] = {}
    dist5: dict[int, Fraction] = {0: Fraction(1)}
    for k in range(1, LAST + 1):
        pd = data[k]
        holds = per_turn_policy(strategy, k, data, rules, layout)
        if k <= 5:
            d = score_distribution(pd, holds, R)
            p[k] = sum(d.values(), Fraction(0))
            mean[k] = sum((x * q for x, q in d.items()), Fraction(0)) / p[k]
            new: dict[int, Fraction] = {}
            for a, qa in dist5.items():
                for x, q in d.items():
                    if q:
                        new[a + x] = new.get(a + x, Fraction(0)) + qa * q / p[k]
            dist5 = new
        else:
            # one roll-sized column at a time (one byte a roll each)
            pk = evaluate_free_policy(pd.space, pd.made.astype(np.int8), holds, R)
            ex = evaluate_free_policy(pd.space, np.maximum(pd.score, 0), holds, R)
            p[k], mean[k] = pk, ex / pk
            release_buffers()  # before the next phase's turn solve
            forget_large_solutions()  # and the pages of this one's mapped holds it touched
    thr = rules.five_phase_threshold + 1
    p_bonus = sum((q for a, q in dist5.items() if a >= thr), Fraction(0))
    fails = sum(((1 - v) / v for v in p.values()), Fraction(0))
    total = (
        sum(mean.values(), Fraction(0))
        - rules.solitaire_penalty * fails
        + rules.five_phase_bonus * p_bonus
        + rules.first_finish_bonus * p[LAST]
    )
    return {
        "strategy": strategy,
        "expected_score": total,
        "p": p,
        "mean_score": mean,
        "p_five_phase_bonus": p_bonus,
        "p_first_finish_bonus": p[LAST],
        "expected_failed_turns": fails,
    }


# --------------------------------------------------------------------------- simulation


PolicyFn = Callable[[int, int, bool], Holds]


def solution_policy(sol: SolitaireSolution, data: dict[int, PhaseData]) -> PolicyFn:
    def fn(k: int, T: int, first: bool) -> Holds:
        return sol.states[sol.key(k, T, first, data)].holds

    return fn


def per_turn_policy_fn(
    strategy: str,
    data: dict[int, PhaseData],
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
) -> PolicyFn:
    cache_: dict[int, Holds] = {}

    def fn(k: int, T: int, first: bool) -> Holds:
        if k not in cache_:
            cache_[k] = per_turn_policy(strategy, k, data, rules, layout)
        return cache_[k]

    return fn


def simulate_solitaire(
    policy: PolicyFn,
    data: dict[int, PhaseData],
    n_games: int,
    seed: int = 0,
    rules: Rules = DEFAULT_RULES,
) -> np.ndarray:
    """Seeded Monte Carlo of ``n_games`` solitaire games (vectorised, games in lockstep);
    returns the final scores."""
    rng = np.random.default_rng(seed)
    k = np.ones(n_games, dtype=np.int64)
    T = np.zeros(n_games, dtype=np.int64)
    fails = np.zeros(n_games, dtype=np.int64)
    first = np.ones(n_games, dtype=bool)
    bonus = np.zeros(n_games, dtype=np.int64)
    active = np.ones(n_games, dtype=bool)
    thr = rules.five_phase_threshold + 1
    while active.any():
        idx = np.flatnonzero(active)
        keys: dict[tuple, list[int]] = {}
        for i in idx:
            kk = int(k[i])
            h = policy(kk, int(T[i]), bool(first[i]))
            keys.setdefault((kk, id(h)), []).append(int(i))
        for (kk, _), members in keys.items():
            g = np.asarray(members)
            h = policy(kk, int(T[g[0]]), bool(first[g[0]]))
            pd = data[kk]
            pos = sample_rolls(pd.space, np.zeros(len(g), dtype=np.int64), rng)
            for r in range(rules.rolls - 1, 0, -1):
                pos = sample_rolls(pd.space, h[r][pos], rng)
            sc = pd.score[pos]
            ok = sc >= 0
            fails[g[~ok]] += 1
            w = g[ok]
            T[w] += sc[ok]
            if kk == 5:
                bonus[w] += np.where(T[w] >= thr, rules.five_phase_bonus, 0)
            if kk == LAST:  # first-finish bonus only when phase 10 is made at the first try
                bonus[w] += np.where(first[w], rules.first_finish_bonus, 0)
                first[g] = False
            k[w] += 1
        done = active & (k > LAST)
        active &= ~done
    return T + bonus - rules.solitaire_penalty * fails


@public
def simulate_phase(
    data: PhaseData,
    holds: Holds,
    n_players: int,
    seed: int = 0,
    rules: Rules = DEFAULT_RULES,
) -> np.ndarray:
    """Seeded Monte Carlo of one phase played until it is made: ``n_players`` solitaire players
    each take turns with the policy ``holds`` (``holds[r]`` maps a roll state to the hold with
    ``r`` rolls left, as in :attr:`StateResult.holds`) and pay the solitaire penalty for every
    failed turn. Returns each player's points: the score of the made phase minus the penalties.
    Its mean estimates the value of the ``(k, "later")`` state (no bonus).

    >>> d = phase_data(1)
    >>> h = per_turn_policy("score", 1, {1: d})
    >>> pts = simulate_phase(d, h, 2_000, seed=1)
    >>> pts.shape, bool(pts.max() <= 60), bool((pts % 5 != 0).any())
    ((2000,), True, True)
    """
    rng = np.random.default_rng(seed)
    points = np.zeros(n_players, dtype=np.int64)
    active = np.arange(n_players)
    while len(active):
        pos = sample_rolls(data.space, np.zeros(len(active), dtype=np.int64), rng)
        for r in range(rules.rolls - 1, 0, -1):
            pos = sample_rolls(data.space, holds[r][pos], rng)
        sc = data.score[pos]
        made = sc >= 0
        points[active[made]] += sc[made]
        points[active[~made]] -= rules.solitaire_penalty
        active = active[~made]
    return points


@public
def dinkelbach_steps(
    policies: dict[str, tuple[Fraction | int, Fraction | int]],
    penalty: int | Fraction = 5,
    guess: Fraction | int = 0,
    max_steps: int = 100,
) -> list[tuple[Fraction, str, Fraction]]:
    """Dinkelbach iteration on a toy solitaire phase, step by step.

    ``policies`` maps a name to ``(p, x)``: the policy makes the phase with chance ``p`` per
    turn and then scores ``x`` on average; every failed turn costs ``penalty`` and the player
    tries again, so the policy is worth ``v = x - penalty * (1 - p) / p``. Each step takes the
    current guess ``v``, picks the policy with the largest ``p*x - penalty*(1-p) - p*v`` (one
    turn's gain over the guess) and computes that policy's true value, the next guess. Returns
    ``[(guess, picked, its value), ...]``, ending when the value equals the guess.

    >>> steps = dinkelbach_steps({"A": (Fraction(7, 10), 40), "B": (Fraction(1, 2), 45)})
    >>> [(float(g), name, float(v)) for g, name, v in steps]
    [(0.0, 'A', 37.857142857142854), (37.857142857142854, 'B', 40.0), (40.0, 'B', 40.0)]
    """
    check_int(max_steps, "max_steps", 1, 10_000)
    if not policies:
        raise InvalidRulesError("policies: give at least one policy name -> (p, x)")
    for name, px in policies.items():
        ok = isinstance(px, tuple) and len(px) == 2
        ok = ok and all(isinstance(t, (int, Fraction)) and not isinstance(t, bool) for t in px)
        if not ok or not 0 < px[0] <= 1:
            raise InvalidRulesError(
                f"policies[{name!r}]={px!r:.60}; allowed: (p, x) with 0 < p <= 1, "
                "both whole numbers or fractions"
            )
    v = Fraction(guess)
    steps: list[tuple[Fraction, str, Fraction]] = []
    for _ in range(max_steps):

        def gain(name: str, v: Fraction = v) -> Fraction:
            p, x = (Fraction(t) for t in policies[name])
            return p * x - penalty * (1 - p) - p * v

        name = max(policies, key=gain)
        p, x = (Fraction(t) for t in policies[name])
        value = x - penalty * (1 - p) / p
        steps.append((v, name, value))
        if value == v:
            return steps
        v = value
    raise InvalidRulesError(f"these rules give no fixed point after {max_steps} steps")


# --------------------------------------------------------------------------- the comparison


@public
def comparison(
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    simulate: int = 0,
    seed: int = 0,
    show_progress: bool = True,
) -> dict[str, Any]:
    """Optimal solitaire vs the per-turn policies: exact expected final scores in one table,
    optionally checked by ``simulate`` seeded games per policy."""
    check_rules(rules)
    check_layout(layout)
    simulate = check_int(simulate, "simulate", 0, 10**7)
    if simulate == 1:
        raise InvalidRulesError(
            "simulate=1: give 0 (no simulation) or at least 2 games (one game has no spread)"
        )
    seed = check_seed(seed)
    sol = cached_solitaire(rules, layout) if rules.holds == "free" else None
    if sol is None:
        check_comparison_fits(rules, layout)
        per_turn_solutions(rules, layout)
        sol = solve_solitaire(rules, layout, show_progress=show_progress)
    data = {k: phase_data(k, rules, layout) for k in range(1, LAST + 1)}
    rows: list[dict[str, Any]] = [{"policy": "optimal solitaire", "expected_score": sol.value}]
    fns: list[PolicyFn] = [solution_policy(sol, data)]
    for s in PER_TURN:
        r = per_turn_expected_score(s, rules, layout, data)
        rows.append({"policy": PER_TURN[s], "expected_score": r["expected_score"], "detail": r})
        fns.append(per_turn_policy_fn(s, data, rules, layout))
    if simulate:
        for i, (row, fn) in enumerate(zip(rows, fns, strict=True)):
            sims = simulate_solitaire(fn, data, simulate, seed + i, rules)
            row.update(
                sim_mean=float(sims.mean()),
                sim_se=float(sims.std(ddof=1) / np.sqrt(len(sims))),
                sim_n=simulate,
            )
    return {
        "rows": rows,
        "text": comparison_text(rows, sol.proven_gap),
        "proven_gap": sol.proven_gap,
        "seconds": sol.seconds,
        "solution": sol,
    }


def comparison_text(rows: list[dict[str, Any]], proven_gap: float) -> str:
    """:func:`comparison`'s table as text: each policy's exact expected final score (and
    its simulation), the tie-break of 'complete-optimal', the exact fractions and the
    solitaire policy's proven optimality gap."""
    lines = [
        "Solitaire, expected final score (exact; float beside)",
        f"{'policy':<48} {'E[final score]':>15}  {'simulation':>22}",
    ]
    for row in rows:
        v = row["expected_score"]
        sim = f"{row['sim_mean']:.2f} +- {row['sim_se']:.2f}" if "sim_mean" in row else ""
        lines.append(f"{row['policy']:<48} {float(v):>15.6f}  {sim:>22}")
    hi, lo = (float(rows[i]["expected_score"]) for i in (1, 2))
    lines.append(
        f"'complete-optimal' alone does not define a policy: among the holds with the highest "
        f"P(complete), taking the higher or the lower expected score gives {lo:.2f} to "
        f"{hi:.2f} ({hi - lo:.2f} points). The kit takes the higher score (then more dice)."
    )
    lines.append("")
    for row in rows:
        v = row["expected_score"]
        lines.append(
            f"{row['policy']}: {show(v) if len(str(v)) < 200 else ''}"
            + (
                f"exact fraction {str(v)[:60]}... ({len(str(v.denominator))}-digit "
                f"denominator; --json gives it)"
                if len(str(v)) >= 200
                else ""
            )
        )
    lines.append(
        f"optimality of the solitaire policy proven to within {proven_gap:.1e} "
        f"points (float solve with error bounds; its value is exact)"
    )
    return "\n".join(lines)
