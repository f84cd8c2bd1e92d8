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

import dataclasses
import html
import os
import random
import urllib.parse
from collections import Counter
from collections.abc import Sequence

from phase10math._base.checks import public
from phase10math.dice.faces import Face, Layout, parse_face
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import explain
from phase10math.dice.phases import PHASES, Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.errors import InvalidHoldError, InvalidRulesError, Phase10MathError
from phase10math.game.duel import shipped_ranges
from phase10math.game.engine import Event, Game, GameResult, TurnView
from phase10math.game.strategies import STRATEGY_NAMES, get_strategy
from phase10math.play import saved
from phase10math.play.models import (
    MISTAKE_LABELS,
    WIN_AIM,
    Choice,
    TurnState,
    cost_words,
    severity,
)
from phase10math.play.panels import board_html, error_html, lost_words
from phase10math.play.style import css_classes, ipw, style_widget
from phase10math.play.turn_widget import TurnWidget
from phase10math.play.win import WinLine, win_line

#: Computer opponents offered by the game widget (strategy names of phase10math.game.strategies).
#: A seat played by a person at the same device (pass and play).
PERSON = "person"
OPPONENTS = tuple(n for n in ("complete", "score", "greedy", "random") if n in STRATEGY_NAMES) + (
    PERSON,
)


def check_opponents(opponents: object, most: int) -> list[str]:
    """The computer opponents' strategy names, each one of :data:`OPPONENTS`, at most
    ``most`` of them; InvalidRulesError naming the bad one otherwise.

    >>> check_opponents(["greedy"], 5)
    ['greedy']
    >>> try:
    ...     check_opponents(["bogus"], 5)
    ... except ValueError as e:
    ...     print(e)
    opponent 'bogus': choose one of complete, score, greedy, random, person
    """
    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        raise InvalidRulesError(
            f"opponents: a list of strategy names ({', '.join(OPPONENTS)}), not {opponents!r:.40}"
        )
    for o in opponents:
        if not isinstance(o, str) or o not in OPPONENTS:
            raise InvalidRulesError(f"opponent {o!r:.40}: choose one of {', '.join(OPPONENTS)}")
    if len(opponents) > most:
        raise InvalidRulesError(
            f"at most {GameWidget.MAX_OPPONENTS} computer opponents"
            + (f" (got {len(opponents)})" if most == GameWidget.MAX_OPPONENTS else "")
        )
    return list(opponents)


def check_names(names: object, people: int) -> list[str]:
    """The names of the people at this device: the first for seat 1, the others for the pass
    and play seats (``people`` of them) in seat order; each 1-20 characters, no two alike, no
    more than the seats. InvalidRulesError naming the problem otherwise.

    >>> check_names(["Ann", " Ben "], 1)
    ['Ann', 'Ben']
    >>> try:
    ...     check_names(["Ann", "ann"], 1)
    ... except ValueError as e:
    ...     print(e)
    the name 'ann' is given twice: each player needs their own
    """
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise InvalidRulesError(f"names: a list of names, not {names!r:.40}")
    out = []
    for n in names:
        if not isinstance(n, str) or not 1 <= len(n.strip()) <= 20:
            raise InvalidRulesError(f"name {n!r:.40}: 1 to 20 characters")
        n = n.strip()
        if n.lower() in (o.lower() for o in out):
            raise InvalidRulesError(f"the name {n!r} is given twice: each player needs their own")
        out.append(n)
    if len(out) > people + 1:
        raise InvalidRulesError(
            f"{len(out)} names for {people + 1} "
            f"{'person' if people == 0 else 'people'} at this device (you and "
            f"{people} pass-and-play seat{'s' if people != 1 else ''}): add a seat played by "
            "a person, or give fewer names"
        )
    return out or ["you"]


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


@public
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
        people: Sequence[str] = (),
    ):
        self.rules, self.layout = rules, layout
        if seed is None:  # a concrete seed, so that a saved game can be played again
            seed = random.SystemRandom().randrange(2**32)
        n_people = sum(o == PERSON for o in opponents)
        name, *people = check_names([name, *people], n_people)
        self.settings = {
            "opponents": list(opponents),
            "phases": phases,
            "seed": seed,
            "name": name,
            "people": people,
        }
        self.turns: list = []  # the human's finished turns (history), to replay a saved game
        rng = random.Random(seed)
        n = len(layout.dice)
        #: the seats played by people at this device (pass and play): seat 0 and every "person"
        self.humans = [0] + [i + 1 for i, o in enumerate(opponents) if o == PERSON]
        seeds = [rng.randrange(2**32) for _ in opponents]
        bots = [
            _Replay([], n) if o == PERSON else get_strategy(o, rules=rules, layout=layout, seed=s)
            for o, s in zip(opponents, seeds, strict=True)
        ]
        given = iter(people)
        names = [name] + [
            next(given, f"player {i + 2}") if o == PERSON else f"{o} ({i + 2})"
            for i, o in enumerate(opponents)
        ]
        self.current = 0  # the seat whose turn the game waits for
        self.game = Game(
            [_Replay([], n)] + bots,
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
        if seat not in self.humans:
            return self.game.play_turn(seat, last_chance)
        state = yield seat
        replay = _Replay(state.history, len(self.layout.dice))
        dice, self.game.dice = self.game.dice, replay
        self.game.strategies[seat] = replay
        try:
            return self.game.play_turn(seat, last_chance)
        finally:
            self.game.dice = dice

    def _resume(self, state: TurnState | None) -> None:
        try:
            self.current = self._flow.send(state)
            self.waiting = True
        except StopIteration:
            self.waiting = False

    # ------------------------------------------------------------------ the human
    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def human(self):
        """The player whose turn the game waits for (seat 0 alone without pass and play)."""
        return self.game.players[self.current]

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
        self.turns.append(list(state.history))  # in play order: the replay needs no seat
        self._resume(state)

    def to_dict(self) -> dict:
        """The game as JSON-able values: its settings, the human's turns and dice."""
        return {
            **self.settings,
            "rules": self.rules.to_dict(),
            "layout": saved.layout_to_dict(self.layout),
            "turns": [
                [[[str(f) for f in faces], sorted(kept)] for faces, kept in t] for t in self.turns
            ],
            "rng": saved.rng_to_list(self.rng),
        }

    @classmethod
    def from_dict(cls, d: dict) -> GameSession:
        """The game saved by :meth:`to_dict`, played again turn by turn through the engine;
        a saved game that cannot be read or replayed is refused (InvalidRulesError)."""
        try:
            return cls._replayed(d)
        except Phase10MathError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise InvalidRulesError(
                f"not a saved game ({type(e).__name__}: {str(e)[:80]})"
            ) from None

    @classmethod
    def _replayed(cls, d: dict) -> GameSession:
        s = cls(
            d["opponents"],
            phases=d["phases"],
            rules=saved.rules_from_dict(d["rules"]),
            layout=saved.layout_from_dict(d["layout"]),
            seed=d["seed"],
            name=d["name"],
            people=d.get("people", ()),
        )
        for turn in d["turns"]:
            st = s.new_turn_state()
            st.history = [
                (tuple(parse_face(x) for x in faces), frozenset(kept)) for faces, kept in turn
            ]
            st.dice = list(st.history[-1][0])
            st.rolls_done, st.stopped = len(st.history), True
            s.human_turn_done(st)
        s.rng.setstate(saved.rng_from_list(d["rng"]).getstate())
        return s

    def new_events(self) -> list[Event]:
        """Log events since the last call."""
        ev = self.game.log[self.seen :]
        self.seen = len(self.game.log)
        return ev


# ====================================================================== widget

#: The mistake labels, best first.
LABELS = ("best", *(label for label, _below in MISTAKE_LABELS["complete"]), "blunder")

_SHOWN = {"made", "failed", "bonus", "penalty", "last_chance", "end", "order"}


def event_text(e: Event, names: Sequence[str], rules: Rules = DEFAULT_RULES) -> str:
    """One line of the game log in words; a made phase names the groups that made it."""
    who = names[e.player] if 0 <= e.player < len(names) else ""
    if e.kind == "made":
        m = explain(PHASES[e.phase], list(e.dice), rules)
        colors = PHASES[e.phase].uses_color  # a color phase names each die's color

        def face(f: Face, s) -> str:
            c = (f.color or "") if colors else ""
            if f.is_wild:
                return f"W{c}(={s})" if s is not None else f"W{c}"
            return f"{f.value}{c}"

        groups = " + ".join(
            " ".join(face(f, s) for f, s in zip(g.dice, g.stands_for, strict=False))
            for g in m.groups
        )
        return f"{who}: phase {e.phase} made with {groups}, +{e.points}"
    if e.kind in ("roll", "hold"):
        colors = PHASES[e.phase].uses_color if e.phase in PHASES else False
        faces = " ".join(
            ("W" if f.is_wild else str(f.value)) + ((f.color or "") if colors else "")
            for f in e.dice
        )
        return f"{who}: {e.note}: {faces or 'nothing'}"
    if e.kind == "failed":
        return f"{who}: phase {e.phase} missed"
    if e.kind == "bonus":
        return f"{who}: {e.note} {e.points:+d}" if e.points else f"{who}: {e.note}"
    if e.kind == "penalty":
        return f"{who}: {e.note} {e.points:+d}"
    if e.kind == "last_chance":
        return f"{who}: last chance at phase {e.phase}"
    if e.kind == "order":
        note = e.note.replace("rolls ", "rolled ", 1)
        if note.startswith("starts; order "):  # the seats P1, P2, ... by name, in play order
            seats = [int(x[1:]) - 1 for x in note.removeprefix("starts; order ").split()]
            order = ", ".join(names[k] if 0 <= k < len(names) else "?" for k in seats)
            return f"{who} {'start' if who == 'you' else 'starts'}; the order of play: {order}"
        return f"{who} {note}" + (" in the roll-off" if note.startswith("rolled") else "")
    return e.note


def scoresheet_html(session: GameSession) -> str:
    """The score sheet: one row per phase, one column per player (points, tries; &#9654; the
    phase being played, &ndash; the phase a player was still at when the game ended)."""
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
                cell = f"{'&ndash;' if session.over else '&#9654;'}{t}"  # missed / to do
            else:
                cell = ""
            cells.append(f"<td class='num'>{cell}</td>")
        rows.append(
            f"<tr><td>{k}<span class='p10-ph-text'>: {html.escape(PHASES[k].text)}</span></td>"
            f"{''.join(cells)}</tr>"
        )
    for label, key in (("five-phase bonus", "five_phase"), ("first-finish bonus", "first_finish")):
        rows.append(
            f"<tr><td>{label}</td>"
            + "".join(f"<td class='num'>{p.bonuses.get(key, '')}</td>" for p in ps)
            + "</tr>"
        )
    if g.solitaire:
        rows.append(
            "<tr><td>failed turns</td>"
            + "".join(f"<td class='num'>{-p.penalty if p.penalty else ''}</td>" for p in ps)
            + "</tr>"
        )
    rows.append(
        "<tr class='p10-total-row'><td>total</td>"
        + "".join(f"<td class='p10-total'>{p.total}</td>" for p in ps)
        + "</tr>"
    )
    return (
        standings_html(session)
        + "<div class='p10-scroll-cue'>&#8596; the sheet scrolls sideways</div>"
        + f"<div class='p10-scroll'><table class='p10-sheet'><tr><th>phase</th>{head}"
        f"</tr>{''.join(rows)}</table></div>"
        "<small class='p10-sheet-key'>(2&times;): the turns a player took at that phase "
        "(a missed turn counts too); &#9654; the phase being played.</small>"
    )


def standings_html(session: GameSession) -> str:
    """Every player's total and phase, highest total first (ties in the order of play): three
    columns, so that it fits a phone with six players, where the sheet's columns scroll."""
    g = session.game
    ps = sorted((g.players[s] for s in session.order), key=lambda p: -p.total)
    rows = "".join(
        f"<tr><td>{html.escape(p.name)}</td><td class='num'>"
        + ("all made" if p.finished else f"{p.phase}" + (" (missed)" if session.over else ""))
        + f"</td><td class='num p10-standing-total'>{p.total}</td></tr>"
        for p in ps
    )
    return (
        "<table class='p10-standings'><tr><th>player</th><th class='num'>at phase</th>"
        f"<th class='num'>total</th></tr>{rows}</table>"
    )


def game_summary_html(choices: Sequence[Choice], people: Sequence[str]) -> str:
    """The end-of-game summary of what the human players' choices cost: per person the holds
    and stops by label, what they cost in all and the costliest (the worst label, then by
    :func:`~phase10math.play.models.severity`: costs of different aims compare), then turn by
    turn (behind a tap). ``people``: the names of the seats played by people, in seat order."""
    lines, rows = [], []
    for who in people:
        mine = [c for c in choices if c.who == who]
        if not mine:
            continue
        counts = Counter(c.label for c in mine)
        kinds = ", ".join(
            f"{counts[k]} <b class='p10-label-{k}'>{k}</b>" for k in LABELS if counts[k]
        )
        lost = lost_words(mine)
        worst = max(mine, key=lambda c: (LABELS.index(c.label), severity(c.cost, c.objective)))
        costliest = (
            f" The costliest: turn {worst.turn}, phase {worst.phase}, roll {worst.roll} "
            f"({worst.label}, {cost_words(worst.cost, worst.objective)})."
            if worst.cost > 0 and len(mine) > 1
            else ""
        )
        name = "Your choices" if len(people) == 1 else f"{html.escape(who)}'s choices"
        turns = len({c.turn for c in mine})
        n = len(mine)
        lines.append(
            f"<div><b>{name} this game</b> ({n} choice{'s' if n != 1 else ''} in {turns} "
            f"turn{'s' if turns != 1 else ''}): {kinds}; "
            + (f"in all {lost} lost." if lost else "every choice was the best.")
            + f"{costliest}</div>"
        )
        by_turn: dict[int | None, list[Choice]] = {}
        for c in mine:
            by_turn.setdefault(c.turn, []).append(c)
        for r, cs in by_turn.items():
            items = ", ".join(
                f"roll {c.roll} <b class='p10-label-{c.label}'>{c.label}</b>" for c in cs
            )
            who_cell = f"<td>{html.escape(who)}</td>" if len(people) > 1 else ""
            rows.append(
                f"<tr><td class='num'>{r}</td>{who_cell}<td class='num'>{cs[0].phase}</td>"
                f"<td>{items}</td><td>{lost_words(cs) or 'nothing'}</td></tr>"
            )
    if not lines:
        return ""
    who_head = "<th>who</th>" if len(people) > 1 else ""
    table = (
        "<details class='p10-game-choices'><summary>Turn by turn</summary>"
        f"<div class='p10-scroll'><table><tr><th>turn</th>{who_head}<th>phase</th>"
        f"<th>choices</th><th>lost</th></tr>{''.join(rows)}</table></div></details>"
    )
    return (
        "<div class='p10-panel p10-game-summary'>"
        + "".join(lines)
        + table
        + f"<small>{thresholds_words(any(c.objective == WIN_AIM for c in choices))}</small></div>"
    )


def thresholds_words(win: bool = False) -> str:
    """The mistake labels' thresholds in words (from :data:`~phase10math.play.models.
    MISTAKE_LABELS`); ``win``: with those of the aim "Win the game".

    >>> print(thresholds_words())  # doctest: +NORMALIZE_WHITESPACE
    Labels: best costs nothing; fine under 1 percentage point of chance (0.5 points for the
    score aim); mistake under 5 (2.5); blunder 5 or more (2.5 or more).
    >>> print(thresholds_words(win=True))  # doctest: +NORMALIZE_WHITESPACE
    Labels: best costs nothing; fine under 1 percentage point of chance (0.5 points for the
    score aim); mistake under 5 (2.5); blunder 5 or more (2.5 or more). The aim "Win the
    game": as the chance to make the phase, in percentage points of the chance to win.
    """
    chance, points = MISTAKE_LABELS["complete"], MISTAKE_LABELS["score"]
    parts = []
    for k, ((label, c), (_l, p)) in enumerate(zip(chance, points, strict=True)):
        c_pp, p_pts = f"{float(c * 100):g}", f"{float(p):g}"
        if k == 0:
            unit = " percentage point" + ("" if c_pp == "1" else "s")
            parts.append(f"{label} under {c_pp}{unit} of chance ({p_pts} points for the score aim)")
        else:
            parts.append(f"{label} under {c_pp} ({p_pts})")
    c_pp, p_pts = f"{float(chance[-1][1] * 100):g}", f"{float(points[-1][1]):g}"
    assert MISTAKE_LABELS[WIN_AIM] == chance  # the words below say so
    win_words = (
        ' The aim "Win the game": as the chance to make the phase, in percentage points of the '
        "chance to win."
    )
    return (
        f"Labels: best costs nothing; {'; '.join(parts)}; blunder {c_pp} or more ({p_pts} or more)."
        + (win_words if win else "")
    )


@public
class GameWidget:
    """Play a whole game against computer players: one dropdown per opponent seat (Add /
    Remove), the game length, the dice board with the advisor for your turns, the score sheet
    and a readable log (the groups that made each phase)."""

    MAX_OPPONENTS = 5

    def __init__(
        self,
        opponents: Sequence[str] = ("complete", "greedy"),
        *,
        phases: int = 10,
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        seed: int | None = None,
        top: int = 5,
        style: bool = True,
    ):
        w = ipw()
        check_opponents(opponents, self.MAX_OPPONENTS)
        self.rules, self.layout, self.phases = rules, layout, phases
        self._seed = seed
        self._games = 0
        self.seats = css_classes(w.VBox([]), "p10-seats")
        self.add_button = css_classes(w.Button(description="Add opponent"), "p10-add-seat")
        self.remove_button = css_classes(w.Button(description="Remove"), "p10-remove-seat")
        self.add_button.on_click(lambda _b: self._add_clicked())
        self.remove_button.on_click(lambda _b: self.remove_opponent())
        for o in opponents:
            self.add_opponent(o)
        self.length = css_classes(
            w.Dropdown(
                options=[(f"{k} phase{'s' if k > 1 else ''}", k) for k in (1, 2, 3, 5, 10, 20)],
                value=phases if phases in (1, 2, 3, 5, 10, 20) else 10,
            ),
            "p10-length",
        )
        # the names of the people at this device (pass and play), in seat order
        self.names = css_classes(
            w.Text(value="", placeholder="you, player 2, ... (pass and play)"), "p10-names"
        )
        self.new_game_button = css_classes(
            w.Button(description="New game", button_style="info"), "p10-new-game"
        )
        self.new_game_button.on_click(lambda _b: self._new_game_clicked())
        self._asked_new = False
        self.on_change = None  # called after every change (the app saves the game)
        self.setup_message = css_classes(w.HTML(), "p10-setup-message", "p10-msg")
        self.status = css_classes(w.HTML(), "p10-game-status")
        self.sheet = css_classes(w.HTML(), "p10-scoresheet")
        self.log = css_classes(w.HTML(), "p10-log")
        self.steps_toggle = css_classes(
            w.ToggleButton(description="Show the computers' rolls", value=False), "p10-steps"
        )
        self.steps_toggle.observe(lambda _c: self.refresh(), names="value")
        self.session = self._session(self.opponent_names())
        self.turn = TurnWidget(
            state=self.session.new_turn_state(),
            top=top,
            on_turn_end=self._turn_ended,
            next_turn=self._next_phase,
            style=False,
            win=self._win_line,
        )
        self.turn.view.add_class("p10-game-turn")
        self.turn.game_over = lambda: self.session.over
        self.turn.new_game = self._new_game_clicked
        self._lines: list[str] = []
        self.choices: list[Choice] = []  # every choice of the human turns, see _turn_ended
        self._note_events()
        setup = css_classes(
            w.VBox(
                [
                    w.HTML("<b>Opponents</b> (computer players)"),
                    self.seats,
                    w.HBox([self.add_button, self.remove_button]),
                    w.HBox([w.HTML("<b>Game length</b>"), self.length]),
                    w.HBox(
                        [
                            w.HTML("<b>Names</b> (the people here, in seat order)"),
                            self.names,
                        ]
                    ),
                ]
            ),
            "p10-setup",
        )
        children = [style_widget()] if style else []
        # New game (and its question) at the top, next to the status that says the game is over
        children += [
            css_classes(w.HBox([self.status, self.new_game_button]), "p10-game-top"),
            self.setup_message,
            css_classes(
                w.HBox([self.turn.view, w.VBox([self.sheet, self.log, self.steps_toggle, setup])]),
                "p10-game-cols",
            ),
        ]
        self.view = css_classes(w.VBox(children), "p10-game")
        self.refresh()
        self._default_aim()

    def _repr_mimebundle_(self, **kwargs):
        """The interactive view, and beside it the game as a static picture (``text/html``:
        the status, the score sheet and the board, for pages without a kernel)."""
        bundle = self.view._repr_mimebundle_(**kwargs)
        static = self.status.value + self.sheet.value + board_html(self.turn.state, self.turn.top)
        return {**bundle, "text/html": f"<div class='p10-static-game'>{static}</div>"}

    # ------------------------------------------------------------------ seats
    def opponent_names(self) -> list[str]:
        return [d.value for d in self.seats.children]

    def _add_clicked(self) -> None:
        try:
            self.add_opponent()
        except InvalidRulesError as e:
            self.setup_message.value = error_html(e)

    def add_opponent(self, strategy: str = "complete") -> None:
        """Add a computer seat playing ``strategy`` (one of :data:`OPPONENTS`); refused
        (InvalidRulesError, nothing changes) for another name or past the most seats."""
        w = ipw()
        n = len(self.seats.children)
        check_opponents([strategy], self.MAX_OPPONENTS - n)
        labels = {
            "complete": "aims to make it",
            "score": "aims for points",
            "greedy": "keeps what fits",
            "random": "random",
            PERSON: "a person (pass and play)",
        }
        d = css_classes(
            w.Dropdown(
                options=[(f"{o}: {labels.get(o, o)}", o) for o in OPPONENTS],
                value=strategy,
                description=f"Seat {n + 2}",
            ),
            "p10-seat",
            f"p10-seat-{n}",
        )
        self.seats.children = (*self.seats.children, d)
        if hasattr(self, "setup_message"):
            self.setup_message.value = ""

    def remove_opponent(self) -> None:
        if not self.seats.children:
            self.setup_message.value = error_html("no opponent left to remove (solitaire)")
            return
        self.seats.children = self.seats.children[:-1]
        self.setup_message.value = ""

    def _session(self, opponents: Sequence[str]) -> GameSession:
        seed = None if self._seed is None else self._seed + self._games
        self._games += 1
        given = [x for x in self.names.value.split(",") if x.strip()]
        return GameSession(
            list(opponents),
            phases=self.phases,
            rules=self.rules,
            layout=self.layout,
            seed=seed,
            name=given[0] if given else "you",
            people=given[1:],
        )

    # ------------------------------------------------------------------ control
    def _new_game_clicked(self) -> None:
        """New game asks first while a game is under way (the game would be lost)."""
        s = self.session
        under_way = not s.over and (s.turns or self.turn.state.rolls_done)
        if under_way and not self._asked_new:
            self._asked_new = True
            self.new_game_button.description = "Yes, start a new game"
            self.setup_message.value = (
                "<div class='p10-ask'>&#9888; Start a new game? The game under way is lost. "
                "Press <b>Yes, start a new game</b> to confirm.</div>"
            )
            return
        self.new_game()

    def restore(
        self, session: GameSession, turn: TurnState, choices: Sequence[Choice] = ()
    ) -> None:
        """Show a saved game: its session, the human's turn as it was and the choices of the
        human turns before it."""
        self.session = session
        self.phases = session.game.phases
        self._lines, self.choices = [], list(choices)
        self._note_events()
        self.turn.state = turn
        self.turn._ended = turn.over and not session.waiting
        self._default_aim()
        self.turn.refresh()
        self.refresh()

    def new_game(self) -> None:
        """Start a new game with the opponents and length chosen."""
        self._asked_new = False
        self.new_game_button.description = "New game"
        phases, self.phases = self.phases, self.length.value
        try:
            self.session = self._session(self.opponent_names())
        except InvalidRulesError as e:  # beside the names; the game under way goes on
            self.phases = phases
            self.setup_message.value = error_html(e)
            return
        self._lines = []
        self.choices = []
        self._note_events()
        self.turn.state = self.session.new_turn_state(self.turn.state.objective)
        self._default_aim()
        self.turn.choices = []
        self.turn.message.value = ""
        self.setup_message.value = ""
        self.turn.refresh()
        self.refresh()

    def _turn_ended(self, state: TurnState) -> bool:
        """Score the human's finished turn (Next turn); True while the game goes on."""
        who = self.session.human.name
        turn = 1 + len({c.turn for c in self.choices if c.who == who})  # their turns so far
        try:
            self.session.human_turn_done(state)
        except (InvalidHoldError, InvalidRulesError) as e:
            self.turn.message.value = error_html(e)
            return False
        self.choices.extend(
            dataclasses.replace(c, who=who, turn=turn) for c in self.turn.last_choices
        )
        self._note_events()
        self.refresh()
        return self.session.waiting

    def _default_aim(self) -> None:
        """In a game against one computer player, as long as the solved tables' games (10
        phases), the aim is "Win the game" unless the player chose another; in other games
        the turn's own aim."""
        s = self.session
        against_computer = len(s.game.players) == 2 and len(s.humans) == 1
        solved_length = s.game.phases in {hi for _, hi in shipped_ranges()}
        win = against_computer and solved_length
        self.turn.default_aim(WIN_AIM if win else str(self.turn.state.objective))

    def _win_line(self, state: TurnState) -> WinLine:
        """The aim "Win the game" for the player whose turn it is."""
        s = self.session
        return win_line(s.game, s.current, s.order, state)

    def _next_phase(self) -> Phase:
        if not self.session.waiting:
            raise InvalidHoldError("the game is over: press New game")
        self.turn.state.rng = self.session.rng
        return self.session.human_phase

    def _shown_lines(self) -> list[tuple[bool, str]]:
        """The log's last lines; the computer players' rolls and holds on request."""
        if self.steps_toggle.value:
            return self._lines[-40:]
        return [x for x in self._lines if not x[0]][-14:]

    def _note_events(self) -> None:
        names = [p.name for p in self.session.game.players]
        for e in self.session.new_events():
            steps = e.kind in ("roll", "hold")
            if e.kind in _SHOWN or (steps and e.player not in self.session.humans):
                self._lines.append((steps, event_text(e, names, self.rules)))
        self._lines = self._lines[-200:]

    # ------------------------------------------------------------------ view
    def refresh(self) -> None:
        s = self.session
        if s.over:
            best = max(p.total for p in s.game.players)
            won = [p.name for p in s.game.players if p.total == best]
            self.status.value = (
                f"<div class='p10-panel p10-made-it'>Game over. Winner: "
                f"{html.escape(', '.join(won))} with {best} points. Press New game to play "
                "again.</div>"
                + game_summary_html(self.choices, [s.game.players[h].name for h in s.humans])
            )
        else:
            who = s.human.name
            whose = "your turn" if who == "you" else f"{html.escape(who)}'s turn"
            pass_on = f" Pass the device to {html.escape(who)}." if len(s.humans) > 1 else ""
            self.status.value = (
                f"<div class='p10-panel'>Round {s.game.round}: <b>{whose} at phase "
                f"{s.human_phase.number}</b> ({s.human_phase.text}).{pass_on} When it is "
                "over, press Next turn.</div>"
            )
        self.sheet.value = "<b>Score sheet</b>" + scoresheet_html(s)
        self.log.value = (
            "<div class='p10-panel'><b>What happened</b><ul class='p10-loglist'>"
            + "".join(
                f"<li{' class=p10-step' if steps else ''}>{html.escape(x)}</li>"
                for steps, x in self._shown_lines()
            )
            + "</ul></div>"
        )
        if self.on_change is not None:
            self.on_change()


@public
class PlayApp:
    """The play app: practice a turn (with hint mode and the compare view) or play a whole
    game, on one page that works from 360 px phones to desktops.

    ``PlayApp(session="url").view`` is what ``app/play.ipynb`` shows (served by Voila): the
    state is saved on the server's disk after every action (:mod:`phase10math.play.saved`)
    under the key in the page's address (``?game=KEY``, put there on the first visit), so a
    reload of the same page restores the practice turn and the game. ``session``: None (no
    saving), ``"url"`` (the key from Voila's ``QUERY_STRING``, else a new one) or a key."""

    def __init__(
        self,
        seed: int | None = None,
        game_seed: int | None = None,
        phase: int = 1,
        session: str | None = None,
    ):
        w = ipw()
        self.key = None
        if session == "url":
            query = urllib.parse.parse_qs(os.environ.get("QUERY_STRING", ""))
            given = (query.get("game") or [""])[0]
            self.key = given if saved.KEY.fullmatch(given) else saved.new_key()
        elif session is not None:
            self.key = saved.check_key(session)
        self.practice = TurnWidget(phase=phase, seed=seed, style=False)
        self.game = GameWidget(seed=game_seed, style=False)
        self.tabs = css_classes(w.Tab(children=[self.practice.view, self.game.view]), "p10-tabs")
        self.tabs.set_title(0, "Practice a turn")
        self.tabs.set_title(1, "Play a game")
        self.restored = self.key is not None and self._restore()
        # the key goes into the page's address, so that a reload finds the saved state
        js = (
            f"history.replaceState(null,'',location.pathname+'?game={self.key}')"
            if self.key
            else ""
        )
        self.view = css_classes(
            w.VBox(
                [
                    style_widget(),
                    w.HTML(
                        "<div class='p10-panel'><b>Phase 10 Dice</b> &mdash; tap dice to hold "
                        "them (&#9733; marks the best hold).<span class='p10-keys'> Keys: R "
                        "roll, 1-0 hold a die, H hold best, S stop, U undo, N next turn, Enter "
                        "use a typed roll.</span></div>"
                        + (
                            f'<img src="data:," alt="" style="display:none" onerror="{js}">'
                            if js
                            else ""
                        )
                    ),
                    self.tabs,
                ]
            ),
            "p10-app",
        )
        if self.key is not None:
            self.practice.on_change = self.save
            self.game.on_change = self.save
            self.game.turn.on_change = self.save
            self.tabs.observe(lambda _c: self.save(), names="selected_index")

    def state_dict(self) -> dict:
        return {
            "practice": saved.turn_to_dict(self.practice.state),
            "mode": self.practice.mode.value,
            "hint": self.practice.hint_toggle.value,
            "game": self.game.session.to_dict(),
            "game_turn": saved.turn_to_dict(self.game.turn.state),
            # what the choices cost: the practice turn's, the game turn's, the game's before
            "choices": {
                "practice": saved.choices_to_list(self.practice.choices),
                "game_turn": saved.choices_to_list(self.game.turn.choices),
                "game": saved.choices_to_list(self.game.choices),
            },
            "tab": self.tabs.selected_index,
        }

    def save(self) -> None:
        """Save the state under the session key (every action calls it)."""
        if self.key is not None:
            saved.save(self.key, self.state_dict())

    def _restore(self) -> bool:
        """Restore the saved state of this key; False (a fresh start) without one."""
        data = saved.load(self.key)
        if data is None:
            return False
        try:
            practice = saved.turn_from_dict(data["practice"])
            session = GameSession.from_dict(data["game"])
            turn = saved.turn_from_dict(data["game_turn"], rng=session.rng)
            choices = {k: saved.choices_from_list(v) for k, v in data.get("choices", {}).items()}
        except Exception as e:  # a damaged or old file: start afresh
            if saved.restore_error(e):
                return False
            raise
        self.practice.state = practice
        self.practice.phase_select.value = practice.phase.number or 1  # equal: no new turn
        self.practice.objective_select.value = str(practice.objective)
        self.practice.mode.value = data.get("mode", "roll")
        self.practice.hint_toggle.value = bool(data.get("hint", False))
        self.practice.choices = choices.get("practice", [])
        self.practice.refresh()
        self.game.turn.choices = choices.get("game_turn", [])
        self.game.restore(session, turn, choices.get("game", []))
        self.tabs.selected_index = int(data.get("tab") or 0)
        return True

    def _repr_mimebundle_(self, **kwargs):
        return self.view._repr_mimebundle_(**kwargs)
