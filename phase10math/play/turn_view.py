"""The view of the turn widget: how the board shows a :class:`~phase10math.play.models.
TurnState` after every move (the dice, the stars, the buttons and which one is the main one,
the advice, the aim "Win the game", the "which die is this?" picker, the compare view), and
the progress of a phase's first long solve. :class:`TurnView` is the half of
:class:`~phase10math.play.turn_widget.TurnWidget` that reads the state; the other half
builds the controls and makes the moves. The aim's best move comes from
:mod:`phase10math.play.aims`, so that every control speaks with one voice.
"""

from __future__ import annotations

import html
import threading
import time

from phase10math.dice.faces import COLOR_NAMES
from phase10math.errors import Phase10MathError, ResultOutOfRangeError
from phase10math.play import aims
from phase10math.play.models import face_label
from phase10math.play.palette import PALETTE
from phase10math.play.panels import (
    advice_html,
    chip,
    choices_summary,
    compare_html,
    error_html,
    internal_error_html,
    note_html,
    picker_html,
    win_panel_html,
)
from phase10math.play.win import WinLine
from phase10math.turn import tables

#: The (phase, objective, rules, layout) whose solve this kernel has done or loaded.
_READY: set = set()

#: Seconds between two updates of a long solve's estimate while a step runs.
TICK = 2.0


def solve_estimate(took: float, done: int, steps: int, running: float) -> str:
    """The seconds left of a solve in words: ``done`` of ``steps`` steps took ``took``
    seconds, the next has run ``running``. A step that runs past its share makes the
    estimate grow (on a busy server), instead of standing still at a small number.

    >>> solve_estimate(20.0, 1, 3, 5.0)
    'About 35 s left.'
    >>> solve_estimate(20.0, 1, 3, 30.0)
    'About 37 s left: this step takes longer than usual on a busy server.'
    >>> solve_estimate(20.0, 1, 3, 60.0)
    'About 52 s left: this step takes longer than usual on a busy server.'
    """
    per = took / done
    normal = per * (steps - done) - running
    # past its share, the step is taken to need half again what it has run so far
    grown = running / 2 + per * (steps - done - 1) + 2
    left = max(normal, grown, 1)
    if running <= per:
        return f"About {round(left)} s left."
    return f"About {round(left)} s left: this step takes longer than usual on a busy server."


class TurnView:
    """The view half of the turn widget (see the module's words): ``refresh()`` shows the
    state; :meth:`best_move` is the aim's best move every control follows."""

    # ------------------------------------------------------------------ view
    def _prepare(self) -> None:
        """Before a phase's first long solve (a color phase on the recorded dice: tens of
        seconds): a progress display with an estimate, every control disabled and the old
        advice hidden, so that nothing is tapped or read meanwhile."""
        st = self.state
        key = (st.phase, str(st.objective), st.rules, st.layout.fingerprint())
        if key in _READY:
            return
        try:
            heavy = st.phase.number is not None and tables.heavy_phase(
                st.phase.number, st.rules, st.layout
            )
        except Phase10MathError:
            heavy = False
        if not heavy:
            _READY.add(key)
            return
        controls = [
            *self.dice_buttons,
            self.roll_button,
            self.best_button,
            self.stop_button,
            self.new_button,
            self.undo_button,
            self.enter_button,
            self.phase_select,
            self.layout_select,
            self.objective_select,
            self.mode,
        ]
        was = [c.disabled for c in controls]
        for c in controls:
            c.disabled = True
        self.advice.layout.display = "none"
        self.compare_box.layout.display = "none"
        # the status line names the phase being solved at once (not the turn before)
        self.status.value = (
            f"<div class='p10-panel'><b>Phase {st.phase.number}</b>: "
            f"{html.escape(st.phase.text)} &mdash; solving it on these dice for the first "
            "time; the board comes back when it is done.</div>"
        )
        start = time.monotonic()
        title = (
            f"Solving phase {st.phase.number} ({st.phase.text}) on these dice for the first time"
        )
        rolls = st.rules.rolls
        done, last = [0], [start]

        def show(note: str) -> None:
            step = done[0]
            self.busy.value = (
                f"<div class='p10-progress' role='status'><b>{html.escape(title)}</b>: "
                f"step {step} of {rolls}. {note}"
                f"<progress max='{rolls}' value='{step}'></progress></div>"
            )

        def estimate() -> str:
            now = time.monotonic()
            if done[0] == 0:
                return (
                    f"{round(now - start)} s so far; this takes tens of seconds once, later "
                    "turns load it at once."
                )
            if done[0] >= rolls:
                return "Done."
            return solve_estimate(last[0] - start, done[0], rolls, now - last[0])

        def progress(_msg: str) -> None:
            done[0] += 1
            last[0] = time.monotonic()
            show(estimate())

        show(estimate())
        stop = threading.Event()

        def tick() -> None:  # the estimate moves while a step runs (no progress meanwhile)
            while not stop.wait(TICK):
                show(estimate())

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        try:
            tables.cached_solution(st.phase, st.objective, st.rules, st.layout, progress=progress)
            _READY.add(key)
        finally:
            stop.set()
            ticker.join()
            for c, d in zip(controls, was, strict=True):
                c.disabled = d
            self.advice.layout.display = ""
            self.busy.value = ""

    def refresh(self) -> None:
        """Show the turn as it stands. A result outside its range (a chance above 1, ...) is
        an internal error: the advice shows it as such, never a number in its place and never
        a traceback; the rest of the board still follows the turn."""
        try:
            self._draw()
        except ResultOutOfRangeError as e:
            self.show_internal_error(e)
            if self.on_change is not None:
                self.on_change()

    def show_internal_error(self, e: ResultOutOfRangeError) -> None:
        """Put an internal error where the answer goes (the advice), nothing of the answer."""
        self.advice.value = internal_error_html(e)
        self.aim_message.value = ""
        self.compare_box.layout.display = "none"

    def _draw(self) -> None:
        self._prepare()
        st = self.state
        hint = bool(self.hint_toggle.value)
        reveal = not hint or self.revealed
        self._win = self._win_now()
        move, move_dice = self.best_move()
        # the stars mark the aim's best hold (the hold to win under "Win the game"); when
        # stopping is best, the dice that make the phase (not dice that do not matter)
        suggest = set(move_dice or ()) if reveal else set()
        if move == "stop" and reveal:
            suggest = st.meld_dice()
        for i, b in enumerate(self.dice_buttons):
            # face, color class and state in one message: the page never shows half a die
            with b.hold_sync():
                f = st.dice[i]
                b.description = face_label(f)
                code = f.color if f is not None else None
                b.style.button_color = PALETTE[code]
                for c in ("r", "o", "b", "g", "x"):
                    (b.add_class if (code or "x") == c else b.remove_class)(f"p10-c-{c}")
                held, aside = i in st.held, i in st.aside
                for cls, on in (
                    ("p10-held", held),
                    ("p10-aside", aside),
                    ("p10-suggest", i in suggest),
                ):
                    (b.add_class if on else b.remove_class)(cls)
                b.tooltip = (
                    f"die {i + 1} (key {(i + 1) % 10}): "
                    + (
                        f"{face_label(f)} {COLOR_NAMES.get(f.color, '')}".strip()
                        if f is not None
                        else "not rolled"
                    )
                    + (" (set aside)" if aside else " (held)" if held else "")
                    + (" - the best hold keeps it" if i in suggest else "")
                )
                b.disabled = st.rolls_done == 0 or st.over
        typing = self.mode.value == "type"
        # the typed roll's words first, then the box is shown (the page gets the changes in
        # this order: a box never shows the words of the turn before)
        if typing and not st.over:
            n = len(st.rolled_dice())
            self.entry_label.value = (
                f"<b>Type the {n} faces you rolled</b>"
                + (" (all ten dice)" if st.rolls_done == 0 else " (held dice stay)")
                + ", any order, then Enter:"
            )
            self.entry.placeholder = f"e.g. {st.example_faces()}"
            self.picker.value = picker_html(st)
        self.entry_box.layout.display = "" if typing and not st.over else "none"
        self.roll_button.layout.display = "none" if typing else ""
        self.roll_button.disabled = st.over
        self.stop_button.disabled = st.over or st.rolls_done == 0
        self.best_button.disabled = st.over or st.rolls_done == 0
        self.reveal_button.layout.display = "" if hint and not st.over else "none"
        self.reveal_button.disabled = st.rolls_done == 0 or self.revealed
        made = st.made_now()
        stop_now = move == "stop"
        self._label_buttons(move if reveal else None, move_dice if reveal else None, made)
        self._refresh_which()
        aim = "make the phase" if st.objective == "complete" else "score most"
        aim = "win the game" if self.aim_win else aim
        self.settings_toggle.description = (
            f"\u2699 Phase {st.phase.number} \u00b7 {aim} \u00b7 "
            + ("typed dice" if typing else "roll here")
            + (" \u00b7 hints" if hint else "")
        )
        roll_name = ["first", "second", "third"]
        if st.rolls_done == 0:
            step = "press Roll (R)" if not typing else "type the ten faces of your first roll"
        elif st.over and self.closed:
            step = "the game is over: press New game to play again"
        elif st.over:
            step = "the turn is over" + ("" if self.next_turn is None else ": press Next turn")
        elif stop_now and reveal:
            step = "you made it: press Stop & score"
        elif made is not None and reveal and move == "hold":
            why = "to win" if self._win_speaks() else "for the score"
            step = f"you made the phase, but {why} roll again for points (Hold best, then Roll)"
        else:
            step = (
                f"after the {roll_name[min(st.rolls_done, 3) - 1]} roll: tap dice to "
                f"hold them, then {'type the dice you rolled' if typing else 'Roll'} "
                f"({st.rolls_left} roll{'s' if st.rolls_left != 1 else ''} left)"
            )
        self.status.value = (
            f"<div class='p10-panel'><b>Phase {st.phase.number}</b>: {st.phase.text} &mdash; "
            f"{step}.</div>"
        )
        try:
            beside = self._aim_words() if self._win_speaks() else None
            thumb, check = None, None
            if not reveal and self.rule_of_thumb is not None and st.rolls_done and not st.over:
                thumb = self.rule_of_thumb(st)
            checked = hint and self.revealed and st.rolls_done and not st.over
            if checked and self.rule_of_thumb_check is not None:
                check = self.rule_of_thumb_check(st)
            self.advice.value = advice_html(
                st, self.top, reveal=reveal, beside_win=beside, thumb=thumb, thumb_check=check
            )
            if st.over and self.choices:
                self.advice.value += (
                    "<div class='p10-panel p10-choices'>"
                    + choices_summary(self.choices, "this turn")
                    + "</div>"
                )
        except Phase10MathError as e:
            self.advice.value = error_html(e)
        self._refresh_win()
        self._refresh_compare(reveal)
        if self.on_change is not None:
            self.on_change()
        if st.over and not self._ended and self.next_turn is None:
            self._ended = True  # in a game the turn is handed over by Next turn (see _new_turn)
            if self.on_turn_end is not None:
                self.on_turn_end(st)
        elif not st.over:
            self._ended = False

    @property
    def showing(self) -> bool:
        """The advice is shown (not hint mode, or the player checked the hold)."""
        return not self.hint_toggle.value or self.revealed

    def win_line(self) -> WinLine | None:
        """This roll's line of the aim "Win the game" (None: another aim, or refused)."""
        line = getattr(self, "_win", None)
        return line if isinstance(line, WinLine) else None

    def _win_speaks(self) -> bool:
        """The aim "Win the game" decides this roll (see :func:`~phase10math.play.aims.
        win_dice`; else the turn's own aim speaks, and judges)."""
        return aims.win_dice(self.win_line()) is not None

    def best_move(self) -> tuple[str | None, frozenset[int] | None]:
        """The aim's best move now, what every control follows (see
        :func:`~phase10math.play.aims.best_move`)."""
        return aims.best_move(self.state, self.win_line())

    def _aim_words(self) -> str:
        return "make the phase" if self.state.objective == "complete" else "score most"

    def _win_now(self) -> WinLine | Phase10MathError | None:
        """The aim "Win the game" for this turn (its line, or the error that refused it);
        None where the aim is another."""
        if not (self.aim_win and self.win is not None):
            return None
        try:
            return self.win(self.state)
        except Phase10MathError as e:
            return e

    def _refresh_win(self) -> None:
        """The aim "Win the game": its verdict atop the advice, or beside the menu why not."""
        self.aim_message.value = ""
        line = self._win
        if line is None:
            return
        if isinstance(line, Phase10MathError):
            self.aim_message.value = error_html(line)
            return
        if not line.covered:  # the advice plays for the turn's own aim meanwhile
            self.aim_message.value = note_html(line.message)
            return
        reveal = not self.hint_toggle.value or self.revealed
        self.advice.value = (
            win_panel_html(self.state, line, self._aim_words(), reveal) + self.advice.value
        )

    def _label_buttons(self, move: str | None, dice: frozenset[int] | None, made) -> None:
        """Each button says what it does now, and the main one (filled) is the aim's best
        move (``move``, ``dice``: :meth:`best_move`; None in hint mode, where Roll is the
        main button until the player checks the hold): Stop & score when stopping is best,
        Hold best while the dice held are not the best hold, then Roll."""
        st = self.state
        hint = bool(self.hint_toggle.value) and not self.revealed
        n_roll = len(st.rolled_dice()) if not st.over else 0
        self.roll_button.description = (
            "Roll" if st.rolls_done == 0 or st.over else f"Roll {n_roll} dice"
        )
        if made is not None:
            self.stop_button.description = f"Stop & score {made.score}"
        elif st.rolls_done and not st.over:
            self.stop_button.description = "Stop (fails phase)"
        else:
            self.stop_button.description = "Stop & score"
        # Hold best gives the answer away in hint mode; when stopping is best it would say
        # (and do) what Stop does: one button
        self.best_button.layout.display = "none" if hint or move == "stop" else ""
        self.best_button.description = "Hold best"
        live = st.rolls_done and not st.over and not self.closed
        main = None
        if self.closed or st.over:
            main = self.new_button
        elif move == "stop" and live:
            main = self.stop_button
        elif move == "hold" and live and dice is not None and set(st.held) != set(dice):
            main = self.best_button
        else:
            main = self.roll_button
        self.stop_button.button_style = "success" if main is self.stop_button else ""
        self.roll_button.button_style = "primary" if main is self.roll_button else ""
        self.best_button.button_style = "primary" if main is self.best_button else ""
        self.new_button.button_style = "primary" if main is self.new_button else ""
        # typing the real dice: Use roll stands for Roll
        self.enter_button.button_style = "primary" if main is self.roll_button else ""
        if self.closed:
            self.new_button.description = "New game"
        elif self.next_turn is not None and st.over and not self._ended:
            self.new_button.description = "Score turn, next"
        else:
            self.new_button.description = "Next turn" if self.next_turn else "New turn"
        undo = st.undoable
        handed_over = self._ended and self.next_turn is not None  # a game's turn, scored
        self.undo_button.layout.display = "" if undo is not None and not handed_over else "none"
        self.undo_button.description = f"Undo {undo[1]}" if undo is not None else "Undo"
        self.confirm_box.layout.display = "" if self.pending is not None else "none"
        self.new_button.disabled = self.pending is not None
        if self.pending is not None:
            for b in (self.roll_button, self.stop_button, self.best_button, self.new_button):
                b.disabled = True
            for b in self.dice_buttons:
                b.disabled = True

    def _refresh_which(self) -> None:
        """The "which die is this?" picker: shown after a typed roll whose faces fit the dice
        in several ways (the advice's note or question)."""
        st = self.state
        adv = None
        if st.typed and not st.over and self.mode.value == "type":
            try:
                adv = st.advice()
            except Phase10MathError:
                adv = None
        if adv is None or not (adv.note or adv.ambiguous or st.pinned):
            self.which_box.layout.display = "none"
            self.picking = None
            return
        self.which_box.layout.display = ""
        rolled = st.rolled_last()
        for i, b in enumerate(self.face_buttons):
            f = st.dice[i]
            b.layout.display = "" if i in rolled else "none"
            b.description = f"{f} \u2713 die {i + 1}" if i in st.pinned else str(f)
            b.button_style = (
                "warning"
                if adv.ambiguous and i == adv.decider
                else "info"
                if i == self.picking
                else ""
            )
            b.tooltip = f"which die shows this {f}?"
        if self.picking is None:
            self.which_text.value = (
                f"<b>Which die is which?</b> {html.escape(adv.question)} Tap the face:"
                if adv.ambiguous
                else "<small>Tap a face to say which die it lies on (the best hold is the same "
                "either way).</small>"
            )
            for row in self.die_rows:
                row.layout.display = "none"
            return
        f = st.dice[self.picking]
        can = st.dice_for_face(self.picking)
        self.which_text.value = f"<b>Which die shows your {chip(f)}?</b> Tap it:"
        for j, row in enumerate(self.die_rows):
            row.layout.display = "" if j in can else "none"
            if j in can:
                six = "".join(chip(g) for g in st.layout.dice[j].faces)
                row.children[1].value = f"<span class='p10-die-faces'>{six}</span>"

    def _refresh_compare(self, reveal: bool | None = None) -> None:

        st = self.state
        if reveal is None:
            reveal = not self.hint_toggle.value or self.revealed
        adv = None
        try:
            adv = st.advice() if reveal and st.rules.holds == "free" else None
        except Phase10MathError:
            adv = None
        if adv is None:
            self.compare_box.layout.display = "none"
            return
        self.compare_box.layout.display = ""
        self.compare_inner.layout.display = "" if self.compare_toggle.value else "none"
        self.compare_toggle.description = (
            "Hide compare" if self.compare_toggle.value else "Compare two holds"
        )
        if not self.compare_toggle.value:
            return
        opts = [("the best hold", 0)] + [
            (f"hold {k + 1}: keep {o.keep_text}", k) for k, o in enumerate(adv.options[1:8], 1)
        ]
        if [o[1] for o in self.compare_pick.options] != [o[1] for o in opts] or [
            o[0] for o in self.compare_pick.options
        ] != [o[0] for o in opts]:
            v = self.compare_pick.value if self.compare_pick.value in dict(opts).values() else 0
            self.compare_pick.options = opts
            self.compare_pick.value = v
        k = self.compare_pick.value or 0
        other = adv.options[k]
        try:
            b = st.option_dice(other)
            name = "best hold" if k == 0 else f"hold {k + 1}"
            self.compare.value = compare_html(st, set(st.held), b, name)
        except Phase10MathError as e:
            self.compare.value = error_html(e)
