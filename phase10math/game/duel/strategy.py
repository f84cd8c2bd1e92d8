"""Playing to win: the game strategies that play a solved table's policy
(:class:`DuelStrategy`, :class:`WinStrategy`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from phase10math._base.checks import checks_itself, public
from phase10math.dice.faces import Layout
from phase10math.errors import InvalidRulesError, OutsideTableError, WrongTypeError
from phase10math.game.duel.candidates import (
    Choice,
    candidate_phase,
    candidate_table,
    choose_candidate,
)
from phase10math.game.duel.setting import Bonus, Key, LastKey, Play, is_whole
from phase10math.game.duel.shipped import check_table_rules, state_reason, widest_table
from phase10math.game.duel.table import DuelSolution
from phase10math.game.engine import Game, TurnView
from phase10math.game.spacemap import table_keep
from phase10math.turn.holdtable import HoldTable

# --------------------------------------------------------------------------- playing to win

# the most states whose re-solved holds a strategy keeps (about 0.26 MB each on the compact
# dice' value projection: at most about 270 MB); beyond, it starts again (the holds of a
# state re-solved are the same: a column's solve does not depend on its batch)
HOLDS_KEPT = 1024


@public
class DuelStrategy:
    """A game strategy that plays the solved two-player policy (``play`` OPTIMAL) in a
    :class:`~phase10math.game.engine.Game` of two players: it reads both score sheets from
    the game it is attached to (:meth:`attach`), finds the state in ``solution`` and keeps
    the hold of that state's optimal turn (re-solved from the table, cached per state). At a
    costly color phase (ten different dice, or the compact dice' 9.7 million holds) it plays
    the better of two candidate turns instead, by lookup, and adds up the chance to win that
    gives up (:attr:`given_up`, proven: :mod:`~phase10math.game.duel.candidates`). In a
    state already decided (no play changes the result) it keeps everything."""

    name = "win"

    def __init__(self, solution: DuelSolution) -> None:
        self.solution = solution
        self.game_ref: Any = None
        self._holds: dict[Any, dict[int, np.ndarray]] = {}
        self._maps: dict[int, Any] = {}
        self._chosen: dict[Any, Choice] = {}
        self.by_candidate = 0  # states of costly color phases (candidate turns)
        self.given_up = 0.0  # the chance to win those choices gave up, proven (once a state)
        # the same, once per turn played there (a state met again counts again): the chance
        # to win a game gives up is at most its expectation (performance difference)
        self.given_up_played = 0.0

    def attach(self, game: Game) -> DuelStrategy:
        """Follow the players of ``game`` (a two-player :class:`~phase10math.game.engine.Game`)."""
        if len(game.players) != 2:
            raise InvalidRulesError("the two-player strategy plays games of two players")
        self.game_ref = game
        return self

    def prepare(self, keys: Sequence[Key], last: Sequence[LastKey] = ()) -> None:
        """Solve the turns of these states now, in two batches (normal play, last chances);
        every key must be a state of the table (refused before any solve otherwise)."""
        groups = ((list(keys), False), (list(last), True))
        for group, is_last in groups:
            for k in group:
                if not self._known(is_last, k):
                    raise OutsideTableError(
                        f"prepare(): {'last' if is_last else 'keys'} holds {k!r:.60}, not a "
                        f"{'last-chance' if is_last else 'normal-play'} state of the table "
                        f"({self.solution.game.describe()})"
                    )
        for group, is_last in groups:
            todo = [k for k in group if (is_last, k) not in self._holds]
            todo = [k for k in todo if not self.solution.decided(k)]
            g = self.solution.game  # a costly color phase plays candidates
            todo = [
                k
                for k in todo
                if not candidate_phase(k[0][0] if is_last else k[1][0], g.dice, g.rules)
            ]
            for k, h in zip(todo, self.solution.policy(todo, last=is_last)):
                self._holds[(is_last, k)] = h

    def _known(self, last: bool, key: Any) -> bool:
        """Whether ``key`` is a state of the table: solved, or decided between the game's
        players."""
        sol, g = self.solution, self.solution.game
        size = 3 if last else 4
        if not (isinstance(key, tuple) and len(key) == size):
            return False
        players = key[:1] if last else key[1:3]
        numbers = key[1:] if last else (key[0], key[3])
        well_formed = all(is_whole(v) for v in numbers) and all(
            isinstance(p, tuple)
            and len(p) == 3
            and all(is_whole(v) for v in p)
            and g.lo <= p[0] <= g.hi
            and p[1] in tuple(Bonus)
            for p in players
        )
        solved = sol.last[Play.OPTIMAL] if last else sol.values[(Play.OPTIMAL,) * 2]
        return well_formed and (key in solved or self.solution.decided(key))

    def _first_seat(self) -> int:
        for e in reversed(self.game_ref.log):
            if e.kind == "order" and e.note.startswith("starts"):
                return e.player
        raise InvalidRulesError("the game has not rolled for the turn order yet")

    def state(self, view: TurnView) -> tuple[bool, Any]:
        """(last chance?, the solution's state key) of the player to move in the attached
        game (refused where the table has no such state)."""
        return self._state(view)

    def _state(self, view: TurnView) -> tuple[bool, Any]:
        """(last chance?, the solution's state key) of the player to move (refused where the
        table has no such state)."""
        me = view.player
        opp = self.game_ref.players[1 - me.seat]
        s = 0 if me.seat == self._first_seat() else 1
        g = self.solution.game
        hi_opp = g.hi + 1 if view.last_chance else g.hi
        if not (g.lo <= me.phase <= g.hi and g.lo <= opp.phase <= hi_opp):
            raise OutsideTableError(
                f"phases {me.phase} and {opp.phase} are outside the solved table ({g.describe()})"
            )
        mine, theirs = me.running_total, opp.running_total
        if view.last_chance:
            return True, (g._player(me.phase, mine), mine - theirs, int(s == 1))
        return False, (s, g._player(me.phase, mine), g._player(opp.phase, theirs), mine - theirs)

    @checks_itself  # once per decision of a game: one isinstance
    def hold(self, view: TurnView) -> frozenset[int]:
        """The dice to keep: the table's optimal hold at the state of ``view`` (every die in a
        decided state); refused before the strategy is attached to a game."""
        if not isinstance(view, TurnView):
            raise WrongTypeError(
                f"{type(self).__name__}.hold(): view={view!r:.40} ({type(view).__name__}); "
                "accepts TurnView"
            )
        if self.game_ref is None:
            raise InvalidRulesError("the two-player strategy is not attached to a game")
        return self._play(view)

    def _play(self, view: TurnView) -> frozenset[int]:
        last, key = self._state(view)
        if self.solution.decided(key):
            return frozenset(range(len(view.faces)))
        g = self.solution.game
        if candidate_phase(view.number, g.dice, g.rules):
            choice = self._choice(last, key)
            if view.rolls_left == view.rules.rolls - 1:  # the turn's first hold: once a turn
                self.given_up_played += choice.given_up
            table = candidate_table(view.number, choice.objective, g.rules, g.dice)
            return table_keep(table, view, self._maps)
        if (last, key) not in self._holds:
            if len(self._holds) >= HOLDS_KEPT:
                self._holds.clear()
            self._holds[(last, key)] = self.solution.policy([key], last=last)[0]
        space = g.turns[view.number].space
        table = HoldTable(space, self._holds[(last, key)])
        return table_keep(table, view, self._maps)

    def _choice(self, last: bool, key: Any) -> Choice:
        """A costly color phase: the candidate turn of largest chance to win at
        this state (:mod:`~phase10math.game.duel.candidates`), chosen once per state; the
        chance it gives up there (proven from the table) is added to :attr:`given_up`."""
        if (last, key) not in self._chosen:
            choice = choose_candidate(self.solution, key, last)
            self._chosen[(last, key)] = choice
            self.given_up += choice.given_up
            self.by_candidate += 1
        return self._chosen[(last, key)]


@public
class WinStrategy(DuelStrategy):
    """The ``win`` strategy: plays to win from a solved two-player table (by name, ``win``:
    the widest shipped one for the game's dice, :func:`widest_table`) wherever the table
    covers the game's state: two players, the game ending with the table's last phase, both
    players at the table's phases with totals its games have (a table of phases from 1 is
    solved from both at phase 1 with 0 points; at the end of any game a total matters only
    through the difference, so the tables of phases 6-10 and 9-10 hold every total and
    serve any game from the moment both players reach their first phase), a color phase
    only on the dice it was solved on.

    Elsewhere it plays ``fallback`` (:func:`~phase10math.game.strategies.get_strategy` gives
    the completion-optimal turn) and counts those decisions: :meth:`note` says how many and
    why, and the ``game`` and ``headtohead`` commands print it. With ``fallback=None`` a
    state outside the table raises :class:`~phase10math.errors.OutsideTableError`. A game
    of other rules or more players is refused when it attaches the strategy."""

    name = "win"

    def __init__(
        self, solution: DuelSolution, fallback: Any = None, shipped: Layout | None = None
    ) -> None:
        super().__init__(solution)
        self.fallback = fallback
        # by name: the widest shipped table for these dice, chosen again for the phase a
        # game begins at when it attaches (:func:`widest_table`)
        self.shipped = shipped
        self.from_table = 0  # decisions played from the table
        self.fell_back = 0  # decisions played by the fallback
        self.last_reason = ""

    def attach(self, game: Game) -> WinStrategy:
        """Follow ``game``; refused unless it has two players and the table's rules (any
        layout: phases 9-10 have no colors, and every layout shows the same numbers). A
        strategy made from the shipped tables takes the widest that serves a game begun at
        ``game``'s start phase."""
        if len(game.players) != 2:
            n = len(game.players)
            raise InvalidRulesError(
                f"the win strategy plays two-player games; this game has {n} "
                f"player{'s' if n != 1 else ''}"
            )
        table = self.solution
        if self.shipped is not None:
            table = widest_table(self.shipped, getattr(game, "start_phase", 1))
        check_table_rules(table, game.rules)
        if table is not self.solution:  # another table: its own states and holds
            self.solution = table
            self._holds.clear()
            self._chosen.clear()
            self._maps.clear()
        return super().attach(game)

    def outside(self, view: TurnView) -> str | None:
        """Why the table does not cover the state in ``view`` (None where it does)."""
        return self._why_outside(view)

    def _why_outside(self, view: TurnView) -> str | None:
        g = self.solution.game
        if self.game_ref is None:
            return "the strategy is not attached to a game"
        if self.game_ref.phases != g.hi:
            return f"the game ends with phase {self.game_ref.phases}, the table with phase {g.hi}"
        opp = self.game_ref.players[1 - view.player.seat]
        if not g.lo <= view.number <= g.hi:
            return f"the player to move is at phase {view.number} (the table: {g.describe()})"
        if not (opp.finished or g.lo <= opp.phase <= g.hi):
            return f"the opponent is at phase {opp.phase} (the table: {g.describe()})"
        return state_reason(
            self.solution,
            (view.number, view.player.running_total),
            (opp.phase, opp.running_total),
            opp.finished,
            view.layout,
        )

    @checks_itself  # once per decision of a game: one isinstance
    def hold(self, view: TurnView) -> frozenset[int]:
        """The table's hold where it covers the state of ``view``, else the fallback's (or
        :class:`~phase10math.errors.OutsideTableError` without one)."""
        if not isinstance(view, TurnView):
            raise WrongTypeError(
                f"WinStrategy.hold(): view={view!r:.40} ({type(view).__name__}); accepts TurnView"
            )
        why = self._why_outside(view)
        if why is None:
            self.from_table += 1
            return self._play(view)
        if self.fallback is None:
            raise OutsideTableError(f"the win strategy cannot play here: {why}")
        self.fell_back += 1
        self.last_reason = why
        return frozenset(self.fallback.hold(view))

    def note(self) -> str | None:
        """One line on the decisions not played by the table's exact policy (None when there
        were none): those outside the table, and the states of a color phase of ten
        different dice, played by a candidate turn with the chance it gave up."""
        parts = []
        if self.by_candidate:
            parts.append(
                f"at {self.by_candidate} state(s) of a costly color phase it "
                "played the better of the completion- and score-optimal turns, giving up at "
                f"most {100 * self.given_up:.2f} percentage points of chance to win in all "
                "(proven from the table)"
            )
        if self.fell_back:
            g = self.solution.game
            total = self.fell_back + self.from_table
            parts.append(
                f"{self.fell_back} of {total} decisions were outside the two-player table "
                f"({g.describe()}; last: {self.last_reason}) and were played by the "
                f"{self.fallback.name}-optimal turn; {self.from_table} were played to win"
            )
        return "win: " + "; ".join(parts) if parts else None
