"""A whole game of Phase 10 Dice in Jupyter: the player against computer strategies, with the
score sheet updating after every turn.

:class:`GameSession` (no widgets) runs :class:`phase10math.game.engine.Game` one human turn at a
time: the computer players' turns are the engine's own ``play_turn``; the human's turn is
played in a :class:`~phase10math.play.widgets.TurnState` (clicks, or a typed physical roll) and
then replayed through the engine, so scoring, bonuses, the last chance and the solitaire
penalty are the engine's. :class:`GameWidget` shows it: the turn widget with the advisor,
the score sheet (``p10-scoresheet``), what the others did (``p10-log``) and a New game
button (``p10-new-game``).

>>> s = GameSession(opponents=["stop"], phases=1, seed=3)
>>> s.waiting, s.human_phase.number
(True, 1)
>>> st = s.new_turn_state()
>>> st.roll(); st.stop()
>>> s.human_turn_done(st)
>>> s.over or s.waiting
True
"""

from __future__ import annotations

import html
import random
from collections.abc import Sequence

from phase10math.dice.faces import Face, Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES, Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.errors import InvalidHoldError, InvalidRulesError
from phase10math.game.engine import Event, Game, GameResult, TurnView
from phase10math.game.strategies import STRATEGY_NAMES, get_strategy
from phase10math.play.widgets import TurnState, TurnWidget, css_classes, error_html, ipw

#: Computer opponents offered by the game widget (strategy names of phase10math.game.strategies).
OPPONENTS = tuple(n for n in ("complete", "score", "greedy", "random") if n in STRATEGY_NAMES)


class _Replay:
    """Dice and strategy that replay a turn already played in a TurnState."""

    name = "you"

    def __init__(self, history: Sequence[tuple[tuple[Face, ...], frozenset[int]]], n: int):
        self.history = list(history)
        self.n = n
        self.calls = 0

    def roll(self, dice: Sequence[int]) -> list[Face]:  # the engine's dice source
        faces = self.history[self.calls][0]
        self.calls += 1
        return [faces[i] for i in dice]

    def hold(self, view: TurnView) -> frozenset[int]:  # the engine's strategy interface
        r = view.rules.rolls - view.rolls_left  # rolls made so far
        return self.history[r][1] if r < len(self.history) else frozenset(range(self.n))


class GameSession:
    """A game: the human (seat 0, name ``you``) against computer strategies by name.

    ``waiting`` is True while the game waits for the human's turn at ``human_phase``;
    :meth:`human_turn_done` takes the finished turn and plays the others until the human's
    next turn or the end (``over``, ``result``). One player alone plays solitaire.
    """

    def __init__(
        self,
        opponents: Sequence[str] = ("complete", "greedy"),
        *,
        phases: int = 10,
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        seed: int | None = None,
        name: str = "you",
    ):
        self.rules, self.layout = rules, layout
        rng = random.Random(seed)
        bots = [
            get_strategy(o, rules=rules, layout=layout, seed=rng.randrange(2**32))
            for o in opponents
        ]
        names = [name] + [f"{o} ({i + 2})" for i, o in enumerate(opponents)]
        self.game = Game(
            [_Replay([], len(layout.dice))] + bots,
            phases=phases,
            rules=rules,
            layout=layout,
            seed=rng.randrange(2**32),
            names=names,
        )
        self.rng = random.Random(rng.randrange(2**32))  # the human's dice
        self.order = self.game.roll_off()
        self.result: GameResult | None = None
        self.seen = 0  # log events already shown
        self._flow = self._play()
        self.waiting = False
        self._resume(None)

    # ------------------------------------------------------------------ the flow
    def _play(self):
        """The game's flow, paused at each human turn (yields for the human)."""
        self.result = yield from self.game.flow(self.order, self._turn)

    def _turn(self, seat: int, last_chance: bool = False):
        if seat != 0:
            return self.game.play_turn(seat, last_chance)
        state = yield seat
        replay = _Replay(state.history, len(self.layout.dice))
        dice, self.game.dice = self.game.dice, replay
        self.game.strategies[0] = replay
        try:
            return self.game.play_turn(0, last_chance)
        finally:
            self.game.dice = dice

    def _resume(self, state: TurnState | None) -> None:
        try:
            self._flow.send(state)
            self.waiting = True
        except StopIteration:
            self.waiting = False

    # ------------------------------------------------------------------ the human
    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def human(self):
        return self.game.players[0]

    @property
    def human_phase(self) -> Phase:
        return PHASES[self.human.phase]

    def new_turn_state(self, objective: str = "complete") -> TurnState:
        """A fresh turn for the human at the current phase (the session's seeded dice)."""
        if not self.waiting:
            raise InvalidHoldError("the game is over: start a new game")
        return TurnState(self.human_phase, objective, self.rules, self.layout, rng=self.rng)

    def human_turn_done(self, state: TurnState) -> None:
        """Score the human's finished turn and play the others up to the human's next turn."""
        if not self.waiting:
            raise InvalidHoldError("the game is over: start a new game")
        if not state.over:
            raise InvalidHoldError("the turn is not over yet")
        if state.phase != self.human_phase:
            raise InvalidHoldError(
                f"this turn was at phase {state.phase.number}, the game "
                f"is at phase {self.human_phase.number}"
            )
        self.waiting = False
        self._resume(state)

    def new_events(self) -> list[Event]:
        """Log events since the last call."""
        ev = self.game.log[self.seen :]
        self.seen = len(self.game.log)
        return ev


# ====================================================================== widget

_SHOWN = {"made", "failed", "bonus", "penalty", "last_chance", "end", "order"}


def event_text(e: Event, names: Sequence[str]) -> str:
    """One line of the game log in words."""
    who = names[e.player] if 0 <= e.player < len(names) else ""
    dice = " ".join(map(str, e.dice))
    if e.kind == "made":
        return f"{who}: phase {e.phase} made with {dice}, +{e.points}"
    if e.kind == "failed":
        return f"{who}: phase {e.phase} missed ({dice})"
    if e.kind == "bonus":
        return f"{who}: {e.note} {e.points:+d}" if e.points else f"{who}: {e.note}"
    if e.kind == "penalty":
        return f"{who}: {e.note} {e.points:+d}"
    if e.kind == "last_chance":
        return f"{who}: last chance at phase {e.phase}"
    if e.kind == "order":
        return f"{who} {e.note}"
    return e.note


def scoresheet_html(session: GameSession) -> str:
    """The score sheet: one row per phase, one column per player (points, tries)."""
    g = session.game
    ps = [g.players[s] for s in session.order]
    head = "".join(f"<th>{html.escape(p.name)}</th>" for p in ps)
    rows = []
    for k in range(1, g.phases + 1):
        cells = []
        for p in ps:
            tries = p.tries.get(k, 0)
            t = f" <small>({tries}&times;)</small>" if tries else ""
            if k in p.scores:
                cell = f"{p.scores[k]}{t}"
            elif not p.finished and p.phase == k:
                cell = f"&#9654;{t}"
            else:
                cell = ""
            cells.append(f"<td style='text-align:right'>{cell}</td>")
        rows.append(f"<tr><td>{k}: {html.escape(PHASES[k].text)}</td>{''.join(cells)}</tr>")
    for label, key in (("five-phase bonus", "five_phase"), ("first-finish bonus", "first_finish")):
        rows.append(
            f"<tr><td>{label}</td>"
            + "".join(f"<td style='text-align:right'>{p.bonuses.get(key, '')}</td>" for p in ps)
            + "</tr>"
        )
    if g.solitaire:
        rows.append(
            "<tr><td>failed turns</td>"
            + "".join(
                f"<td style='text-align:right'>{-p.penalty if p.penalty else ''}</td>" for p in ps
            )
            + "</tr>"
        )
    rows.append(
        "<tr style='font-weight:bold;border-top:2px solid #333'><td>total</td>"
        + "".join(f"<td style='text-align:right' class='p10-total'>{p.total}</td>" for p in ps)
        + "</tr>"
    )
    return (
        f"<table style='border-collapse:collapse' cellpadding='3'><tr><th>phase</th>{head}"
        f"</tr>{''.join(rows)}</table>"
    )


class GameWidget:
    """Play a whole game against computer strategies: the turn widget with the advisor for
    your turns, the score sheet, and a log of the other players' turns."""

    def __init__(
        self,
        opponents: Sequence[str] = ("complete", "greedy"),
        *,
        phases: int = 10,
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        seed: int | None = None,
        top: int = 5,
    ):
        w = ipw()
        self.rules, self.layout, self.phases = rules, layout, phases
        self._seed = seed
        self._games = 0
        self.opponents = css_classes(
            w.SelectMultiple(
                options=list(OPPONENTS),
                value=tuple(o for o in opponents if o in OPPONENTS),
                description="Opponents",
                rows=len(OPPONENTS),
            ),
            "p10-opponents",
        )
        self.new_game_button = css_classes(
            w.Button(description="New game", button_style="info"), "p10-new-game"
        )
        self.new_game_button.on_click(lambda _b: self.new_game())
        self.status = css_classes(w.HTML(), "p10-game-status")
        self.sheet = css_classes(w.HTML(), "p10-scoresheet")
        self.log = css_classes(w.HTML(), "p10-log")
        self.session = self._session(opponents)
        self.turn = TurnWidget(
            state=self.session.new_turn_state(),
            top=top,
            on_turn_end=self._turn_ended,
            next_turn=self._next_phase,
        )
        self.turn.view.add_class("p10-game-turn")
        self._lines: list[str] = []
        self._note_events()
        self.view = css_classes(
            w.VBox(
                [
                    w.HBox([self.opponents, self.new_game_button]),
                    self.status,
                    w.HBox([self.turn.view, w.VBox([self.sheet, self.log])]),
                ]
            ),
            "p10-game",
        )
        self.refresh()

    def _repr_mimebundle_(self, **kwargs):
        return self.view._repr_mimebundle_(**kwargs)

    def _session(self, opponents: Sequence[str]) -> GameSession:
        seed = None if self._seed is None else self._seed + self._games
        self._games += 1
        return GameSession(
            list(opponents), phases=self.phases, rules=self.rules, layout=self.layout, seed=seed
        )

    # ------------------------------------------------------------------ control
    def new_game(self) -> None:
        """Start a new game with the opponents selected."""
        self.session = self._session(self.opponents.value)
        self._lines = []
        self._note_events()
        self.turn.state = self.session.new_turn_state(self.turn.state.objective)
        self.turn.message.value = ""
        self.turn.refresh()
        self.refresh()

    def _turn_ended(self, state: TurnState) -> None:
        try:
            self.session.human_turn_done(state)
        except (InvalidHoldError, InvalidRulesError) as e:
            self.turn.message.value = error_html(e)
        self._note_events()
        self.refresh()

    def _next_phase(self) -> Phase:
        if not self.session.waiting:
            raise InvalidHoldError("the game is over: press New game")
        self.turn.state.rng = self.session.rng
        return self.session.human_phase

    def _note_events(self) -> None:
        names = [p.name for p in self.session.game.players]
        for e in self.session.new_events():
            if e.kind in _SHOWN:
                self._lines.append(event_text(e, names))
        self._lines = self._lines[-14:]

    # ------------------------------------------------------------------ view
    def refresh(self) -> None:
        s = self.session
        if s.over:
            best = max(p.total for p in s.game.players)
            won = [p.name for p in s.game.players if p.total == best]
            self.status.value = (
                f"<b>Game over.</b> Winner: {html.escape(', '.join(won))} "
                f"with {best} points. Press New game to play again."
            )
        else:
            self.status.value = (
                f"Round {s.game.round}: <b>your turn at phase "
                f"{s.human_phase.number}</b> ({s.human_phase.text}). "
                "When it is over, press Next turn."
            )
        self.sheet.value = scoresheet_html(s)
        self.log.value = "<b>What happened</b><br>" + "<br>".join(
            html.escape(x) for x in self._lines
        )
