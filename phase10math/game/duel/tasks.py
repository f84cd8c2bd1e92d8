"""The independent work of a layer as tasks that run anywhere (a Dask worker): one part of a
layer's pairs (:func:`pair_task`), one phase's last chances (:func:`last_task`), a chunk of a
refinement round's exact solves (:func:`exact_task`).

A task carries what it reads (a :class:`Job`): the game's description (:class:`GameSpec`,
which a worker builds once and keeps), the color phases' families as they stand (plain
arrays), and the slice of the table its states' outcomes lead to (:class:`Entries`: whole
blocks of states by seat and both phases). It solves with the same code as the solve in
process (:func:`~phase10math.game.duel.pair.solve_layer`,
:func:`~phase10math.game.duel.layers.solve_last`) on a table of that slice, and gives back
what it wrote (:class:`Result`): the values, errors, policies and margins of its own states,
the bounds it raised, the exact solves its families added. Nothing on a worker outlives a
task but the game's turns, so a task that a lost worker took is run again elsewhere with the
same inputs and the same outcome.
"""

from __future__ import annotations

import contextlib
import copy
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from phase10math.cache import code_hash
from phase10math.dice.faces import Die, Layout
from phase10math.dice.phases import Phase
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidArgumentError
from phase10math.game.duel import layers, pair
from phase10math.game.duel.setting import (
    MATCHUPS,
    PLAYS,
    DuelGame,
    LazyTurns,
    families,
    partner_of,
)
from phase10math.game.duel.table import DuelSolution
from phase10math.turn.tensor import held_heap

# --------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class GameSpec:
    """What a worker needs to build a game: phases, rules, dice, which states it keeps, and
    each color phase's family kind and tolerance; ``code`` the package's source hash (a
    worker running other code refuses the task)."""

    phases: tuple[tuple[int, Phase], ...]
    rules: Rules
    dice: Layout | tuple[Die, ...]
    reachable: bool
    fams: tuple[tuple[int, type, float], ...]
    code: str

    @classmethod
    def of(cls, game: DuelGame) -> GameSpec:
        fams = tuple((k, type(f), float(f.tol)) for k, f in sorted(families(game).items()))
        return cls(
            tuple(sorted(game.phases.items())),
            game.rules,
            game.dice,
            bool(game.reachable),
            fams,
            code_hash(),
        )

    def build(self) -> DuelGame:
        phases = dict(self.phases)
        turns = {
            k: kind.for_phase(phases[k], self.rules, self.dice, tol) for k, kind, tol in self.fams
        }
        game = DuelGame(phases, self.rules, self.dice, turns=turns, reachable=self.reachable)
        for k in phases:  # every turn now: tasks share them, and never build one twice
            game.turns[k]
        return game


_GAMES: dict[GameSpec, DuelGame] = {}
_BUILD = threading.Lock()


def worker_game(spec: GameSpec) -> DuelGame:
    """The game of ``spec``, built once a process (a worker's threads share it)."""
    if spec.code != code_hash():
        raise InvalidArgumentError(
            "a Dask worker runs other phase10math code than the solve that sent it the task: "
            "start the workers from the same installation"
        )
    with _BUILD:
        game = _GAMES.get(spec)
        if game is None:
            game = _GAMES[spec] = spec.build()
    return game


def with_families(game: DuelGame, states: Mapping[int, dict[str, Any]]) -> DuelGame:
    """A shallow copy of ``game`` whose color phases' families are copies holding
    ``states`` (:meth:`~phase10math.turn.family.TurnFamily.state`): a task's exact solves
    go to its own copies, never to a family another task reads."""
    if not states:
        return game
    g = copy.copy(game)
    turns = dict(game.turns)
    for k, state in states.items():
        fam = copy.copy(game.turns[k])
        fam.load(state)
        if hasattr(fam, "attained"):  # a tensor family's recent closures (a window)
            fam.attained = copy.copy(fam.attained)
            fam.attained.clear()
            fam.attained.extend(state.get("attained", []))
        turns[k] = fam
    g.turns = LazyTurns(turns, g.phases, g.rules, g.dice)
    return g


def family_states(game: DuelGame) -> dict[int, dict[str, Any]]:
    """The color phases' families as plain arrays (and a tensor family's record of which
    exact solves its value alone closed)."""
    out = {}
    for k, fam in families(game).items():
        state = dict(fam.state())
        if hasattr(fam, "attained"):
            state["attained"] = list(fam.attained)
        out[k] = state
    return out


@dataclass
class FamilyTail:
    """What a task's exact solves added to a family: the new rows of its arrays and
    counters, and a tensor family's window of recent closures as the task left it."""

    members: np.ndarray
    cuts: np.ndarray
    highs: np.ndarray
    attained: list
    exact_solves: int
    exact_seconds: float
    value_solves: int


def tails(game: DuelGame, states: Mapping[int, dict[str, Any]]) -> dict[int, FamilyTail]:
    """Each family's rows beyond ``states`` (what it held when the task began)."""
    out = {}
    for k, fam in families(game).items():
        st = states[k]
        n_m, n_c = len(st["members"]), len(st["cuts"])
        out[k] = FamilyTail(
            fam.members[n_m:],
            fam.cuts[n_c:],
            fam.highs[n_c:],
            list(getattr(fam, "attained", [])),
            fam.exact_solves,
            fam.exact_seconds,
            fam.value_solves,
        )
    return out


def absorb_tail(fam: Any, tail: FamilyTail) -> None:
    """Append a task's new rows to the solve's own family (in the order the tasks were
    made: the same family as the solve in process would have built, task for task)."""
    if len(tail.members):
        fam.members = np.vstack([fam.members, tail.members])
    if len(tail.cuts):
        fam.cuts = np.vstack([fam.cuts, tail.cuts])
        fam.highs = np.concatenate([fam.highs, tail.highs])
    if hasattr(fam, "attained") and tail.exact_solves:
        fam.attained.clear()  # the window of the last task merged
        fam.attained.extend(tail.attained)
    fam.exact_solves += tail.exact_solves
    fam.exact_seconds += tail.exact_seconds
    fam.value_solves += tail.value_solves


def fresh_counters(game: DuelGame) -> None:
    for fam in families(game).values():
        fam.exact_solves, fam.exact_seconds, fam.value_solves = 0, 0.0, 0


# --------------------------------------------------------------------------- the slices


@dataclass
class Entries:
    """A slice of a table: optimal play's and every matchup's values of some normal-play
    states, the last chances' values of some others, and the proven errors of both."""

    values: dict[tuple, dict] = field(default_factory=dict)
    last: dict[Any, dict] = field(default_factory=dict)
    errors: dict[Any, float] = field(default_factory=dict)

    @classmethod
    def of(cls, sol: DuelSolution, keys: Iterable[Any], lkeys: Iterable[Any]) -> Entries:
        keys, lkeys = list(keys), list(lkeys)
        vals = {m: _taken(sol.values[m], keys) for m in MATCHUPS}
        last = {p: _taken(sol.last[p], lkeys) for p in PLAYS}
        errors = _taken(sol.errors, keys + lkeys)
        return cls(vals, last, errors)

    def into(self, sol: DuelSolution) -> None:
        for m, v in self.values.items():
            sol.values[m].update(v)
        for p, v in self.last.items():
            sol.last[p].update(v)
        sol.errors.update(self.errors)


def _taken(d: Mapping, keys: Iterable[Any]) -> dict:
    return {k: d[k] for k in keys if k in d}


@dataclass
class Result:
    """What a task wrote: its states' entries (``values`` by matchup for normal play,
    ``last`` by play for last chances), their errors, policies' distributions and
    margins, the bounds as they stand after it (``bound``; ``tie``: for a layer's part the
    growth of the ties' bound, for a last chance the bound itself), its policy-iteration
    steps and its families' new rows."""

    values: dict[tuple, dict]
    last: dict[Any, dict]
    errors: dict[Any, float]
    dists: dict[Any, np.ndarray]
    gaps: dict[Any, float]
    bound: float
    tie: float
    iterations: int
    families: dict[int, FamilyTail]
    seconds: float = 0.0  # the task's wall and CPU seconds on its worker
    cpu: float = 0.0

    def into(self, sol: DuelSolution, layer: bool) -> None:
        """Merge into the solve's table (a layer's part: the ties' bound grows by
        ``tie`` as the part's certificate makes it grow in process)."""
        for m, v in self.values.items():
            sol.values[m].update(v)
        for p, v in self.last.items():
            sol.last[p].update(v)
        sol.errors.update(self.errors)
        sol.dists.update(self.dists)
        sol.gaps.update(self.gaps)
        sol.bound = max(sol.bound, self.bound)
        sol.tie_bound = max(sol.tie_bound, sol.tie_bound + self.tie) if layer else self.tie
        sol.iterations += self.iterations
        fams = families(sol.game)
        for k, tail in self.families.items():
            absorb_tail(fams[k], tail)


# --------------------------------------------------------------------------- the tasks


@dataclass
class Job:
    """One task's inputs (one object, which Dask neither hashes nor searches through)."""

    spec: GameSpec
    fams: dict[int, dict[str, Any]]
    keys: list
    entries: Entries
    fixed: Mapping
    strides: tuple
    reach: dict | None
    least: float
    bound: float
    tie: float = 0.0
    in_round: bool = False


def _table(job: Job) -> DuelSolution:
    game = with_families(worker_game(job.spec), job.fams)
    fresh_counters(game)
    sub = DuelSolution(game)
    job.entries.into(sub)
    sub.bound, sub.tie_bound = job.bound, job.tie
    sub.pending = {} if job.in_round else None
    return sub


def _written(sub: DuelSolution, keys: list, lkeys: list, job: Job, tie: float) -> Result:
    own = keys + lkeys
    return Result(
        {m: _taken(sub.values[m], keys) for m in MATCHUPS},
        {p: _taken(sub.last[p], lkeys) for p in PLAYS},
        _taken(sub.errors, own),
        _taken(sub.dists, own),
        _taken(sub.gaps, own),
        sub.bound,
        tie,
        sub.iterations,
        tails(sub.game, job.fams),
    )


def held(game: DuelGame) -> contextlib.AbstractContextManager:
    """The heap held through a task with a costly family's exact solves, as the solve in
    process holds it (:func:`~phase10math.turn.tensor.memory.held_heap`)."""
    costly = any(fam.costly for fam in families(game).values())
    return held_heap() if costly else contextlib.nullcontext()


def pair_task(job: Job) -> Result:
    """Pairs of one part of a layer (all, or whole pairs of players of it): solved,
    certified and their matchups evaluated (:func:`~phase10math.game.duel.pair.solve_layer`)."""
    t0, c0 = time.perf_counter(), time.process_time()
    sub = _table(job)
    with held(sub.game):
        pair.solve_layer(sub, job.keys, job.fixed, job.strides, None, None, job.reach, job.least)
    keys = job.keys + [partner_of(k) for k in job.keys]
    out = _written(sub, keys, [], job, sub.tie_bound)
    out.seconds, out.cpu = time.perf_counter() - t0, time.process_time() - c0
    return out


def last_task(job: Job, k: int) -> Result:
    """The last chances at phase ``k`` (:func:`~phase10math.game.duel.layers.solve_last`)."""
    t0, c0 = time.perf_counter(), time.process_time()
    sub = _table(job)
    with held(sub.game):
        layers.solve_last(sub, k, job.keys, job.fixed, job.strides, job.reach, job.least)
    out = _written(sub, [], job.keys, job, sub.tie_bound)
    out.seconds, out.cpu = time.perf_counter() - t0, time.process_time() - c0
    return out


def exact_task(spec: GameSpec, k: int, state: dict[str, Any], W: np.ndarray) -> FamilyTail:
    """Exact solves of the rows of ``W`` by phase ``k``'s family as it stood (``state``)."""
    game = with_families(worker_game(spec), {k: state})
    fresh_counters(game)
    with held(game):
        game.turns[k].exact(W)
    return tails(game, {k: state})[k]
