"""The setting: the two-player game's rules, dice, phases and states (:class:`DuelGame`),
the plays compared (:class:`Play`), the state keys and the batched turn of each phase.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

import numpy as np

from phase10math._base.checks import check_int, public
from phase10math.dice.faces import Die, Layout
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.dice.phases import PHASES, Phase
from phase10math.dice.rules import DEFAULT_RULES, Rules, check_rules
from phase10math.errors import (
    InvalidPhaseError,
    InvalidRulesError,
    OutsideTableError,
    StateSpaceTooLargeError,
    WrongTypeError,
)
from phase10math.turn.batch import TurnBatch
from phase10math.turn.family import TurnFamily, check_family_fits
from phase10math.turn.maxima import max_phase_score, min_phase_score, phase_scores
from phase10math.turn.projection import FULL
from phase10math.turn.statespace import StateSpace


class Bonus(IntEnum):
    """A player's five-phase-bonus class."""

    NONE = 0  # no bonus to come (phase 5 done, or out of reach, or not in the game)
    PENDING = 1  # +40 sure on completing phase 5
    UNDECIDED = 2  # depends on the total (kept as t)


class Play(IntEnum):
    """How a seat plays: the optimal two-player policy or a per-turn objective."""

    OPTIMAL = 0
    COMPLETE = 1
    SCORE = 2

    @classmethod
    def _missing_(cls, value: Any):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        error = WrongTypeError if not isinstance(value, int) else InvalidRulesError
        raise error(f"play={shown}; allowed: 0 (optimal), 1 (complete), 2 (score)")

    @property
    def label(self) -> str:
        return {0: "optimal", 1: "complete", 2: "score"}[int(self)]


PLAYS = (Play.OPTIMAL, Play.COMPLETE, Play.SCORE)
MATCHUPS = tuple((a, b) for a in PLAYS for b in PLAYS)
Player = tuple[int, int, int]  # (phase, Bonus, total if UNDECIDED else 0)
Key = tuple[int, Player, Player, int]  # (mover's seat, mover, opponent, D)
LastKey = tuple[Player, int, int]  # (chaser, Dc, eligible)
Val = tuple[float, float]  # (P(win) + P(tie)/2, P(tie)) of the mover / chaser


def turn_of(phase: Phase, rules: Rules, dice: Layout | tuple[Die, ...]) -> TurnBatch:
    """The batched turn of a phase: exact batched solves without colors, the certified family
    (:mod:`phase10math.turn.family`) for a color phase."""
    if not phase.uses_color:
        return TurnBatch.for_phase(phase, rules, dice)
    try:
        return TurnFamily.for_phase(phase, rules, dice)
    except StateSpaceTooLargeError as exc:
        raise InvalidRulesError(f"{phase.text}: {exc}") from None


def families(game: DuelGame) -> dict[int, TurnFamily]:
    """The game's color phases and their families (built here where not yet built)."""
    return {k: game.turns[k] for k, ph in game.phases.items() if ph.uses_color}


class LazyTurns(dict):
    """A game's batched turns by phase number; a phase missing is built when first asked for
    (:func:`turn_of`): a color phase's family takes seconds and most of a gigabyte, which a
    table read only for its values does not need."""

    def __init__(
        self,
        built: Mapping[int, TurnBatch],
        phases: Mapping[int, Phase],
        rules: Rules,
        dice: Layout | tuple[Die, ...],
    ) -> None:
        super().__init__(built)
        self.phases, self.rules, self.dice = phases, rules, dice

    def __missing__(self, k: int) -> TurnBatch:
        tb = self[k] = turn_of(self.phases[k], self.rules, self.dice)
        return tb


def is_whole(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def outcome_of(d: int) -> Val:
    """The end of a game by the final difference: win, tie or loss."""
    return (1.0, 0.0) if d > 0 else ((0.5, 1.0) if d == 0 else (0.0, 0.0))


# --------------------------------------------------------------------------- the setting


@public
@dataclass
class DuelGame:
    """A two-player game: its phases (numbers ``lo .. hi``), rules, dice and start totals."""

    phases: dict[int, Phase]
    rules: Rules = DEFAULT_RULES
    dice: Layout | tuple[Die, ...] = COMPACT_LAYOUT
    turns: dict[int, TurnBatch] = field(default_factory=dict, repr=False)
    # only the states reachable from the start (both players at the first phase with 0
    # points); None: when the first phase is 1 (a sub-range serves games that reach it with
    # any totals)
    reachable: bool | None = None

    def __post_init__(self) -> None:
        check_rules(self.rules)
        if not isinstance(self.phases, Mapping) or not all(
            isinstance(k, int) and not isinstance(k, bool) and isinstance(v, Phase)
            for k, v in self.phases.items()
        ):
            raise WrongTypeError(
                f"DuelGame(): phases={self.phases!r:.60}; accepts a dict of phase numbers "
                "to Phase values"
            )
        nums = sorted(self.phases)
        if not nums or nums != list(range(nums[0], nums[-1] + 1)):
            raise InvalidRulesError(f"phases {nums}: expected consecutive numbers")
        self.lo, self.hi = nums[0], nums[-1]
        n_dice = len(self.dice.dice if isinstance(self.dice, Layout) else self.dice)
        for k in nums:  # a phase no roll makes would never end the game
            if self.phases[k].dice_needed > n_dice:
                raise InvalidRulesError(
                    f"phase {k} ({self.phases[k].text}) needs {self.phases[k].dice_needed} "
                    f"dice; the game has {n_dice}"
                )
        if self.reachable is None:
            self.reachable = self.lo == 1
        if not isinstance(self.reachable, bool):
            raise WrongTypeError(f"DuelGame(): reachable={self.reachable!r:.40}; accepts a bool")
        colored = [k for k in nums if self.phases[k].uses_color]
        self.color_space = StateSpace.build(self.dice, FULL) if colored else None
        # a color phase on a layout is built when first needed (its best and least scores
        # are found without building its turn: reading a table takes no gigabyte, and a
        # solve checks the families' memory when it starts); elsewhere every phase now
        lazy = isinstance(self.dice, Layout)
        if not lazy:
            self.check_turns_fit()
        self.turns = LazyTurns(self.turns, self.phases, self.rules, self.dice)
        best = {}
        for k in nums:
            if lazy and k in colored:
                best[k] = max_phase_score(self.phases[k], self.dice, self.rules)
            else:
                best[k] = int(self.turns[k].scores.max(initial=-1))
            if best[k] < 0:
                raise InvalidRulesError(
                    f"phase {k} ({self.phases[k].text}): no roll of these dice makes it"
                )
        self.max_score = best
        self.bonus_in_game = self.lo <= 5 <= self.hi
        # the most points still to score up to phase 5's end (a game that does not reach
        # phase 5 has no five-phase bonus, nor this)
        self.to_five = {
            k: sum(self.max_score[j] for j in range(k, 6))
            for k in nums
            if self.bonus_in_game and k <= 5
        }
        self.rest = {k: sum(self.max_score[j] for j in range(k, self.hi + 1)) for k in nums}

    def check_turns_fit(self) -> None:
        """Refuse at once (:class:`~phase10math.errors.InvalidRulesError`) where a color
        phase's family would not fit in memory: called before a solve, which builds them;
        reading a shipped table builds none."""
        colored = [k for k in sorted(self.phases) if self.phases[k].uses_color]
        if not colored:
            return
        try:
            check_family_fits(self.color_space, self.rules)
        except StateSpaceTooLargeError as exc:
            raise InvalidRulesError(f"{self.phases[colored[0]].text}: {exc}") from None

    @classmethod
    def standard(
        cls,
        lo: int = 9,
        hi: int = 10,
        rules: Rules = DEFAULT_RULES,
        layout: Layout | tuple[Die, ...] = COMPACT_LAYOUT,
        reachable: bool | None = None,
    ) -> DuelGame:
        """The kit's phases ``lo .. hi`` (both players start at ``lo``)."""
        if not (1 <= lo <= hi <= 20):
            raise InvalidRulesError(f"phases {lo}-{hi}: expected 1 <= lo <= hi <= 20")
        phases = {k: PHASES[k] for k in range(lo, hi + 1)}
        return cls(phases, rules, layout, reachable=reachable)

    def scores(self, k: int) -> np.ndarray:
        """The scores phase ``k``'s turn can make, ascending (its made outcomes in order): a
        color phase of a layout not yet built is not built for them
        (:func:`~phase10math.turn.maxima.phase_scores`, cached on disk)."""
        if k not in self.phases:
            k = check_int(k, "phase", self.lo, self.hi, InvalidPhaseError)
        if k in self.turns or not isinstance(self.dice, Layout):
            return self.turns[k].scores
        return phase_scores(self.phases[k], self.dice, self.rules)

    @functools.cached_property
    def min_score(self) -> dict[int, int]:
        """The least score of each phase, by phase number (a color phase not yet built: found
        without building it)."""
        return {
            k: int(self.turns[k].scores.min())
            if k in self.turns
            else min_phase_score(self.phases[k], self.dice, self.rules)
            for k in self.phases
        }

    def describe(self) -> str:
        return f"phases {self.lo}-{self.hi}" if self.lo != self.hi else f"phase {self.lo}"

    @property
    def layout(self) -> Layout:
        """The game's dice as a layout: its own, or the compact layout where it was built on
        bare dice (whose faces every layout shows)."""
        return self.dice if isinstance(self.dice, Layout) else COMPACT_LAYOUT

    # ---------------------------------------------------------------- players
    def player(self, k: int, total: int) -> Player:
        """The player at phase ``k`` (one of the game's) with ``total`` points (a whole number
        >= 0), reduced to its bonus class."""
        self._check_phase(k, "k")
        check_int(total, "total", 0, error=InvalidRulesError)
        return self._player(k, total)

    def _check_phase(self, k: int, name: str) -> None:
        check_int(k, name, self.lo, self.hi, error=InvalidRulesError)

    def _player(self, k: int, total: int) -> Player:
        if not self.bonus_in_game or k > 5:
            return (k, Bonus.NONE, 0)
        thr = self.rules.five_phase_threshold
        if total > thr:
            return (k, Bonus.PENDING, 0)
        if total + self.to_five[k] <= thr:
            return (k, Bonus.NONE, 0)
        return (k, Bonus.UNDECIDED, total)

    def advance(self, p: Player, x: int) -> tuple[Player, int]:
        """The player after making its phase with score ``x``, and the points gained."""
        k, c, t = p
        gain = x
        if k == 5 and self.bonus_in_game:
            if c == Bonus.PENDING or (
                c == Bonus.UNDECIDED and t + x > self.rules.five_phase_threshold
            ):
                gain += self.rules.five_phase_bonus
        nxt = k + 1
        if c == Bonus.UNDECIDED and nxt <= 5:
            return self._player(nxt, t + x), gain
        if c == Bonus.PENDING and nxt <= 5:
            return (nxt, Bonus.PENDING, 0), gain
        return (nxt, Bonus.NONE, 0), gain

    def _reach(self, p: Player, finish_bonus: bool = True) -> int:
        """The most points the player can still gain."""
        k, c, _ = p
        extra = self.rules.five_phase_bonus if c != Bonus.NONE else 0
        return self.rest[k] + extra + (self.rules.first_finish_bonus if finish_bonus else 0)

    def totals_at(self, k: int) -> tuple[int, float]:
        """The totals a player at phase ``k`` can have: in a game solved from its start
        (:attr:`reachable`) between the least and the most points of the phases before (the
        five-phase bonus counted in the most); otherwise any total."""
        if not self.reachable:
            return 0, math.inf
        done = range(self.lo, k)
        most = sum(self.max_score[j] for j in done)
        most += self.rules.five_phase_bonus if self.bonus_in_game and k > 5 else 0
        return sum(self.min_score[j] for j in done), most

    def total_reason(self, k: int, total: int) -> str | None:
        """Why no game of the table has a player at phase ``k`` with ``total`` points (a total
        outside :meth:`totals_at`), or None."""
        least, most = self.totals_at(k)
        if least <= total <= most:
            return None
        return (
            f"{total} points at phase {k} cannot happen in a game solved from both at phase "
            f"{self.lo} with 0 points (there: {least} to {most:.0f})"
        )

    def _total_range(self, p: Player) -> tuple[int, float]:
        """The totals a player of this class can have (an empty range where none)."""
        k, c, t = p
        least, most = self.totals_at(k)
        if c == Bonus.UNDECIDED:
            return (t, t) if least <= t <= most else (t, t - 1)
        thr = self.rules.five_phase_threshold
        if c == Bonus.PENDING:
            return max(thr + 1, least), most
        if self.bonus_in_game and k <= 5:
            return least, min(most, thr - self.to_five[k])
        return least, most

    def _players_at(self, k: int) -> list[Player]:
        """Every reduced player at phase ``k`` (with a total it can have)."""
        out = [(k, Bonus.NONE, 0)]
        if self.bonus_in_game and k <= 5:
            out.append((k, Bonus.PENDING, 0))
            thr = self.rules.five_phase_threshold
            out += [
                (k, Bonus.UNDECIDED, t) for t in range(max(0, thr + 1 - self.to_five[k]), thr + 1)
            ]
        return [p for p in out if self._total_range(p)[0] <= self._total_range(p)[1]]

    def start(self, totals: tuple[int, int] = (0, 0)) -> Key:
        """The state before the first turn: both at the first phase with these totals (whole
        numbers >= 0; seat 0 moves)."""
        for t in totals:
            check_int(t, "totals", 0, error=InvalidRulesError)
            why = self.total_reason(self.lo, t)
            if why:
                raise OutsideTableError(why)
        a, b = (self._player(self.lo, t) for t in totals)
        return (0, a, b, totals[0] - totals[1])

    def key_of(self, seat: int, me: tuple[int, int], opp: tuple[int, int]) -> Key:
        """The state of a mover in turn-order ``seat`` (0 or 1) at (phase, total) ``me``
        against ``opp`` (phases of the game, totals whole numbers >= 0)."""
        check_int(seat, "seat", 0, 1, error=InvalidRulesError)
        for name, (k, t) in (("me", me), ("opp", opp)):
            self._check_phase(k, f"{name} phase")
            check_int(t, f"{name} total", 0, error=InvalidRulesError)
        return (seat, self._player(*me), self._player(*opp), me[1] - opp[1])

    def state_key(
        self,
        me: tuple[int, int],
        opp: tuple[int, int],
        second: bool = False,
        last_chance: bool = False,
    ) -> Key | LastKey:
        """The key of a mover at (phase, total) ``me`` against ``opp``: :meth:`key_of`, the
        mover in the second seat where ``second``; where ``last_chance`` (``opp`` has
        finished, its total final) the last chance's (chaser, Dc, eligible), eligible for
        the bonus of the same round where the chaser sits second."""
        if last_chance:
            return (self.player(*me), me[1] - opp[1], int(second))
        return self.key_of(1 if second else 0, me, opp)

    def _d_range(self, me: Player, opp: Player) -> range:
        """The differences ``D`` at which neither side has already won."""
        if me[1] == Bonus.UNDECIDED and opp[1] == Bonus.UNDECIDED:
            return range(me[2] - opp[2], me[2] - opp[2] + 1)
        (a0, a1), (b0, b1) = self._total_range(me), self._total_range(opp)
        lo = max(-self._reach(me), a0 - b1)
        hi = min(self._reach(opp), a1 - b0)
        return range(int(lo), int(hi) + 1)


def fingerprint(game: DuelGame) -> str:
    """What the values depend on: phases, rules, dice (as the value projection sees them)."""
    # the first phase's state space (a color phase's: the game's color space, the space its
    # family would be built on; reading a table builds no family)
    first = game.color_space if game.phases[game.lo].uses_color else game.turns[game.lo].space
    spec = {
        "phases": {k: p.key() for k, p in game.phases.items()},
        "rules": game.rules.to_dict(),
        "dice": str(first.key()),
    }
    if game.reachable and game.lo > 1:  # a game from phase 1 always is
        spec["reachable"] = True
    if game.color_space is not None:  # a color phase sees the dice's colors too
        spec["color_dice"] = str(game.color_space.key())
    text = json.dumps(spec, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def partner_of(key: Key) -> Key:
    """The state of the same configuration with the other player to move (where a failed
    turn leads)."""
    s, me, opp, d = key
    return (1 - s, opp, me, -d)
