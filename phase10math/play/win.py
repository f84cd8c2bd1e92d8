"""The aim "Win the game" of a two-player game, without widgets: the chance to win from the
shipped two-player table, the hold that plays for it, and in words why the table does not
cover a state (it covers two players of a 10-phase game once both are at its first phase; a
color phase only on the dice it was solved on).

>>> from phase10math.game.engine import Game
>>> from phase10math.game.strategies import StopStrategy
>>> from phase10math.play.models import TurnState
>>> game = Game([StopStrategy(), StopStrategy()], seed=1)
>>> line = win_line(game, 0, [0, 1], TurnState(1))  # the recorded dice' whole game
>>> line.covered, 0.4 < line.chance < 0.6
(True, True)
>>> game.players[0].phase = 9  # 0 points at phase 9: no game from phase 1 gets there
>>> "cannot happen" in win_line(game, 0, [0, 1], TurnState(9)).message
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from phase10math.dice.faces import Layout, parse_faces
from phase10math.errors import InvalidRulesError
from phase10math.game.duel import (
    DuelSolution,
    chance_error,
    chance_to_win,
    check_table_rules,
    color_reason,
    shipped_dice,
    shipped_table,
    totals_reason,
    widest_table,
    win_advice,
)
from phase10math.game.spacemap import SpaceMap
from phase10math.play.models import TurnState, indices_for, pct
from phase10math.play.why import faces_words
from phase10math.turn.advisor import roll_fits
from phase10math.turn.statespace import StateSpace


@dataclass(frozen=True)
class WinLine:
    """What the panel shows for the aim "Win the game": ``covered`` False with ``message``
    the refusal; else ``chance`` (the chance to win now, a tie counted half), after a roll
    with rerolls left the hold that plays to win (``best_keep``, ``best_chance``, and
    ``best_dice``: the dice it keeps, from 0), the hold of the turn's own aim (``aim_keep``,
    ``aim_chance``) and, where the player holds dice, their hold's chance (``mine_chance``),
    the chance of holding nothing (``reroll_chance``) and of stopping now (``stop_chance``):
    what the player's choices are judged by (:func:`win_cost`). Typed faces: each of the
    three is None where the ranking or the hold depends on which die shows which face
    (:func:`typed_hold_ids`). ``error``: the proven bound on ``chance``'s error; ``bound``:
    on every hold's and stopping's chance (0 before a roll). Above :data:`COARSE` the panel
    says so, and the choices are not judged by the chance to win."""

    covered: bool
    message: str
    chance: float | None = None
    best_keep: str | None = None
    best_chance: float | None = None
    aim_keep: str | None = None
    aim_chance: float | None = None
    question: str | None = None  # typed faces: the hold to win depends on their dice
    best_dice: frozenset[int] | None = None
    mine_chance: float | None = None
    reroll_chance: float | None = None
    stop_chance: float | None = None
    error: float = 0.0
    bound: float = 0.0
    # the position the chances are read at, for the words of why: (phase, total) of the
    # player and of the opponent, whether the opponent has finished (this turn is the last
    # chance) and the bonus for finishing first
    me: tuple[int, int] | None = None
    opponent: tuple[int, int] | None = None
    last: bool = False
    bonus: int = 0


#: The largest proven error of a chance to win that the panel shows without its margin and
#: judges choices by: half its resolution (0.1 percentage points), so that two chances'
#: errors move a cost by at most a tenth of the smallest label step (1 point). A table is
#: certified tightly where play from its start goes; elsewhere (e.g. the recorded dice' end
#: game at two players at phase 8 with different totals) its bounds can be points wide.
COARSE = 5e-4


def win_line(
    game: Any,
    seat: int,
    order: Sequence[int],
    state: TurnState,
    table: DuelSolution | None = None,
) -> WinLine:
    """The aim "Win the game" for the player in ``seat`` of ``game`` (an engine
    :class:`~phase10math.game.engine.Game` in turn ``order``) playing the turn ``state``."""
    own = table is None  # the widest shipped table for the dice: its advice is remembered
    table = table or widest_table(state.layout, getattr(game, "start_phase", 1))
    g = table.game
    players = game.players
    if len(players) != 2:
        return WinLine(
            False,
            f"Win the game is solved for two players; this game has {len(players)}. "
            "The advice plays for this turn's aim.",
        )
    if game.phases != g.hi:
        return WinLine(
            False,
            f"Win the game is solved for games of {g.hi} phases; this game has {game.phases}.",
        )
    try:
        check_table_rules(table, state.rules)
    except InvalidRulesError as e:
        return WinLine(False, f"Win the game: {e}.")
    me, opp = players[seat], players[1 - seat]
    last = opp.finished
    if not g.lo <= me.phase <= g.hi or not (last or g.lo <= opp.phase <= g.hi):
        return WinLine(
            False,
            f"Win the game: the solved table starts when both players are at phase {g.lo} "
            f"(you: phase {me.phase}, your opponent: phase {opp.phase}); until then the "
            "advice plays for this turn's aim.",
        )
    why = color_reason(table, (me.phase, opp.phase), state.layout)
    if why:
        return WinLine(
            False, f"Win the game: {why}; until then the advice plays for this turn's aim."
        )
    second = order[0] != seat
    mine, theirs = (me.phase, me.running_total), (opp.phase, opp.running_total)
    why = totals_reason(table, mine, theirs, last)
    if why:
        return WinLine(False, f"Win the game: {why}; the advice plays for this turn's aim.")
    chance, _tie = chance_to_win(table, mine, theirs, second, last, state.layout)
    error = chance_error(table, mine, theirs, second, last)
    pos = {
        "me": mine,
        "opponent": theirs,
        "last": bool(last),
        "bonus": state.rules.first_finish_bonus,
    }
    if state.rolls_done == 0 or state.over:
        return WinLine(True, "", chance, error=error, **pos)
    # as the turn's own advice: rolled dice die by die; typed faces fitted to the dice in
    # every way they go, except those the player placed on their die
    pinned = tuple(sorted(state.pinned)) if state.typed else None
    args = (mine, theirs, tuple(state.faces), state.rolls_left, second, last, state.layout)
    if own:
        adv = _shipped_advice((g.lo, g.hi), shipped_dice(table), pinned, *args)
    else:
        adv = _advice(table, pinned, *args)
    if adv["fits"]:  # the hold to win depends on which die shows a typed face
        return WinLine(True, "", chance, question=adv["question"], error=error, **pos)
    aim = adv["per_turn"][str(state.objective)]
    best_dice, mine, reroll = _dice_of_hold(table, me.phase, state, adv)
    return WinLine(
        True,
        "",
        chance,
        adv["best"]["keep"],
        adv["best"]["chance_to_win"],
        aim["keep"],
        aim["chance_to_win"],
        best_dice=best_dice,
        mine_chance=mine,
        reroll_chance=reroll,
        # typed faces whose ranking depends on their dice (no hold of nothing): not judged
        stop_chance=None if reroll is None else adv["stop"]["chance_to_win"],
        error=error,
        bound=adv["bound"],
        **pos,
    )


def _dice_of_hold(
    table: DuelSolution, phase: int, state: TurnState, adv: dict[str, Any]
) -> tuple[frozenset[int], float | None, float | None]:
    """The dice the hold to win keeps (dice held now first), the chance to win of the
    player's hold (None: nothing held) and of holding nothing, each None where it depends on
    which die shows which typed face: rolled dice by their hold's state id (the dice in
    layout order), typed faces by :func:`typed_hold_ids`."""
    space = table.game.turns[phase].space
    chances = {o["hold_id"]: o["chance_to_win"] for o in adv["options"]}
    if state.typed:
        dice = frozenset(indices_for(state, parse_faces(adv["best"]["keep"])))
        nothing, mine = typed_hold_ids(space, state, [(), state.held])
    else:
        dice = SpaceMap(space, state.layout).keep_for(
            adv["best"]["hold_id"], state.dice, frozenset(state.held)
        )
        nothing = space.hold_id(state.layout, {})
        mine = space.hold_id(state.layout, {i: state.dice[i] for i in state.held})
    reroll = None if nothing is None else chances.get(nothing)
    if not state.held or mine is None:
        return dice, None, reroll
    return dice, chances.get(mine), reroll


def typed_hold_ids(
    space: StateSpace, state: TurnState, holds: Sequence[Iterable[int]]
) -> list[int | None]:
    """The state id in ``space`` of each hold of ``holds``, a hold the typed faces it keeps
    (indices into ``state.faces``), where the answer does not depend on which die shows
    which face: the faces fit the dice in one way as the solver tells ways apart (so the
    ranking is that way's), and each kept face lies on dice of one type in it. Else None.
    The faces are fitted to the dice once for all the holds.

    >>> from phase10math.dice.layouts import COMPACT_LAYOUT
    >>> from phase10math.dice.phases import PHASES
    >>> from phase10math.turn.projection import VALUE
    >>> st = TurnState(PHASES[1], layout=COMPACT_LAYOUT)
    >>> st.enter("W 1 10 9 9 9 W 5 6 2")
    >>> space = StateSpace.build(COMPACT_LAYOUT, VALUE)
    >>> at = [i for i, f in enumerate(st.faces) if str(f) == "9"]  # the typed 9s
    >>> nines = dict(enumerate(parse_faces("9 9 9")))  # on the first three dice (high)
    >>> typed_hold_ids(space, st, [at, ()]) == [
    ...     space.hold_id(COMPACT_LAYOUT, nines), space.hold_id(COMPACT_LAYOUT, {})]
    True
    """
    fits = roll_fits(space, state.faces, state.layout, {i: i for i in state.pinned})
    if len(fits) != 1:
        return [None] * len(holds)
    types = space.die_types(state.layout)

    def one(which: Iterable[int]) -> int | None:
        shown = []
        for i in which:
            kinds = {types[d] for d in fits[0].on[i]}
            if len(kinds) != 1:
                return None
            d = min(fits[0].on[i])
            shown.append((types[d], state.layout.dice[d].show(state.faces[i])))
        return space.state_id(space.counts_for(shown))

    return [one(which) for which in holds]


def win_cost(line: WinLine, held: bool, stopping: bool = False) -> Fraction | None:
    """What the player's choice costs in chance to win against the hold to win (a tie
    counted half): stopping now (``stopping``), else rolling on with their hold (``held``:
    they hold dice; else they reroll all). None where the line cannot judge it (not covered,
    typed faces whose dice decide, no roll to choose after, chances coarser than
    :data:`COARSE`). Differences within float resolution (1e-12, the ranking's tie rule)
    cost nothing.

    >>> line = WinLine(True, "", 0.5, "5 5", 0.6, "5", 0.55, None, frozenset({0, 1}), 0.55,
    ...                0.4, 0.3)
    >>> [float(win_cost(line, held)) for held in (True, False)], float(win_cost(line, True, True))
    ([0.04999999999999993, 0.19999999999999996], 0.3)
    >>> win_cost(WinLine(False, "not covered"), True) is None
    True
    """
    if not line.covered or line.best_chance is None or line.bound > COARSE:
        return None
    other = line.stop_chance if stopping else line.mine_chance if held else line.reroll_chance
    if other is None:
        return None
    cost = Fraction(line.best_chance) - Fraction(other)
    return cost if cost > Fraction(1, 10**12) else Fraction(0)


def _advice(table: DuelSolution, pinned: tuple[int, ...] | None, *args: Any) -> dict[str, Any]:
    """win_advice for the faces of a turn: ``pinned`` None, the dice as rolled (die by die);
    else typed faces, those at ``pinned`` on their die."""
    if pinned is None:
        return win_advice(table, *args, by_die=True)
    return win_advice(table, *args, dice_of={i: i for i in pinned})


@functools.lru_cache(maxsize=32)
def _shipped_advice(
    phases: tuple[int, int], dice: Layout | None, pinned: tuple[int, ...] | None, *args: Any
) -> dict[str, Any]:
    """:func:`_advice` from the shipped table of ``phases`` solved on ``dice`` (None: the
    compact dice), remembered: the panel asks again at every tap on a die, and one answer
    takes a few tenths of a second (seconds at a color phase)."""
    return _advice(shipped_table(phases, dice), pinned, *args)


def win_text(line: WinLine, aim_words: str) -> str:
    """The panel's line in plain words (``aim_words``: the turn's aim, e.g. "make the
    phase"); chances coarser than :data:`COARSE` with their margin.

    >>> win_text(WinLine(True, "", 0.4661, error=2e-9), "make the phase")
    'Chance to win the game at the start of this turn: 46.6% (a tie counts half).'
    >>> coarse = win_text(WinLine(True, "", 0.4661, error=0.1018), "make the phase")
    >>> print(coarse[50:])  # doctest: +NORMALIZE_WHITESPACE
    46.6% \u00b1 10.2 percentage points (a tie counts half; the solved table is coarse at
    this state).
    """
    if not line.covered:
        return line.message
    now = f"{100 * line.chance:.1f}%"
    if line.error > COARSE:
        now += f" \u00b1 {100 * line.error:.1f} percentage points"
    if line.question:
        return (
            f"Chance to win the game: {now} at the start of this turn; the "
            f"hold that plays to win depends on which die shows a face you typed: "
            f"{line.question} (tap the face, then its die)."
        )
    if line.best_keep is None:
        coarse = "; the solved table is coarse at this state" if line.error > COARSE else ""
        return (
            f"Chance to win the game at the start of this turn: {now} (a tie counts half{coarse})."
        )
    text = (
        f"Chance to win the game: {now} at the start of this turn; with this "
        f"roll, keep {line.best_keep} to win: {100 * line.best_chance:.1f}%"
    )
    if line.aim_keep == line.best_keep:
        text += f" (the hold to {aim_words} is the same)"
    else:
        text += f"; the hold to {aim_words} ({line.aim_keep}) gives {100 * line.aim_chance:.1f}%"
    if line.mine_chance is not None:
        text += f"; your hold: {100 * line.mine_chance:.1f}%"
    text += "."
    if line.bound > COARSE:
        text += (
            " The solved table is coarse at this state: each chance of this roll is within "
            f"\u00b1 {100 * line.bound:.1f} percentage points, so your choices are judged by "
            f"the hold to {aim_words}."
        )
    return text


def why_win(state: TurnState, line: WinLine, aim_words: str = "make the phase") -> list[str]:
    """Why the hold to win is best, in two or three plain sentences with the numbers that
    decide it: what it keeps for points against the hold to ``aim_words`` and what that
    costs in chance to make the phase, what each is worth in chance to win, and the
    opponent's position (phase, points, a last chance, the bonus for finishing first).
    Empty where the line has no hold to win."""
    if not line.covered or line.best_dice is None or line.best_chance is None:
        return []
    adv = state.advice()
    if adv is None or adv.ambiguous:
        return []
    colors = state.phase.uses_color
    ph = state.phase.number
    n = state.n_dice

    def keys(o) -> tuple[float, float]:  # (chance to make the phase, expected points)
        if str(state.objective) == "complete":
            return float(o.value), float(o.value2)
        return float(o.value2), float(o.value)

    out = []
    made = state.made_now()
    win_dice = set(line.best_dice)
    aim_dice = state.suggested_dice()
    win_opt = state.option_of(win_dice)
    if len(win_dice) == n:
        if made is not None:
            text = f"Your dice make phase {ph} for {made.score} points: stopping gives "
            text += f"{pct(line.best_chance)} to win"
            if line.aim_keep != line.best_keep and line.aim_chance is not None:
                text += f", rolling on as the hold to {aim_words} does {pct(line.aim_chance)}"
            out.append(text + ".")
    elif made is not None and win_opt is not None and line.stop_chance is not None:
        p, pts = keys(win_opt)
        keep = faces_words([state.dice[i] for i in sorted(win_dice)], colors)
        out.append(
            f"Your dice already make phase {ph} for {made.score} points. Rolling on with "
            f"{keep} keeps it made with {pct(p)} and raises the expected score to {pts:.1f}."
        )
        out.append(
            f"To win the points are worth that risk: {pct(line.best_chance)} against "
            f"{pct(line.stop_chance)} if you stop."
        )
    elif win_opt is not None:
        pw, ew = keys(win_opt)
        if win_dice == aim_dice or line.aim_keep == line.best_keep:
            out.append(
                f"The hold to win is also the best hold to {aim_words}: {pct(pw)} to make "
                f"phase {ph}, {ew:.1f} points on average."
            )
        else:
            pa, ea = keys(adv.best)
            more = faces_words([state.dice[i] for i in sorted(win_dice - aim_dice)], colors)
            less = faces_words([state.dice[i] for i in sorted(aim_dice - win_dice)], colors)
            does = " and ".join(
                x
                for x in (
                    f"keeps {more} as well" if win_dice - aim_dice else "",
                    f"rerolls {less}" if aim_dice - win_dice else "",
                )
                if x
            )
            out.append(
                f"Against the hold to {aim_words}, it {does}: {ew:.1f} points on average "
                f"instead of {ea:.1f}, and {pct(pw)} to make phase {ph} instead of {pct(pa)}."
            )
            worth = (
                "the points are worth more than the chance to make the phase it costs"
                if pw < pa and ew > ea
                else "the chance to make the phase is worth more than the points"
                if pw > pa and ew < ea
                else "it plays better"
            )
            if line.aim_chance is not None:
                out.append(
                    f"To win, {worth}: {pct(line.best_chance)} against {pct(line.aim_chance)}."
                )
    if line.me is not None and line.opponent is not None:
        (mp, mt), (op, ot) = line.me, line.opponent
        if line.last:
            out.append(
                f"Your opponent has finished with {ot} points and you have {mt}: this turn is "
                "your last chance."
            )
        else:
            bonus = (
                f"; the first to finish all phases gets {line.bonus} bonus points"
                if line.bonus
                else ""
            )
            out.append(
                f"Your opponent is at phase {op} with {ot} points, you at phase {mp} with "
                f"{mt}{bonus}."
            )
    return out
