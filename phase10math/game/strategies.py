"""Strategies: who decides which dice to keep. One small interface, :class:`Strategy`:
``hold(view) -> die indices to keep`` (see :class:`~phase10math.game.engine.TurnView`).

- ``complete``: the completion-optimal turn (maximises P(make the phase this turn));
- ``score``: the score-optimal turn (maximises the expected points of this turn);
- ``greedy``: the human-like heuristic (keep the dice that fit the fullest placement);
- ``random``: keeps each die with probability 1/2 (seeded);
- ``stop``: keeps everything after the first roll (for scripted tests);
- ``human``: asks a callback (the notebook widgets) or the terminal;
- ``solitaire``: the optimal solitaire policy (:mod:`phase10math.game.solitaire`).

Per-turn policies look the roll up in the turn solver's projected state space (O(1) per
decision), so whole games run fast.

>>> get_strategy("complete").name
'complete'
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from phase10math.checks import check_seed, check_type, public
from phase10math.dice.faces import Face, Layout, check_layout, parse_faces
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules, check_rules
from phase10math.errors import InvalidDiceError, InvalidHoldError, InvalidRulesError
from phase10math.game import solitaire
from phase10math.game.engine import Game, GameResult, TurnView
from phase10math.turn.advisor import advise
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_solution, greedy_holds


@runtime_checkable
class Strategy(Protocol):
    """Anything with a ``name`` and ``hold(view) -> iterable of die indices to keep``."""

    name: str

    def hold(self, view: TurnView) -> Sequence[int] | frozenset[int]: ...


# --------------------------------------------------------------------------- faces <-> states


class SpaceMap:
    """Maps the faces of the ten dice (layout order) to a state id of a projected state space
    and a hold id back to die indices.

    >>> from phase10math.turn.tables import cached_solution, greedy_holds
    >>> from phase10math.dice.faces import parse_faces
    >>> sp = cached_solution(1).space
    >>> m = SpaceMap(sp, DEFAULT_LAYOUT)
    >>> faces = tuple(d.faces[0] for d in DEFAULT_LAYOUT.dice)
    >>> sorted(m.keep_for(m.roll_id(faces), faces)) == list(range(10))
    True
    """

    def __init__(self, space: StateSpace, layout: Layout) -> None:
        self.space = space
        self.layout = layout
        self.die_type = space.die_types(layout)
        self.face_pos = [{k: j for j, k in enumerate(t.faces)} for t in space.types]

    def counts(self, faces: Sequence[Face], dice: Sequence[int] | None = None) -> list[list[int]]:
        proj = self.space.projection
        out = [[0] * len(t.faces) for t in self.space.types]
        for i in range(len(faces)) if dice is None else dice:
            t = self.die_type[i]
            out[t][self.face_pos[t][proj.key(faces[i])]] += 1
        return out

    def roll_id(self, faces: Sequence[Face]) -> int:
        return self.space.state_id(self.counts(faces))

    def keep_for(
        self, hold_id: int, faces: Sequence[Face], prefer: frozenset[int] = frozenset()
    ) -> frozenset[int]:
        """Die indices realising a hold (dice in ``prefer`` first)."""
        proj = self.space.projection
        want = self.space.counts_of(hold_id)
        need = {
            (t, k): c
            for t, cs in enumerate(want)
            for k, c in zip(self.space.types[t].faces, cs, strict=True)
            if c
        }
        keep = []
        order = sorted(range(len(faces)), key=lambda i: i not in prefer)
        for i in order:
            key = (self.die_type[i], proj.key(faces[i]))
            if need.get(key, 0) > 0:
                need[key] -= 1
                keep.append(i)
        return frozenset(keep)


# --------------------------------------------------------------------------- strategies


class PolicyStrategy:
    """A per-turn policy given by hold ids per roll state (free holds).

    ``policy(k)`` returns ``(space, holds_by_r)`` with ``holds_by_r[r][pos]`` the hold for the
    roll state ``space.full_ids[pos]`` with r rerolls left."""

    def __init__(
        self, name: str, policy: Callable[[int], tuple[StateSpace, dict]], layout: Layout
    ) -> None:
        self.name = name
        self._policy = policy
        self.layout = layout
        self._maps: dict[int, SpaceMap] = {}

    def hold(self, view: TurnView) -> frozenset[int]:
        space, holds = self._policy(view.number)
        m = self._maps.get(id(space))
        if m is None:
            m = self._maps[id(space)] = SpaceMap(space, view.layout)
        gid = m.roll_id(view.faces)
        pos = int(np.searchsorted(space.full_ids, gid))
        hold = int(holds[view.rolls_left][pos])
        keep = m.keep_for(hold, view.faces, view.held)
        if view.rules.holds == "sticky":
            keep = keep | view.held
        return keep


class OptimalStrategy(PolicyStrategy):
    """The exact optimal turn for ``objective`` 'complete' or 'score' (free holds; with sticky
    holds it asks the exact advisor, slower but exact)."""

    def __init__(
        self,
        objective: str = "complete",
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
    ) -> None:
        self.objective = Objective.parse(objective)
        self.rules = rules
        super().__init__(str(self.objective), self._load, layout)

    def _load(self, k: int) -> tuple[StateSpace, dict]:
        sol = cached_solution(k, self.objective, self.rules, self.layout)
        return sol.space, sol.roll_arg

    def hold(self, view: TurnView) -> frozenset[int]:
        if view.rules.holds == "sticky":
            return _advisor_hold(view, self.objective)
        return super().hold(view)


def _advisor_hold(view: TurnView, objective: str) -> frozenset[int]:
    aside = [view.faces[i] for i in sorted(view.held)]
    adv = advise(
        list(view.faces),
        view.rolls_left,
        view.phase,
        objective,
        view.rules,
        view.layout,
        set_aside=aside,
        by_die=True,
    )
    keep = set(view.held)
    rest = Counter((f.value, f.color) for f in adv.best.keep)
    for f in aside:
        rest[(f.value, f.color)] -= 1
    for i, f in enumerate(view.faces):
        if i not in keep and rest[(f.value, f.color)] > 0:
            rest[(f.value, f.color)] -= 1
            keep.add(i)
    return frozenset(keep)


class GreedyStrategy(PolicyStrategy):
    """Keep the dice that fit the placement using the most dice (ties: most points)."""

    def __init__(self, rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT) -> None:
        self.rules = rules
        self._cache: dict[int, tuple[StateSpace, dict]] = {}
        super().__init__("greedy", self._load, layout)

    def _load(self, k: int) -> tuple[StateSpace, dict]:
        if k not in self._cache:
            self._cache[k] = greedy_holds(k, self.rules, self.layout)
        return self._cache[k]


class RandomStrategy:
    """Keeps each die with probability 1/2 (seeded; with sticky holds kept dice stay)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(check_seed(seed))

    def hold(self, view: TurnView) -> frozenset[int]:
        pick = self.rng.random(len(view.faces)) < 0.5
        return frozenset(int(i) for i in np.flatnonzero(pick)) | view.held


class StopStrategy:
    """Keeps everything after the first roll (one-roll turns; used by scripted games)."""

    name = "stop"

    def hold(self, view: TurnView) -> frozenset[int]:
        return frozenset(range(len(view.faces)))


class HumanStrategy:
    """Asks ``ask(view) -> faces or die indices to keep``; by default the terminal
    (type the faces to keep, e.g. ``10 10 W``; empty = reroll all; ``all`` = stop)."""

    name = "human"

    def __init__(self, ask: Callable[[TurnView], Sequence[int] | str] | None = None) -> None:
        self.ask = ask or _terminal_ask

    def hold(self, view: TurnView) -> frozenset[int]:
        if self.ask is _terminal_ask:
            # the terminal: a keep the dice cannot show is explained and asked again
            for _ in range(MAX_ASKS):
                try:
                    return keep_from_text(_terminal_ask(view), view)
                except (InvalidHoldError, InvalidDiceError) as exc:
                    if isinstance(exc, InputClosedError):
                        raise
                    print(f"  {exc}; try again", file=sys.stderr, flush=True)
            raise InvalidHoldError(f"no valid keep after {MAX_ASKS} tries; the game stops")
        answer = self.ask(view)
        if isinstance(answer, str):
            return keep_from_text(answer, view)
        keep = frozenset(int(i) for i in answer)
        if view.rules.holds == "sticky" and not view.held <= keep:
            raise InvalidHoldError("sticky holds: the dice set aside stay set aside")
        return keep


def keep_from_text(text: str, view: TurnView) -> frozenset[int]:
    """Die indices for typed faces (``'10 10 W'``, ``'all'``, ``''``), held dice first.

    Raises InvalidHoldError if the dice in front of the player do not show these faces."""
    if text.strip().lower() == "all":
        return frozenset(range(len(view.faces)))
    want = parse_faces(text) if text.strip() else ()
    keep: set[int] = set(view.held) if view.rules.holds == "sticky" else set()
    taken = Counter((f.value, f.color) for f in (view.faces[i] for i in keep))
    for f in want:
        cands = [i for i, g in enumerate(view.faces) if g.matches(f)]
        held_match = [
            i for i in cands if i in keep and taken[(view.faces[i].value, view.faces[i].color)] > 0
        ]
        if held_match:
            i = held_match[0]
            taken[(view.faces[i].value, view.faces[i].color)] -= 1
            continue
        free = [i for i in cands if i not in keep]
        if not free:
            raise InvalidHoldError(
                f"cannot keep {f}: no other die in front of you shows it "
                f"(dice: {' '.join(map(str, view.faces))})"
            )
        free.sort(key=lambda i: i not in view.held)
        keep.add(free[0])
    return frozenset(keep)


MAX_ASKS = 20  # bad answers in a row before a terminal player's game stops


class InputClosedError(InvalidHoldError):
    """The terminal player's input ended (stdin closed) before a keep was given."""


def _terminal_ask(view: TurnView) -> str:
    """Ask on the terminal: prompts on stderr (stdout stays clean for --json), answer on stdin."""
    err = sys.stderr
    print(f"phase {view.number} ({view.phase.text}); {view.rolls_left} roll(s) left", file=err)
    print("dice: " + " ".join(map(str, view.faces)), file=err)
    print("keep (faces, 'all' to stop, empty to reroll all): ", end="", file=err, flush=True)
    line = sys.stdin.readline() if sys.stdin is not None else ""
    if not line:
        raise InputClosedError("the human player's input ended (stdin closed); the game stops")
    return line.rstrip("\n")


STRATEGY_NAMES = ("complete", "score", "greedy", "random", "stop", "solitaire")


class SolitaireStrategy:
    """The optimal solitaire policy as a game strategy: the hold of the solved MDP state
    ``(phase, points so far, first try at phase 10)`` for the roll in front of the player.

    The solve is done on the first decision (cached on disk; minutes when cold, see
    :func:`~phase10math.game.solitaire.solve_solitaire`). Phases past 10 (a 20-phase game)
    use the score-optimal turn. Free holds only.

    In a game with other players it still maximises its own expected solitaire score (it does
    not look at the others)."""

    name = "solitaire"

    def __init__(
        self,
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        solution: solitaire.SolitaireSolution | None = None,
        show_progress: bool = False,
    ) -> None:
        check_rules(rules)
        check_layout(layout)
        if rules.holds != "free":
            raise InvalidRulesError("the solitaire strategy is solved for free holds only")
        self.rules = rules
        self.layout = layout
        self.show_progress = show_progress
        self._solution = solution
        self._data: dict[int, solitaire.PhaseData] | None = None
        self._maps: dict[int, Any] = {}
        self._fallback: Any = None

    def solution(self) -> tuple[solitaire.SolitaireSolution, dict[int, solitaire.PhaseData]]:
        """The solved MDP and the phase data (solved or loaded on first use)."""
        if self._data is None:
            self._data = {
                k: solitaire.phase_data(k, self.rules, self.layout)
                for k in range(1, solitaire.LAST + 1)
            }
        if self._solution is None:
            self._solution = solitaire.solve_solitaire(
                self.rules, self.layout, show_progress=self.show_progress
            )
        return self._solution, self._data

    def hold(self, view) -> frozenset[int]:
        k = view.number
        if k > solitaire.LAST or view.phase is not PHASES.get(k):
            if self._fallback is None:
                self._fallback = OptimalStrategy("score", self.rules, self.layout)
            return self._fallback.hold(view)
        sol, data = self.solution()
        pd = data[k]
        T = sum(v for j, v in view.player.scores.items() if j < k)
        first = view.player.tries.get(k, 0) <= 1
        holds = sol.states[sol.key(k, T, first, data)].holds
        m = self._maps.get(k)
        if m is None:
            m = self._maps[k] = SpaceMap(pd.space, view.layout)
        pos = int(np.searchsorted(pd.space.full_ids, m.roll_id(view.faces)))
        return m.keep_for(int(holds[view.rolls_left][pos]), view.faces, view.held)


@public
def get_strategy(
    name: str,
    rules: Rules = DEFAULT_RULES,
    layout: Layout = DEFAULT_LAYOUT,
    seed: int | None = None,
    show_progress: bool = False,
) -> Strategy:
    """A strategy by name (see :data:`STRATEGY_NAMES`; 'human' asks the terminal)."""
    check_type(name, str, "strategy name")
    check_rules(rules)
    check_layout(layout)
    seed = check_seed(seed)
    key = name.strip().lower()
    if key in ("complete", "score"):
        return OptimalStrategy(key, rules, layout)
    if key == "greedy":
        return GreedyStrategy(rules, layout)
    if key == "random":
        return RandomStrategy(seed)
    if key == "stop":
        return StopStrategy()
    if key == "human":
        return HumanStrategy()
    if key == "solitaire":
        return SolitaireStrategy(rules=rules, layout=layout, show_progress=show_progress)
    raise InvalidRulesError(
        f"unknown strategy {name!r}; allowed: {', '.join(STRATEGY_NAMES + ('human',))}"
    )


@public
def play_game(strategies: Sequence[Strategy | str], **kwargs: Any) -> GameResult:
    """Play one game; strategies may be given by name (see :func:`strategies.get_strategy`)."""
    rules = kwargs.get("rules", DEFAULT_RULES)
    layout = kwargs.get("layout", DEFAULT_LAYOUT)
    strats = [
        get_strategy(s, rules=rules, layout=layout) if isinstance(s, str) else s for s in strategies
    ]
    return Game(strats, **kwargs).play()
