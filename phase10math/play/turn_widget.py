"""The turn widget: one turn of Phase 10 Dice on a dice board with the advisor, in Jupyter
(ipywidgets). :class:`TurnWidget` builds the controls and makes the moves; its view half
(:class:`~phase10math.play.turn_view.TurnView`) shows the state after each; the state itself
is a :class:`~phase10math.play.models.TurnState`, a plain object without widgets, so tests
drive the widgets (``button.click()``, ``text.value = ...``) and check the state and the HTML
the advisor panel shows (:mod:`phase10math.play.panels`).

Every element has stable DOM classes for browser tests: ``p10-die`` (and ``p10-die-<i>``,
``p10-held``, ``p10-suggest``: a die the aim's best hold keeps), ``p10-roll``, ``p10-stop``,
``p10-best``, ``p10-new``, ``p10-undo``, ``p10-advice``, ``p10-status``, ``p10-mode``,
``p10-layout`` (the dice set), ``p10-entry``, ``p10-enter``, ``p10-message`` (refusals of the
buttons and dice), ``p10-entry-message`` (refusals of a typed roll), ``p10-reveal`` (hint
mode), ``p10-compare``, ``p10-busy``, ``p10-confirm`` (a question before a move, with
``p10-confirm-yes`` / ``p10-confirm-no``), and for typed faces that fit the dice in several
ways ``p10-which`` with ``p10-pick-face-<i>`` (tap the face now shown as die i) and
``p10-pick-die-<j>`` (it lies on die j, shown with its six faces).

>>> w = TurnWidget(phase=1, seed=7, style=False)
>>> w.roll()
>>> w.state.rolls_done, w.roll_button.description.startswith("Roll")
(1, True)
"""

from __future__ import annotations

import html
from collections.abc import Callable

from phase10math._base.checks import public
from phase10math.dice.faces import Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT, LAYOUTS, get_layout
from phase10math.dice.phases import PHASES, Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.errors import InvalidHoldError, Phase10MathError, ResultOutOfRangeError
from phase10math.play import aims
from phase10math.play import models as pm
from phase10math.play.models import WIN_AIM, TurnState
from phase10math.play.panels import board_html, error_html, preview_html
from phase10math.play.style import css_classes, ipw, style_widget
from phase10math.play.turn_view import TurnView
from phase10math.play.win import WinLine
from phase10math.turn.thumb import RuleHint, check_for_turn, hint_for_turn

#: The dice sets in the layout menu.
LAYOUT_LABELS = {
    "recorded": "recorded (10 different dice)",
    "compact": "compact (5 kinds of dice)",
}


def _layout_name(layout: Layout) -> str:
    """The menu name of a layout: a built-in name (the default set is ``recorded``) or a layout
    with the same dice as one, else ``custom``."""
    for name, lay in LAYOUTS.items():
        if lay == layout or lay.fingerprint() == layout.fingerprint():
            return name
    return "custom"


@public
class TurnWidget(TurnView):
    """One turn with the advisor on one dice board: ten dice (click or keys 1-0 to hold, the
    best hold starred), Roll (R), Hold best (H), Stop (S), New/Next turn (N), a mode to type a
    physical roll (only the dice rolled; Enter submits), hint mode (choose first, then Check
    my hold), a compare view, and the advisor panel in plain words.

    ``widget.view`` is the ipywidgets box (the object displays as it in Jupyter);
    ``widget.state`` the :class:`TurnState`. The game widget plugs in with two hooks:
    ``on_turn_end(state)`` is called once when a turn ends, and ``next_turn()`` (if given)
    gives the phase of the next turn - the "New turn" button becomes "Next turn" and the phase
    menu is hidden. Refusals show next to the control that caused them: ``message`` under the
    dice and buttons, ``entry_message`` under the typed roll.
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
        hint: bool = False,
        style: bool = True,
        win: Callable[[TurnState], WinLine] | None = None,
    ):
        w = ipw()
        self.state = state or TurnState(phase, objective, rules, layout, seed=seed)
        # the aim "Win the game" (a game's hook: the chance to win of the turn, or why not)
        self.win = win
        self.aim_win = False
        self._win: WinLine | Phase10MathError | None = None  # this turn's, at each refresh
        # the player chose an aim on the menu: a game's default aim no longer changes it
        self.aim_chosen = False
        self._default_aiming = False
        self.top = top
        self.on_turn_end = on_turn_end
        self.on_change: Callable[[], None] | None = None  # after every refresh (the app saves)
        self.next_turn = next_turn
        # a game plugs these in: whether the game is over (the board then offers New game,
        # which calls new_game)
        self.game_over: Callable[[], bool] | None = None
        self.new_game: Callable[[], None] | None = None
        self.revealed = False
        # hint mode's place for a rule of thumb: a function of the turn giving a short hint
        # in words (or None), shown while the answer is hidden
        self.rule_of_thumb: Callable[[TurnState], str | None] | None = hint_for_turn
        # and once the player checked the hold: the rule's hold beside the best, and what it
        # costs where they differ (exact)
        self.rule_of_thumb_check: Callable[[TurnState], RuleHint | None] | None = check_for_turn
        # what each choice of this turn cost (see _note_choice)
        self.choices: list[pm.Choice] = []
        self._choices_before: list = []  # the choices before the move that Undo takes back
        self._build_buttons(w)
        self._build_entry(w, hint)
        self._build_menus(w, win)
        self._build_compare(w)
        self._build_layout(w, style, next_turn)

    def _build_buttons(self, w) -> None:
        """The ten dice, the action buttons and the question asked before a move."""
        self.dice_buttons = []
        for i in range(self.state.n_dice):
            b = css_classes(
                w.Button(description="?", tooltip=f"die {i + 1}"), "p10-die", f"p10-die-{i}"
            )
            b.on_click(lambda _b, i=i: self._do(lambda: self.state.toggle(i)))
            self.dice_buttons.append(b)
        self.roll_button = css_classes(
            w.Button(description="Roll", button_style="primary", tooltip="Roll (R)"), "p10-roll"
        )
        self.stop_button = css_classes(
            w.Button(description="Stop & score", tooltip="S"), "p10-stop"
        )
        self.best_button = css_classes(w.Button(description="Hold best", tooltip="H"), "p10-best")
        self.new_button = css_classes(
            w.Button(description="Next turn" if self.next_turn else "New turn", tooltip="N"),
            "p10-new",
        )
        self.reveal_button = css_classes(
            w.Button(description="Check my hold", button_style="warning", tooltip="C"),
            "p10-reveal",
        )
        self.roll_button.on_click(lambda _b: self._do(self._roll))
        self.stop_button.on_click(lambda _b: self._do(self._stop))
        self.best_button.on_click(lambda _b: self._do(self._hold_best))
        self.new_button.on_click(lambda _b: self._do(self._new_turn))
        self.reveal_button.on_click(lambda _b: self._reveal())
        self.undo_button = css_classes(w.Button(description="Undo", tooltip="U"), "p10-undo")
        self.undo_button.on_click(lambda _b: self._do(self._undo))
        # a move that can lose the turn asks first: the question and its two answers
        self.pending: Callable[[], None] | None = None
        self.confirm_text = css_classes(w.HTML(), "p10-confirm-text")
        self.confirm_yes = css_classes(
            w.Button(description="Yes", button_style="danger"), "p10-confirm-yes"
        )
        self.confirm_no = css_classes(w.Button(description="Cancel"), "p10-confirm-no")
        self.confirm_yes.on_click(lambda _b: self._answer(True))
        self.confirm_no.on_click(lambda _b: self._answer(False))
        self.confirm_box = css_classes(
            w.VBox([self.confirm_text, w.HBox([self.confirm_yes, self.confirm_no])]),
            "p10-confirm",
        )
        self.confirm_box.layout.display = "none"

    def _build_entry(self, w, hint: bool) -> None:
        """The modes (roll here / type real dice; advice / hint mode), the typed roll with its
        tap pad, and the "which die is this?" picker."""
        self.mode = css_classes(
            w.ToggleButtons(
                options=[("Roll here", "roll"), ("Type real dice", "type")], value="roll"
            ),
            "p10-mode",
        )
        self.hint_toggle = css_classes(
            w.ToggleButtons(options=[("Show advice", False), ("Hint mode", True)], value=hint),
            "p10-hint",
        )
        self.entry = css_classes(w.Text(placeholder="", continuous_update=True), "p10-entry")
        # the faces typed so far, as chips (a face not read yet: a red ?), while typing
        self.preview = css_classes(w.HTML(), "p10-preview")
        self.entry.observe(lambda _c: self._preview(), names="value")
        self.entry_label = css_classes(w.HTML(), "p10-entry-label")
        self.enter_button = css_classes(
            w.Button(description="Use roll", tooltip="Enter"), "p10-enter"
        )
        self.enter_button.on_click(lambda _b: self._enter())
        self.message = css_classes(w.HTML(value=""), "p10-message", "p10-msg")
        self.entry_message = css_classes(w.HTML(value=""), "p10-entry-message", "p10-msg")
        self.picker = css_classes(w.HTML(), "p10-picker")
        self._build_which(w)
        # a tap pad beside the text box: a number (or W), then its color letter
        pad = []
        for tok in [*(str(k) for k in range(1, 11)), "W", "r", "o", "b", "g", "\u232b"]:
            b = css_classes(w.Button(description=tok), "p10-pad", f"p10-pad-{ord(tok[-1])}")
            b.on_click(lambda _b, tok=tok: self._pad(tok))
            pad.append(b)
        self.pad = css_classes(w.HBox(pad), "p10-pad-box")
        self.entry_box = css_classes(
            w.VBox(
                [
                    self.entry_label,
                    w.HBox([self.entry, self.enter_button]),
                    self.preview,
                    self.pad,
                    self.entry_message,
                    self.which_box,
                    self.picker,
                ]
            ),
            "p10-entry-box",
        )

    def _build_which(self, w) -> None:
        """The "which die is this?" picker: the typed faces (tap one), then the dice that can
        show it."""
        self.picking: int | None = None
        self.which_text = css_classes(w.HTML(), "p10-which-text")
        self.face_buttons = []
        for i in range(self.state.n_dice):
            b = css_classes(w.Button(description="?"), "p10-pick-face", f"p10-pick-face-{i}")
            b.on_click(lambda _b, i=i: self._pick_face(i))
            self.face_buttons.append(b)
        self.die_rows = []
        self.die_buttons = []
        for j in range(self.state.n_dice):
            b = css_classes(
                w.Button(description=f"die {j + 1}"), "p10-pick-die", f"p10-pick-die-{j}"
            )
            b.on_click(lambda _b, j=j: self._pick_die(j))
            self.die_buttons.append(b)
            self.die_rows.append(css_classes(w.HBox([b, w.HTML()]), "p10-pick-row"))
        self.which_box = css_classes(
            w.VBox(
                [
                    self.which_text,
                    css_classes(w.HBox(self.face_buttons), "p10-pick-faces"),
                    css_classes(w.VBox(self.die_rows), "p10-pick-dice"),
                ]
            ),
            "p10-which",
        )

    def _build_menus(self, w, win) -> None:
        """The phase, the aim and the dice set, and what a change of each does."""
        self.phase_select = css_classes(
            w.Dropdown(
                options=[(f"Phase {n}: {PHASES[n].text}", n) for n in sorted(PHASES)],
                value=self.state.phase.number or 1,
            ),
            "p10-phase",
        )
        self.objective_select = css_classes(
            w.ToggleButtons(
                options=[("Make the phase", "complete"), ("Score most", "score")]
                + ([("Win the game", WIN_AIM)] if win is not None else []),
                value=self.state.objective,
            ),
            "p10-objective",
        )
        self.aim_message = css_classes(w.HTML(value=""), "p10-aim-message", "p10-msg")
        layouts = [(LAYOUT_LABELS.get(n, n), n) for n in LAYOUTS]
        current = _layout_name(self.state.layout)
        if current not in LAYOUTS:
            layouts.append((f"{self.state.layout.name} (given)", current))
        self.layout_select = css_classes(w.Dropdown(options=layouts, value=current), "p10-layout")
        self.layout_select.observe(self._layout_changed, names="value")
        self.phase_select.observe(self._phase_changed, names="value")
        self.objective_select.observe(self._objective_changed, names="value")
        self.mode.observe(lambda _c: self._mode_changed(), names="value")
        self.hint_toggle.observe(lambda _c: self.refresh(), names="value")

    def _build_compare(self, w) -> None:
        """The compare view, behind a tap (the phone's first screen is for the dice)."""
        self.compare_pick = css_classes(w.Dropdown(options=[("best hold", 0)], value=0), "p10-pick")
        self.compare_pick.observe(lambda _c: self._refresh_compare(), names="value")
        self.compare = css_classes(w.HTML(), "p10-compare")
        self.compare_inner = css_classes(
            w.VBox([w.HBox([w.HTML("<b>Compare with</b>"), self.compare_pick]), self.compare]),
            "p10-compare-inner",
        )
        # the compare view, behind a tap (the phone's first screen is for the dice)
        self.compare_toggle = css_classes(
            w.ToggleButton(description="Compare two holds", value=False), "p10-compare-toggle"
        )
        self.compare_toggle.observe(lambda _c: self._refresh_compare(), names="value")
        self.compare_box = css_classes(
            w.VBox([self.compare_toggle, self.compare_inner]), "p10-compare-box"
        )

    def _build_layout(self, w, style: bool, next_turn) -> None:
        """The board: settings folded into one line, status, dice, actions, messages, advice."""
        self.status = css_classes(w.HTML(), "p10-status")
        self.busy = css_classes(w.HTML(), "p10-busy")
        self.advice = css_classes(w.HTML(), "p10-advice")

        self._build_settings(w, next_turn)
        self.dice_box = css_classes(w.HBox(self.dice_buttons), "p10-dice")
        self.actions = css_classes(
            w.HBox(
                [
                    self.roll_button,
                    self.best_button,
                    self.stop_button,
                    self.new_button,
                    self.undo_button,
                    self.reveal_button,
                ]
            ),
            "p10-actions",
        )
        children = [style_widget()] if style else []
        children += [
            self.settings_toggle,
            self.settings_box,
            self.status,
            self.dice_box,
            self.actions,
            self.confirm_box,
            self.message,
            self.busy,
            self.entry_box,
            self.advice,
            self.compare_box,
        ]
        self.view = css_classes(w.VBox(children), "p10-turn")
        self._ended = False
        self._mode_changed()

    def _build_settings(self, w, next_turn) -> None:
        """The settings (aim, advice, dice; the phase and the dice set when the turn stands
        alone), folded into one line that a tap opens."""

        def field(label: str, widget):
            return css_classes(
                w.HBox([w.HTML(f"<span class='p10-label'>{label}</span>"), widget]), "p10-field"
            )

        settings = [
            field("Aim", w.VBox([self.objective_select, self.aim_message])),
            field("Advice", self.hint_toggle),
            field("Dice", self.mode),
        ]
        if next_turn is None:
            settings.insert(0, field("Phase", self.phase_select))
            settings.append(field("Dice set", self.layout_select))
        # the settings fold into one line that says what they are; a tap opens them
        self.settings_toggle = css_classes(
            w.ToggleButton(description="Settings", value=False), "p10-settings-toggle"
        )
        # a refused change of a menu is told here, beside the menus (not under the dice)
        self.settings_message = css_classes(w.HTML(value=""), "p10-settings-message", "p10-msg")
        self.settings_box = css_classes(w.VBox([*settings, self.settings_message]), "p10-settings")
        self.settings_box.layout.display = "none"
        self.settings_toggle.observe(
            lambda c: setattr(self.settings_box.layout, "display", "" if c["new"] else "none"),
            names="value",
        )

    # ------------------------------------------------------------------ display
    def _repr_mimebundle_(self, **kwargs):
        """The interactive view, and beside it the board as a static picture (``text/html``:
        what a page without a kernel shows, e.g. the handouts)."""
        bundle = self.view._repr_mimebundle_(**kwargs)
        return {**bundle, "text/html": board_html(self.state, self.top)}

    # ------------------------------------------------------------------ control
    def _do(self, action: Callable[[], None], where=None) -> None:
        """Run a move; a refused move shows its message next to its control and changes
        nothing. Anything slow shows "computing..." (after 0.3 s, by CSS)."""
        where = where or self.message
        self.busy.value = "<span class='p10-busy-on'>computing&hellip;</span>"
        undo_before, choices_before = self.state.undoable, list(self.choices)
        if action != self._answer_yes:
            self.pending = None
        try:
            action()
        except Phase10MathError as e:
            where.value = error_html(e)
        except ResultOutOfRangeError as e:  # an internal error, shown as one (not an answer)
            self.refresh()
            self.show_internal_error(e)
            self.busy.value = ""
            return
        else:
            self.message.value = ""
            self.entry_message.value = ""
            self.settings_message.value = ""
            if self.state.undoable is not None and self.state.undoable is not undo_before:
                self._choices_before = choices_before
        try:
            self.refresh()
        finally:
            self.busy.value = ""

    def _note_choice(self, stopping: bool = False) -> None:
        """Remember what the hold chosen before this roll (or the stop) cost, judged by the
        aim that speaks (:func:`~phase10math.play.aims.choice_cost`; shown at the end)."""
        cost = aims.choice_cost(self.state, self.win_line(), stopping)
        if cost is not None:
            st = self.state
            self.choices.append(pm.judge(st.rolls_done, cost[0], cost[1], st.phase.number))

    def _roll(self) -> None:
        if (
            self.state.rolls_done
            and not self.state.over
            and len(self.state.held) == self.state.n_dice
        ):
            if self.state.made_now() is not None:
                raise InvalidHoldError(
                    "every die is held and the phase is made: press Stop & score"
                )
            raise InvalidHoldError("every die is held: release some dice to roll them, or Stop")
        risk = self._roll_risk()
        if risk is not None:
            self._ask(risk, f"Roll {len(self.state.rolled_dice())} dice anyway", self._roll_now)
            return
        self._roll_now()

    def _roll_now(self) -> None:
        if self.state.rolls_done and not self.state.over:
            self._note_choice()
        self.state.roll()
        self.revealed = False

    def _roll_risk(self) -> str | None:
        """The question before rolling on (see :func:`~phase10math.play.aims.roll_question`)."""
        return aims.roll_question(self.state, self.win_line(), self.showing)

    def _stop_question(self) -> str | None:
        """The question before stopping (see :func:`~phase10math.play.aims.stop_question`)."""
        return aims.stop_question(
            self.state, self.win_line(), self.showing, in_game=self.next_turn is not None
        )

    def _stop(self) -> None:
        question = self._stop_question()
        if question is not None:
            self._ask(question, "Stop anyway", self._stop_now)
            return
        self._stop_now()

    def _stop_now(self) -> None:
        if self.state.rolls_done and not self.state.over:
            self._note_choice(stopping=True)
        self.state.stop()

    def _ask(self, question: str, yes: str, action: Callable[[], None]) -> None:
        """Ask before a move that can lose the turn: Yes does it, Cancel changes nothing."""
        self.pending = action
        self.confirm_text.value = f"<div class='p10-ask'>&#9888; {html.escape(question)}</div>"
        self.confirm_yes.description = yes

    def _answer(self, yes: bool) -> None:
        if yes and self.pending is not None:
            self._do(self._answer_yes)
        else:
            self.pending = None
            self.refresh()

    def _answer_yes(self) -> None:
        action, self.pending = self.pending, None
        if action is not None:
            action()

    def _undo(self) -> None:
        self.state.undo()
        self.choices = list(self._choices_before)
        self._ended = False

    def _hold_best(self) -> None:
        """Hold the aim's best hold (the hold to win under "Win the game"); stop where
        stopping is best."""
        move, dice = self.best_move()
        if move == "stop":
            self._stop_now()
        elif move == "hold" and dice is not None:
            self.state.hold_dice(dice)
        else:
            adv = self.state.advice()
            if adv is None:
                raise InvalidHoldError(
                    "roll first"
                    if self.state.rolls_done == 0
                    else "the turn is over: start a new turn"
                )
            self.state.hold_option(adv.best)  # typed faces: the first way they fit
        self.revealed = True

    def _reveal(self) -> None:
        if self.state.rolls_done == 0 or self.state.over:
            self.message.value = error_html("roll first, choose your hold, then check it")
            return
        self.revealed = True
        self.message.value = ""
        self.refresh()

    def _enter(self) -> None:

        text = self.entry.value.strip()

        def go():
            before = len(self.choices)
            if self.state.rolls_done and not self.state.over:
                self._note_choice()
            try:
                self.state.enter_rerolled(text)
            except Phase10MathError:
                del self.choices[before:]
                raise
            self.entry.value = ""
            self.revealed = False

        self._do(go, where=self.entry_message)

    def _preview(self) -> None:
        """The faces typed so far as chips, counted against the dice rolled."""
        self.preview.value = preview_html(self.entry.value, len(self.state.rolled_dice()))

    def _pad(self, tok: str) -> None:
        """A tap on the pad: a number or W starts a face, a color letter ends it, the
        backspace removes the last face."""
        faces = self.entry.value.split()
        if tok == "\u232b":
            faces = faces[:-1]
        elif tok in "robg":
            if not faces or faces[-1][-1] in "robg":
                self.entry_message.value = error_html("tap a number (or W) first, then its color")
                return
            faces[-1] += tok
        else:
            faces.append(tok)
        self.entry_message.value = ""
        self.entry.value = " ".join(faces)

    def _mode_changed(self) -> None:
        self.message.value = ""
        self.entry_message.value = ""
        self.refresh()

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
            self.settings_message.value = error_html(why)
            return
        self.choices = []
        self._do(lambda: self.state.new_turn(self.phase_select.value))

    def _layout_changed(self, _change) -> None:
        """Another dice set starts a new turn - refused (and the menu put back) while a turn
        is under way. The color phases on the recorded set (ten different dice) take tens of
        seconds to solve the first time: the board shows "computing..." meanwhile."""
        st = self.state
        current = _layout_name(st.layout)
        name = self.layout_select.value
        if name == current:
            return
        if self.next_turn is not None or (st.rolls_done and not st.over):
            self.layout_select.value = current
            self.settings_message.value = error_html(
                "in a game the dice set is set by the game"
                if self.next_turn is not None
                else "finish this turn first (roll, or Stop): another dice set starts a new turn"
            )
            return

        def go():
            st.layout = get_layout(name)
            st.new_turn()
            self.choices = []
            self.picking = None

        self._do(go)

    def _pick_face(self, i: int) -> None:
        """Tap a typed face: the picker shows the dice that can show it."""
        self.picking = None if self.picking == i else i
        self.entry_message.value = ""
        self._refresh_which()

    def _pick_die(self, j: int) -> None:
        """Tap a die in the picker: the face tapped lies on it."""
        i = self.picking
        if i is None:
            return

        def go():
            self.state.place(i, j)
            self.picking = None

        self._do(go, where=self.entry_message)

    def _objective_changed(self, _change) -> None:
        """Another aim changes the advice, not the turn ("Win the game" adds the chance to
        win to the advice of the turn's own aim)."""
        value = self.objective_select.value
        if not self._default_aiming:
            self.aim_chosen = True
        self.aim_win = value == WIN_AIM
        if self.aim_win:
            self._do(lambda: None)
        else:
            self._do(lambda: setattr(self.state, "objective", value))

    def default_aim(self, value: str) -> None:
        """Put the aim ``value`` (an objective, or "Win the game" where offered) on the menu
        unless the player chose an aim there: a game's default."""
        offered = [v for _, v in self.objective_select.options]
        if self.aim_chosen or value not in offered or value == self.objective_select.value:
            return
        self._default_aiming = True
        try:
            self.objective_select.value = value
        finally:
            self._default_aiming = False

    def _new_turn(self) -> None:
        """A new turn; in a game the turn just over is scored first (until then Undo can
        still take its last move back), then the game's next turn starts."""
        if self.closed and self.new_game is not None:
            self.new_game()  # the game is over: this button is New game
            return
        if self.next_turn is None:
            self.state.new_turn()
        else:
            if not self.state.over and self.state.rolls_done:
                raise InvalidHoldError("finish this turn first (roll, or Stop & score)")
            if self.state.over and not self._ended:
                self._ended = True
                self.last_choices = list(self.choices)
                if self.on_turn_end is not None and self.on_turn_end(self.state) is False:
                    self.state.undoable = None
                    return  # the game is over
            self.state.new_turn(self.next_turn())
        self.choices = []
        self.revealed = False

    @property
    def closed(self) -> bool:
        """The game this board belongs to is over (a practice board never closes)."""
        return self.game_over is not None and self.game_over()

    # convenience for code and tests
    def click_die(self, i: int) -> None:
        """Click die ``i`` (counted from 0); InvalidHoldError for a die that does not exist."""
        pm.check_die_index(i, len(self.dice_buttons))
        self.dice_buttons[i].click()

    def roll(self) -> None:
        self.roll_button.click()

    def type_roll(self, text: str) -> None:
        """Type the faces of the dice rolled (all ten first, then the dice not held)."""
        self.mode.value = "type"
        self.entry.value = text
        self.enter_button.click()
