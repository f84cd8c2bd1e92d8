"""Interactive play in Jupyter (ipywidgets): a turn with the hold advisor, typed physical
rolls, and a whole game against computer strategies.

The state of a turn lives in :class:`TurnState`, a plain object without widgets (seeded RNG,
dice in layout order, held dice, roll count); :class:`TurnWidget` is only its view and
controller, so tests drive the widgets (``button.click()``, ``text.value = ...``) and check
the state and the HTML the advisor panel shows.

Every element has stable DOM classes for browser tests: ``p10-die`` (and ``p10-die-<i>``,
``p10-held``), ``p10-roll``, ``p10-stop``, ``p10-best``, ``p10-new``, ``p10-advice``,
``p10-status``, ``p10-mode``, ``p10-entry``, ``p10-enter``, ``p10-message``.

>>> st = TurnState(phase=1, seed=7)
>>> st.roll()
>>> st.rolls_done, st.rolls_left, len(st.dice)
(1, 2, 10)
>>> try:
...     st.enter("11 10 10 W 5 6 7 1 2 3")
... except ValueError as e:
...     print(str(e)[:24])
die 1: cannot read '11';
>>> st.rolls_done
1
"""

from __future__ import annotations

import html
import random
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

from phase10math.advisor import Advice, HoldOption, advise, turn_solution
from phase10math.dice import COLOR_NAMES, Face, Layout, match_roll, parse_faces
from phase10math.errors import InvalidDiceError, InvalidHoldError, Phase10MathError
from phase10math.exact import percent
from phase10math.layouts import DEFAULT_LAYOUT
from phase10math.meld import Meld, explain
from phase10math.phases import PHASES, Phase
from phase10math.phases import phase as as_phase
from phase10math.rules import DEFAULT_RULES, Rules

#: Background color of a die face, per color code (None: color not known).
DIE_COLORS = {"r": "#c62828", "o": "#ef6c00", "b": "#1565c0", "g": "#2e7d32", None: "#616161"}
OBJECTIVES = {"complete": "P(complete)", "score": "E[score]"}


def face_label(f: Face | None) -> str:
    """What a die button shows: the number, ``W`` for a wild, ``?`` before the first roll."""
    if f is None:
        return "?"
    return "W" if f.is_wild else str(f.value)


def value_text(x: Fraction, objective: str) -> str:
    """A hold's value as shown in the advisor panel: a percentage or expected points."""
    return percent(x) if objective == "complete" else f"{float(x):.3f} pts"


def split_faces(text: str) -> list[str]:
    """Split typed faces at spaces and commas, joining a separate color word to its number
    (``"10 o, W green 7"`` -> ``['10o', 'Wgreen', '7']``); ``"11"`` stays one (bad) face.
    """
    colors = set(COLOR_NAMES) | set(COLOR_NAMES.values())
    out: list[str] = []
    for tok in text.replace(",", " ").split():
        if (
            out
            and tok.lower() in colors
            and out[-1][-1:].isalnum()
            and out[-1].lower()[-1] in "0123456789w"
        ):
            out[-1] += tok
        else:
            out.append(tok)
    return out


def _assign(faces: Sequence[Face], dice: Sequence) -> list[int] | None:
    """Which of ``dice`` shows each face (a perfect matching), or None."""
    owner: dict[int, int] = {}

    def can(die, f: Face) -> bool:
        return any(_same_face(f, g) for g in die.faces)

    def augment(fi: int, seen: set[int]) -> bool:
        for di, die in enumerate(dice):
            if di not in seen and can(die, faces[fi]):
                seen.add(di)
                if di not in owner or augment(owner[di], seen):
                    owner[di] = fi
                    return True
        return False

    if len(faces) != len(dice) or not all(augment(fi, set()) for fi in range(len(faces))):
        return None
    where = [0] * len(faces)
    for di, fi in owner.items():
        where[fi] = di
    return where


def error_html(e: Exception | str) -> str:
    """A refusal or bad-input message, shown in red beside the input."""
    return f"<span style='color:#b00020'>{html.escape(str(e), quote=False)}</span>"


def _same_face(f: Face, g: Face) -> bool:
    return f.value == g.value and (f.color is None or g.color is None or f.color == g.color)


class TurnState:
    """One turn of Phase 10 Dice without any widgets.

    ``dice[i]`` is the face die ``i`` of the layout shows (None before the first roll),
    ``held`` the dice the player keeps for the next roll, ``aside`` (sticky holds only) the
    dice set aside at an earlier roll, which cannot be taken back. A method that refuses
    (bad input, a move the rules forbid) raises a :class:`Phase10MathError` and changes
    nothing.
    """

    def __init__(
        self,
        phase: Phase | int | str = 1,
        objective: str = "complete",
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        seed: int | None = None,
        rng: random.Random | None = None,
    ):
        if objective not in OBJECTIVES:
            raise InvalidHoldError(f"objective {objective!r}: use 'complete' or 'score'")
        self.phase = as_phase(phase)
        self.objective = objective
        self.rules = rules
        self.layout = layout
        self.rng = rng if rng is not None else random.Random(seed)
        self._advice: dict = {}
        self.new_turn()

    # ------------------------------------------------------------------ state
    def new_turn(
        self, phase: Phase | int | str | None = None, objective: str | None = None
    ) -> None:
        """Start a fresh turn (optionally at another phase or objective)."""
        if phase is not None:
            self.phase = as_phase(phase)
        if objective is not None:
            if objective not in OBJECTIVES:
                raise InvalidHoldError(f"objective {objective!r}: use 'complete' or 'score'")
            self.objective = objective
        self.dice: list[Face | None] = [None] * len(self.layout.dice)
        self.held: set[int] = set()
        self.aside: set[int] = set()
        self.rolls_done = 0
        self.stopped = False
        self.typed = False  # faces typed in: the advisor matches them to the dice itself
        # one entry per roll: the ten faces after it and the dice kept (not rolled) at it
        self.history: list[tuple[tuple[Face, ...], frozenset[int]]] = []

    @property
    def n_dice(self) -> int:
        return len(self.layout.dice)

    @property
    def rolls_left(self) -> int:
        return self.rules.rolls - self.rolls_done

    @property
    def over(self) -> bool:
        """The turn has ended: three rolls made, or the player stopped."""
        return self.rolls_done >= self.rules.rolls or self.stopped

    @property
    def faces(self) -> tuple[Face, ...]:
        return tuple(f for f in self.dice if f is not None)

    def held_faces(self) -> tuple[Face, ...]:
        return tuple(self.dice[i] for i in sorted(self.held))

    def snapshot(self) -> tuple:
        """Everything that defines the turn (to check that a refused move changed nothing)."""
        return (
            self.phase,
            self.objective,
            tuple(self.dice),
            frozenset(self.held),
            frozenset(self.aside),
            self.rolls_done,
            self.stopped,
            self.typed,
            tuple(self.history),
        )

    # ------------------------------------------------------------------ moves
    def roll(self) -> None:
        """Roll: all ten dice at the first roll, then every die not held."""
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        if self.rolls_done and len(self.held) == self.n_dice:
            raise InvalidHoldError("every die is held: release some dice or stop")
        first = self.rolls_done == 0
        for i, die in enumerate(self.layout.dice):
            if first or i not in self.held:
                self.dice[i] = self.rng.choice(die.faces)
        self._rolled(set() if first else set(self.held), typed=False)

    def _rolled(self, kept: set[int], typed: bool) -> None:
        if self.rules.holds == "sticky":
            self.aside = set(kept)
        self.held = set(kept)
        self.rolls_done += 1
        self.typed = typed
        self.history.append((tuple(self.dice), frozenset(kept)))

    def toggle(self, i: int) -> None:
        """Hold die ``i`` or release it."""
        if not 0 <= i < self.n_dice:
            raise InvalidHoldError(f"there is no die {i + 1}; dice are 1 to {self.n_dice}")
        if self.rolls_done == 0:
            raise InvalidHoldError("roll first")
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        if i in self.aside:
            raise InvalidHoldError(
                f"die {i + 1} ({self.dice[i]}) was set aside at an earlier "
                "roll; with sticky holds it stays set aside"
            )
        self.held ^= {i}

    def hold(self, keep: Sequence[Face | str] | str) -> None:
        """Hold exactly the dice showing these faces (e.g. the advisor's best hold)."""
        if self.rolls_done == 0 or self.over:
            raise InvalidHoldError("there is no roll to hold dice from")
        keep = parse_faces(keep) if isinstance(keep, str) else parse_faces(list(keep))
        chosen: set[int] = set()
        for f in keep:
            # prefer dice already set aside, then dice already held, then the rest
            order = sorted(
                range(self.n_dice), key=lambda i: (i not in self.aside, i not in self.held, i)
            )
            i = next((i for i in order if i not in chosen and self.dice[i] == f), None)
            if i is None:
                i = next(
                    (i for i in order if i not in chosen and _same_face(f, self.dice[i])), None
                )
            if i is None:
                raise InvalidHoldError(
                    f"cannot hold {f}: the dice show {' '.join(map(str, self.dice))}"
                )
            chosen.add(i)
        if not self.aside <= chosen:
            raise InvalidHoldError("with sticky holds the dice set aside earlier stay set aside")
        self.held = chosen

    def stop(self) -> None:
        """End the turn now with the dice as they are."""
        if self.rolls_done == 0:
            raise InvalidHoldError("roll first")
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        self.stopped = True

    def enter(self, text: str | Sequence[Face | str]) -> None:
        """Use a physical roll: the ten faces in front of the player, typed in.

        After the first roll, the dice held must be among the faces typed (they were not
        rolled). Raises InvalidDiceError with a clear message, leaving the turn unchanged,
        when the faces cannot be rolled with the layout.
        """
        if self.over:
            raise InvalidHoldError("the turn is over: start a new turn")
        faces = parse_faces(split_faces(text) if isinstance(text, str) else list(text))
        if len(faces) != self.n_dice:
            raise InvalidDiceError(
                f"type the {self.n_dice} dice in front of you (e.g. "
                f"10o 10r W 5g ...); got {len(faces)}"
            )
        owners = match_roll(faces, self.layout)
        if self.rolls_done and len(self.held) == self.n_dice:
            raise InvalidHoldError("every die is held: release some dice or stop")
        if self.phase.uses_color:
            missing = [i for i, f in enumerate(faces, 1) if f.color is None]
            if missing:
                raise InvalidDiceError(
                    f"die {missing[0]} ({faces[missing[0] - 1]}) has no color; phase "
                    f"{self.phase.number} counts colors: write r/o/b/g after each number "
                    "(e.g. 10o, Wg)"
                )
        new: list[Face | None] = [None] * self.n_dice
        kept: set[int] = set()
        if not self.rolls_done:
            for f, di in zip(faces, owners, strict=True):
                new[di] = f
        else:
            # the dice held stay where they are; the other faces go on the other dice
            rest = list(faces)
            for i in sorted(self.held):
                j = next((j for j, f in enumerate(rest) if f == self.dice[i]), None)
                if j is None:
                    j = next((j for j, f in enumerate(rest) if _same_face(f, self.dice[i])), None)
                if j is None:
                    raise InvalidDiceError(
                        f"you hold {self.dice[i]} but it is not among the faces typed; the "
                        "dice held are not rolled again (release it first)"
                    )
                rest.pop(j)
                new[i] = self.dice[i]
                kept.add(i)
            free = [d for d in range(self.n_dice) if d not in kept]
            where = _assign(rest, [self.layout.dice[d] for d in free])
            if where is None:
                raise InvalidDiceError(
                    "the faces typed cannot all show on the dice that were rolled (the dice "
                    "not held): check the faces"
                )
            for f, k in zip(rest, where, strict=True):
                new[free[k]] = f
        old = self.snapshot()
        self.dice = new
        self._rolled(kept, typed=True)
        if not self.over:
            try:
                self.advice()  # the advisor may still refuse (e.g. ambiguous faces)
            except Phase10MathError:
                self._restore(old)
                raise

    def _restore(self, snap: tuple) -> None:
        (
            self.phase,
            self.objective,
            dice,
            held,
            aside,
            self.rolls_done,
            self.stopped,
            self.typed,
            history,
        ) = snap
        self.dice, self.held, self.aside = list(dice), set(held), set(aside)
        self.history = list(history)

    # ------------------------------------------------------------------ analysis
    def advice(self) -> Advice | None:
        """The advisor's ranking of holds for the dice in front of the player (None before
        the first roll and after the turn)."""
        if self.rolls_done == 0 or self.over:
            return None
        key = (
            self.phase,
            self.objective,
            self.rules,
            self.layout,
            tuple(self.dice),
            self.rolls_left,
            frozenset(self.aside),
            self.typed,
        )
        if key not in self._advice:
            if len(self._advice) > 64:
                self._advice.clear()
            aside = [self.dice[i] for i in sorted(self.aside)]
            self._advice[key] = advise(
                self.dice,
                self.rolls_left,
                self.phase,
                self.objective,
                self.rules,
                self.layout,
                set_aside=aside,
                by_die=not self.typed,
            )
        return self._advice[key]

    def current_option(self) -> tuple[int, HoldOption] | None:
        """The rank (1 = best) and option of the hold the player has chosen now."""
        adv = self.advice()
        if adv is None:
            return None
        gid = self._hold_state()
        for rank, o in enumerate(adv.options, 1):
            if o.state == gid:
                return rank, o
        want = Counter(f.value for f in self.held_faces())  # fallback: by numbers
        for rank, o in enumerate(adv.options, 1):
            if Counter(f.value for f in o.keep) == want:
                return rank, o
        return None

    def _hold_state(self) -> int:
        sol = turn_solution(self.phase, self.objective, self.rules, self.layout)
        space, proj = sol.space, sol.space.projection
        counts = [[0] * len(t.faces) for t in space.types]
        for i in self.held:
            die = self.layout.dice[i]
            w = Counter(proj.key(f) for f in die.faces)
            t = next(
                t
                for t, typ in enumerate(space.types)
                if dict(zip(typ.faces, typ.weights, strict=True)) == w
            )
            f = self.dice[i]
            f = next(g for g in die.faces if _same_face(f, g))
            counts[t][space.types[t].faces.index(proj.key(f))] += 1
        return space.state_id(counts)

    def phase_value(self) -> Fraction:
        """The phase's value before the turn with optimal play (probability or points)."""
        return turn_solution(self.phase, self.objective, self.rules, self.layout).value()

    def result(self) -> Meld | None:
        """How the final dice meld (None while the turn goes on)."""
        if not self.over:
            return None
        return explain(self.phase, list(self.dice), self.rules)


# ====================================================================== widgets


def _ipw():
    import ipywidgets

    return ipywidgets


def _classes(widget, *names: str):
    for n in names:
        widget.add_class(n)
    return widget


def advice_html(state: TurnState, top: int = 6) -> str:
    """The advisor panel: the best holds with exact values, the player's hold highlighted."""
    adv = state.advice()
    if state.rolls_done == 0:
        v = state.phase_value()
        what = "chance to complete" if state.objective == "complete" else "expected score"
        return (
            f"<b>Roll to start.</b> With optimal holds the {what} of phase "
            f"{state.phase.number} this turn is <b>{value_text(v, state.objective)}</b> "
            f"<code>= {v}</code>."
        )
    if adv is None:
        return _result_html(state)
    cur = state.current_option()
    unit = OBJECTIVES[state.objective]
    rows = []
    shown = list(enumerate(adv.options[:top], 1))
    if cur is not None and cur[0] > top:
        shown.append(cur)
    for rank, o in shown:
        mine = cur is not None and cur[0] == rank
        style = ' style="background:#fff3b0;font-weight:bold"' if mine else ""
        cls = ' class="p10-current"' if mine else ""
        mark = " &larr; your hold" if mine else ""
        best = "best" if o.best else ("= best" if o.tie else "")
        rows.append(
            f"<tr{cls}{style}><td>{rank}</td><td>{html.escape(o.keep_text)}</td>"
            f"<td>{o.rerolled}</td><td>{value_text(o.value, state.objective)}</td>"
            f"<td><code>{o.value}</code></td><td>{best}{mark}</td></tr>"
        )
    if cur is None:
        mine_line = "Your hold is not one of the possible holds."
    else:
        rank, o = cur
        gap = adv.best.value - o.value
        verdict = (
            "the best hold"
            if rank == 1
            else "as good as the best"
            if o.tie
            else f"{value_text(gap, state.objective)} below the best"
        )
        mine_line = (
            f"Your hold ({html.escape(o.keep_text)}): "
            f"<b>{value_text(o.value, state.objective)}</b> <code>= {o.value}</code>,"
            f" rank {rank} of {len(adv.options)}, {verdict}."
        )
    head = (
        f"<tr><th>rank</th><th>keep</th><th>reroll</th><th>{unit}</th><th>exact</th><th></th></tr>"
    )
    return (
        f"<div><b>Best holds</b> ({state.rolls_left} roll(s) left, "
        f"{unit} with optimal play from here)</div>"
        f"<table style='border-collapse:collapse' cellpadding='3'>{head}{''.join(rows)}"
        f"</table><div>Advisor: {html.escape(adv.reason)}</div><div>{mine_line}</div>"
    )


def _result_html(state: TurnState) -> str:
    m = state.result()
    if m is None:
        return ""
    if not m.complete:
        return f"<b>Turn over:</b> phase {state.phase.number} ({state.phase.text}) not completed."
    groups = "".join(
        f"<li>{g.kind} of {g.size}: "
        + " ".join(
            html.escape(str(f)) + (f"(={s})" if f.is_wild and s is not None else "")
            for f, s in zip(g.dice, g.stands_for, strict=False)
        )
        + "</li>"
        for g in m.groups
    )
    return (
        f"<b>Turn over: phase {state.phase.number} complete, score {m.score}.</b><ul>{groups}</ul>"
    )


class TurnWidget:
    """One turn with the advisor: ten colored dice (click to hold), Roll, Stop, Hold the best,
    a mode to type a physical roll, and the advisor panel.

    ``widget.view`` is the ipywidgets box (the object displays as it in Jupyter);
    ``widget.state`` the :class:`TurnState`. The game widget plugs in with two hooks:
    ``on_turn_end(state)`` is called once when a turn ends, and ``next_turn()`` (if given)
    gives the phase of the next turn - the "New turn" button becomes "Next turn" and the phase
    menu is hidden.
    """

    def __init__(
        self,
        phase: Phase | int | str = 1,
        objective: str = "complete",
        rules: Rules = DEFAULT_RULES,
        layout: Layout = DEFAULT_LAYOUT,
        seed: int | None = None,
        top: int = 6,
        state: TurnState | None = None,
        on_turn_end: Callable[[TurnState], None] | None = None,
        next_turn: Callable[[], Phase | int] | None = None,
    ):
        w = _ipw()
        self.state = state or TurnState(phase, objective, rules, layout, seed=seed)
        self.top = top
        self.on_turn_end = on_turn_end
        self.next_turn = next_turn
        self.dice_buttons = []
        for i in range(self.state.n_dice):
            b = _classes(
                w.Button(
                    description="?",
                    tooltip=f"die {i + 1}",
                    layout=w.Layout(width="56px", height="56px", margin="3px"),
                ),
                "p10-die",
                f"p10-die-{i}",
            )
            b.style.font_size = "20px"
            b.style.font_weight = "bold"
            b.style.text_color = "white"
            b.on_click(lambda _b, i=i: self._do(lambda: self.state.toggle(i)))
            self.dice_buttons.append(b)
        self.roll_button = _classes(
            w.Button(description="Roll", button_style="primary", icon="dice"), "p10-roll"
        )
        self.stop_button = _classes(w.Button(description="Stop (keep all)"), "p10-stop")
        self.best_button = _classes(w.Button(description="Hold the best"), "p10-best")
        self.new_button = _classes(
            w.Button(description="Next turn" if next_turn else "New turn"), "p10-new"
        )
        self.roll_button.on_click(lambda _b: self._do(self.state.roll))
        self.stop_button.on_click(lambda _b: self._do(self.state.stop))
        self.best_button.on_click(lambda _b: self._do(self._hold_best))
        self.new_button.on_click(lambda _b: self._do(self._new_turn))

        self.mode = _classes(
            w.ToggleButtons(
                options=[("Roll the dice", "roll"), ("Type a roll", "type")], value="roll"
            ),
            "p10-mode",
        )
        self.entry = _classes(
            w.Text(
                placeholder="ten faces, e.g. 10o 10r Wg 5g 6b 7r 8o 9r 1g 2o",
                layout=w.Layout(width="420px"),
            ),
            "p10-entry",
        )
        self.enter_button = _classes(w.Button(description="Use this roll"), "p10-enter")
        self.enter_button.on_click(lambda _b: self._enter())
        self.message = _classes(w.HTML(value=""), "p10-message")
        self.entry_box = w.HBox([self.entry, self.enter_button, self.message])

        self.phase_select = _classes(
            w.Dropdown(
                options=[(f"{n}: {PHASES[n].text}", n) for n in sorted(PHASES)],
                value=self.state.phase.number or 1,
                description="Phase",
            ),
            "p10-phase",
        )
        self.objective_select = _classes(
            w.ToggleButtons(
                options=[("Complete the phase", "complete"), ("Score most", "score")],
                value=self.state.objective,
            ),
            "p10-objective",
        )
        self.phase_select.observe(self._phase_changed, names="value")
        self.objective_select.observe(self._objective_changed, names="value")
        self.mode.observe(lambda _c: self.refresh(), names="value")

        self.status = _classes(w.HTML(), "p10-status")
        self.advice = _classes(w.HTML(), "p10-advice")
        settings = [self.objective_select, self.mode]
        if next_turn is None:
            settings.insert(0, self.phase_select)
        self.view = _classes(
            w.VBox(
                [
                    w.HBox(settings),
                    self.status,
                    w.HBox(self.dice_buttons),
                    w.HBox([self.roll_button, self.best_button, self.stop_button, self.new_button]),
                    self.entry_box,
                    self.advice,
                ]
            ),
            "p10-turn",
        )
        self._ended = False
        self.refresh()

    # ------------------------------------------------------------------ display
    def _repr_mimebundle_(self, **kwargs):
        return self.view._repr_mimebundle_(**kwargs)

    # ------------------------------------------------------------------ control
    def _do(self, action: Callable[[], None]) -> None:
        """Run a move; a refused move shows its message and changes nothing."""
        try:
            action()
        except Phase10MathError as e:
            self.message.value = error_html(e)
        else:
            self.message.value = ""
        self.refresh()

    def _hold_best(self) -> None:
        adv = self.state.advice()
        if adv is None:
            raise InvalidHoldError("there is no roll to advise on")
        self.state.hold(adv.best.keep)

    def _enter(self) -> None:
        text = self.entry.value.strip()
        if not text:
            self.message.value = error_html("type the ten faces first")
            return
        self._do(lambda: self.state.enter(text))

    def _phase_changed(self, _change) -> None:
        """A new phase starts a new turn - refused (and the menu put back) while a turn is
        under way, and always in a game, where the game sets the phase."""
        st = self.state
        current = st.phase.number or 1
        if self.phase_select.value == current:
            return
        if self.next_turn is not None or (st.rolls_done and not st.over):
            why = (
                "in a game the phase is set by the game"
                if self.next_turn is not None
                else "finish this turn first (roll, or Stop): a new phase starts a new turn"
            )
            self.phase_select.value = current  # observed again: equal, so nothing happens
            self.message.value = error_html(why)
            return
        self._do(lambda: self.state.new_turn(self.phase_select.value))

    def _objective_changed(self, _change) -> None:
        """Another objective changes the advice, not the turn."""
        self.state.objective = self.objective_select.value
        self.refresh()

    def _new_turn(self) -> None:
        if self.next_turn is None:
            self.state.new_turn()
            return
        if not self.state.over and self.state.rolls_done:
            raise InvalidHoldError("finish this turn first (roll, or Stop)")
        self.state.new_turn(self.next_turn())

    # convenience for code and tests
    def click_die(self, i: int) -> None:
        self.dice_buttons[i].click()

    def roll(self) -> None:
        self.roll_button.click()

    def type_roll(self, text: str) -> None:
        self.mode.value = "type"
        self.entry.value = text
        self.enter_button.click()

    # ------------------------------------------------------------------ view
    def refresh(self) -> None:
        st = self.state
        for i, b in enumerate(self.dice_buttons):
            f = st.dice[i]
            b.description = face_label(f)
            b.style.button_color = DIE_COLORS[f.color if f is not None else None]
            held, aside = i in st.held, i in st.aside
            b.layout.border = (
                "4px dashed black"
                if aside
                else "4px solid black"
                if held
                else "4px solid transparent"
            )
            b.tooltip = (
                f"die {i + 1}: "
                + (
                    f"{face_label(f)} {COLOR_NAMES.get(f.color, '')}".strip()
                    if f is not None
                    else "not rolled"
                )
                + (" (set aside)" if aside else " (held)" if held else "")
            )
            if held:
                b.add_class("p10-held")
            else:
                b.remove_class("p10-held")
            b.disabled = st.rolls_done == 0 or st.over
        typing = self.mode.value == "type"
        self.entry_box.layout.display = "" if typing else "none"
        self.roll_button.disabled = st.over or typing
        self.stop_button.disabled = st.over or st.rolls_done == 0
        self.best_button.disabled = st.over or st.rolls_done == 0
        roll_name = ["first", "second", "third"]
        if st.rolls_done == 0:
            step = "press Roll" if not typing else "type the ten faces of your first roll"
        elif st.over:
            step = "the turn is over"
        else:
            step = (
                f"after the {roll_name[min(st.rolls_done, 3) - 1]} roll: click dice to "
                f"hold them, then {'type the next roll' if typing else 'Roll'} "
                f"({st.rolls_left} left)"
            )
        self.status.value = (
            f"<b>Phase {st.phase.number}</b>: {st.phase.text} &mdash; "
            f"{step}. <i>{st.rules.holds} holds</i>"
        )
        try:
            self.advice.value = advice_html(st, self.top)
        except Phase10MathError as e:
            self.advice.value = error_html(e)
        if st.over and not self._ended:
            self._ended = True
            if self.on_turn_end is not None:
                self.on_turn_end(st)
        elif not st.over:
            self._ended = False
