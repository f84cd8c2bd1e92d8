"""The shipped tables: which table serves a state or a start, and the chance to win read
from them, with the reasons a state is not covered.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from phase10math._base.checks import check_int, public
from phase10math.dice.faces import Die, Layout, check_layout
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Rules, check_rules
from phase10math.errors import InvalidRulesError, OutsideTableError, WrongTypeError
from phase10math.game.duel.files import OTHER_DICE_TABLE_FILES, read_table, shipped_ranges
from phase10math.game.duel.setting import Play, Val
from phase10math.game.duel.table import DuelSolution
from phase10math.turn.projection import FULL
from phase10math.turn.statespace import StateSpace


def check_table_rules(sol: DuelSolution, rules: Rules) -> None:
    """Refuse rules other than the table's (the solitaire penalty does not enter a duel)."""
    mine = {k: v for k, v in sol.game.rules.to_dict().items() if k != "solitaire_penalty"}
    theirs = {k: v for k, v in check_rules(rules).to_dict().items() if k != "solitaire_penalty"}
    if mine != theirs:
        diff = ", ".join(
            f"{k}={theirs[k]} (table: {mine[k]})" for k in mine if mine[k] != theirs[k]
        )
        raise InvalidRulesError(f"the two-player table is solved for other rules: {diff}")


SHIPPED_DICE = COMPACT_LAYOUT  # the dice every shipped table is solved on (tested)


def shipped_table(phases: tuple[int, int] = (9, 10), dice: Layout | None = None) -> DuelSolution:
    """A shipped two-player table (default: phases 9-10; ``dice``: solved on those dice, see
    :func:`shipped_ranges`), read once per process (phases 9-10 about half a second, 6-10
    and 1-10 a few seconds; a color phase's turn is built when a decision there first needs
    it)."""
    if not (
        isinstance(phases, tuple)
        and len(phases) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in phases)
    ):
        raise WrongTypeError(
            f"shipped_table(): phases={phases!r:.40}; accepts (lo, hi), e.g. (9, 10)"
        )
    if dice is not None and not isinstance(dice, Layout):
        raise WrongTypeError(f"shipped_table(): dice={dice!r:.40}; accepts a Layout or None")
    return _read_shipped(phases, dice)


@functools.cache
def _read_shipped(phases: tuple[int, int], dice: Layout | None) -> DuelSolution:
    return read_table(phases=phases, dice=dice)[0]


@functools.cache
def _color_key(dice: Layout | tuple[Die, ...]) -> tuple:
    """Dice as a color phase sees them (the full projection's key), found once per dice."""
    return StateSpace.build(dice, FULL).key()


def first_covered(
    phases: tuple[int, int], layout: Layout | None = None, dice: Layout | None = None
) -> int:
    """The first phase from which the shipped table of ``phases`` (lo, hi) solved on ``dice``
    (None: the compact dice) serves a game on dice ``layout`` (None: the dice it was solved
    on): its first phase, or the phase after its last color phase on dice whose colors
    differ from the table's dice.

    >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
    >>> first_covered((6, 10)), first_covered((6, 10), DEFAULT_LAYOUT)
    (6, 9)
    """
    lo, hi = phases
    colored = [k for k in range(lo, hi + 1) if PHASES[k].uses_color]
    own = SHIPPED_DICE if dice is None else dice
    if colored and layout is not None and _color_key(layout) != _color_key(own):
        return colored[-1] + 1
    return lo


def shipped_dice(sol: DuelSolution) -> Layout | None:
    """The dice argument of :func:`shipped_table` that names the shipped table ``sol``: a
    layout of :data:`OTHER_DICE_TABLE_FILES` whose colors its color phase was solved on,
    else None (the compact dice' tables, and any table without a color phase)."""
    g = sol.game
    if g.color_space is None:
        return None
    key = g.color_space.key()
    return next(
        (
            d
            for d, files in OTHER_DICE_TABLE_FILES.items()
            if (g.lo, g.hi) in files and _color_key(d) == key
        ),
        None,
    )


def serves_start(phases: tuple[int, int], start: int = 1) -> bool:
    """Whether the shipped table of ``phases`` (lo, hi) can serve a game whose players begin
    at phase ``start`` with 0 points: a table solved from its start (phase 1, the default of
    :attr:`DuelGame.reachable`; tested for every shipped table) holds only the totals a game
    begun there reaches; the others hold every total of their phases.

    >>> serves_start((1, 10)), serves_start((1, 10), 6), serves_start((6, 10), 8)
    (True, False, True)
    """
    lo, hi = phases
    return start <= hi and (lo >= start or lo > 1)


@public
def serving_tables(layout: Layout | None = None) -> list[tuple[tuple[int, int], Layout | None]]:
    """The shipped tables that can serve a game on dice ``layout`` (None: the dice the
    tables are solved on), as (phase range, dice) arguments of :func:`shipped_table`: those
    solved on the compact dice (whose color phase serves only dice of their colors,
    :func:`first_covered`), then those solved on dice of ``layout``'s colors.

    >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
    >>> [r for r, d in serving_tables(DEFAULT_LAYOUT) if d is not None]
    [(8, 10), (1, 10)]
    """
    tables: list[tuple[tuple[int, int], Layout | None]] = [(r, None) for r in shipped_ranges()]
    for dice in OTHER_DICE_TABLE_FILES:  # tables solved on the game's own dice
        if layout is not None and _color_key(layout) == _color_key(dice):
            tables += [(r, dice) for r in shipped_ranges(dice)]
    return tables


@public
def table_for_state(
    me: tuple[int, int],
    opponent: tuple[int, int],
    layout: Layout | None = None,
    last_chance: bool = False,
) -> DuelSolution:
    """The shipped table of fewest phases (the quickest to read) that holds the state of
    the player to move at ``me`` = (phase, total) against ``opponent`` on dice ``layout``
    (None: the tables' own): its phases hold both players, its color phases serve those
    dice (:func:`first_covered`), and its games have those totals (a table solved from
    phase 1 holds only the totals a game from there reaches). For a state typed at the
    command line; a game in play reads :func:`widest_table` instead. Raises
    :class:`~phase10math.errors.OutsideTableError` with the reason of the table of fewest
    phases that spans the players where none holds it.

    >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
    >>> table_for_state((10, 0), (10, 0), DEFAULT_LAYOUT).game.describe()
    'phases 9-10'
    >>> table_for_state((3, 60), (7, 140), DEFAULT_LAYOUT).game.describe()
    'phases 1-10'
    """
    if layout is not None:
        check_layout(layout)
    tables = serving_tables(layout)
    low = min(me[0], opponent[0])
    high = max(me[0], opponent[0] - (1 if last_chance else 0))  # a finished one: past the last
    fits = sorted(
        (t for t in tables if first_covered(t[0], layout, t[1]) <= low and high <= t[0][1]),
        key=lambda t: t[0][1] - t[0][0],
    )
    if not fits:
        shipped = ", ".join(f"{a}-{b}" for (a, b), _ in tables)
        outside = sorted({low, high} - {k for t in tables for k in range(t[0][0], t[0][1] + 1)})
        phase = outside[0] if outside else (low if high == low else f"{low} with one at {high}")
        raise OutsideTableError(
            f"no shipped table holds a player at phase {phase} (shipped: phases {shipped})"
        )
    first_reason = None
    for r, dice in fits:
        sol = shipped_table(r, dice)
        try:
            check_covered(sol, me, opponent, last_chance, layout)
        except OutsideTableError as err:
            first_reason = first_reason or err
            continue
        return sol
    raise OutsideTableError(str(first_reason))


@public
def widest_table(layout: Layout | None = None, start: int = 1) -> DuelSolution:
    """The shipped table that serves most of a two-player game on dice ``layout`` (None: the
    dice the tables are solved on) whose players begin at phase ``start`` (default 1): among
    those that can serve it (:func:`serves_start`), the one that covers it earliest
    (:func:`first_covered`), the fewest phases among equals (the quickest to read). On the
    compact dice the table of phases 1-10 (6-10 for a game begun at phase 6, whose totals
    no game from phase 1 has; 9-10 for one begun at phase 9); on dice with other colors,
    a table solved on those dice where one ships (:data:`OTHER_DICE_TABLE_FILES`: the
    recorded set's whole game, phases 1-10, and its end game, 8-10, which holds any totals
    and so serves a game begun at phases 2-8), else that of phases 9-10, since the wider
    tables' phase 8 was solved on the compact dice's colors. Where none serves the game (it
    begins after their last phase), the one of fewest phases, whose states the callers'
    coverage checks then refuse in words.

    >>> from phase10math.dice.layouts import DEFAULT_LAYOUT
    >>> widest_table(DEFAULT_LAYOUT).game.describe()
    'phases 1-10'
    >>> widest_table(DEFAULT_LAYOUT, start=6).game.describe()
    'phases 8-10'
    """
    if layout is not None:
        check_layout(layout)
    check_int(start, "start", 1, 20, error=InvalidRulesError)
    # none serves a game begun after the tables' phases: the one of fewest phases (whose
    # users' coverage checks then say why it does not serve theirs)
    tables = serving_tables(layout)
    fits = [(r, d) for r, d in tables if serves_start(r, start)] or tables
    best = min(
        fits, key=lambda t: (max(first_covered(t[0], layout, t[1]), start), t[0][1] - t[0][0])
    )
    return shipped_table(*best)


@public
def chance_to_win(
    sol: DuelSolution,
    me: tuple[int, int],
    opponent: tuple[int, int],
    second: bool = False,
    last_chance: bool = False,
    layout: Layout | tuple[Die, ...] | None = None,
) -> Val:
    """(chance to win, P(tie)) of the player to move at ``me`` = (phase, total) against
    ``opponent`` (a tie counted half in the chance), from the table; ``second``: the mover
    sits second in turn order; ``last_chance``: the opponent has finished; ``layout``: the
    dice of the game (None: the table's). Raises
    :class:`~phase10math.errors.OutsideTableError` for a state the table does not cover."""
    check_covered(sol, me, opponent, last_chance, layout)
    key = sol.game.state_key(me, opponent, second, last_chance)
    if last_chance:
        return sol.last_value(Play.OPTIMAL, *key)
    return sol.value(key)


@public
def chance_error(
    sol: DuelSolution,
    me: tuple[int, int],
    opponent: tuple[int, int],
    second: bool = False,
    last_chance: bool = False,
) -> float:
    """The proven bound on the error of :func:`chance_to_win` at the same state (0 where the
    game is decided). A table certifies its start tightly and other states as far as play
    from its start needs them: a state its start rarely reaches may keep a wide bound.
    Raises :class:`~phase10math.errors.OutsideTableError` for a state the table does not
    cover."""
    check_covered(sol, me, opponent, last_chance)
    return sol.error(sol.game.state_key(me, opponent, second, last_chance))


def check_covered(
    sol: DuelSolution,
    me: tuple[int, int],
    opponent: tuple[int, int],
    last_chance: bool,
    layout: Layout | tuple[Die, ...] | None = None,
) -> None:
    """Refuse (OutsideTableError) a state outside the table's phases, with a total no game
    of the table has (:meth:`DuelGame.total_reason`), or with a player at a color phase on
    dice other than the table's (``layout``; None: the table's own)."""
    g = sol.game
    if last_chance and opponent[0] < g.hi:
        raise OutsideTableError(
            f"a last chance: the opponent has finished the last phase, so is at phase {g.hi} "
            f"(made) or {g.hi + 1}, not {opponent[0]} (without a last chance the opponent has "
            "not finished)"
        )
    for who, k in (("the player to move", me[0]), ("the opponent", opponent[0])):
        if not g.lo <= k <= g.hi + (last_chance and k == opponent[0]):
            raise OutsideTableError(
                f"{who} is at phase {k}, outside the solved table ({g.describe()})"
            )
    why = state_reason(sol, me, opponent, last_chance, layout)
    if why:
        raise OutsideTableError(why)


def state_reason(
    sol: DuelSolution,
    me: tuple[int, int],
    opponent: tuple[int, int],
    last_chance: bool,
    layout: Layout | tuple[Die, ...] | None = None,
) -> str | None:
    """Why the table does not cover a state of its phases, or None: a total no game of the
    table has (:func:`totals_reason`), or a color phase solved on other dice
    (:func:`color_reason`)."""
    return totals_reason(sol, me, opponent, last_chance) or color_reason(
        sol, (me[0], opponent[0]), layout
    )


def totals_reason(
    sol: DuelSolution, me: tuple[int, int], opponent: tuple[int, int], last_chance: bool
) -> str | None:
    """Why no game of the table has these (phase, total) players, or None
    (:meth:`DuelGame.total_reason`; a finished opponent's total is final, not checked)."""
    for k, total in (me, opponent)[: 1 if last_chance else 2]:
        why = sol.game.total_reason(k, total)
        if why:
            return why
    return None


def colors_fit(sol: DuelSolution, layout: Layout | tuple[Die, ...] | None) -> bool:
    """Whether dice ``layout`` are the table's dice as a color phase sees them (None: the
    table's own; any layout fits a table without color phases)."""
    space = sol.game.color_space
    if layout is None or space is None:
        return True
    return _color_key(layout) == space.key()


def color_reason(
    sol: DuelSolution, phases: Iterable[int], layout: Layout | tuple[Die, ...] | None
) -> str | None:
    """Why the table does not cover a state with players at ``phases`` on dice ``layout``
    (a color phase solved on other dice that a player is at or has still to play), or
    None."""
    g = sol.game
    first = min(phases)
    colored = [k for k, ph in g.phases.items() if ph.uses_color and k >= first]
    if not colored or colors_fit(sol, layout):
        return None
    name = getattr(g.dice, "name", None) or "other"
    return (
        f"phase {colored[0]} has colors and the table solved it on the {name} dice, not on "
        f"these; the table covers these dice from phase {colored[-1] + 1} on"
    )
