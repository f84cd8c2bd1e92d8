"""Strategies: who decides which dice to keep. One small interface, :class:`Strategy`:
``hold(view) -> die indices to keep`` (see :class:`~phase10math.game.engine.TurnView`).

- ``complete``: the completion-optimal turn (maximises P(make the phase this turn));
- ``score``: the score-optimal turn (maximises the expected points of this turn);
- ``greedy``: the human-like heuristic (keep the dice that fit the fullest placement);
- ``random``: keeps each die with probability 1/2 (seeded);
- ``stop``: keeps everything after the first roll (for scripted tests);
- ``human``: asks a callback (the notebook widgets) or the terminal;
- ``solitaire``: the optimal solitaire policy (:mod:`phase10math.game.solitaire`);
- ``win``: plays to win a two-player game from the widest shipped solved table for its dice
  (the whole game, phases 1-10, on the compact dice and on the recorded set, 9-10 on others:
  :func:`~phase10math.game.duel.widest_table`); before that the completion-optimal turn,
  counted and announced
  (:class:`~phase10math.game.duel.WinStrategy`).

Per-turn policies look the roll up in the solved policy's
:class:`~phase10math.turn.holdtable.HoldTable` (one lookup per decision, the hold codes
memory-mapped on ten different dice), so whole games run fast.

>>> get_strategy("complete").name
'complete'
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from phase10math._base.checks import check_seed, check_type, public
from phase10math.dice.faces import Layout, check_layout, parse_faces
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rolls import dice_showing
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules, check_rules
from phase10math.errors import InvalidDiceError, InvalidHoldError, InvalidRulesError
from phase10math.game import solitaire
from phase10math.game.duel import WinStrategy, check_table_rules, widest_table
from phase10math.game.engine import Game, GameResult, Strategy, TurnView
from phase10math.game.names import STRATEGY_NAMES
from phase10math.game.spacemap import table_keep
from phase10math.turn.advisor import advise
from phase10math.turn.holdtable import HoldTable
from phase10math.turn.tables import cached_holds, greedy_holds

# --------------------------------------------------------------------------- strategies


class PolicyStrategy:
    """A per-turn policy read by lookup: ``policy(k)`` gives phase ``k``'s
    :class:`~phase10math.turn.holdtable.HoldTable` (free holds), and a decision is
    :meth:`~phase10math.turn.holdtable.HoldTable.best_hold` of the roll in front of the
    player."""

    def __init__(self, name: str, policy: Callable[[int], HoldTable], layout: Layout) -> None:
        self.name = name
        self._policy = policy
        self.layout = layout
        self._maps: dict[int, Any] = {}

    def hold(self, view: TurnView) -> frozenset[int]:
        table = self._policy(view.number)
        keep = table_keep(table, view, self._maps)
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

    def _load(self, k: int) -> HoldTable:
        return cached_holds(k, self.objective, self.rules, self.layout)

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
    # the dice set aside first (the advice keeps them), then the others in layout order
    order = sorted(range(len(view.faces)), key=lambda i: i not in view.held)
    chosen = dice_showing(view.faces, adv.best.keep, order)
    if chosen is None:
        raise InvalidHoldError(f"the advised hold {adv.best.keep} is not within the dice")
    return frozenset(view.held) | frozenset(chosen)


class GreedyStrategy(PolicyStrategy):
    """Keep the dice that fit the placement using the most dice (ties: most points)."""

    def __init__(self, rules: Rules = DEFAULT_RULES, layout: Layout = DEFAULT_LAYOUT) -> None:
        self.rules = rules
        self._cache: dict[int, HoldTable] = {}
        super().__init__("greedy", self._load, layout)

    def _load(self, k: int) -> HoldTable:
        if k not in self._cache:
            space, holds = greedy_holds(k, self.rules, self.layout)
            self._cache[k] = HoldTable(space, dict(holds), f"phase {k} greedy")
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
        return table_keep(HoldTable(pd.space, holds), view, self._maps)


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
    if key == "win":
        table = widest_table(layout)
        check_table_rules(table, rules)
        fallback = OptimalStrategy("complete", rules, layout)
        return WinStrategy(table, fallback=fallback, shipped=layout)
    raise InvalidRulesError(
        f"unknown strategy {name!r}; allowed: {', '.join(STRATEGY_NAMES + ('human',))}"
    )


def strategy_notes(strategies: Sequence[Any]) -> list[str]:
    """What the strategies of a game announce about their play, one line per seat that has
    something to say (``win``: its decisions outside the two-player table)."""
    out = []
    for i, s in enumerate(strategies):
        note = s.note() if callable(getattr(s, "note", None)) else None
        if note:
            out.append(f"seat {i + 1}: {note}")
    return out


@public
def play_game(strategies: Sequence[Strategy | str], **kwargs: Any) -> GameResult:
    """Play one game; strategies may be given by name (see :func:`strategies.get_strategy`)."""
    rules = kwargs.get("rules", DEFAULT_RULES)
    layout = kwargs.get("layout", DEFAULT_LAYOUT)
    strats = [
        get_strategy(s, rules=rules, layout=layout) if isinstance(s, str) else s for s in strategies
    ]
    return Game(strats, **kwargs).play()
