"""Playing to win at a costly color phase by lookup: the phase's candidate turns, chosen per
state by their outcome distributions, with the chance given up bounded.

A color phase's optimal turn for one state of the two-player game is costly where the phase
has many holds: on ten different dice (the recorded set) a float stage of the 7**10 hold
tensor (seconds and gigabytes each), on the compact dice a batched solve of 9.7 million
holds (about 3 s each; :func:`candidate_phase` says where: more than ``COSTLY_HOLDS``).
Instead the win strategy keeps two *candidate* turns of the phase, the completion-optimal
and the score-optimal one (solved once, cached, their best holds read by lookup:
:func:`~phase10math.turn.tables.cached_holds`), each with its outcome distribution ``d_c``
(fail, then each score the phase can make). At a state whose win values after each outcome
are ``u`` (from the table), it plays the candidate of largest ``d_c . u``.

The price, proven: the table's value ``w`` of the state is the optimum ``max_d d . u`` within
its error bound ``e``; so the chance to win this choice gives up at that state (optimal play
after it) is at most ``w + e - low``, ``low`` a proven lower bound on ``d_c . u``
(:meth:`CandidateTurns.choose`: the float distribution's rounding ``margin``,
:func:`~phase10math.turn.tensor.forward.forward_roundings` or
:meth:`~phase10math.turn.batch.TurnBatch.forward_margin`, and the dot product's). By the
performance-difference identity the chance a whole game gives up is the expected sum of these
over the turns it plays: :class:`~phase10math.game.duel.WinStrategy` adds them up (once a
state, and once a turn: ``given_up_played``) and :func:`candidate_gaps` gives them for every
state of a table.

The distributions of the color phases of the recorded and the compact dice ship with the
package (``win_candidates.json``, made by :data:`RECOMPUTE`, its SHA-256 in the manifest);
for other dice they are computed on first use (one forward pass of each candidate: through
the hold tensor on ten different dice, about 4.5 GB, refused at once where it does not fit;
through the grouped holds otherwise, seconds) and cached.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from phase10math import cache
from phase10math.dice.faces import Die, Layout
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Objective, Rules
from phase10math.game.duel.files import shipped_bytes
from phase10math.game.duel.setting import Key, LastKey, Play
from phase10math.game.duel.table import DuelSolution, iter_solved
from phase10math.turn.batch import TurnBatch, gamma, outcomes_of
from phase10math.turn.engine import final_scores
from phase10math.turn.family import (
    TensorFamily,
    check_tensor_fits,
    forward_roundings,
    needs_tensor,
    push_forward,
)
from phase10math.turn.holdtable import HoldTable
from phase10math.turn.kernels import lexicographic_utilities
from phase10math.turn.projection import FULL, projection_for
from phase10math.turn.solver import solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_holds

CANDIDATES = (Objective.COMPLETE, Objective.SCORE)
DATA_PACKAGE = "phase10math.game.data"
DATA_FILE = "win_candidates.json"
RECOMPUTE = "python tools/ship_win_candidates.py"
# a color phase with more holds than this plays candidate turns: an exact solve of its turn
# takes seconds (the compact dice: 9,680,832 holds, about 3 s), and a game meets tens
COSTLY_HOLDS = 1_000_000


@dataclass(frozen=True)
class CandidateTurns:
    """A phase's candidate turns: ``dists[c]`` the outcome distribution of candidate ``c``
    (outcome 0 a failed turn, ``1 + i`` the score ``scores[i]``), each entry within a
    relative ``margin`` of the exact probability."""

    phase: int
    scores: tuple[int, ...]
    dists: dict[Objective, np.ndarray]
    margin: float

    def choose(self, u: np.ndarray) -> tuple[Objective, float]:
        """The candidate of largest ``d . u`` for the values ``u`` of the outcomes, and a
        proven lower bound on its exact value ``low``.

        The bound: each float ``d~_o`` is within ``m d_o`` of the exact ``d_o`` (``m`` the
        relative :attr:`margin`), so ``|d~ . u - d . u| <= m/(1 - m) S`` with ``S = d~ .
        |u|``; the float dot products of ``n`` terms round by at most ``gamma_n S`` (any
        order of summation), and ``a = fl(d~ . |u|) >= (1 - gamma_n) S``. So the exact ``d
        . u`` is at least ``v - (gamma_n + m/(1 - m)) a / (1 - gamma_n)``; the few roundings
        of that expression are covered by the factor ``1 + gamma_8`` and the subtraction's
        by ``gamma_2 (|v| + err)``."""
        u = np.asarray(u, dtype=np.float64)
        n = len(self.scores) + 1
        if len(u) != n:
            raise ValueError(f"{len(u)} outcome values for {n} outcomes")
        m, gn = self.margin, gamma(n)
        best, low = CANDIDATES[0], -math.inf
        for c in CANDIDATES:
            v = float(self.dists[c] @ u)
            a = float(self.dists[c] @ np.abs(u))
            err = (gn + m / (1 - m)) * a / (1 - gn) * (1 + gamma(8))
            lo = v - err - gamma(2) * (abs(v) + err)
            if lo > low:
                best, low = c, lo
        return best, low


@dataclass(frozen=True)
class Choice:
    """The candidate played at a state: its objective, a proven lower bound ``low`` on its
    chance to win there and a proven upper bound ``given_up`` on the chance it gives up
    against the optimum (optimal play after this turn)."""

    objective: Objective
    low: float
    given_up: float


def choose_candidate(sol: DuelSolution, key: Key | LastKey, last: bool = False) -> Choice:
    """The candidate turn to play at a solved state of ``sol`` (normal play, or a last chance
    with ``last``) of a color phase of ten different dice: the larger ``d . u``, and the
    chance it gives up, at most the table's value plus its error less the choice's lower
    value."""
    g = sol.game
    if last:
        u, w = sol.last_utility(Play.OPTIMAL, key)[0], sol.last_value(Play.OPTIMAL, *key)[0]
        k = key[0][0]
    else:
        u, w = sol.utility(key)[0], sol.value(key)[0]
        k = key[1][0]
    objective, low = candidate_turns(k, g.rules, g.dice).choose(u)
    return Choice(objective, low, max(0.0, w + sol.error(key) - low))


def candidate_gaps(sol: DuelSolution, phase: int) -> dict[Key, float]:
    """The chance to win the candidate turns give up (proven, :class:`Choice`) at every
    solved normal-play state of ``sol`` where the mover is at ``phase``."""
    return {
        key: choose_candidate(sol, key).given_up
        for key in iter_solved(sol)
        if key[1][0] == phase and not sol.decided(key)
    }


_COSTLY: dict[tuple, bool] = {}


def candidate_phase(phase: int, dice: Layout | tuple[Die, ...], rules: Rules) -> bool:
    """Whether the win strategy plays candidate turns at ``phase`` (free holds): a color
    phase whose exact turn solve is costly, on the tensor engine (ten different dice, or any
    dice no two alike) or with more than ``COSTLY_HOLDS`` holds (the compact dice). Asked at
    every decision: the answer is kept per phase, dice and rules."""
    key = (phase, dice.fingerprint() if isinstance(dice, Layout) else dice, rules, COSTLY_HOLDS)
    if key not in _COSTLY:
        space = StateSpace.build(dice, FULL) if PHASES[phase].uses_color else None
        _COSTLY[key] = (
            space is not None
            and rules.holds == "free"
            and (needs_tensor(space, rules) or space.n_states > COSTLY_HOLDS)
        )
    return _COSTLY[key]


_TABLES: dict[tuple, HoldTable] = {}


def candidate_table(
    phase: int, objective: Objective, rules: Rules, dice: Layout | tuple[Die, ...]
) -> HoldTable:
    """A candidate's best holds, once per process (its state space, and so the strategy's
    faces-to-states map of it, the same object at every decision): cached on disk for a
    layout, solved in memory for other dice (a reduced game)."""
    key = (phase, objective, rules, dice.fingerprint() if isinstance(dice, Layout) else dice)
    if key not in _TABLES:
        if isinstance(dice, Layout):
            _TABLES[key] = cached_holds(phase, objective, rules, dice)
        else:
            space = StateSpace.build(dice, projection_for(PHASES[phase], objective))
            best = final_scores(PHASES[phase], space, rules)
            first, second = lexicographic_utilities(best, objective, False, np.int64)
            _TABLES[key] = solve_utility(space, first, rules, second=second).hold_table()
    return _TABLES[key]


def compute_candidates(phase: int, rules: Rules, dice: Layout | tuple[Die, ...]) -> CandidateTurns:
    """The candidates of a phase, their distributions pushed forward now: through the hold
    tensor on dice no two alike (refused at once,
    :class:`~phase10math.errors.StateSpaceTooLargeError`, where that would not fit), else by
    the batched forward pass over the candidate's own holds."""
    dists, scores, margin = {}, (), 0.0
    for c in CANDIDATES:
        table = candidate_table(phase, c, rules, dice)
        space = table.space
        sc, outcome = outcomes_of(final_scores(PHASES[phase], space, rules))
        scores = tuple(int(x) for x in sc)
        if needs_tensor(space, rules):
            check_tensor_fits(space, rules.rolls, extra=TensorFamily.forward_bytes(space, rules))
            dists[c] = push_forward(space, table.as_arrays(), outcome, len(sc) + 1, rules.rolls)
            margin = max(margin, gamma(forward_roundings(space, rules.rolls)))
        else:
            tb = TurnBatch(space, outcome, sc, rules)
            holds = {r: np.asarray(h)[:, None] for r, h in table.as_arrays().items()}
            dists[c] = tb.forward(holds, 1)[0]
            margin = max(margin, tb.forward_margin())
        del outcome
    return CandidateTurns(phase, scores, dists, margin)


def setting(rules: Rules, layout: Layout) -> dict:
    """What the candidates depend on besides the phase: the rules and the dice."""
    return {"rules": rules.to_dict(), "layout": layout.fingerprint()}


def to_json(c: CandidateTurns) -> dict:
    return {
        "scores": list(c.scores),
        "margin": c.margin,
        **{str(o): [float(x) for x in c.dists[o]] for o in CANDIDATES},
    }


def from_json(phase: int, data: dict) -> CandidateTurns:
    dists = {o: np.array(data[str(o)], dtype=np.float64) for o in CANDIDATES}
    return CandidateTurns(phase, tuple(data["scores"]), dists, float(data["margin"]))


@lru_cache(maxsize=1)
def _shipped() -> list[dict]:
    """The shipped candidates, one entry a layout (its SHA-256 checked: the manifest)."""
    if not resources.files(DATA_PACKAGE).joinpath(DATA_FILE).is_file():
        return []
    return json.loads(shipped_bytes(DATA_FILE).decode("utf-8"))["layouts"]


def shipped_entry(phase: int, rules: Rules, layout: Layout) -> dict | None:
    """The shipped candidates of ``phase`` on ``layout`` under ``rules`` (None: none ship)."""
    want = setting(rules, layout)
    for entry in _shipped():
        if entry["setting"] == want:
            return entry["phases"].get(str(phase))
    return None


_MEMORY: dict[tuple, CandidateTurns] = {}


def candidate_turns(phase: int, rules: Rules, dice: Layout | tuple[Die, ...]) -> CandidateTurns:
    """The candidates of a costly color phase (:func:`candidate_phase`): shipped (the
    recorded and the compact dice), else cached on disk, else computed
    (:func:`compute_candidates`; other dice than a layout: in memory only)."""
    key = (phase, rules, dice.fingerprint() if isinstance(dice, Layout) else dice)
    if key in _MEMORY:
        return _MEMORY[key]
    if not isinstance(dice, Layout):
        out = compute_candidates(phase, rules, dice)
    else:
        entry = shipped_entry(phase, rules, dice)
        if entry is not None:
            out = from_json(phase, entry)
        else:
            ck = cache.cache_key(kind="win-candidates", phase=phase, **setting(rules, dice))
            out = from_json(
                phase,
                cache.cached(ck, lambda: to_json(compute_candidates(phase, rules, dice)), dict),
            )
    _MEMORY[key] = out
    return out
