"""Interactive play in Jupyter (ipywidgets): a turn with the hold advisor, typed physical
rolls, and a whole game against computer strategies.

The state of a turn lives in :class:`TurnState`, a plain object without widgets (seeded RNG,
dice in layout order, held dice, roll count); :class:`TurnWidget` is only its view and
controller, so tests drive the widgets (``button.click()``, ``text.value = ...``) and check
the state and the HTML the advisor panel shows.

Every element has stable DOM classes for browser tests: ``p10-die`` (and ``p10-die-<i>``,
``p10-held``), ``p10-roll``, ``p10-stop``, ``p10-best``, ``p10-new``, ``p10-advice``,
``p10-status``, ``p10-mode``, ``p10-layout`` (the dice set), ``p10-entry``, ``p10-enter``,
``p10-message`` (refusals of the buttons and dice), ``p10-entry-message`` (refusals of a
typed roll), ``p10-suggest`` (dice of the best hold), ``p10-reveal`` (hint mode),
``p10-compare``, ``p10-busy``, and for typed faces that fit the dice in several ways
``p10-which`` with ``p10-pick-face-<i>`` (tap the face now shown as die i) and
``p10-pick-die-<j>`` (it lies on die j, shown with its six faces).

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
import time
from collections.abc import Callable, Sequence
from fractions import Fraction

from phase10math.checks import public
from phase10math.dice.faces import COLOR_NAMES, Face, Layout
from phase10math.dice.layouts import DEFAULT_LAYOUT, LAYOUTS, get_layout
from phase10math.dice.phases import PHASES, Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules
from phase10math.errors import InvalidHoldError, Phase10MathError
from phase10math.play import models as pm
from phase10math.play.models import WIN_AIM, TurnState, face_label, value_text
from phase10math.play.palette import LETTERS, PALETTE, text_color
from phase10math.play.why import why
from phase10math.play.win import COARSE, WinLine, why_win, win_cost, win_text
from phase10math.turn import tables

#: Background color of a die face, per color code (None: color not known); color-blind safe,
#: and every face also shows its color letter (see :mod:`phase10math.play.palette`).
DIE_COLORS = PALETTE


def error_html(e: Exception | str) -> str:
    """A refusal or bad-input message, shown in red beside the input."""
    return (
        f"<span class='p10-refusal' role='alert'>&#9888; {html.escape(str(e), quote=False)}</span>"
    )


def note_html(text: str) -> str:
    """A note beside a control: what the app does instead (not a refusal of the input)."""
    return f"<span class='p10-note'>&#8505; {html.escape(text, quote=False)}</span>"


def ipw():
    import ipywidgets

    return ipywidgets


def css_classes(widget, *names: str):
    for n in names:
        widget.add_class(n)
    return widget


def _css() -> str:

    colors = "".join(
        f".p10-c-{c or 'x'}{{background:{PALETTE[c]} !important;color:{text_color(c)} !important}}"
        f"button.p10-die.p10-c-{c or 'x'}::after{{content:'{LETTERS[c]}'}}"
        for c in PALETTE
    )
    return colors + APP_CSS


#: The look of the board and the app: large touch targets, wrapping rows from 360 px up.
APP_CSS = """
.p10-app, .p10-turn, .p10-game {max-width:100%; box-sizing:border-box}
.p10-turn {gap:6px}
.p10-turn .widget-hbox, .p10-game .widget-hbox {flex-wrap:wrap; gap:6px; max-width:100%}
.p10-turn button.widget-button, .p10-game button.widget-button,
.p10-turn .widget-toggle-button, .p10-game .widget-toggle-button {
  width:auto !important; min-width:44px; min-height:44px; height:auto;
  overflow:visible; white-space:nowrap; padding:0 14px; font-size:15px; margin:0}
.p10-turn .widget-toggle-buttons .widget-toggle-button {min-height:44px}
.p10-turn .widget-toggle-buttons {flex-wrap:wrap; gap:4px}
.p10-turn .widget-toggle-button.mod-active {box-shadow:inset 0 -4px 0 #111; font-weight:bold;
  background:#e8eefc}
.p10-field {display:flex; align-items:center; gap:6px; flex-wrap:wrap}
.p10-label {font-weight:bold; min-width:3.2em}
.p10-turn .p10-dice {display:grid !important; grid-template-columns:repeat(5, max-content);
  gap:12px; padding:14px 10px 14px 10px; overflow:visible}
.p10-turn button.p10-die {position:relative; width:60px !important; height:60px !important;
  min-width:60px; padding:0; font-size:24px; font-weight:bold; border-radius:10px;
  border:3px solid rgba(0,0,0,.35); overflow:visible}
.p10-turn button.p10-die::after {position:absolute; right:4px; bottom:1px; font-size:12px;
  font-weight:bold; letter-spacing:0}
.p10-turn button.p10-die.p10-held {box-shadow:0 0 0 4px #fff, 0 0 0 8px #111;
  transform:translateY(-3px)}
.p10-turn button.p10-die.p10-aside {box-shadow:0 0 0 4px #fff, 0 0 0 8px #555;
  border-style:dashed}
.p10-turn button.p10-die.p10-suggest::before {content:'\\2605'; position:absolute; left:3px;
  top:0; font-size:14px; color:inherit}
.p10-turn button.p10-die.p10-suggest {outline:3px dotted #111; outline-offset:5px}
.p10-turn button.p10-die:disabled {opacity:1; cursor:default}
.p10-msg:empty, .p10-busy:empty {display:none}
.p10-progress {background:#e8eefc; border-left:4px solid #0b4f8a; padding:10px; color:#111;
  font-size:16px}
.p10-progress progress {display:block; width:100%; height:16px; margin-top:6px}
.p10-msg {display:block}
.p10-note {display:block; color:#111; background:#e8eefc; border-left:4px solid #0b4f8a;
  padding:6px 10px}
.p10-refusal {display:block; color:#9b0014; background:#fdecee; border-left:4px solid #9b0014;
  padding:6px 10px; font-weight:bold}
.p10-busy-on {opacity:0; animation:p10-appear 0s linear .3s forwards; color:#444;
  font-style:italic}
@keyframes p10-appear {to {opacity:1}}
.p10-made-it {background:#e7f6ea; border:2px solid #1b5e20; border-radius:8px; padding:8px 10px;
  font-weight:bold; margin:4px 0}
.p10-panel {font-size:15px; line-height:1.45; max-width:760px; overflow-wrap:normal;
  word-break:normal}
.p10-panel td, .p10-panel th {white-space:nowrap}
.p10-panel td.p10-keep {white-space:normal; min-width:8.5em}
.p10-panel .p10-compare-table td, .p10-panel .p10-compare-table th {white-space:normal}
.p10-chip {white-space:nowrap}
.p10-verdict {font-size:16px; margin:2px 0 6px 0}
.p10-label-best, .p10-label-fine {color:#1b5e20}
.p10-label-mistake {color:#8a4b00}
.p10-label-blunder {color:#9b0014}
.p10-app summary {min-height:44px; display:list-item; line-height:44px; cursor:pointer;
  font-weight:bold}
.p10-ask {background:#fff4e0; border-left:4px solid #8a4b00; padding:8px 10px;
  font-weight:bold; color:#3d2200}
.p10-confirm {margin:4px 0}
/* contrast >= 4.5:1 for every button style (Jupyter's defaults are lighter) */
.p10-app button.mod-primary {background:#0b4f8a !important; color:#fff !important}
.p10-app button.mod-success {background:#1b5e20 !important; color:#fff !important}
.p10-app button.mod-info {background:#005a70 !important; color:#fff !important}
.p10-app button.mod-warning {background:#8a4b00 !important; color:#fff !important}
.p10-app button.mod-danger {background:#9b0014 !important; color:#fff !important}
.p10-app .widget-toggle-button.mod-active {color:#111}
.p10-app .lm-TabBar-tab {min-height:44px !important; line-height:44px !important;
  font-size:15px; color:#111 !important}
.p10-app .lm-TabBar {min-height:46px !important}
.p10-app .widget-html, .p10-app .widget-label {color:#111}
.p10-settings-toggle {white-space:normal !important; text-align:left}
.p10-turn .p10-pad-box {gap:4px}
.p10-turn button.p10-pad {min-width:44px; padding:0 6px; font-weight:bold}
.p10-app .widget-dropdown > select, .p10-app input {font-size:16px !important;
  min-height:44px}
.p10-panel table {border-collapse:collapse; margin:4px 0}
.p10-panel td, .p10-panel th, .p10-sheet td, .p10-sheet th, .p10-standings td,
.p10-standings th {padding:4px 6px;
  border-bottom:1px solid #ddd; text-align:left}
.p10-panel tr.p10-current {background:#fff3b0; font-weight:bold}
.p10-chip {display:inline-block; min-width:1.9em; padding:1px 4px; margin:1px; border-radius:5px;
  text-align:center; font-weight:bold; border:1px solid rgba(0,0,0,.35)}
.p10-chip sub {font-size:70%; margin-left:1px}
.p10-scroll {overflow-x:auto; max-width:100%}
.p10-app .widget-html, .p10-app .widget-html-content {min-width:0; max-width:100%}
.p10-sheet {border-collapse:collapse}
.p10-sheet td.num {text-align:right}
.p10-sheet td, .p10-sheet th {white-space:nowrap}
.p10-sheet th {white-space:normal; vertical-align:bottom; min-width:3em}
.p10-sheet td:first-child, .p10-sheet th:first-child {position:sticky; left:0; z-index:1;
  background:#fff}
.p10-standings {border-collapse:collapse; margin:4px 0 8px 0}
.p10-standings td.num, .p10-standings th.num {text-align:right}
.p10-sheet tr.p10-total-row td {font-weight:bold; border-top:2px solid #333}
.p10-entry {flex:1 1 220px; min-width:0; max-width:460px}
.p10-entry input {font-size:17px; min-height:44px}
.p10-game-cols > .widget-vbox {flex:1 1 340px; min-width:0}
.p10-game-top {align-items:center}
.p10-game-top > .p10-game-status {flex:1 1 260px; min-width:0}
.p10-turn .widget-dropdown, .p10-game .widget-dropdown {width:auto; max-width:100%;
  height:auto}
.p10-turn .widget-dropdown > select {font-size:16px; min-height:44px; max-width:100%}
.p10-game .widget-dropdown > select {font-size:16px; min-height:44px}
.p10-loglist li {margin:2px 0}
@media (max-width: 600px) {
  .p10-turn button.p10-die {width:54px !important; height:54px !important; min-width:54px;
    font-size:22px}
  .p10-turn .p10-dice {gap:8px; padding:10px 4px}
  .p10-panel {font-size:15px}
  .p10-keys {display:none}
  .p10-ph-text {display:none}
  /* the sticky bottom bar: Roll, Hold best, Stop always in reach */
  .p10-turn .p10-actions {position:sticky; bottom:0; z-index:10; background:#fff;
    padding:6px 0; border-top:1px solid #bbb}
  .p10-turn .p10-actions button.widget-button {padding:0 10px; font-size:15px}
  .p10-app .widget-tab > .widget-tab-contents, .p10-app .lm-TabPanel {padding:6px 4px !important}
  .p10-app .p10-turn .p10-dice {padding:10px 2px}
}
@media (max-width: 420px) {
  .p10-turn button.p10-die {width:50px !important; height:50px !important; min-width:50px;
    font-size:21px}
  .p10-turn .p10-dice {gap:7px}
}
"""

#: Keyboard shortcuts: R roll, 1-9 and 0 hold die 1-10, Enter submits a typed roll,
#: H holds the best, S stops, N next/new turn. Installed once per page, in the capture phase
#: (ipywidgets text boxes stop keydown events from bubbling).
KEYS_JS = (
    "if(!window.__p10keys){window.__p10keys=1;document.addEventListener('keydown',function(e){"
    "var t=e.target;var board=null;var all=document.querySelectorAll('.p10-turn');"
    "for(var k=0;k<all.length;k++){if(all[k].offsetParent!==null){board=all[k];break;}}"
    "if(!board)return;var inp=t&&(t.tagName==='INPUT'||t.tagName==='TEXTAREA'||"
    "t.tagName==='SELECT');"
    "if(inp){if(e.key==='Enter'&&t.closest('.p10-entry')){var b=t.closest('.p10-turn')"
    ".querySelector('.p10-enter');if(b){e.preventDefault();b.click();t.blur();}}return;}"
    "if(e.ctrlKey||e.metaKey||e.altKey)return;var q=null;"
    "if(e.key==='r'||e.key==='R')q='.p10-roll';else if(e.key==='h'||e.key==='H')q='.p10-best';"
    "else if(e.key==='s'||e.key==='S')q='.p10-stop';else if(e.key==='n'||e.key==='N')"
    "q='.p10-new';else if(e.key==='c'||e.key==='C')q='.p10-reveal';"
    "else if(e.key==='u'||e.key==='U')q='.p10-undo';"
    "else if(e.key==='Enter')q='.p10-enter';"
    "else if(/^[0-9]$/.test(e.key))q='.p10-die-'+((+e.key+9)%10);"
    "if(!q)return;var el=board.querySelector(q);"
    "if(q==='.p10-best'&&el&&el.offsetParent===null)el=board.querySelector('.p10-stop');"
    "if(el&&el.offsetParent!==null&&!el.disabled){e.preventDefault();el.click();}},true);}"
)


def style_widget():
    """An HTML widget carrying the app's CSS and keyboard shortcuts (once per page is enough;
    each board carries one so it also looks right on its own)."""
    w = ipw()
    js = html.escape(KEYS_JS, quote=True)
    return css_classes(
        w.HTML(
            f'<style>{_css()}</style><img src="data:," alt="" style="display:none" onerror="{js}">'
        ),
        "p10-style",
    )


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
    state: TurnState, top: int = 6, reveal: bool = True, beside_win: str | None = None
) -> str:
    """The advisor panel in plain words: the best hold, your hold against it (cost in
    percentage points), why, and on demand the ranked holds with exact fractions.
    ``beside_win``: the aim "Win the game" shows the hold to win above, and this panel the
    turn's own aim in these words (e.g. "make the phase"): its verdict says "To make the
    phase:" instead of "Best:", its fold "Why, to make the phase", and a made phase is not
    told to stop."""

    if state.rolls_done == 0:
        v = state.phase_value()
        what = "chance to complete" if state.objective == "complete" else "expected score"
        return (
            f"<div class='p10-panel'><b>Roll to start.</b> With the best holds the {what} of "
            f"phase {state.phase.number} this turn is <b>{pm.value_words(v, state.objective)}"
            f"</b>.<details><summary>exact</summary><code>{v}</code></details></div>"
        )
    if state.over:
        return _result_html(state)
    st = pm.standing(state)
    if st is None:
        return ""
    if not reveal:
        mine = chips(state.held_faces())
        return (
            "<div class='p10-panel'><b>Hint mode.</b> Choose your hold by clicking dice "
            f"(now: {mine}), then press <b>Check my hold</b> to see the best hold and what "
            "your choice costs.</div>"
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
    made = pm.made_now(state)
    if made is not None and pm.stop_advised(state):
        stop = f" Stop and score {made.score}." if beside_win is None else ""
        parts.append(
            f"<div class='p10-made-it'>&#10004; You made phase {state.phase.number}: "
            f"{html.escape(pm.groups_words(made))}.{stop}</div>"
        )
    label = "Best" if beside_win is None else f"To {beside_win}"
    parts.append(verdict_html(state, st, label))
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
        "<div class='p10-scroll'><table><tr><th>rank</th><th>keep</th><th>reroll</th>"
        f"<th>{unit}</th><th>exact</th><th></th></tr>{''.join(rows)}</table></div>"
        f"<div><small>{unit}: {AIMS[obj]}. Equal values share a rank (=). "
        f"{HOLDS[state.rules.holds].capitalize()}. Exact values are fractions of all "
        "equally likely rolls.</small></div></details>"
    )
    parts.append("</div>")
    return "".join(parts)


def verdict_html(state: TurnState, st: pm.Standing, label: str = "Best") -> str:
    """The one-line verdict: the best hold (or "stop now") and, once the player has chosen a
    hold, the label and cost of their hold (``p10-verdict`` with ``p10-best-line`` and
    ``p10-mine-line``); ``label`` names the best hold (e.g. "To make the phase": then the
    player's hold is measured against it, not judged). A hold carried over from the last roll
    is not judged until the player changes it, or rolls or stops with it."""
    obj = state.objective
    best = st.best
    stop = len(best.keep) == state.n_dice and not state.advice().ambiguous
    others = st.best_ties - 1
    tie_note = (
        f" <i>({others} other hold{'s are' if others > 1 else ' is'} as good)</i>"
        if others and not stop
        else ""
    )
    if stop:
        best_part = f"<b>{label}:</b> stop now &rarr; <b>{pm.value_words(best.value, obj)}</b>"
    else:
        keeps = (
            f"keep {chips(best.keep)}, reroll {best.rerolled}"
            if best.keep
            else (f"reroll all {state.n_dice}")
        )
        best_part = f"<b>{label}:</b> {keeps} &rarr; <b>{pm.value_words(best.value, obj)}</b>"
    best_part = f"<span class='p10-best-line'>{best_part}{tie_note}.</span>"
    return f"<div class='p10-verdict'>{best_part}{mine_html(state, st, label)}</div>"


def mine_html(state: TurnState, st: pm.Standing, label: str = "Best") -> str:
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
        same = "the best hold" if label == "Best" else "the same"
        return f"<span class='p10-mine-line'> <b>Yours:</b> {same}.</span>"
    points = "points of chance" if obj == "complete" else "points"
    cost = pm.cost_words(st.cost, obj).replace("percentage points", points)
    kept = f"keep {chips(st.mine.keep)} &rarr; {pm.value_words(st.mine.value, obj)}"
    if label == "Best":  # judged by the turn's aim
        judged = f"<b class='p10-label-{st.label}'>{st.label}</b>, {kept}, costs {cost}"
    else:  # beside the hold to win: how the hold serves the turn's aim, not judged
        judged = f"{kept}, {cost} less"
    return f"<span class='p10-mine-line'> <b>Yours:</b> {judged}.</span>"


def _result_html(state: TurnState) -> str:
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
    made = pm.made_now(state)
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
    if not state.held:
        mine = (
            "<span class='p10-mine-line p10-mine-none'> Tap dice to hold them (&#9733; marks "
            "the hold to win); your hold is judged once you hold some.</span>"
        )
    elif state.hold_carried:
        mine = (
            "<span class='p10-mine-line p10-mine-carried'> You still hold "
            f"{chips(state.held_faces())} from the last roll: it is judged once you change "
            "it, or roll or stop with it.</span>"
        )
    else:
        cost = win_cost(line, True)
        held = chips(state.held_faces())
        if cost is None or line.mine_chance is None:
            mine = f"<span class='p10-mine-line'> <b>Yours:</b> keep {held}.</span>"
        elif cost == 0:
            mine = "<span class='p10-mine-line'> <b>Yours:</b> the hold to win.</span>"
        else:
            label = pm.mistake_label(cost, WIN_AIM)
            mine = (
                f"<span class='p10-mine-line'> <b>Yours:</b> <b class='p10-label-{label}'>"
                f"{label}</b>, keep {held} &rarr; {pm.pct(line.mine_chance)}, costs "
                f"{pm.cost_words(cost, WIN_AIM)} of chance to win.</span>"
            )
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
        words = _result_html(state)
    else:
        table = html.escape(state.advice().table(top=top))
        words = f"<div class='p10-panel'><b>The advisor's best holds</b><pre>{table}</pre></div>"
    return (
        f"<div class='p10-static-board' style='border:1px solid #999;border-radius:8px;"
        "padding:6px 12px;-webkit-print-color-adjust:exact;print-color-adjust:exact'>"
        f"<style>{_css()}</style><p><b>Phase {state.phase.number}</b> ({state.phase.text}); goal: "
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

    rows = pm.compare(state, a, b)
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


@public
class TurnWidget:
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
        # what each choice of this turn cost (see _note_choice)
        self.choices: list[pm.Choice] = []
        self._choices_before: list = []  # the choices before the move that Undo takes back
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
            w.Button(description="Next turn" if next_turn else "New turn", tooltip="N"), "p10-new"
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
        self.entry_label = css_classes(w.HTML(), "p10-entry-label")
        self.enter_button = css_classes(
            w.Button(description="Use roll", tooltip="Enter"), "p10-enter"
        )
        self.enter_button.on_click(lambda _b: self._enter())
        self.message = css_classes(w.HTML(value=""), "p10-message", "p10-msg")
        self.entry_message = css_classes(w.HTML(value=""), "p10-entry-message", "p10-msg")
        self.picker = css_classes(w.HTML(), "p10-picker")
        # "which die is this?": the typed faces (tap one), then the dice that can show it
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
                    self.pad,
                    self.entry_message,
                    self.which_box,
                    self.picker,
                ]
            ),
            "p10-entry-box",
        )

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

        self.status = css_classes(w.HTML(), "p10-status")
        self.busy = css_classes(w.HTML(), "p10-busy")
        self.advice = css_classes(w.HTML(), "p10-advice")

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
        self.settings_box = css_classes(w.VBox(settings), "p10-settings")
        self.settings_box.layout.display = "none"
        self.settings_toggle.observe(
            lambda c: setattr(self.settings_box.layout, "display", "" if c["new"] else "none"),
            names="value",
        )
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
        else:
            self.message.value = ""
            self.entry_message.value = ""
            if self.state.undoable is not None and self.state.undoable is not undo_before:
                self._choices_before = choices_before
        try:
            self.refresh()
        finally:
            self.busy.value = ""

    def _note_choice(self, stopping: bool = False) -> None:
        """Remember what the hold chosen before this roll cost (shown at the end)."""

        try:
            st = pm.standing(self.state)
        except Phase10MathError:
            return
        if st is None:
            return
        line = self._win if isinstance(self._win, WinLine) else None
        to_win = None if line is None else win_cost(line, bool(self.state.held), stopping)
        if to_win is not None:  # the aim "Win the game": judged by the chance to win
            cost, aim = to_win, WIN_AIM
        elif stopping:  # the value of stopping, not of holding every die (rolls are left)
            cost, aim = st.best.value - pm.stop_value(self.state), self.state.objective
        elif st.mine is None:
            return
        else:
            cost, aim = st.cost, self.state.objective
        st = self.state
        self.choices.append(pm.judge(st.rolls_done, cost, aim, st.phase.number))

    def _roll(self) -> None:
        if (
            self.state.rolls_done
            and not self.state.over
            and len(self.state.held) == self.state.n_dice
        ):
            if pm.made_now(self.state) is not None:
                raise InvalidHoldError(
                    "every die is held and the phase is made: press Stop & score"
                )
            raise InvalidHoldError("every die is held: release some dice to roll them, or Stop")
        risk = self._roll_risk()
        if risk is not None:
            self._ask(risk, f"Roll {len(pm.rolled_dice(self.state))} dice anyway", self._roll_now)
            return
        self._roll_now()

    def _roll_now(self) -> None:
        if self.state.rolls_done and not self.state.over:
            self._note_choice()
        self.state.roll()
        self.revealed = False

    def _roll_risk(self) -> str | None:
        """Why rolling on with the dice held is not the aim's best move where it can lose a
        phase already made, or where stopping is best (None: no question; rolling on with
        the aim's best hold never asks)."""
        st = self.state
        made = pm.made_now(st)
        cur = st.current_option() if made is not None else None
        if made is None or cur is None:
            return None
        mine = cur[1]
        p = mine.value if st.objective == "complete" else mine.value2  # keeps the phase made
        move, _dice = self.best_move()
        show = not self.hint_toggle.value or self.revealed
        k = len(pm.rolled_dice(st))
        head = f"Your dice already make phase {st.phase.number} ({made.score} points)."
        risk = f" Rolling the {k} dice you do not hold can lose it." if p < 1 else ""
        line = self._win
        if self._win_speaks():
            cost = win_cost(line, bool(st.held))
            if cost is None or cost <= 0 or (move != "stop" and p == 1):
                return None
            yours = line.mine_chance if st.held else line.reroll_chance
            if not show:
                return head + risk
            if move == "stop":
                return (
                    f"{head}{risk} Best to win: stop and score {made.score} "
                    f"({pm.pct(line.stop_chance)} vs {pm.pct(yours)} if you roll on)."
                )
            return (
                f"{head}{risk} Best to win: roll on with the hold \u2605 marks "
                f"({pm.pct(line.best_chance)} vs {pm.pct(yours)} with yours)."
            )
        best = pm.standing(st).best
        if best.value - mine.value <= 0 or (move != "stop" and p == 1):
            return None
        if not show:
            return head + risk
        if st.objective == "complete":
            return f"{head}{risk} Your chance to make it falls from 100% to {pm.pct(p)}."
        if move == "stop":
            return (
                f"{head}{risk} Best for points: stop and score {made.score} (your hold rolls "
                f"on for {float(mine.value):.1f} points on average)."
            )
        return (
            f"{head}{risk} Best for points: roll on with the hold \u2605 marks "
            f"({float(best.value):.1f} points on average vs {float(mine.value):.1f} with yours)."
        )

    def _stop_question(self) -> str | None:
        """Why stopping now is not the aim's best move, where it fails the phase or costs a
        mistake's worth (None: no question)."""
        st = self.state
        if not st.rolls_done or st.over:
            return None
        made = pm.made_now(st)
        show = not self.hint_toggle.value or self.revealed
        line = self._win
        if self._win_speaks():
            cost = win_cost(line, bool(st.held), stopping=True)
            best = (
                f" Best to win: roll again{' for points' if made else ''} "
                f"({pm.pct(line.best_chance)} vs {pm.pct(line.stop_chance)} if you stop)."
            )
        else:
            try:
                adv_best = pm.standing(st).best
            except Phase10MathError:
                return None
            cost = adv_best.value - pm.stop_value(st)
            if st.objective == "complete":
                best = ""
            else:
                best = (
                    f" Best for points: roll again ({float(adv_best.value):.1f} points on "
                    f"average vs {made.score if made else 0} if you stop)."
                )
        if made is None:
            return (
                f"Stopping now fails phase {st.phase.number}: this turn scores nothing"
                + (" and the phase stays to do." if self.next_turn is not None else ".")
                + (f" You have {st.rolls_left} roll(s) left." if st.rolls_left else "")
                + (best if show and cost else "")
            )
        aim = WIN_AIM if self._win_speaks() else str(st.objective)
        if not show or cost is None or pm.mistake_label(cost, aim) in ("best", "fine"):
            return None
        return f"Your dice make phase {st.phase.number} for {made.score} points." + best

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
                pm.enter_rerolled(self.state, text)
            except Phase10MathError:
                del self.choices[before:]
                raise
            self.entry.value = ""
            self.revealed = False

        self._do(go, where=self.entry_message)

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
            self.message.value = error_html(why)
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
            self.message.value = error_html(
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
        start = time.monotonic()
        title = (
            f"Solving phase {st.phase.number} ({st.phase.text}) on these dice for the first time"
        )

        def show(step: int, note: str) -> None:
            self.busy.value = (
                f"<div class='p10-progress' role='status'><b>{html.escape(title)}</b>: "
                f"step {step} of {st.rules.rolls}. {note}"
                f"<progress max='{st.rules.rolls}' value='{step}'></progress></div>"
            )

        show(0, "This takes tens of seconds once; later turns load it at once.")
        done = [0]

        def progress(_msg: str) -> None:
            done[0] += 1
            k = done[0]
            left = (time.monotonic() - start) / k * max(st.rules.rolls - k, 0)
            show(k, f"About {max(1, round(left))} s left." if k < st.rules.rolls else "Done.")

        try:
            tables.cached_solution(st.phase, st.objective, st.rules, st.layout, progress=progress)
            _READY.add(key)
        finally:
            for c, d in zip(controls, was, strict=True):
                c.disabled = d
            self.advice.layout.display = ""
            self.busy.value = ""

    def refresh(self) -> None:
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
            suggest = pm.meld_dice(st)
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
            n = len(pm.rolled_dice(st))
            self.entry_label.value = (
                f"<b>Type the {n} faces you rolled</b>"
                + (" (all ten dice)" if st.rolls_done == 0 else " (held dice stay)")
                + ", any order, then Enter:"
            )
            self.entry.placeholder = f"e.g. {pm.example_faces(st)}"
            self.picker.value = _picker_html(st)
        self.entry_box.layout.display = "" if typing and not st.over else "none"
        self.roll_button.layout.display = "none" if typing else ""
        self.roll_button.disabled = st.over
        self.stop_button.disabled = st.over or st.rolls_done == 0
        self.best_button.disabled = st.over or st.rolls_done == 0
        self.reveal_button.layout.display = "" if hint and not st.over else "none"
        self.reveal_button.disabled = st.rolls_done == 0 or self.revealed
        made = pm.made_now(st)
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
        elif made is not None and reveal and self._win_speaks():
            step = "you made the phase, but to win roll again for points (Hold best, then Roll)"
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
            self.advice.value = advice_html(st, self.top, reveal=reveal, beside_win=beside)
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

    def _win_speaks(self) -> bool:
        """The aim "Win the game" decides this roll: the table knows the hold to win, finely
        enough to judge by (else the turn's own aim speaks, and judges)."""
        return self._win_dice() is not None

    def best_move(self) -> tuple[str | None, frozenset[int] | None]:
        """The aim's best move now, what every control follows: ``("roll", None)`` before the
        first roll, ``("new", None)`` once the turn is over, ``("stop", None)`` when stopping
        is best, ``("hold", dice)`` when rolling on with the hold ``dice`` is best (the hold
        to win under "Win the game"), ``(None, None)`` where the best hold depends on which
        die shows a typed face."""
        st = self.state
        if st.over:
            return "new", None
        if st.rolls_done == 0:
            return "roll", None
        to_win = self._win_dice()
        if to_win is not None:
            return ("stop", None) if len(to_win) == st.n_dice else ("hold", frozenset(to_win))
        try:
            adv = st.advice()
            if adv is None or adv.ambiguous:
                return None, None
            if pm.stop_advised(st):
                return "stop", None
            return "hold", frozenset(pm.option_dice(st, adv.best))
        except Phase10MathError:
            return None, None

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

    def _win_dice(self) -> frozenset[int] | None:
        """The dice of the hold that plays to win, where the aim is "Win the game" and the
        table knows it for this roll."""
        line = getattr(self, "_win", None)
        if not isinstance(line, WinLine) or not line.covered or line.bound > COARSE:
            return None  # a coarse table: the turn's own aim speaks (and judges)
        return line.best_dice

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
        n_roll = len(pm.rolled_dice(st)) if not st.over else 0
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
        can = pm.dice_for_face(st, self.picking)
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
            b = pm.option_dice(st, other)
            name = "best hold" if k == 0 else f"hold {k + 1}"
            self.compare.value = compare_html(st, set(st.held), b, name)
        except Phase10MathError as e:
            self.compare.value = error_html(e)


#: The (phase, objective, rules, layout) whose solve this kernel has done or loaded.
_READY: set = set()

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


def _picker_html(state: TurnState) -> str:
    """The dice to be rolled with their six faces (where a "which die is this?" picker goes)."""

    rows = "".join(
        f"<tr><td>die {i + 1}</td><td>{''.join(chip(f) for f in faces)}</td></tr>"
        for i, faces in pm.rolled_dice_faces(state)
    )
    return (
        "<details class='p10-panel'><summary>The dice you roll and their six faces</summary>"
        f"<div class='p10-scroll'><table>{rows}</table></div></details>"
    )
