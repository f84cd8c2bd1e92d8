"""Playing to win at a color phase of ten different dice by lookup: the phase's candidate
turns, chosen per state by their outcome distributions, with the chance given up bounded.

On the recorded dice a color phase's optimal turn for one state of the two-player game is a
float stage of the 7**10 hold tensor (seconds and gigabytes each). Instead the win strategy
keeps two *candidate* turns of the phase, the completion-optimal and the score-optimal one
(solved once, cached, their best holds read by lookup:
:func:`~phase10math.turn.tables.cached_holds`), each with its outcome distribution ``d_c``
(fail, then each score the phase can make). At a state whose win values after each outcome
are ``u`` (from the table), it plays the candidate of largest ``d_c . u``.

The price, proven: the table's value ``w`` of the state is the optimum ``max_d d . u`` within
its error bound ``e``; so the chance to win this choice gives up at that state (optimal play
after it) is at most ``w + e - (d_c . u - margin)`` (``margin``: the rounding of the float
distribution, :func:`~phase10math.turn.tensor.forward.forward_roundings`). By the
performance-difference identity the chance a whole game gives up is the expected sum of these
over the states it meets: :class:`~phase10math.game.duel.WinStrategy` adds them up per game
and :func:`candidate_gaps` gives them for every state of a table.

The distributions of the recorded dice' color phases ship with the package
(``win_candidates.json``, made by :data:`RECOMPUTE`); for other dice they are computed on
first use (one forward pass of each candidate through the hold tensor: about 4.5 GB, refused
at once where it does not fit) and cached.
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
from phase10math.game.duel.setting import Key, LastKey, Play
from phase10math.game.duel.table import DuelSolution, iter_solved
from phase10math.turn.batch import gamma, outcomes_of
from phase10math.turn.engine import final_scores
from phase10math.turn.family import TensorFamily, needs_tensor
from phase10math.turn.holdtable import HoldTable
from phase10math.turn.kernels import lexicographic_utilities
from phase10math.turn.projection import FULL, projection_for
from phase10math.turn.solver import solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_holds
from phase10math.turn.tensor.forward import forward_roundings, push_forward
from phase10math.turn.tensor.memory import check_tensor_fits

CANDIDATES = (Objective.COMPLETE, Objective.SCORE)
DATA_PACKAGE = "phase10math.game.data"
DATA_FILE = "win_candidates.json"
RECOMPUTE = "python tools/ship_win_candidates.py"


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
        proven lower bound on its value (``d . u`` less its rounding)."""
        u = np.asarray(u, dtype=np.float64)
        if len(u) != len(self.scores) + 1:
            raise ValueError(f"{len(u)} outcome values for {len(self.scores) + 1} outcomes")
        best, low = CANDIDATES[0], -math.inf
        for c in CANDIDATES:
            v = float(self.dists[c] @ u)
            lo = v - self.margin * float(self.dists[c] @ np.abs(u)) * 1.0001
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


def tensor_phase(phase: int, dice: Layout | tuple[Die, ...], rules: Rules) -> bool:
    """Whether the two-player solve plays ``phase`` on the tensor engine (a color phase of
    ten different dice, or of any dice no two alike): where the win strategy plays candidate
    turns."""
    return (
        PHASES[phase].uses_color
        and rules.holds == "free"
        and needs_tensor(StateSpace.build(dice, FULL), rules)
    )


_TABLES: dict[tuple, HoldTable] = {}


def candidate_table(
    phase: int, objective: Objective, rules: Rules, dice: Layout | tuple[Die, ...]
) -> HoldTable:
    """A candidate's best holds: cached on disk for a layout, solved once per process for
    other dice (a reduced game)."""
    if isinstance(dice, Layout):
        return cached_holds(phase, objective, rules, dice)
    key = (phase, objective, rules, dice)
    if key not in _TABLES:
        space = StateSpace.build(dice, projection_for(PHASES[phase], objective))
        best = final_scores(PHASES[phase], space, rules)
        first, second = lexicographic_utilities(best, objective, False, np.int64)
        _TABLES[key] = solve_utility(space, first, rules, second=second).hold_table()
    return _TABLES[key]


def compute_candidates(phase: int, rules: Rules, dice: Layout | tuple[Die, ...]) -> CandidateTurns:
    """The candidates of a phase, their distributions pushed forward now (refused at once,
    :class:`~phase10math.errors.StateSpaceTooLargeError`, where that would not fit)."""
    dists, scores, margin = {}, (), 0.0
    for c in CANDIDATES:
        table = candidate_table(phase, c, rules, dice)
        space = table.space
        check_tensor_fits(space, rules.rolls, extra=TensorFamily.forward_bytes(space, rules))
        sc, outcome = outcomes_of(final_scores(PHASES[phase], space, rules))
        scores = tuple(int(x) for x in sc)
        dists[c] = push_forward(space, table.as_arrays(), outcome, len(sc) + 1, rules.rolls)
        margin = gamma(forward_roundings(space, rules.rolls))
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
def _shipped() -> dict:
    ref = resources.files(DATA_PACKAGE).joinpath(DATA_FILE)
    return json.loads(ref.read_text(encoding="utf-8")) if ref.is_file() else {}


_MEMORY: dict[tuple, CandidateTurns] = {}


def candidate_turns(phase: int, rules: Rules, dice: Layout | tuple[Die, ...]) -> CandidateTurns:
    """The candidates of a color phase of ten different dice: shipped (the recorded dice),
    else cached on disk, else computed (:func:`compute_candidates`; other dice than a
    layout: in memory only)."""
    key = (phase, rules, dice.fingerprint() if isinstance(dice, Layout) else dice)
    if key in _MEMORY:
        return _MEMORY[key]
    if not isinstance(dice, Layout):
        out = compute_candidates(phase, rules, dice)
    else:
        data = _shipped()
        entry = data.get("phases", {}).get(str(phase))
        if entry is not None and data.get("setting") == setting(rules, dice):
            out = from_json(phase, entry)
        else:
            ck = cache.cache_key(kind="win-candidates", phase=phase, **setting(rules, dice))
            out = from_json(
                phase,
                cache.cached(ck, lambda: to_json(compute_candidates(phase, rules, dice)), dict),
            )
    _MEMORY[key] = out
    return out
