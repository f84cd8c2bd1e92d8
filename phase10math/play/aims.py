"""One voice per aim, without widgets: the aim's best move for a turn, what a choice costs,
and the questions asked before a move that is not the aim's best.

The aims are the turn's own objective (make the phase, score most) and "Win the game"
(:mod:`phase10math.play.win`): where the two-player table knows the hold to win finely
enough (a :class:`~phase10math.play.win.WinLine` covered, not coarser than
:data:`~phase10math.play.win.COARSE`), it speaks and judges; elsewhere the turn's own aim
does. The board's main button, its stars, the verdict, the questions and the summaries all
read :func:`best_move` and :func:`choice_cost`, so that they never disagree.

>>> from phase10math.play.models import TurnState
>>> st = TurnState(phase=1, seed=4)
>>> best_move(st, None)
('roll', None)
>>> st.enter("6o 9b 6b 9r 6b 9g Wr 3g Wg 3b")  # 6 6 6 + 9 9 9: made
>>> best_move(st, None)
('stop', None)
>>> print(roll_question(st, None, show=True))  # doctest: +NORMALIZE_WHITESPACE
Your dice already make phase 1 (45 points). Rolling the 10 dice you do not hold can lose it.
Your chance to make it falls from 100% to 90.9%.
"""

from __future__ import annotations

from fractions import Fraction

from phase10math.errors import Phase10MathError
from phase10math.play.models import WIN_AIM, TurnState, mistake_label, pct
from phase10math.play.win import COARSE, WinLine, win_cost

#: The moves of :func:`best_move`: roll (before the first roll), hold (then roll on with the
#: hold), stop (and score), new (the turn is over: the next turn).
MOVES = ("roll", "hold", "stop", "new")


def win_dice(line: WinLine | None) -> frozenset[int] | None:
    """The dice of the hold to win where "Win the game" speaks for this roll: the table
    covers it, finely enough to judge by (else None: the turn's own aim speaks)."""
    if not isinstance(line, WinLine) or not line.covered or line.bound > COARSE:
        return None
    return line.best_dice


def best_move(state: TurnState, line: WinLine | None) -> tuple[str | None, frozenset[int] | None]:
    """The aim's best move now: ``("roll", None)`` before the first roll, ``("new", None)``
    once the turn is over, ``("stop", None)`` when stopping is best, ``("hold", dice)`` when
    rolling on with the hold ``dice`` is best (the hold to win where "Win the game" speaks,
    see :func:`win_dice`), ``(None, None)`` where the best hold depends on which die shows a
    typed face."""
    if state.over:
        return "new", None
    if state.rolls_done == 0:
        return "roll", None
    to_win = win_dice(line)
    if to_win is not None:
        return ("stop", None) if len(to_win) == state.n_dice else ("hold", frozenset(to_win))
    try:
        adv = state.advice()
        if adv is None or adv.ambiguous:
            return None, None
        if state.stop_advised():
            return "stop", None
        return "hold", frozenset(state.option_dice(adv.best))
    except Phase10MathError:
        return None, None


def choice_cost(
    state: TurnState, line: WinLine | None, stopping: bool = False
) -> tuple[Fraction, str] | None:
    """What rolling on with the dice held (or stopping now, ``stopping``) costs against the
    aim's best move, and the aim that judges it: the chance to win where "Win the game"
    speaks, else the turn's objective (stopping: the value of the dice as they lie, not of
    holding every die). None where it cannot be judged."""
    try:
        st = state.standing()
    except Phase10MathError:
        return None
    if st is None:
        return None
    to_win = None if win_dice(line) is None else win_cost(line, bool(state.held), stopping)
    if to_win is not None:
        return to_win, WIN_AIM
    if stopping:
        return st.best.value - state.stop_value(), str(state.objective)
    if st.mine is None:
        return None
    return st.cost, str(state.objective)


def roll_question(state: TurnState, line: WinLine | None, show: bool = True) -> str | None:
    """The question before rolling on with the dice held, where that is not the aim's best
    move and it can lose a phase already made, or stopping is best (None: no question; the
    aim's best hold never asks). ``show``: with the numbers (not in hint mode)."""
    made = state.made_now()
    cur = state.current_option() if made is not None else None
    if made is None or cur is None:
        return None
    mine = cur[1]
    p = mine.value if state.objective == "complete" else mine.value2  # keeps the phase made
    move, _dice = best_move(state, line)
    k = len(state.rolled_dice())
    head = f"Your dice already make phase {state.phase.number} ({made.score} points)."
    risk = f" Rolling the {k} dice you do not hold can lose it." if p < 1 else ""
    cost = choice_cost(state, line)
    if cost is None or cost[0] <= 0 or (move != "stop" and p == 1):
        return None
    if not show:
        return head + risk
    if cost[1] == WIN_AIM:
        yours = line.mine_chance if state.held else line.reroll_chance
        if move == "stop":
            return (
                f"{head}{risk} Best to win: stop and score {made.score} "
                f"({pct(line.stop_chance)} vs {pct(yours)} if you roll on)."
            )
        return (
            f"{head}{risk} Best to win: roll on with the hold \u2605 marks "
            f"({pct(line.best_chance)} vs {pct(yours)} with yours)."
        )
    if state.objective == "complete":
        return f"{head}{risk} Your chance to make it falls from 100% to {pct(p)}."
    if move == "stop":
        return (
            f"{head}{risk} Best for points: stop and score {made.score} (your hold rolls "
            f"on for {float(mine.value):.1f} points on average)."
        )
    best = state.standing().best
    return (
        f"{head}{risk} Best for points: roll on with the hold \u2605 marks "
        f"({float(best.value):.1f} points on average vs {float(mine.value):.1f} with yours)."
    )


def stop_question(
    state: TurnState, line: WinLine | None, show: bool = True, in_game: bool = False
) -> str | None:
    """The question before stopping now, where it fails the phase, or where the phase is
    made and rolling on is better by a mistake's worth (None: no question). ``show``: with
    the numbers (not in hint mode); ``in_game``: a failed phase stays to do."""
    if not state.rolls_done or state.over:
        return None
    made = state.made_now()
    cost = choice_cost(state, line, stopping=True)
    if cost is None:  # not judged: a failed phase still asks, with no numbers
        best, cost = "", (Fraction(0), str(state.objective))
    elif cost[1] == WIN_AIM:
        best = (
            f" Best to win: roll again{' for points' if made else ''} "
            f"({pct(line.best_chance)} vs {pct(line.stop_chance)} if you stop)."
        )
    elif state.objective == "complete":
        best = ""
    else:
        best = (
            f" Best for points: roll again ({float(state.standing().best.value):.1f} points "
            f"on average vs {made.score if made else 0} if you stop)."
        )
    if made is None:
        return (
            f"Stopping now fails phase {state.phase.number}: this turn scores nothing"
            + (" and the phase stays to do." if in_game else ".")
            + (f" You have {state.rolls_left} roll(s) left." if state.rolls_left else "")
            + (best if show and cost[0] else "")
        )
    if not show or mistake_label(cost[0], cost[1]) in ("best", "fine"):
        return None
    return f"Your dice make phase {state.phase.number} for {made.score} points." + best
