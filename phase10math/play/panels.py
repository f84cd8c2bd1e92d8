"""The play app's HTML, without widgets: what the board shows in words and chips, drawn from a
:class:`~phase10math.play.models.TurnState` (and for the aim "Win the game" its
:class:`~phase10math.play.win.WinLine`): the advisor panel and its verdict, the win panel,
the result of a turn, the summaries of the choices, the compare table, refusals and notes
beside a control, and the board as a static picture for pages without a kernel.

Each piece has stable DOM classes for browser tests: ``p10-verdict`` (``p10-best-line``,
``p10-mine-line``), ``p10-win`` (``p10-win-verdict``, ``p10-why-win``), ``p10-why``,
``p10-details``, ``p10-refusal``, ``p10-note``, ``p10-chip``.

>>> from phase10math.dice.faces import parse_face
>>> chip(parse_face("10o"))
"<span class='p10-chip p10-c-o' title='10o'>10<sub>O</sub></span>"
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction

from phase10math.dice.faces import Face, parse_face
from phase10math.errors import InvalidDiceError
from phase10math.play import models as pm
from phase10math.play.models import WIN_AIM, TurnState, face_label, value_text
from phase10math.play.palette import LETTERS, PALETTE
from phase10math.play.style import stylesheet
from phase10math.play.why import why
from phase10math.play.win import COARSE, WinLine, why_win, win_cost, win_text
from phase10math.turn.thumb import RuleHint

#: Background color of a die face, per color code (None: color not known); color-blind safe,
#: and every face also shows its color letter (see :mod:`phase10math.play.palette`).
DIE_COLORS = PALETTE


def error_html(e: Exception | str) -> str:
    """A refusal or bad-input message, shown in red beside the input."""
    return (
        f"<span class='p10-refusal' role='alert'>&#9888; {html.escape(str(e), quote=False)}</span>"
    )


def internal_error_html(e: Exception) -> str:
    """A result outside its range (:class:`~phase10math.errors.ResultOutOfRangeError`: a bug,
    or damage no other check caught), shown where the answer would be, instead of it."""
    return (
        "<span class='p10-refusal p10-internal-error' role='alert'>&#9888; internal error: "
        f"{html.escape(str(e), quote=False)}; the answer is not shown (please report it)</span>"
    )


def note_html(text: str) -> str:
    """A note beside a control: what the app does instead (not a refusal of the input)."""
    return f"<span class='p10-note'>&#8505; {html.escape(text, quote=False)}</span>"


def chip(f: Face | None, stands: int | str | None = None) -> str:
    """A face as a small colored chip with its color letter (never color alone)."""

    if f is None:
        return "<span class='p10-chip p10-c-x'>?</span>"
    c = f.color
    extra = f"<small>(={stands})</small>" if f.is_wild and stands is not None else ""
    letter = f"<sub>{LETTERS[c]}</sub>" if c else ""
    return (
        f"<span class='p10-chip p10-c-{c or 'x'}' title='{html.escape(str(f))}'>"
        f"{face_label(f)}{letter}</span>{extra}"
    )


def chips(faces: Sequence[Face]) -> str:
    return "".join(chip(f) for f in faces) if faces else "(nothing)"


AIMS = {
    "complete": "chance to make the phase by the end of this turn, with the best play from here",
    "score": "expected score: the average points this turn, with the best play from here "
    "(0 when the phase is missed)",
}
HOLDS = {
    "free": "free holds: a die you hold may still be rolled again later",
    "sticky": "sticky holds: a die you set aside stays aside",
}


def advice_html(
    state: TurnState,
    top: int = 6,
    reveal: bool = True,
    beside_win: str | None = None,
    thumb: str | None = None,
    thumb_check: RuleHint | None = None,
) -> str:
    """The advisor panel in plain words: the best hold, your hold against it (cost in
    percentage points), why, and on demand the ranked holds with exact fractions.
    ``beside_win``: the aim "Win the game" shows the hold to win above, and this panel the
    turn's own aim in these words (e.g. "make the phase"): its verdict says "To make the
    phase:" instead of "Best:", its fold "Why, to make the phase", and a made phase is not
    told to stop. ``thumb``: a rule of thumb for this roll, shown in hint mode (where the
    answer is not); ``thumb_check``: the rule of thumb's hold beside the best, shown with the
    answer once the player checked the hold (:func:`thumb_check_html`)."""

    if state.rolls_done == 0:
        v = state.phase_value()
        what = "chance to complete" if state.objective == "complete" else "expected score"
        return (
            f"<div class='p10-panel'><b>Roll to start.</b> With the best holds the {what} of "
            f"phase {state.phase.number} this turn is <b>{pm.value_words(v, state.objective)}"
            f"</b>.<details><summary>exact</summary><code>{v}</code></details></div>"
        )
    if state.over:
        return result_html(state)
    st = state.standing()
    if st is None:
        return ""
    if not reveal:
        mine = chips(state.held_faces())
        return (
            "<div class='p10-panel'><b>Hint mode.</b> Choose your hold by clicking dice "
            f"(now: {mine}), then press <b>Check my hold</b> to see the best hold and what "
            "your choice costs."
            + (
                f"<div class='p10-thumb'><b>Rule of thumb:</b> {html.escape(thumb)}</div>"
                if thumb
                else ""
            )
            + "</div>"
        )
    obj = state.objective
    parts = ["<div class='p10-panel'>"]
    adv = state.advice()
    if adv is not None and adv.ambiguous:
        rows = "".join(
            f"<li>{html.escape(line.split(': keep ', 1)[0])}: keep {chips(f.best.keep)}, reroll "
            f"{f.best.rerolled} &rarr; <b>{pm.value_words(f.best.value, obj)}</b></li>"
            for line, f in zip(adv.fit_lines(), adv.fits, strict=True)
        )
        parts.append(
            "<div class='p10-ambiguous'><b>Which die is which?</b> The faces you typed fit the "
            "dice in several ways and the best hold depends on it: "
            f"{html.escape(adv.question)}<ul>{rows}</ul>Tap the face under the typed roll, then "
            "the die it lies on. The holds below are for the first way.</div>"
        )
    elif adv is not None and adv.note:
        parts.append(f"<div class='p10-fit-note'><small>{html.escape(adv.note)}.</small></div>")
    made = state.made_now()
    if made is not None and state.stop_advised():
        stop = f" Stop and score {made.score}." if beside_win is None else ""
        parts.append(
            f"<div class='p10-made-it'>&#10004; You made phase {state.phase.number}: "
            f"{html.escape(pm.groups_words(made, state.phase.uses_color))}.{stop}</div>"
        )
    label = "Best" if beside_win is None else f"To {beside_win}"
    parts.append(verdict_html(state, st, label))
    if thumb_check is not None:
        parts.append(thumb_check_html(thumb_check))
    reasons = why(state)
    if reasons:  # beside the hold to win: why this hold is best for the turn's own aim
        title = "Why" if beside_win is None else f"Why, to {beside_win}"
        parts.append(
            f"<details class='p10-why'><summary>{title}</summary><ul>"
            + "".join(f"<li>{html.escape(s)}</li>" for s in reasons)
            + "</ul></details>"
        )
    # the ranked holds with exact fractions, on demand
    rows = []
    shown = list(range(min(top, st.n)))
    cur_i = next((i for i, o in enumerate(st.options) if o is st.mine), None)
    if cur_i is not None and cur_i not in shown:
        shown.append(cur_i)
    unit = "P(complete)" if obj == "complete" else "E[score]"
    for i in shown:
        o = st.options[i]
        mine = i == cur_i
        r = st.ranks[i]
        tie = st.ranks.count(r) > 1
        cls = ' class="p10-current"' if mine else ""
        rows.append(
            f"<tr{cls}><td>{'=' if tie else ''}{r}</td><td class='p10-keep'>{chips(o.keep)}</td>"
            f"<td>{o.rerolled}</td><td>{value_text(o.value, obj)}</td>"
            f"<td><code>{o.value}</code></td><td>{'&larr; your hold' if mine else ''}</td></tr>"
        )
    parts.append(
        "<details class='p10-details'><summary>Best holds and exact fractions "
        f"({st.n} holds, {state.rolls_left} roll(s) left)</summary>"
        "<div class='p10-scroll-cue'>&#8596; the table scrolls sideways</div>"
        "<div class='p10-scroll'><table><tr><th>rank</th><th>keep</th><th>reroll</th>"
        f"<th>{unit}</th><th>exact</th><th></th></tr>{''.join(rows)}</table></div>"
        f"<div><small>{unit}: {AIMS[obj]}. Equal values share a rank (=). "
        f"{HOLDS[state.rules.holds].capitalize()}. Exact values are fractions of all "
        "equally likely rolls.</small></div></details>"
    )
    parts.append("</div>")
    return "".join(parts)


def thumb_check_html(hint: RuleHint) -> str:
    """Hint mode after "Check my hold": what the rule of thumb keeps from this roll beside
    the best hold (``p10-thumb-check``), and where they differ what following the rule costs
    here (its exact value beside)."""
    keep = chips(hint.keep) if hint.keep else "nothing"
    if not hint.differs:
        said = f"keep {keep} &mdash; the same as the best hold here."
    else:
        unit = "points of chance in 100" if hint.objective == "complete" else "points on average"
        best = chips(hint.best_keep) if hint.best_keep else "nothing"
        said = (
            f"keep {keep}. <b>The best hold differs</b> (keep {best}): following the rule "
            f"here costs <b>{float(hint.cost):.2f} {unit}</b> "
            f"<small>(exact: <code>{hint.cost}</code>)</small>."
        )
    return f"<div class='p10-thumb p10-thumb-check'><b>The rule of thumb says:</b> {said}</div>"


def verdict_html(state: TurnState, st: pm.Standing, label: str = "Best") -> str:
    """The one-line verdict: the best hold (or "stop now") and, once the player has chosen a
    hold, the label and cost of their hold (``p10-verdict`` with ``p10-best-line`` and
    ``p10-mine-line``); ``label`` names the best hold (e.g. "To make the phase" beside the
    hold to win: then nothing is said of the player's hold, which the win panel judges). A
    hold carried over from the last roll is not judged until the player changes it, or rolls
    or stops with it."""
    obj = state.objective
    best = st.best
    stop = len(best.keep) == state.n_dice and not state.advice().ambiguous
    others = st.best_ties - 1
    tie_note = (
        f" <i>({others} other hold{'s are' if others > 1 else ' is'} as good)</i>"
        if others and not stop
        else ""
    )
    made = state.made_now()
    keeps = (
        f"keep {chips(best.keep)}, reroll {best.rerolled}"
        if best.keep
        else (f"reroll all {state.n_dice}")
    )
    if stop:
        best_part = f"<b>{label}:</b> stop now &rarr; <b>{pm.value_words(best.value, obj)}</b>"
    elif made is not None and obj == "score":  # as "Best to win: roll again for points"
        best_part = (
            f"<b>{label}:</b> roll again for points ({float(best.value):.1f} on average vs "
            f"{made.score} if you stop): {keeps}"
        )
    else:
        best_part = f"<b>{label}:</b> {keeps} &rarr; <b>{pm.value_words(best.value, obj)}</b>"
    best_part = f"<span class='p10-best-line'>{best_part}{tie_note}.</span>"
    # beside the hold to win, the turn's aim says what it would do and nothing of the
    # player's hold (the aim "Win the game" judges it, one voice); nothing held: no "tap
    # dice" when stopping is best
    mine = "" if label != "Best" or (stop and not state.held) else mine_html(state, st)
    return f"<div class='p10-verdict'>{best_part}{mine}</div>"


def mine_html(state: TurnState, st: pm.Standing) -> str:
    """The player's hold in the verdict (``p10-mine-line``): nothing held, carried over from
    the last roll (not judged yet), or judged against the best."""
    obj = state.objective
    if not state.held:
        return (
            "<span class='p10-mine-line p10-mine-none'> Tap dice to hold them; your hold "
            "is judged once you hold some.</span>"
        )
    if state.hold_carried:
        return (
            "<span class='p10-mine-line p10-mine-carried'> You still hold "
            f"{chips(state.held_faces())} from the last roll: it is judged once you change "
            "it, or roll or stop with it.</span>"
        )
    if st.mine is None:
        return "<span class='p10-mine-line'> Your hold is not one of the possible holds.</span>"
    if st.is_best:
        return "<span class='p10-mine-line'> <b>Yours:</b> the best hold.</span>"
    points = "points of chance" if obj == "complete" else "points"
    cost = pm.cost_words(st.cost, obj).replace("percentage points", points)
    kept = f"keep {chips(st.mine.keep)} &rarr; {pm.value_words(st.mine.value, obj)}"
    judged = f"<b class='p10-label-{st.label}'>{st.label}</b>, {kept}, costs {cost}"
    return f"<span class='p10-mine-line'> <b>Yours:</b> {judged}.</span>"


def result_html(state: TurnState) -> str:
    m = state.result()
    if m is None:
        return ""
    if not m.complete:
        return (
            f"<div class='p10-panel'><b>Turn over:</b> phase {state.phase.number} "
            f"({state.phase.text}) not completed.</div>"
        )
    groups = "".join(
        f"<li>{g.kind if g.kind != 'color' else 'one color'} of {g.size}: "
        + "".join(chip(f, s) for f, s in zip(g.dice, g.stands_for, strict=False))
        + "</li>"
        for g in m.groups
    )
    return (
        f"<div class='p10-panel'><b>Turn over: phase {state.phase.number} complete, score "
        f"{m.score}.</b><ul>{groups}</ul></div>"
    )


def win_panel_html(state: TurnState, line: WinLine, aim_words: str, reveal: bool = True) -> str:
    """The aim "Win the game" atop the advice (``p10-win``): the chance to win at the start
    of the turn, and after a roll its verdict (``p10-win-verdict``): the hold to win as chips
    (or stop now, or "roll again for points" when the phase is made), the player's hold
    judged by the chance to win, and why (``p10-why-win``). In hint mode only the chance;
    where the table is coarse or the dice of typed faces decide, the words of
    :func:`~phase10math.play.win.win_text`."""
    now = (
        f"Chance to win the game at the start of this turn: <b>{pm.pct(line.chance)}</b>"
        " (a tie counts half)."
    )
    coarse = line.bound > COARSE or line.error > COARSE
    if line.best_dice is None or line.question or coarse or state.over or not state.rolls_done:
        if reveal or line.best_keep is None:
            text = html.escape(win_text(line, aim_words)) if coarse or line.question else now
        else:
            text = now
        return f"<div class='p10-panel p10-win'>{text}</div>"
    if not reveal:
        return f"<div class='p10-panel p10-win'>{now}</div>"
    n = state.n_dice
    made = state.made_now()
    dice = sorted(line.best_dice)
    keep = [state.dice[i] for i in dice]
    if len(dice) == n:
        score = f" and score {made.score}" if made is not None else ""
        best = f"stop now{score} &rarr; <b>{pm.pct(line.best_chance)}</b>"
    else:
        what = f"keep {chips(keep)}, reroll {n - len(dice)}" if keep else f"reroll all {n}"
        if made is not None and line.stop_chance is not None:
            best = (
                f"roll again for points ({pm.pct(line.best_chance)} vs "
                f"{pm.pct(line.stop_chance)} if you stop): {what}"
            )
        else:
            best = f"{what} &rarr; <b>{pm.pct(line.best_chance)}</b>"
    if line.aim_keep is not None and line.aim_keep != line.best_keep:
        best += f" (the hold to {aim_words} gives {pm.pct(line.aim_chance)})"
    best_line = f"<span class='p10-best-line'><b>Best to win:</b> {best}.</span>"
    mine = mine_win_line(state, line)
    reasons = why_win(state, line, aim_words)
    fold = (
        "<details class='p10-why p10-why-win'><summary>Why, to win</summary><ul>"
        + "".join(f"<li>{html.escape(r)}</li>" for r in reasons)
        + "</ul></details>"
        if reasons
        else ""
    )
    return (
        f"<div class='p10-panel p10-win'>{now}<div class='p10-verdict p10-win-verdict'>"
        f"{best_line}{mine}</div>{fold}</div>"
    )


def mine_win_line(state: TurnState, line: WinLine) -> str:
    """The player's hold judged by the chance to win (``p10-mine-line``): a call to hold
    dice, the hold carried from the last roll, or its verdict and cost."""
    if not state.held:
        return (
            "<span class='p10-mine-line p10-mine-none'> Tap dice to hold them (&#9733; marks "
            "the hold to win); your hold is judged once you hold some.</span>"
        )
    elif state.hold_carried:
        return (
            "<span class='p10-mine-line p10-mine-carried'> You still hold "
            f"{chips(state.held_faces())} from the last roll: it is judged once you change "
            "it, or roll or stop with it.</span>"
        )
    else:
        cost = win_cost(line, True)
        held = chips(state.held_faces())
        if cost is None or line.mine_chance is None:
            return f"<span class='p10-mine-line'> <b>Yours:</b> keep {held}.</span>"
        elif cost == 0:
            return "<span class='p10-mine-line'> <b>Yours:</b> the hold to win.</span>"
        else:
            label = pm.mistake_label(cost, WIN_AIM)
            return (
                f"<span class='p10-mine-line'> <b>Yours:</b> <b class='p10-label-{label}'>"
                f"{label}</b>, keep {held} &rarr; {pm.pct(line.mine_chance)}, costs "
                f"{pm.cost_words(cost, WIN_AIM)} of chance to win.</span>"
            )


def lost_words(choices: Sequence[pm.Choice]) -> str:
    """What choices cost in all, per unit: ``4.2 percentage points of chance`` (the aim to make
    the phase), ``1.30 points`` (the score aim), ``2.0 percentage points of chance to win``
    (the aim to win the game), joined by "and" when the aim changed."""
    totals: dict[str, Fraction] = {}
    for c in choices:
        unit = c.objective if c.objective in pm.CHANCE_AIMS else "score"
        totals[unit] = totals.get(unit, Fraction(0)) + c.cost
    of = {"complete": " of chance", WIN_AIM: " of chance to win", "score": ""}
    return " and ".join(pm.cost_words(t, unit) + of[unit] for unit, t in totals.items() if t)


def board_html(state: TurnState, top: int = 6) -> str:
    """The board as a static picture (HTML, no kernel needed): the phase, the rolls left, the
    ten dice in their colors (held dice framed) and the advisor's words for this state. A
    widget's view is blank without a live kernel; this is what a printed handout or a page of
    the documentation site shows in its place, drawn from the same :class:`TurnState`.

    >>> st = TurnState(phase=1, seed=7)
    >>> page = board_html(st)
    >>> "Phase 1" in page, "3 rolls left" in page, page.count("p10-static-die") == 10
    (True, True, True)
    >>> st.roll(); "2 rolls left" in board_html(st) and "P(complete)" in board_html(st)
    True
    """
    left = state.rolls_left
    goal = "complete the phase" if state.objective == "complete" else "score as much as possible"
    dice = []
    for i, f in enumerate(state.dice):
        held = i in state.held or i in state.aside
        face = chip(f)
        if held:  # framed, as on the live board
            face = face.replace("<span ", "<span style='outline:3px solid #111' ", 1)
        dice.append(
            f"<span class='p10-static-die' style='display:inline-block;text-align:center;"
            f"margin:0 4px 4px 0'>{face}<br><small>die {i + 1}{' held' if held else ''}</small>"
            "</span>"
        )
    if state.rolls_done == 0:
        v = state.phase_value()
        what = "chance to complete" if state.objective == "complete" else "expected score of"
        words = (
            f"<div class='p10-panel'><b>Roll to start.</b> With the best holds the {what} "
            f"phase {state.phase.number} this turn is <b>{pm.value_words(v, state.objective)}"
            "</b>. (Not rolled yet: the dice show ?.)</div>"
        )
    elif state.over:
        words = result_html(state)
    else:
        table = html.escape(state.advice().table(top=top))
        words = f"<div class='p10-panel'><b>The advisor's best holds</b><pre>{table}</pre></div>"
    return (
        f"<div class='p10-static-board' style='border:1px solid #999;border-radius:8px;"
        "padding:6px 12px;-webkit-print-color-adjust:exact;print-color-adjust:exact'>"
        f"<style>{stylesheet()}</style><p><b>Phase {state.phase.number}</b> "
        f"({state.phase.text}); goal: "
        f"{goal}; {left} roll{'s' if left != 1 else ''} left.</p><div>{''.join(dice)}</div>"
        f"{words}<p style='font-size:85%;color:#555'>The board as the cell left it (a picture: "
        "in Jupyter the board is interactive).</p></div>"
    )


def choices_summary(choices: Sequence[pm.Choice], when: str) -> str:
    """What the choices cost, e.g. ``Your choices this turn: roll 1 best, roll 2 mistake
    (3.1 percentage points); in all 3.1 percentage points of chance lost.`` (HTML)."""
    if not choices:
        return ""
    items = ", ".join(
        f"roll {c.roll} <b class='p10-label-{c.label}'>{c.label}</b>"
        + (f" ({pm.cost_words(c.cost, c.objective)})" if c.label != "best" else "")
        for c in choices
    )
    bad = sum(c.label in ("mistake", "blunder") for c in choices)
    lost = lost_words(choices)
    lost = (
        "every choice was the best"
        if not lost
        else f"in all {lost} lost"
        + (f" ({bad} mistake{'s' if bad != 1 else ''} or worse)" if bad else "")
    )
    return f"<b>Your choices {when}:</b> {items}; {lost}."


def compare_html(state: TurnState, a: set[int], b: set[int], b_name: str) -> str:
    """Your hold and another hold side by side, after each remaining roll."""

    rows = state.compare(a, b)
    obj = state.objective
    body = "".join(
        f"<tr><td>{r.label}</td><td>{pm.value_words(r.a, obj)}</td>"
        f"<td>{pm.value_words(r.b, obj)}</td></tr>"
        for r in rows
    )
    what = "chance to have made the phase" if obj == "complete" else "expected score"
    ka = chips(sorted((state.dice[i] for i in a), key=lambda f: (-f.value, f.color or "")))
    kb = chips(sorted((state.dice[i] for i in b), key=lambda f: (-f.value, f.color or "")))
    return (
        f"<div class='p10-panel'><b>Compare</b> ({what}, best play in between)"
        "<div class='p10-scroll'><table class='p10-compare-table'><tr><th></th>"
        f"<th>your hold {ka}</th><th>{html.escape(b_name)} {kb}</th></tr>{body}</table></div>"
        "</div>"
    )


def picker_html(state: TurnState) -> str:
    """The dice to be rolled with their six faces (where a "which die is this?" picker goes)."""

    rows = "".join(
        f"<tr><td>die {i + 1}</td><td>{''.join(chip(f) for f in faces)}</td></tr>"
        for i, faces in state.rolled_dice_faces()
    )
    return (
        "<details class='p10-panel'><summary>The dice you roll and their six faces</summary>"
        f"<div class='p10-scroll'><table>{rows}</table></div></details>"
    )


def preview_html(text: str, n: int) -> str:
    """The faces typed so far as chips, ``k of n`` (``n`` dice rolled), a token not read as
    a face shown as a red ``?`` chip: what the typed roll will put on the dice.

    >>> html_ = preview_html("10o W x", 10)
    >>> html_.count("<span class='p10-chip"), "3 of 10" in html_, "p10-chip-bad" in html_
    (3, True, True)
    """
    tokens = text.split()
    if not tokens:
        return ""
    shown = []
    for tok in tokens:
        try:
            shown.append(chip(parse_face(tok)))
        except InvalidDiceError:
            shown.append(
                f"<span class='p10-chip p10-chip-bad' title='not a face: "
                f"{html.escape(tok, quote=True)}'>?</span>"
            )
    return f"<div class='p10-preview-line'>You typed {len(tokens)} of {n}: {''.join(shown)}</div>"
