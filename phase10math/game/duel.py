"""The two-player game of Phase 10 Dice solved: the chance to win of every state.

Each player is at a phase ``k`` (the one being attempted) with a total; the mover's turn ends
(failed) or (made, score x), so its best play is one turn solve with a utility over those
outcomes (:class:`~phase10math.turn.batch.TurnBatch`). The rules are the kit's (RULES.md):
the five-phase bonus (+40 on completing phase 5 when the total is then over 220), the
first-finish bonus (+40 to the finisher, and to the second seat if it completes the last
phase in the same round, during its last chance), the last chances (after a player finishes,
the other plays turns until one fails or it finishes too), ties reported as P(tie) and
counted half in the chance to win.

**States** (the reduction): a player is ``(k, c, t)`` with ``c`` its five-phase-bonus class:
``UNDECIDED`` (the bonus still depends on the total, which is then ``t``), ``NONE`` (no bonus
to come) or ``PENDING`` (+40 sure on completing phase 5); a normal-play state is ``(s, me,
opp, D)``: the mover's seat ``s`` (0 = first in turn order), both players and the score
difference ``D`` = mover's total - opponent's total. A last-chance state is ``(chaser, Dc,
eligible)``: ``Dc`` the chaser's total minus the finisher's, ``eligible`` whether a finish
still earns the bonus. Differences beyond what the other side can still score are decided
and are not stored. A game solved from its start (:attr:`DuelGame.reachable`, the default
from phase 1) keeps only the totals a player can have there: between the least and the most
points of the phases before (:meth:`DuelGame.totals_at`; at phase 1 always 0), which leaves
768,983 pairs of states of the 10-phase game instead of 4,299,919.

**Solving**: last chances first (no cycles, later phases first), then normal play in layers
of decreasing sum of both phases. Inside a layer the only cycle is "both fail": state
``(0, a, b, D)`` fails to ``(1, b, a, -D)`` and back, so every pair is a fixed point ``x =
f(1 - y), y = g(1 - x)`` with ``f``, ``g`` convex in the fail value. It is solved by policy
iteration (Newton on the piecewise-linear map): solve both turns at the current values, then
take the exact fixed point of the two policies found (a 2 x 2 linear system), until the turn
solves reproduce the values. A pair leaves the batch once it has converged, and a fresh
layer first solves every ``SEED_EVERY``-th score difference, then starts each other pair at
the exact fixed point of its nearest seed's two policies (:func:`_policy_fixed_point`) at
its own utilities: most then converge after two solves a seat.

**Error bound** (float64): every turn value is within its proven margin (rounding for a
batched solve; the family's interval for a color phase). Each state keeps its own proven
error (:meth:`DuelSolution.error`). A last chance's error is its turn's margin plus the most
any policy gains from the errors after its outcomes (a turn solve of those errors). A pair's
fixed point is certified by an interval check (:func:`_certify`): the map ``h(x) = f(1 -
g(1 - x))`` increases, so ``h(x - delta) >= x - delta`` and ``h(x + delta) <= x + delta``,
evaluated with each outcome's utility moved by its error (upper values by turn solves,
lower values by the policies found: any policy's value is a lower value of the optimum) and
every margin on the safe side, put the true value within ``delta``. So an error reaches a
state only in proportion to the chance of passing through it, and
:attr:`DuelSolution.bound` is the largest over all states. P(tie) and the per-turn
matchups are fixed-policy evaluations (exact linear fixed points of float distributions),
with their own bound ``tie_bound``.

**Color phases** (the certified family, :mod:`phase10math.turn.family`): a color phase's
turn needs the full projection (9.7 million holds on the compact dice), so its turns are
answered from a family of exactly solved policies: the best member's value below, a
verified linear program over the solved utilities above. With a ``target`` for the start's
error, :func:`solve_duel` solves exactly the turns whose estimated visits from the start
(:func:`visits`, a per-turn policy standing in below the layers solved) times interval
width count, then, round by round, the states whose expected visits times interval width
is largest, and solves again the states that depend on them where they weigh. On the
recorded set's ten different dice (7**10 holds) a color phase's family solves on the tensor
engine (:class:`~phase10math.turn.family.TensorFamily`, about 25 s an exact solve), two at a
time, the rows left checked again after each pair.

The phases may be a sub-range (``phases=(9, 10)``: both players start at phase 9, the game
ends with phase 10) or a reduced game (any dice, any phases, for checks).
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import hashlib
import itertools
import json
import math
import os
import pickle
import time
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from importlib import resources
from typing import Any

import numpy as np

from phase10math.cache import package_version
from phase10math.checks import check_int, check_positive_float, checks_itself, public
from phase10math.dice.faces import Die, Face, Layout, check_layout, parse_faces, parse_layout
from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.meld import explain, require_colors
from phase10math.dice.phases import PHASES, Phase
from phase10math.dice.rules import DEFAULT_RULES, Objective, Rules, check_rules
from phase10math.errors import (
    InvalidDiceError,
    InvalidRulesError,
    OutsideTableError,
    StateSpaceTooLargeError,
    WrongTypeError,
)
from phase10math.game.engine import Game, TurnView
from phase10math.game.spacemap import SpaceMap
from phase10math.progress import progress_bar
from phase10math.turn.advisor import deciding_face, placed_faces, roll_fits, way_text, ways_text
from phase10math.turn.batch import BATCH, TurnBatch, gamma
from phase10math.turn.engine import final_scores
from phase10math.turn.family import TensorFamily, TurnFamily, check_family_fits
from phase10math.turn.kernels import lexicographic_utilities
from phase10math.turn.maxima import max_phase_score, min_phase_score
from phase10math.turn.projection import FULL
from phase10math.turn.solver import solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import cached_solution
from phase10math.turn.tensor import held_heap

TOL = 1e-13  # residual at which a pair's policy iteration stops
MAX_ITER = 60
SEED_EVERY = 8  # a fresh layer solves every 8th difference first, the others from between
NOISE = 1e-11  # a residual this small that no longer shrinks is rounding: stop there
# below this residual, the next step of a pair's policy iteration checks the values alone
# first (most pairs have converged by then: a solve without the forward pass costs about
# 0.6 of one with it)
VALUE_FIRST_BELOW = 1e-4


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
# the per-turn policy whose exact fixed point at their own utilities a fresh layer's seed
# pairs start policy iteration from (None: both chances at 1/2); about two steps fewer a seed
SEED_START: Play | None = Play.COMPLETE

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


def _is_whole(v: Any) -> bool:
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
        if colored:
            try:
                check_family_fits(self.color_space, self.rules)
            except StateSpaceTooLargeError as exc:
                raise InvalidRulesError(f"{self.phases[colored[0]].text}: {exc}") from None
        # a color phase on a layout is built when first needed (its best and least scores
        # are found without building its turn: reading a table takes no gigabyte); elsewhere
        # every phase now
        lazy = isinstance(self.dice, Layout)
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

    def _advance(self, p: Player, x: int) -> tuple[Player, int]:
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


# --------------------------------------------------------------------------- the table


@dataclass
class DuelSolution:
    """Values of every state for each pair of plays (``MATCHUPS``: seat 0's play, seat 1's),
    ``bound`` the proven error bound of the optimal values (``tie_bound`` of the P(tie) and
    per-turn matchup values)."""

    game: DuelGame
    values: dict[tuple[Play, Play], dict[Key, Val]] = field(default_factory=dict)
    last: dict[Play, dict[LastKey, Val]] = field(default_factory=dict)
    bound: float = 0.0
    tie_bound: float = 0.0
    layers_done: list[int] = field(default_factory=list)
    # (layer, seat 0's phase): the parts of a layer already solved, where the layer is not
    parts_done: list[tuple[int, int]] = field(default_factory=list)
    seconds: float = 0.0
    iterations: int = 0
    fixed: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    # per state of optimal play (normal-play and last-chance keys): the proven error of its
    # value, the outcome distribution of its policy, the width of its turn's interval
    errors: dict[Any, float] = field(default_factory=dict, repr=False)
    dists: dict[Any, np.ndarray] = field(default_factory=dict, repr=False)
    gaps: dict[Any, float] = field(default_factory=dict, repr=False)
    # read from a packed table: optimal play's values everywhere, the matchups at the start
    packed: bool = field(default=False, repr=False)
    # a round of targeted refinement in progress: the steps it has still to solve again
    # ("again") and the states it solves there ("keep": seat 0's key of a pair, or a
    # last-chance key)
    pending: dict[str, Any] | None = field(default=None, repr=False)
    # states a round left as they were although a state after them changed: the next
    # rounds solve them again where they weigh
    stale: set = field(default_factory=set, repr=False)

    def __post_init__(self) -> None:
        for m in MATCHUPS:
            self.values.setdefault(m, {})
        for p in PLAYS:
            self.last.setdefault(p, {})

    # ---------------------------------------------------------------- look-ups
    def last_value(self, play: Play, p: Player, dc: int, elig: int) -> Val:
        """The chaser's (win, tie) in its last chance."""
        if dc > 0:
            return (1.0, 0.0)
        if dc < -self.game._reach(p, bool(elig)):
            return (0.0, 0.0)
        return self.last[play][(p, dc, elig)]

    def value(self, key: Key, m: tuple[Play, Play] = (Play.OPTIMAL, Play.OPTIMAL)) -> Val:
        """The mover's (P(win) + P(tie)/2, P(tie)) at a normal-play state."""
        s, me, opp, d = key
        if d > self.game._reach(opp):
            return (1.0, 0.0)
        if d < -self.game._reach(me):
            return (0.0, 0.0)
        vm = self.values[m]
        if self.packed and m != (Play.OPTIMAL, Play.OPTIMAL) and key not in vm:
            raise OutsideTableError(
                f"a packed table keeps the per-turn matchups ({m[0].label} against "
                f"{m[1].label}) at the start only; solve the game for them elsewhere"
            )
        return vm[key]

    def error(self, key: Key | LastKey) -> float:
        """The proven bound on ``|value - exact value|`` of optimal play at a state (a
        normal-play key, or a last-chance key ``(chaser, Dc, eligible)``); 0 where the
        state is decided, ``bound`` where no bound of its own was kept."""
        return 0.0 if self.decided(key) else self.errors.get(key, self.bound)

    def decided(self, key: Key | LastKey) -> bool:
        """Whether the game's outcome is settled at a state (no turn is played there)."""
        g = self.game
        if len(key) == 3:
            p, dc, elig = key
            return dc > 0 or dc < -g._reach(p, bool(elig))
        _, me, opp, d = key
        return d > g._reach(opp) or d < -g._reach(me)

    # ---------------------------------------------------------------- utilities
    def after(self, key: Key) -> list[tuple[bool, Any]]:
        """For each made outcome of the mover's turn at ``key`` (in score order): (last
        chance?, the state the opponent then moves in)."""
        g = self.game
        s, me, opp, d = key
        k = me[0]
        out = []
        for x in g.turns[k].scores:
            me2, gain = g._advance(me, int(x))
            d2 = d + gain
            if k == g.hi:
                out.append((True, (opp, -(d2 + g.rules.first_finish_bonus), int(s == 0))))
            else:
                out.append((False, (1 - s, opp, me2, -d2)))
        return out

    def after_last(self, lk: LastKey) -> list[LastKey | None]:
        """For each made outcome of the chaser's turn: its next last-chance state (None where
        the game then ends)."""
        g = self.game
        p, dc, elig = lk
        out: list[LastKey | None] = []
        for x in g.turns[p[0]].scores:
            p2, gain = g._advance(p, int(x))
            out.append(None if p[0] == g.hi else (p2, dc + gain, elig))
        return out

    def utility_errors(
        self, key: Key | LastKey, after: list[tuple[bool, Any]] | None = None
    ) -> np.ndarray:
        """The proven error of the value after every outcome of the turn at a state (0 for
        the fail outcome: inside a pair it is the fixed point's, in a last chance final);
        ``after``: a normal-play state's :meth:`after`, where already known."""
        if len(key) == 3:
            nxt = self.after_last(key)
        else:
            nxt = [n for _, n in (self.after(key) if after is None else after)]
        return np.array([0.0] + [0.0 if n is None else self.error(n) for n in nxt])

    def last_utility(self, play: Play, lk: LastKey) -> tuple[np.ndarray, np.ndarray]:
        """(win, tie) of every outcome of the chaser's turn."""
        g = self.game
        p, dc, elig = lk
        k = p[0]
        sc = g.turns[k].scores
        uw, ut = np.empty(len(sc) + 1), np.empty(len(sc) + 1)
        uw[0], ut[0] = outcome_of(dc)
        for j, x in enumerate(sc, 1):
            p2, gain = g._advance(p, int(x))
            d2 = dc + gain
            if k == g.hi:
                uw[j], ut[j] = outcome_of(d2 + (g.rules.first_finish_bonus if elig else 0))
            else:
                uw[j], ut[j] = self.last_value(play, p2, d2, elig)
        return uw, ut

    def utility(
        self,
        key: Key,
        m: tuple[Play, Play] = (Play.OPTIMAL, Play.OPTIMAL),
        after: list[tuple[bool, Any]] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(win, tie) of the mover for every outcome of its turn (failed first; the fail
        entry is read from the table, so it is only meaningful once the state is solved);
        ``after``: the state's :meth:`after`, where already known."""
        g = self.game
        s, me, opp, d = key
        k = me[0]
        sc = g.turns[k].scores
        uw, ut = np.empty(len(sc) + 1), np.empty(len(sc) + 1)
        partner = _partner(key)
        w, t = (
            self.values[m].get(partner, (math.nan, math.nan))
            if self._open(partner)
            else self.value(partner, m)
        )
        uw[0], ut[0] = 1 - w, t
        for j, (last, nxt) in enumerate(self.after(key) if after is None else after, 1):
            w, t = self.last_value(m[1 - s], *nxt) if last else self.value(nxt, m)
            uw[j], ut[j] = 1 - w, t
        return uw, ut

    def _open(self, key: Key) -> bool:
        s, me, opp, d = key
        return -self.game._reach(me) <= d <= self.game._reach(opp)

    # ---------------------------------------------------------------- policies
    def policy(
        self, keys: Sequence[Key | LastKey], last: bool = False
    ) -> list[dict[int, np.ndarray]]:
        """The optimal holds (``holds[r][pos]`` per roll state of the phase's space) at
        solved states, by re-solving their turns from the table."""
        out: list[dict[int, np.ndarray]] = []
        g = self.game
        by_phase: dict[int, list[int]] = {}
        for i, key in enumerate(keys):
            k = key[0][0] if last else key[1][0]
            by_phase.setdefault(k, []).append(i)
        res: dict[int, dict[int, np.ndarray]] = {}
        for k, idx in by_phase.items():
            # ten different dice: one policy at a time (its holds take 240 MB a reroll)
            step = 1 if isinstance(g.turns[k], TensorFamily) else BATCH
            for lo in range(0, len(idx), step):
                part = idx[lo : lo + step]
                U = np.array(
                    [
                        self.last_utility(Play.OPTIMAL, keys[i])[0]
                        if last
                        else self.utility(keys[i])[0]
                        for i in part
                    ]
                )
                sol = g.turns[k].solve(U, distribution=False, keep_holds=True)
                for c, i in enumerate(part):
                    res[i] = {r: h[:, c].copy() for r, h in sol.holds.items()}
        out = [res[i] for i in range(len(keys))]
        return out

    # ---------------------------------------------------------------- headline
    def headline(self, totals: tuple[int, int] = (0, 0)) -> dict[str, Any]:
        """P(first seat wins), P(tie), each seat's worth, the per-turn matchups."""
        key = self.game.start(totals)
        w, t = self.value(key)
        rows = []
        for m in MATCHUPS:
            wm, tm = self.value(key, m)
            rows.append(
                {
                    "first": m[0].label,
                    "second": m[1].label,
                    "p_first_wins": wm - tm / 2,
                    "p_tie": tm,
                    "first_worth": wm,
                }
            )
        return {
            "game": self.game.describe(),
            "p_first_wins": w - t / 2,
            "p_tie": t,
            "p_second_wins": 1 - w - t / 2,
            "first_worth": w,
            "second_worth": 1 - w,
            "bound": self.error(key),
            "bound_all": self.bound,
            "tie_bound": self.tie_bound,
            "matchups": rows,
        }


# --------------------------------------------------------------------------- the solve


def _fixed_distribution(game: DuelGame, k: int, play: Play) -> np.ndarray:
    """Outcome distribution of the per-turn policy ``play`` at phase ``k`` (the kit's exact
    lexicographic turn, its holds pushed forward)."""
    tb = game.turns[k]
    best = np.asarray(final_scores(game.phases[k], tb.space, game.rules), dtype=np.int64)
    obj = Objective.COMPLETE if play == Play.COMPLETE else Objective.SCORE
    first, second = lexicographic_utilities(best, obj)
    sol = solve_utility(tb.space, first, game.rules, second=second)
    holds = {r: np.asarray(sol.roll_arg[r])[:, None] for r in range(1, game.rules.rolls)}
    return tb.forward(holds, 1)[0]


def _solve_columns(game: DuelGame, k: int, U: np.ndarray, dist: bool = True, margin: bool = True):
    """Batched turn solves of phase ``k``: values, margins, distributions (zeros without
    ``dist``); a color phase's family without ``margin`` gives its best members only (no
    upper values: the margins are NaN)."""
    tb = game.turns[k]
    if not len(U):
        return np.zeros(0), np.zeros(0), np.zeros((0, tb.n_outcomes)), 0.0
    if not margin and isinstance(tb, TurnFamily):
        v, _, idx = tb.lower(tb.utilities(U))
        return v, np.full(len(v), np.nan), tb.members[idx], tb.dist_margin
    r = tb.solve(U, distribution=dist)
    dists = r.dist if dist else np.zeros((len(r.values), tb.n_outcomes))
    return r.values, r.margin, dists, r.dist_margin


CHECKPOINT_EVERY = 300.0  # seconds between checkpoints within a step
# ... and at least this many times as long as the last one took to write: at most a fifth of
# a step's time goes to writing (the 10-phase game's checkpoint takes minutes)
CHECKPOINT_SPACING = 4.0


class Checkpoint:
    """The solution so far, written atomically after each step; ``None`` path: no file.
    Within a step (a color phase's exact solves) at most every ``every`` seconds and every
    ``CHECKPOINT_SPACING`` times the last write's time: a large game's checkpoint takes a
    while to write."""

    def __init__(self, path: str | os.PathLike | None, every: float | None = None) -> None:
        self.path = None if path is None else os.fspath(path)
        self.every = CHECKPOINT_EVERY if every is None else every
        self.written = time.monotonic()
        self.took = 0.0  # seconds the last write took

    def load(self, game: DuelGame) -> DuelSolution | None:
        if self.path is None or not os.path.exists(self.path):
            return None
        data = self._read(game)
        sol = DuelSolution(game)
        for name in ("values", "last", "bound", "tie_bound", "layers_done", "seconds"):
            setattr(sol, name, data[name])
        for name in ("errors", "dists", "gaps"):
            setattr(sol, name, data.get(name, {}))
        sol.parts_done = [tuple(p) for p in data.get("parts_done", [])]
        sol.pending = data.get("pending")
        sol.stale = data.get("stale", set())
        _take_families(game, data)
        return sol

    def families_path(self) -> str | None:
        """The small file beside the checkpoint that keeps its color phases' families alone
        (``.families`` appended; None: no checkpoint): the exact solves, which are most of a
        color game's time, in hundreds of kilobytes instead of the values' hundreds of megabytes
        (the recorded 10-phase game at layer 13: 270 KB against 205 MB). It is written with
        every checkpoint; :func:`seed_families` starts a solve from it (or from a whole
        checkpoint), so it is the part of a long solve worth keeping under version control."""
        return None if self.path is None else self.path + ".families"

    def load_families(self, game: DuelGame) -> None:
        """Take into ``game``'s color phases the families of this file: a whole checkpoint
        or a ``.families`` file; refused (:class:`InvalidRulesError`) where missing or of
        another game."""
        if self.path is None or not os.path.exists(self.path):
            raise InvalidRulesError(f"no checkpoint {self.path!r} to take families from")
        _take_families(game, self._read(game))

    def _read(self, game: DuelGame) -> dict[str, Any]:
        """The file's contents, refused where written for another game than ``game``."""
        with gzip.open(self.path, "rb") as fh:
            data = pickle.load(fh)
        if data["fingerprint"] != fingerprint(game):
            raise InvalidRulesError(
                f"checkpoint {self.path} belongs to another game; remove it or choose another"
            )
        return data

    def save(self, sol: DuelSolution, within_step: bool = False) -> None:
        if self.path is None:
            return
        wait = max(self.every, CHECKPOINT_SPACING * self.took)
        if within_step and time.monotonic() - self.written < wait:
            return
        began = time.monotonic()
        data = {
            "fingerprint": fingerprint(sol.game),
            "values": sol.values,
            "last": sol.last,
            "bound": sol.bound,
            "tie_bound": sol.tie_bound,
            "layers_done": sol.layers_done,
            "parts_done": sol.parts_done,
            "pending": sol.pending,
            "stale": sol.stale,
            "seconds": sol.seconds,
            "errors": sol.errors,
            "dists": sol.dists,
            "gaps": sol.gaps,
            "families": {k: fam.state() for k, fam in families(sol.game).items()},
        }
        _write_pickle(self.path, data)
        if data["families"]:
            keep = ("fingerprint", "families")
            _write_pickle(self.families_path(), {k: data[k] for k in keep})
        self.written = time.monotonic()
        self.took = self.written - began

    def reach_path(self) -> str | None:
        """The file beside the checkpoint that keeps the first pass's estimate of where play
        goes (``.reach`` appended; None: no checkpoint)."""
        return None if self.path is None else self.path + ".reach"

    def load_reach(self, game: DuelGame) -> dict[Any, float] | None:
        """The estimate :meth:`save_reach` kept for this game, or None (none kept, or one of
        another game: the solve then estimates again and keeps its own)."""
        path = self.reach_path()
        if path is None or not os.path.exists(path):
            return None
        with gzip.open(path, "rb") as fh:
            data = pickle.load(fh)
        return data["reach"] if data.get("fingerprint") == fingerprint(game) else None

    def save_reach(self, game: DuelGame, reach: Mapping[Any, float]) -> None:
        """Keep the first pass's estimate of where play goes (written once, atomically): a
        resumed run reads it instead of estimating again (on the 10-phase game about ten
        minutes) and so plays the same first pass as a run never stopped."""
        path = self.reach_path()
        if path is None:
            return
        _write_pickle(path, {"fingerprint": fingerprint(game), "reach": dict(reach)})


def _take_families(game: DuelGame, data: Mapping[str, Any]) -> None:
    """Load into ``game``'s color phases the families a checkpoint's ``data`` keeps."""
    for k, state in data.get("families", {}).items():
        game.turns[k].load(state)


def _write_pickle(path: str, data: dict[str, Any]) -> None:
    """Write ``data`` gzipped (fast: written often) to ``path`` atomically (a temporary file
    beside it, then renamed): a stop while writing leaves the file before."""
    tmp = path + ".tmp"
    with gzip.open(tmp, "wb", compresslevel=1) as fh:
        pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)


@public
def seed_families(
    game: DuelGame, source: DuelGame, checkpoint: str | os.PathLike
) -> dict[int, int]:
    """Start ``game``'s color phases from the families of another game's solve: the
    checkpoint ``checkpoint`` that :func:`solve_duel` wrote for ``source``. A family's
    exactly solved policies and cuts belong to the turn, not to the game around it, so where
    a color phase's turn is the same (dice, rules, scores and outcomes:
    :meth:`~phase10math.turn.family.TurnFamily.same_turn`) they hold in ``game`` too, and its
    solve needs fewer exact solves of its own (e.g. the 10-phase game from its end game's).
    ``checkpoint`` may also be the small ``.families`` file kept beside it
    (:meth:`Checkpoint.families_path`). Returns how many policies each phase took; refuses a
    checkpoint of another game than ``source``, or a color phase of ``game`` whose turn
    differs from ``source``'s."""
    Checkpoint(checkpoint).load_families(source)  # refuses another game's checkpoint
    theirs = families(source)
    # a solve's family begins with the per-turn policies, so the taken one does: those of
    # the same turn, which the seeded solve then does not add again
    added = {k: fam.absorb(theirs[k]) for k, fam in families(game).items() if k in theirs}
    if not added:
        raise InvalidRulesError(
            f"{source.describe()} has no color phase of {game.describe()} to take a family from"
        )
    return added


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


def _layer_keys(game: DuelGame, layer: int) -> list[Key]:
    """The seat-0 states of a layer (sum of both phases); each has its seat-1 partner."""
    keys = []
    for ka in range(game.lo, game.hi + 1):
        kb = layer - ka
        if not game.lo <= kb <= game.hi:
            continue
        for a in game._players_at(ka):
            for b in game._players_at(kb):
                keys += [(0, a, b, d) for d in game._d_range(a, b)]
    return keys


def _last_keys(game: DuelGame, k: int) -> list[LastKey]:
    out = []
    for p in game._players_at(k):
        for elig in (0, 1):
            out += [(p, dc, elig) for dc in range(-game._reach(p, bool(elig)), 1)]
    return out


def _work(game: DuelGame) -> int:
    n = sum(len(_last_keys(game, k)) for k in range(game.lo, game.hi + 1))
    n += sum(8 * len(_layer_keys(game, L)) for L in range(2 * game.lo, 2 * game.hi + 1))
    return n


REFINE_ALL = (8, 4, 2, 1, 1, 1, 1)  # coarse to fine: neighbours' cuts may suffice
# with a target, the first pass solves exactly the color turns whose estimated visits
# (:func:`visits` with a per-turn stand-in below the layers solved) times interval width
# is more than this share of the target; then rounds, by the solved policies' visits
FIRST_SHARE = 1e-3
ROUND_PICKS = 2000  # exact solves per round of targeted refinement (at most)
MAX_ROUNDS = 40
# a round solves again the states after which something changed, less those of least visits
# times error, up to this share of the target in all
ROUND_LEAVE = 0.25
MAX_GAIN = 50.0  # the most a state's error is taken to amplify those after it
FIRST_DELTA = 1.005  # a pair certificate's first interval over the errors carried
TIGHTEN = 4  # in a round, halvings of a pair's certified interval towards the tightest


@public
def solve_duel(
    game: DuelGame | None = None,
    checkpoint: str | os.PathLike | None = None,
    show_progress: bool = False,
    log: Callable[[str], None] | None = None,
    target: float | None = None,
    picks: int = ROUND_PICKS,
) -> DuelSolution:
    """Solve a two-player game (default: phases 9-10 on the kit's rules), resuming from
    ``checkpoint`` (a file, written after every phase of the last chances and every layer,
    and within a layer after its parts (one phase of seat 0 each) and a color phase's exact
    solves, there at most every ``CHECKPOINT_EVERY`` seconds) where a killed run stopped.

    A color phase's turns come from its family (:mod:`phase10math.turn.family`). Without
    ``target`` every interval wider than the family's ``tol`` is solved exactly. With
    ``target`` (the proven error wanted at the start, both players at the first phase with
    0 points) the first pass solves exactly the turns whose estimated visits from the start
    (:func:`visits` with the completion-optimal turn standing in below the layers solved)
    times interval width is more than ``FIRST_SHARE`` of the target; then, round by round,
    the states whose visits times width is largest (until those left weigh at most
    ``ROUND_LEAVE`` of the target; at most ``picks`` a round), and the states that depend on
    them again where their visits times proven error weigh (:func:`_round_states`), until
    the start's error is at most ``target``. A round in progress is kept in the checkpoint,
    and the first pass's estimate of visits in a file beside it (``.reach`` appended), which
    a resumed run reads instead of estimating again. Where a turn is costly (the tensor
    family of the recorded dice) the run keeps the memory it frees for its next solves
    (:func:`~phase10math.turn.tensor.memory.held_heap`)."""
    check_int(picks, "picks", 1, error=InvalidRulesError)
    if target is not None:
        target = check_positive_float(target, "target")
    game = game or DuelGame.standard()
    costly = any(fam.costly for fam in families(game).values())
    with held_heap() if costly else contextlib.nullcontext():
        return _solve_duel(game, checkpoint, show_progress, log, target, picks)


def _solve_duel(
    game: DuelGame,
    checkpoint: str | os.PathLike | None,
    show_progress: bool,
    log: Callable[[str], None] | None,
    target: float | None,
    picks: int,
) -> DuelSolution:
    """:func:`solve_duel`'s run, its arguments checked."""
    ck = Checkpoint(checkpoint)
    resumed = ck.load(game)
    sol = resumed or DuelSolution(game)
    t0 = time.monotonic() - sol.seconds
    fixed = {(k, p): _fixed_distribution(game, k, p) for k in game.phases for p in PLAYS[1:]}
    sol.fixed = {k: np.stack([fixed[(k, p)] for p in PLAYS[1:]]) for k in game.phases}
    fams = families(game)
    for k, fam in fams.items():
        if not fam.size:  # the per-turn policies are the family's first members
            fam.add_policies(sol.fixed[k])
    strides = REFINE_ALL
    reach: Mapping[Any, float] | None = None
    least = 0.0
    if target is not None and fams:  # where play goes: the layers solved, a stand-in below
        strides, least = (), target * FIRST_SHARE
        if any(s not in sol.layers_done for s in _color_steps(game)):
            # a resumed run: the estimate its first run made and kept beside the checkpoint
            reach = ck.load_reach(game) if resumed is not None else None
            if reach is None:
                reach = visits(sol, proxy=Play.COMPLETE)
                ck.save_reach(game, reach)
    bar = progress_bar(
        total=_work(game), desc=f"duel {game.describe()}", unit="state", enabled=show_progress
    )
    steps = [("last", k) for k in range(game.hi, game.lo - 1, -1)]
    steps += [("layer", L) for L in range(2 * game.hi, 2 * game.lo - 1, -1)]

    def run(
        todo, strides, count: bool, keep: set | None = None, reach: Mapping | None = None
    ) -> None:
        """Solve the steps ``todo``: the first pass (``count``: the progress bar, parts
        and steps done skipped; ``reach`` where play is estimated to go), or a round's
        (``keep``: only the states it solves again)."""
        for kind, n in todo:
            tag = (1000 + n) if kind == "last" else n
            keys = _last_keys(game, n) if kind == "last" else _layer_keys(game, n)
            if keep is not None:  # a round: only the states it solves again
                keys = [k for k in keys if k in keep]
            work = len(keys) * (1 if kind == "last" else 8)
            if count and tag in sol.layers_done:
                bar.update(work)
                continue
            if kind == "last":
                _solve_last(
                    sol, n, keys, fixed, strides, reach, least, log, lambda: ck.save(sol, True)
                )
            else:
                for ka in range(game.lo, game.hi + 1):  # one phase pair at a time
                    if count and (n, ka) in sol.parts_done:
                        continue  # solved before a resumed run stopped
                    part = [key for key in keys if key[1][0] == ka]
                    _solve_layer(
                        sol, part, fixed, strides, lambda: ck.save(sol, True), log, reach, least
                    )
                    if count and part:
                        sol.parts_done.append((n, ka))
                        sol.seconds = time.monotonic() - t0
                        ck.save(sol, True)  # a large layer's parts survive a stop
                        if log:
                            log(f"  part {n}/{ka}: {len(part)} pairs, {sol.seconds:.1f} s")
            if tag not in sol.layers_done:
                sol.layers_done.append(tag)
            if sol.pending is not None and (kind, n) in sol.pending["again"]:
                sol.pending["again"].remove((kind, n))  # a round's step survives a stop
            sol.seconds = time.monotonic() - t0
            ck.save(sol, within_step=keep is not None)  # a round's steps: every 5 minutes
            if count:
                bar.update(work)
            if log:
                log(
                    f"{kind} {n}: {len(keys)} states, {sol.seconds:.1f} s, bound {sol.bound:.2e}"
                    f", start {sol.error(game.start()):.2e}, iterations so far {sol.iterations}"
                )

    run(steps, strides, True, reach=reach)
    bar.close()
    if target is None or not fams:
        return sol
    for _ in range(MAX_ROUNDS):
        if sol.pending is None:  # a new round (else: finish the one a stop interrupted)
            start_err = sol.error(game.start())
            if start_err <= target:
                break
            seen = _flow(sol, gain=_amplification(sol))  # visits, as the errors see them
            chosen, narrowed = _pick_refinements(sol, picks, target * ROUND_LEAVE, seen)
            if not (chosen or narrowed or sol.stale):  # what is left is spread thin: all of it
                chosen, narrowed = _pick_refinements(sol, picks, 0.0, seen)
            if not (chosen or narrowed or sol.stale):
                break
            # states whose family interval narrowed since they were solved: solved again
            touched = {_pair_key(key) for key in narrowed}
            todo = sum(len(r) for r in chosen.values())
            after = _round_progress(todo, lambda: ck.save(sol, True), log)
            for k, rows in chosen.items():
                U = np.array([_current_utility(sol, key) for key in rows])
                _exact_chunks(fams[k], U, after, None, _still_picked(sol, fams[k], rows, U, seen))
                touched |= {_pair_key(key) for key in rows}
            # without new exact solves: every stale state that weighs at all
            leave = target * ROUND_LEAVE if chosen or narrowed else 0.0
            keep, sol.stale = _round_states(sol, seen, touched | sol.stale, leave)
            steps_touched = {_step_of(key) for key in touched | keep}
            again = [st for st in steps if any(_depends(game, st, t) for t in steps_touched)]
            sol.pending = {"again": again, "keep": keep}
            ck.save(sol)
            if log:
                n = sum(len(r) for r in chosen.values())
                log(
                    f"round: start error {start_err:.2e}; {n} exact solves; {len(narrowed)} "
                    f"narrowed since solved; solving again "
                    f"{len(keep)} of {len(seen)} visited states in {again}"
                )
        run(list(sol.pending["again"]), (), False, sol.pending["keep"])
        sol.pending = None
        sol.bound = max(sol.errors.values(), default=sol.bound)
        sol.seconds = time.monotonic() - t0
        ck.save(sol)
    return sol


def _partner(key: Key) -> Key:
    """The state of the same configuration with the other player to move (where a failed
    turn leads)."""
    s, me, opp, d = key
    return (1 - s, opp, me, -d)


def _pair_key(key: Key | LastKey) -> Key | LastKey:
    """A state's key in a round's set: seat 0's key of a normal-play pair, a last-chance
    key itself."""
    return key if len(key) == 3 or key[0] == 0 else _partner(key)


def _round_states(
    sol: DuelSolution, seen: Mapping[Any, float], changed: set, leave: float
) -> tuple[set, set]:
    """The states a round of targeted refinement solves again and those it leaves stale
    (:func:`_pair_key` keys): of the ``changed`` states (solved exactly, or left stale by
    an earlier round) and the visited states whose values depend on them, all but those of
    least expected visits times proven error whose sum is at most ``leave`` (what the
    start's error can lose by leaving them, where the policies stay near these). A state
    left keeps its interval, proven from the intervals after it that were true before and
    are still true."""
    g = sol.game
    hit = set(changed)
    for k in range(g.hi, g.lo - 1, -1):  # last chances: on those of later phases
        for lk in [x for x in seen if len(x) == 3 and x[0][0] == k]:
            if any(n is not None and n in hit for n in sol.after_last(lk)):
                hit.add(lk)
    pairs: dict[int, set] = {}
    for key in seen:
        if len(key) == 4:
            pk = _pair_key(key)
            pairs.setdefault(pk[1][0] + pk[2][0], set()).add(pk)
    for layer in sorted(pairs, reverse=True):  # a pair: on the states after either seat's
        for k0 in pairs[layer]:
            nxt = [n for kk in (k0, _partner(k0)) for _, n in sol.after(kk)]
            if any(_pair_key(n) in hit for n in nxt):
                hit.add(k0)
    weight = dict.fromkeys(hit, 0.0)
    for key, v in seen.items():
        pk = _pair_key(key)
        if pk in hit:
            weight[pk] += v * sol.error(key)
    order = sorted(weight, key=weight.__getitem__)
    left = int(np.searchsorted(np.cumsum([weight[k] for k in order]), leave, side="right"))
    # a state no play from the start reaches weighs nothing: left, but never stale
    stale = {k for k in order[:left] if weight[k] > 0}
    return set(order[left:]), stale


def _color_steps(game: DuelGame) -> list[Any]:
    """The ``layers_done`` tags of the steps with a color phase's turns."""
    fams = families(game)
    tags = [1000 + k for k in fams]
    layers = range(2 * game.lo, 2 * game.hi + 1)
    return tags + [L for L in layers if any(L - k in game.phases for k in fams)]


def _depends(game: DuelGame, step: tuple[str, int], on: tuple[str, int]) -> bool:
    """Whether a step's values depend on those of step ``on`` (or it is ``on``): a layer on
    the layers above it and on the last chances of phases it holds a player at; a last
    chance on those of later phases."""
    (kind, n), (kind_on, m) = step, on
    if kind == "last":
        return kind_on == "last" and n <= m
    return n <= m if kind_on == "layer" else n <= m + game.hi


def _step_of(key: Key | LastKey) -> tuple[str, int]:
    """The step of the solve a state belongs to."""
    if len(key) == 3:
        return ("last", key[0][0])
    return ("layer", key[1][0] + key[2][0])


def _current_utility(sol: DuelSolution, key: Key | LastKey) -> np.ndarray:
    """The chance-to-win utility of the turn at a solved state (its fail entry from the
    partner's value now in the table)."""
    return sol.last_utility(Play.OPTIMAL, key)[0] if len(key) == 3 else sol.utility(key)[0]


@public
def visits(
    sol: DuelSolution, totals: tuple[int, int] = (0, 0), proxy: Play | None = None
) -> dict[Any, float]:
    """The expected number of visits of every state (normal play and last chances) from the
    start with ``totals``, both players playing the solution's optimal policies (their outcome
    distributions). A pair's visits: ``v0 = (m0 + q m1) / (1 - p q)``, ``v1 = (m1 + p m0) /
    (1 - p q)`` for arrivals ``m0, m1`` and fail chances ``p, q``. ``proxy`` (a per-turn
    play): where a state is not solved yet (a solve in progress), its mover plays that
    per-turn policy instead, an estimate of where play goes before the layers below are
    solved; without it such states are not entered."""
    if proxy is not None and proxy not in PLAYS[1:]:
        raise InvalidRulesError(f"proxy {proxy!r}: expected a per-turn play")
    return _flow(sol, totals, proxy)


def _flow(
    sol: DuelSolution,
    totals: tuple[int, int] = (0, 0),
    proxy: Play | None = None,
    gain: Callable[[Any, list], float] | None = None,
) -> dict[Any, float]:
    """:func:`visits`, each state's outflow (to its partner and after its outcomes)
    multiplied by ``gain(key, states after its outcomes)`` where given."""
    g = sol.game
    stand_in: dict[int, np.ndarray] = {}

    def dist(key: Any) -> np.ndarray | None:
        d = sol.dists.get(key)
        if d is not None or proxy is None or sol.decided(key):
            return d  # solved, no stand-in, or decided: no turn is played
        k = key[0][0] if len(key) == 3 else key[1][0]
        if k not in stand_in:
            fixed = sol.fixed.get(k)
            stand_in[k] = (
                fixed[PLAYS.index(proxy) - 1]
                if fixed is not None
                else _fixed_distribution(g, k, proxy)
            )
        return stand_in[k]

    arrive: dict[Any, float] = {g.start(totals): 1.0}
    out: dict[Any, float] = {}
    for layer in range(2 * g.lo, 2 * g.hi + 1):
        here = [k for k in arrive if len(k) == 4 and k[1][0] + k[2][0] == layer]
        pairs = {_pair_key(k) for k in here}
        for k0 in sorted(pairs):
            k1 = _partner(k0)
            d0, d1 = dist(k0), dist(k1)
            if d0 is None or d1 is None:
                continue  # decided (or not solved): no turn is played
            m0, m1 = arrive.pop(k0, 0.0), arrive.pop(k1, 0.0)
            n0, n1 = [n for _, n in sol.after(k0)], [n for _, n in sol.after(k1)]
            g0, g1 = (1.0, 1.0) if gain is None else (gain(k0, n0), gain(k1, n1))
            p, q = d0[0], d1[0]
            if gain is not None:  # a gain stays short of a cycle that never ends
                p, q = min(g0 * p, 0.99), min(g1 * q, 0.99)
            v0, v1 = (m0 + q * m1) / (1 - p * q), (m1 + p * m0) / (1 - p * q)
            out[k0], out[k1] = v0, v1
            for v, d, nxts in ((v0 * g0, d0, n0), (v1 * g1, d1, n1)):
                for j, nxt in enumerate(nxts, 1):
                    if not sol.decided(nxt):
                        arrive[nxt] = arrive.get(nxt, 0.0) + v * d[j]
    for k in range(g.lo, g.hi + 1):
        for lk in sorted(x for x in arrive if len(x) == 3 and x[0][0] == k):
            d = dist(lk)
            if d is None:
                continue
            v = arrive.pop(lk)
            out[lk] = out.get(lk, 0.0) + v
            nxts = sol.after_last(lk)
            v *= 1.0 if gain is None else gain(lk, nxts)
            for j, nxt in enumerate(nxts, 1):
                if nxt is not None and dist(nxt) is not None:
                    arrive[nxt] = arrive.get(nxt, 0.0) + v * d[j]
    return out


def _amplification(sol: DuelSolution) -> Callable[[Any, list], float]:
    """How much more than its policy's share of the errors after it a state's proven error
    is (the certificate's own growth, its policies for the shifted utilities, its local
    margins counted three times), between 1 and ``MAX_GAIN``: the gain of :func:`_flow`
    that makes it blame, for the start's error, the states it rests on."""

    def gain(key: Any, nxt: list) -> float:
        d = sol.dists.get(key)
        if d is None:
            return 1.0
        fail = 0.0 if len(key) == 3 else d[0] * sol.error(_partner(key))
        share = fail + sum(d[j] * sol.error(n) for j, n in enumerate(nxt, 1) if n is not None)
        share += 3 * sol.gaps.get(key, 0.0) + 1e-15
        return float(min(max(sol.error(key) / share, 1.0), MAX_GAIN))

    return gain


def _still_picked(
    sol: DuelSolution, fam: TurnFamily, keys: list[Any], U: np.ndarray, seen: Mapping[Any, float]
) -> Callable[[np.ndarray], np.ndarray] | None:
    """For a costly family: which of a round's picks ``keys`` (utilities ``U``) are still to
    solve once some are solved: those still wide whose weight in ``seen`` times the family's
    interval now is at least the least weight times gap that got a state picked (the others
    are covered by the new policies). None for a family whose exact solves are cheap."""
    if not fam.costly:
        return None
    w = np.array([seen[key] for key in keys])
    cut = float(np.min(w * np.array([sol.gaps[key] for key in keys])))

    def left(rows: np.ndarray) -> np.ndarray:
        rows, weighed = _wide_weighed(fam, U, rows, w)
        return rows[weighed >= cut]

    return left


def _wide_weighed(
    fam: TurnFamily, U: np.ndarray, rows: np.ndarray, weight: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The ``rows`` of ``U`` the family finds wide, and each one's ``weight`` times its
    interval's margin (one pass of the family's bounds)."""
    wide, margin = fam.wide_margins(U[rows])
    rows = rows[wide]
    return rows, weight[rows] * margin


def _pick_refinements(
    sol: DuelSolution, most: int, leave: float, seen: Mapping[Any, float]
) -> tuple[dict[int, list[Any]], list[Any]]:
    """The color phases' states whose weight in ``seen`` (visits, or blame) times interval
    width is largest, each wider than its family's ``tol``: at most ``most`` of them, and no
    more than it takes for those not picked to sum to at most ``leave``. Those the family
    still finds wide, by phase, to solve exactly; and those whose interval the family now
    gives less than half as wide as when they were solved (an exact solve made for another
    state, at the same or a nearby utility), to solve again only."""
    fams = families(sol.game)
    scored = []
    for key, v in seen.items():
        k = key[0][0] if len(key) == 3 else key[1][0]
        gap = sol.gaps.get(key, 0.0)
        if k in fams and gap > fams[k].tol and v * gap > 0:
            scored.append((v * gap, k, key))
    scored.sort(key=lambda t: t[0])
    rest = np.cumsum([w for w, _, _ in scored])
    scored = scored[int(np.searchsorted(rest, leave, side="right")) :][::-1]
    out: dict[int, list[Any]] = {}
    narrowed = []
    for _, k, key in scored[:most]:
        u = _current_utility(sol, key)[None]
        if len(fams[k].wide(u)):
            out.setdefault(k, []).append(key)
            continue
        # the margin the state's gap was recorded as, at its utility now
        if float(fams[k].solve(u, distribution=False).margin[0]) < sol.gaps[key] / 2:
            narrowed.append(key)
    return out, narrowed


def _solve_last(
    sol: DuelSolution,
    k: int,
    keys: list[LastKey],
    fixed,
    strides=REFINE_ALL,
    reach: Mapping[Any, float] | None = None,
    least: float = 0.0,
    log: Callable[[str], None] | None = None,
    save: Callable[[], None] | None = None,
) -> None:
    """Last chances at phase ``k``: the optimal chaser (one batched solve), the per-turn
    chasers (their fixed distributions). A value's error: its turn's margin plus the largest
    gain any policy makes of the errors after its outcomes (a turn solve of those errors).
    A color phase's wide intervals are solved exactly first: every ``strides[0]``-th, or
    with ``reach`` those whose estimated visits times width is more than ``least``."""
    if not keys:
        return
    g = sol.game
    U = np.array([sol.last_utility(Play.OPTIMAL, lk) for lk in keys])  # n x 2 x outcomes
    if k in families(g) and (reach is not None or strides):  # no cycle: solve, then read
        # (a failed last chance ends the game: its fail entry is already final)
        weight = None if reach is None else np.array([reach.get(lk, 0.0) for lk in keys])
        side = (U, np.full(len(keys), k), U[:, 0, 0], weight)
        stride = 1 if reach is not None or strides == REFINE_ALL else strides[0]
        _refine(g, side, stride=stride, save=save, least=None if reach is None else least, log=log)
    vals, marg, dist, dm = _solve_columns(g, k, U[:, 0])
    E = np.array([sol.utility_errors(lk) for lk in keys])
    spread = _error_spread(g, k, E)
    ties = np.einsum("no,no->n", dist, U[:, 1])
    for i, lk in enumerate(keys):
        sol.last[Play.OPTIMAL][lk] = (float(vals[i]), float(ties[i]))
        sol.errors[lk] = float(marg[i] + spread[i])
        sol.dists[lk] = dist[i]
        sol.gaps[lk] = float(marg[i])
    n_out = U.shape[2]
    sol.bound = max(sol.bound, max(sol.errors[lk] for lk in keys))
    sol.tie_bound = sol.tie_bound + n_out * dm + 1e-15
    for p in PLAYS[1:]:
        d = fixed[(k, p)]
        for lk in keys:
            uw, ut = sol.last_utility(p, lk)
            sol.last[p][lk] = (float(d @ uw), float(d @ ut))


def _error_spread(g: DuelGame, k: int, E: np.ndarray) -> np.ndarray:
    """A proven upper bound of the most any policy of phase ``k``'s turn can gain from errors
    ``E`` (rows: per outcome): a batched solve of ``E`` without colors, the largest error with
    them (a family's cuts are not made for such utilities)."""
    if not len(E) or not E.any():
        return np.zeros(len(E))
    if k in families(g):
        return E.max(axis=1)
    vals, marg, _, _ = _solve_columns(g, k, E, dist=False)
    return np.minimum(vals + marg, E.max(axis=1))


REFINE_CHUNK = 16  # exact solves between checkpoints
COSTLY_CHUNK = 2  # ... where each costs far more than a check (the tensor engine)


def _refine(
    g: DuelGame,
    *sides,
    stride: int,
    save: Callable[[], None] | None,
    least: float | None = None,
    log: Callable[[str], None] | None = None,
) -> int:
    """Exact solves of the color phases' turns whose family interval is wider than its
    ``tol``, every ``stride``-th of them (by state order), at the current fail values; each
    ``side`` is (utilities, phases, fail values, weights). With ``least``: instead, those
    whose weight (the state's estimated visits) times interval width is more than ``least``.
    Returns how many were solved."""
    fams = families(g)
    added = 0
    for U, kk, fail, weight in sides:
        for k, fam in fams.items():
            idx = np.flatnonzero(kk == k)
            if least is not None:  # a width is at most 1: lighter states cannot count
                idx = idx[weight[idx] > least]
            if not len(idx):
                continue
            W = U[idx, 0].copy()
            W[:, 0] = fail[idx]
            if least is None:
                added += _solve_wide(fam, W, stride, save, log=log)
            else:
                added += _solve_wide(fam, W, 1, save, (weight[idx], least), log)
    return added


def _solve_wide(
    fam: TurnFamily,
    W: np.ndarray,
    stride: int,
    save: Callable[[], None] | None = None,
    weighs: tuple[np.ndarray, float] | None = None,
    log: Callable[[str], None] | None = None,
) -> int:
    """Exact solves of every ``stride``-th row of ``W`` whose family interval is wide (and,
    with ``weighs`` = (a weight per row, least), whose weight times interval width is more
    than ``least``), in chunks (``save`` after each, and for a costly family a ``log``
    line); how many were solved."""

    def left(rows: np.ndarray) -> np.ndarray:
        if weighs is None:
            return rows[fam.wide(W[rows])]
        rows, weighed = _wide_weighed(fam, W, rows, weighs[0])
        return rows[weighed > weighs[1]]

    rows = left(np.arange(len(W)))[::stride]
    before, began, done = fam.exact_solves, time.monotonic(), [0]
    values_before = fam.value_solves

    def after(n: int) -> None:
        if save is not None:
            save()
        done[0] += n
        if log is not None and fam.costly:  # minutes a chunk: say how far it is
            alone = fam.value_solves - values_before
            log(
                f"  exact solves: {fam.exact_solves - before} solved"
                + (f" ({alone} by their value alone)" if alone else "")
                + f", {done[0]} of {len(rows)} wide turns done, "
                f"{time.monotonic() - began:.0f} s"
            )

    _exact_chunks(fam, W, after, rows, left)
    return fam.exact_solves - before


def _round_progress(
    todo: int, save: Callable[[], None], log: Callable[[str], None] | None
) -> Callable[[int], None]:
    """``after(rows)`` for a round's ``todo`` exact solves: a checkpoint, then a line with
    how many are done and an estimate of the time left."""
    done, began = [0], time.monotonic()

    def after(rows: int) -> None:
        save()
        done[0] += rows
        spent = time.monotonic() - began
        if log:
            left = spent / done[0] * (todo - done[0])
            log(
                f"  round's exact solves: {done[0]} of {todo}, {spent:.0f} s, "
                f"about {left:.0f} s left"
            )

    return after


def _exact_chunks(
    fam: TurnFamily,
    W: np.ndarray,
    after: Callable[[int], None] | None,
    rows: np.ndarray | None = None,
    left: Callable[[np.ndarray], np.ndarray] | None = None,
) -> None:
    """Exact solves of the rows ``rows`` of ``W`` (default all), ``REFINE_CHUNK`` at a time,
    ``after(rows done)`` after each (a checkpoint, the progress). Where an exact solve costs
    far more than a check (:attr:`~phase10math.turn.family.TurnFamily.costly`: the tensor
    engine's 25 s), ``COSTLY_CHUNK`` at a time, and the rows left are checked again after
    each chunk (``left``: those still to solve; default the family's wide ones): the others
    are done without a solve."""
    size = COSTLY_CHUNK if fam.costly else REFINE_CHUNK
    rows = np.arange(len(W)) if rows is None else rows
    if fam.costly:  # spread out: the rows between two solved ones are the likeliest covered
        rows = rows[spread_order(len(rows))]
    while len(rows):
        chunk, rows = rows[:size], rows[size:]
        fam.exact(W[chunk])
        done = len(chunk)
        if fam.costly and len(rows):
            keep = left(rows) if left is not None else rows[fam.wide(W[rows])]
            done += len(rows) - len(keep)
            rows = keep
        if after:
            after(done)


def spread_order(n: int) -> np.ndarray:
    """``0 .. n - 1`` in bisection order: the first, then every 2**k-th for k from the largest
    down (each position after those with more trailing zero bits), so that a prefix is spread
    evenly over the range.

    >>> spread_order(8).tolist()
    [0, 4, 2, 6, 1, 3, 5, 7]
    """
    i = np.arange(n, dtype=np.int64)
    low = np.where(i == 0, np.int64(1) << 62, i & -i)  # the lowest set bit
    return np.argsort(-low, kind="stable")


def _shifted(U: np.ndarray, E: np.ndarray) -> np.ndarray:
    """Utilities with every made outcome's chance to win moved by its error ``E`` (a row per
    state, one entry per outcome, the fail entry unused)."""
    out = U.copy()
    out[:, 0, 1:] += E[:, 1:]
    return out


def _certify(sol, U0, U1, E0, E1, ka, kb, x, y, res, m0, m1, d0, d1, dm, solve_at, tighten=0):
    """Proven errors of every pair's values (seat 0's, seat 1's). ``h(x) = f(1 - g(1 -
    x))`` increases, and the true ``h`` lies below ``h+`` (seat 0's made outcomes raised by
    their errors ``E0``, seat 1's lowered by ``E1``) and above ``h-`` (the reverse); so
    ``h+(x + delta) <= x + delta`` and ``h-(x - delta) >= x - delta``, checked with upper
    values from turn solves and lower values from the policies found (any policy's value is
    a lower value of the optimum), every margin on the safe side, put the true ``x`` within
    ``delta``; ``y = g(1 - x)`` then lies between seat 1's two bounds. ``delta`` starts at
    the errors the policies found carry through the pair (unamplified) plus a slack for the
    local margins. Where a check fails, ``delta`` grows by what it missed, over ``1 - p q``
    (the map's slope is about ``p q``: the fixed point lies about that much further out),
    doubled, and by the slack, which doubles: one more check usually passes, close to the
    tightest ``delta``."""
    p, q = d0[:, 0], d1[:, 0]
    up0, down1 = _shifted(U0, E0), _shifted(U1, -E1)
    down0, up1 = _shifted(U0, -E0), _shifted(U1, E1)
    a0 = np.einsum("no,no->n", d0[:, 1:], E0[:, 1:])
    a1 = np.einsum("no,no->n", d1[:, 1:], E1[:, 1:])
    carried = (a0 + p * a1) / (1 - p * q)
    fams = families(sol.game)
    fam0, fam1 = np.isin(ka, list(fams)), np.isin(kb, list(fams))

    def policy_error(U):
        # a lower value from the policy found: its distribution's margin and the sum's
        # rounding (utilities within [-1, 2]: chances moved by their errors, fail values)
        return np.full(len(U), (dm + 2 * gamma(U.shape[2] + 1)) * 2 * U.shape[2])

    pol0, pol1 = policy_error(U0), policy_error(U1)
    local = 2 * (m0 + m1) + res + np.where(fam0, 0, pol0) + np.where(fam1, 0, pol1)
    slack = 1.5 * (local + 1e-16) / (1 - p * q) + 1e-6 * carried

    def lower_at(U, kk, fail, d, fam, err):
        # any policy's value is a lower value of the optimum; a family may know a better one
        W = U[:, 0].copy()
        W[:, 0] = fail
        lo = np.einsum("no,no->n", d, W) - err
        for k in np.unique(kk[fam]):  # the best member's proven lower value (no program)
            idx = np.flatnonzero(fam & (kk == k))
            lo[idx] = np.maximum(lo[idx], fams[int(k)].lower(W[idx])[1])
        return lo

    def check(delta, r):
        """(passed, y's error) at the rows ``r``."""
        xr, yr = x[r], y[r]
        ya = lower_at(down1[r], kb[r], 1 - (xr + delta), d1[r], fam1[r], pol1[r])  # g- below
        # g+ and f+ from above (one solve for both seats where their phases agree)
        if up1.shape[2] == up0.shape[2]:
            v, m, _, _, _ = solve_at(
                np.concatenate([up1[r], up0[r]]),
                np.concatenate([kb[r], ka[r]]),
                np.concatenate([1 - (xr - delta), 1 - ya]),
                False,
            )
            yb, fa = np.split(v + m, 2)
        else:
            v, m, _, _, _ = solve_at(up1[r], kb[r], 1 - (xr - delta), False)
            yb = v + m
            v, m, _, _, _ = solve_at(up0[r], ka[r], 1 - ya, False)
            fa = v + m
        fb = lower_at(down0[r], ka[r], 1 - yb, d0[r], fam0[r], pol0[r])  # f- from below
        ok = (fa <= xr + delta) & (fb >= xr - delta)
        missed = np.maximum(fa - (xr + delta), (xr - delta) - fb)
        return ok, np.maximum(np.abs(yr - ya), np.abs(yb - yr)), missed

    todo = np.arange(len(x))
    ex, ey = np.zeros(len(x)), np.zeros(len(x))
    # a first interval a little wider than the errors the policies carry: the upper
    # values' policies weigh the errors after them a little more, so most pairs pass the
    # first check (nearly every pair needed a second one at the errors carried); a
    # family's slack is generous already
    delta = carried * np.where(fam0 | fam1, 1.0, FIRST_DELTA) + slack
    failed = carried + slack  # below it the check fails, or the interval is near-tight
    for tries in range(60):
        ok, ey_now, missed = check(delta[todo], todo)
        done = todo[ok]
        ex[done], ey[done] = delta[done], ey_now[ok]
        failed[todo[~ok]] = delta[todo[~ok]]
        todo, missed = todo[~ok], missed[~ok]
        if not len(todo):
            break
        slope = np.minimum(p[todo] * q[todo], 1 - 1e-3)
        delta[todo] += 2 * missed / (1 - slope) + slack[todo]
        slack[todo] *= 2
        if tries >= 3:  # far off: grow by the carried error too
            delta[todo] += 0.05 * carried[todo]
    else:
        raise RuntimeError("the error bound could not be certified")  # pragma: no cover
    # ``tighten`` halvings between the last delta that failed and the one that passed
    far = np.flatnonzero(ex > 1.05 * failed)
    for _ in range(tighten):
        if not len(far):
            break
        mid = (failed[far] + ex[far]) / 2
        ok, ey_now, _ = check(mid, far)
        ex[far[ok]], ey[far[ok]] = mid[ok], ey_now[ok]
        failed[far[~ok]] = mid[~ok]
        far = far[ex[far] > 1.05 * failed[far]]
    # a family's slack is generous (its margins are whole intervals): try a quarter of it,
    # and keep it where the check still passes (any passing delta is proven)
    wide = np.flatnonzero((slack > 1e-9) & (fam0 | fam1))
    for _ in range(3):
        if not len(wide):
            break
        trial = slack[wide] / 4
        d_try = ex[wide] - slack[wide] + trial
        ok, ey_now, _ = check(d_try, wide)
        keep = wide[ok]
        ex[keep] = d_try[ok]
        ey[keep] = np.minimum(ey[keep], ey_now[ok])
        slack[keep] = trial[ok]
        wide = keep[slack[keep] > 1e-9]  # a failed trial stops there
    return ex, ey


def _policy_fixed_point(
    d0: np.ndarray, d1: np.ndarray, M0: np.ndarray, M1: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Both seats' chances to win when each plays a fixed turn policy: ``d0``, ``d1`` its
    outcome distributions (failed first), ``M0``, ``M1`` the chances after each made outcome.
    The exact solution of ``x = A + p (1 - y)``, ``y = B + q (1 - x)`` (a failed turn hands
    the same configuration to the other player)."""
    p, q = d0[:, 0], d1[:, 0]
    A = np.einsum("no,no->n", d0[:, 1:], M0)
    B = np.einsum("no,no->n", d1[:, 1:], M1)
    x = (A + p * (1 - B) - p * q) / (1 - p * q)
    return x, q * (1 - x) + B


def _solve_layer(
    sol: DuelSolution,
    keys0: list[Key],
    fixed,
    strides: Sequence[int] = REFINE_ALL,
    save: Callable[[], None] | None = None,
    log: Callable[[str], None] | None = None,
    reach: Mapping[Any, float] | None = None,
    least: float = 0.0,
) -> None:
    """One layer: every pair (seat 0 state, its seat 1 partner) by policy iteration; a color
    phase's turns from its family, refined (:func:`_refine`, every ``strides[i]``-th wide
    interval in round ``i``; with ``reach``, a state's estimated visits, instead those whose
    visits times interval width is more than ``least``)."""
    g = sol.game
    if not keys0:
        return
    keys1 = [_partner(k) for k in keys0]
    opt = (Play.OPTIMAL, Play.OPTIMAL)
    nx0, nx1 = [sol.after(k) for k in keys0], [sol.after(k) for k in keys1]  # once a state
    U0 = np.array([sol.utility(k, opt, a) for k, a in zip(keys0, nx0, strict=True)])
    U1 = np.array([sol.utility(k, opt, a) for k, a in zip(keys1, nx1, strict=True)])
    E0 = np.array([sol.utility_errors(k, a) for k, a in zip(keys0, nx0, strict=True)])
    E1 = np.array([sol.utility_errors(k, a) for k, a in zip(keys1, nx1, strict=True)])
    ka = np.array([k[1][0] for k in keys0])
    kb = np.array([k[1][0] for k in keys1])
    n = len(keys0)
    start = [sol.values[opt].get(k) for k in keys0], [sol.values[opt].get(k) for k in keys1]
    x = np.array([0.5 if v is None else v[0] for v in start[0]])  # a re-solve starts there
    y = np.array([0.5 if v is None else v[0] for v in start[1]])

    def solve_at(U, kk, fail, want_dist=True, margin=True):
        m = len(U)
        Uw = U[:, 0].copy()
        Uw[:, 0] = fail
        vals, marg, dist = np.zeros(m), np.zeros(m), np.zeros((m, U.shape[2]))
        dm = 0.0
        for k in np.unique(kk):
            idx = np.flatnonzero(kk == k)
            v, m_, d_, dm = _solve_columns(g, int(k), Uw[idx], want_dist, margin)
            vals[idx], marg[idx], dist[idx] = v, m_, d_
        return vals, marg, dist, Uw, dm

    fams = families(g)

    def family_margins(rows, m, W, kk):
        # a family's margin (its upper value: a linear program) once, at the values found
        for k in np.unique(kk[rows]):
            if int(k) in fams:
                idx = rows[kk[rows] == k]
                m[idx] = fams[int(k)].solve(W[idx], distribution=False).margin

    f0, m0, f1, m1, res = (np.zeros(n) for _ in range(5))
    d0, W0 = np.zeros((n, U0.shape[2])), np.zeros((n, U0.shape[2]))
    d1, W1 = np.zeros((n, U1.shape[2])), np.zeros((n, U1.shape[2]))
    margins = [0.0]  # the distributions' margin

    def policy_iteration(x, y, rows=None):
        """Solve both turns at the current values, then take the exact fixed point of the
        two policies found, until the solves reproduce the values; a pair leaves the
        batch once it has converged (``rows``: only these pairs)."""
        x, y = x.copy(), y.copy()
        prev = np.full(n, np.inf)
        newton = np.zeros(n, dtype=bool)  # the last step was to the fixed point of policies
        active = np.arange(n) if rows is None else rows
        for it in range(MAX_ITER):  # noqa: B007 (the count is read after the loop)
            i = active
            # a Newton step from a small residual has mostly found the optimal policies:
            # their values alone first (no forward pass), and where they reproduce the
            # values, the policies found before are optimal there (their exact fixed point)
            quick = i[newton[i] & (prev[i] < VALUE_FIRST_BELOW)]
            if len(quick):
                f0[quick], m0[quick], _, W0[quick], _ = solve_at(
                    U0[quick], ka[quick], 1 - y[quick], False, False
                )
                f1[quick], m1[quick], _, W1[quick], _ = solve_at(
                    U1[quick], kb[quick], 1 - x[quick], False, False
                )
                r = np.maximum(np.abs(f0[quick] - x[quick]), np.abs(f1[quick] - y[quick]))
                ok = (r <= TOL) | ((r <= NOISE) & (r > 0.5 * prev[quick]))
                res[quick[ok]] = r[ok]
                i = np.setdiff1d(i, quick[ok], assume_unique=True)
                if not len(i):
                    break
            f0[i], m0[i], d0[i], W0[i], margins[0] = solve_at(U0[i], ka[i], 1 - y[i], True, False)
            f1[i], m1[i], d1[i], W1[i], _ = solve_at(U1[i], kb[i], 1 - x[i], True, False)
            r = np.maximum(np.abs(f0[i] - x[i]), np.abs(f1[i] - y[i]))
            res[i] = r
            slow = r > 0.5 * prev[i]
            done = (r <= TOL) | ((r <= NOISE) & slow)  # converged, or at rounding's floor
            if done.all() or it == MAX_ITER - 1:
                break  # what is left over enters the certificate
            xn, yn = _policy_fixed_point(d0[i], d1[i], W0[i, 1:], W1[i, 1:])
            # Newton where it makes progress; elsewhere a value-iteration step (a contraction)
            x[i] = np.where(done, x[i], np.where(slow, f0[i], xn))
            y[i] = np.where(done, y[i], np.where(slow, f1[i], yn))
            newton[i] = ~slow & ~done
            prev[i] = r
            active = i[~done]
        sol.iterations += it + 1
        solved = np.arange(n) if rows is None else rows
        family_margins(solved, m0, W0, ka)
        family_margins(solved, m1, W1, kb)
        return x, y, (f0, m0, d0, W0, margins[0], f1, m1, d1, W1, res)

    if all(v is None for v in start[0]) and n > SEED_EVERY:
        # a fresh layer: first every SEED_EVERY-th difference of each pair of players, then
        # the others from the values between their neighbours (fewer policy changes to go)
        groups: dict[tuple, list[int]] = {}
        for i, (_, a, b, _) in enumerate(keys0):
            groups.setdefault((a, b), []).append(i)
        seeds = [i for g_ in groups.values() for j, i in enumerate(g_) if j % SEED_EVERY == 0]
        seeds += [g_[-1] for g_ in groups.values() if (len(g_) - 1) % SEED_EVERY]
        seeds = np.array(sorted(seeds))
        if SEED_START is not None:
            # the seeds start where both players' per-turn policies take them: the exact
            # fixed point of those two policies at the seeds' own utilities
            c0 = np.stack([fixed[(int(k), SEED_START)] for k in ka[seeds]])
            c1 = np.stack([fixed[(int(k), SEED_START)] for k in kb[seeds]])
            x[seeds], y[seeds] = _policy_fixed_point(c0, c1, U0[seeds, 0, 1:], U1[seeds, 0, 1:])
        x, y, last = policy_iteration(x, y, seeds)
        # the others start where the policies of their nearest seed would take them: the
        # exact fixed point of those two policies at their own utilities (one solve each
        # where the policies stay optimal)
        d = np.array([k[3] for k in keys0], dtype=float)
        near = np.arange(n)
        for g_ in groups.values():
            here = np.array(g_)
            sd = here[np.isin(here, seeds)]
            if len(sd) == 1:
                near[here] = sd[0]
                continue
            pos = np.clip(np.searchsorted(d[sd], d[here]), 1, len(sd) - 1)
            left, right = sd[pos - 1], sd[pos]
            near[here] = np.where(d[here] - d[left] <= d[right] - d[here], left, right)
        others = np.setdiff1d(np.arange(n), seeds)
        s_ = near[others]
        x[others], y[others] = _policy_fixed_point(
            d0[s_], d1[s_], U0[others, 0, 1:], U1[others, 0, 1:]
        )
        x, y, last = policy_iteration(x, y, others)
    else:
        x, y, last = policy_iteration(x, y)
    if fams and reach is not None:  # the turns play reaches most, once
        r0 = np.array([reach.get(k, 0.0) for k in keys0])
        r1 = np.array([reach.get(k, 0.0) for k in keys1])
        sides = (U0, ka, 1 - y, r0), (U1, kb, 1 - x, r1)
        added = _refine(g, *sides, stride=1, save=save, least=least, log=log)
        if log and added:
            log(f"  refined {added} turns (estimated visits times width over {least:.1e})")
        if added:
            x, y, last = policy_iteration(x, y)
    elif fams:
        for i, stride in enumerate(strides):
            sides = (U0, ka, 1 - y, None), (U1, kb, 1 - x, None)
            added = _refine(g, *sides, stride=stride, save=save, log=log)
            if log and added:
                log(f"  refined {added} turns (every {stride}th of the wide intervals)")
            if not added and (stride == 1 or i == len(strides) - 1):
                break
            if added:
                x, y, last = policy_iteration(x, y)
    f0, m0, d0, W0, dm, f1, m1, d1, W1, res = last
    p, q = d0[:, 0], d1[:, 0]
    tighten = TIGHTEN if sol.pending is not None else 0  # a round: few pairs, worth it
    ex, ey = _certify(sol, U0, U1, E0, E1, ka, kb, x, y, res, m0, m1, d0, d1, dm, solve_at, tighten)
    sol.bound = max(sol.bound, float(ex.max()), float(ey.max()))
    for i in range(n):
        sol.errors[keys0[i]], sol.errors[keys1[i]] = float(ex[i]), float(ey[i])
        sol.dists[keys0[i]], sol.dists[keys1[i]] = d0[i], d1[i]
        sol.gaps[keys0[i]], sol.gaps[keys1[i]] = float(m0[i]), float(m1[i])
    # the policies' ties and the matchups: exact fixed points of fixed policies, whose
    # errors pass through unamplified except the local ones (by 1 + p over 1 - p q)
    n_out = U0.shape[2]
    pp, qq = np.minimum(p + dm, 1), np.minimum(q + dm, 1)
    amp = (1 + np.maximum(pp, qq)) / (1 - pp * qq)
    sol.tie_bound = max(sol.tie_bound, sol.tie_bound + float(((n_out * dm + 1e-15) * amp).max()))
    dists = {
        0: {
            Play.OPTIMAL: d0,
            **{pl: np.stack([fixed[(int(k), pl)] for k in ka]) for pl in PLAYS[1:]},
        },
        1: {
            Play.OPTIMAL: d1,
            **{pl: np.stack([fixed[(int(k), pl)] for k in kb]) for pl in PLAYS[1:]},
        },
    }
    for m in MATCHUPS:
        if m == opt:
            V0w, V1w = x, y
            U0m, U1m = U0, U1
        else:
            U0m = np.array([sol.utility(k, m, a) for k, a in zip(keys0, nx0, strict=True)])
            U1m = np.array([sol.utility(k, m, a) for k, a in zip(keys1, nx1, strict=True)])
        P0, P1 = dists[0][m[0]], dists[1][m[1]]
        p, q = P0[:, 0], P1[:, 0]
        if m != opt:
            V0w, V1w = _policy_fixed_point(P0, P1, U0m[:, 0, 1:], U1m[:, 0, 1:])
        At = np.einsum("no,no->n", P0[:, 1:], U0m[:, 1, 1:])
        Bt = np.einsum("no,no->n", P1[:, 1:], U1m[:, 1, 1:])
        T0 = (At + p * Bt) / (1 - p * q)
        T1 = q * T0 + Bt
        vm = sol.values[m]
        for i in range(n):
            vm[keys0[i]] = (float(V0w[i]), float(T0[i]))
            vm[keys1[i]] = (float(V1w[i]), float(T1[i]))


# --------------------------------------------------------------------------- shipped tables


TABLE_PACKAGE = "phase10math.game.data"
TABLE_FILE = "duel_table.json.gz"  # the default shipped range (its game is recorded inside)
# every range shipped (a range whose file is not in the package is skipped: the 10-phase
# game's packed table joins once its solve ends, ``duel --solve --phases 1-10``)
TABLE_FILES = {
    (9, 10): TABLE_FILE,
    (6, 10): "duel_table_6_10.json.gz",
    (1, 10): "duel_table_1_10.npz",
}


# tables whose color phase was solved on other dice than the others' (``SHIPPED_DICE``), by
# those dice (a layout of :data:`~phase10math.dice.layouts.LAYOUTS`), then phase range; a
# range whose file is not in the package is skipped (the recorded dice' end game and whole
# game: ``duel --solve --phases 8-10|1-10 --layout recorded``, resumable from ``runs/``)
OTHER_DICE_TABLE_FILES: dict[Layout, dict[tuple[int, int], str]] = {
    RECORDED_LAYOUT: {
        (8, 10): "duel_table_8_10_recorded.json.gz",
        (1, 10): "duel_table_1_10_recorded.npz",
    },
}


def _table_files(dice: Layout | None) -> Mapping[tuple[int, int], str]:
    """The table files of the tables solved on ``dice`` (None: ``SHIPPED_DICE``)."""
    return TABLE_FILES if dice is None else OTHER_DICE_TABLE_FILES.get(dice, {})


def shipped_ranges(dice: Layout | None = None) -> list[tuple[int, int]]:
    """The phase ranges whose solved tables ship with the package: those solved on ``dice``
    (a layout of :data:`OTHER_DICE_TABLE_FILES`; None: the compact dice, most tables)."""
    root = resources.files(TABLE_PACKAGE)
    return [r for r, name in _table_files(dice).items() if root.joinpath(name).is_file()]


RECOMPUTE = "phase10math duel --solve --phases 9-10 --write TABLE"


def table_payload(sol: DuelSolution, command: str = RECOMPUTE) -> dict[str, Any]:
    """The solution as plain data: the setting, the headline, every value."""

    def enc_key(k: Key) -> list[int]:
        s, a, b, d = k
        return [s, *a, *b, d]

    def enc_last(k: LastKey) -> list[int]:
        p, dc, e = k
        return [*p, dc, e]

    opt = (Play.OPTIMAL, Play.OPTIMAL)
    return {
        "format": 2,  # 2: the optimal rows end with their proven error
        **table_payload_meta(sol, command),
        "values": {
            m[0].label + "-" + m[1].label: [
                enc_key(k) + [w, t] + ([sol.error(k)] if m == opt else [])
                for k, (w, t) in sol.values[m].items()
            ]
            for m in MATCHUPS
        },
        "last": {
            p.label: [
                enc_last(k) + [w, t] + ([sol.error(k)] if p == Play.OPTIMAL else [])
                for k, (w, t) in sol.last[p].items()
            ]
            for p in PLAYS
        },
    }


def table_payload_meta(sol: DuelSolution, command: str = RECOMPUTE) -> dict[str, Any]:
    """What a table says of itself: its game, rules, dice, code, command, bounds, headline."""
    g = sol.game
    return {
        "game": {
            "lo": g.lo,
            "hi": g.hi,
            "phases": {k: p.text for k, p in g.phases.items()},
            "reachable": g.reachable,
        },
        "rules": g.rules.to_dict(),
        "layout": g.dice.to_dict() if isinstance(g.dice, Layout) else None,
        "fingerprint": fingerprint(g),
        "code_version": package_version(),
        "command": command,
        "seconds": round(sol.seconds, 1),
        "bound": sol.bound,
        "tie_bound": sol.tie_bound,
        "headline": sol.headline(),
    }


def write_table(sol: DuelSolution, path: str | os.PathLike, command: str = RECOMPUTE) -> None:
    """Write the compressed table (atomically): rows of JSON, or a packed table where
    ``path`` ends in ``.npz`` (:func:`write_packed`)."""
    if os.fspath(path).endswith(".npz"):
        write_packed(sol, path, command)
        return
    tmp = os.fspath(path) + ".tmp"
    with gzip.open(tmp, "wt", encoding="utf-8") as fh:
        json.dump(table_payload(sol, command), fh, separators=(",", ":"))
    os.replace(tmp, path)


# A packed table (``.npz``) keeps optimal play's values and errors as arrays in the order of
# the game's own states (blocks of consecutive score differences, stored in the file beside
# them), and the per-turn matchups at the start only: a 10-phase game has 1.5 million states, about
# 70 times the 6-10 table, far too many for rows of JSON or for dicts in memory. The values are
# float32 (the nearest to each float64), each state's error widened by its value's rounding and
# P(tie)'s bound by the largest of its roundings: intervals still certified, a file 0.57 as
# large. Blocks are int32.
PACKED_FORMAT = 3


def state_blocks(game: DuelGame) -> Iterable[tuple[tuple[int, Player, Player], int, int]]:
    """A packed table's normal-play states in order: ``((seat, me, opponent), first score
    difference, how many)``, layer by layer from the highest; each seat-0 block is followed
    by its partners' (seat 1, the differences negated)."""
    for layer in range(2 * game.hi, 2 * game.lo - 1, -1):
        for ka in range(game.lo, game.hi + 1):
            if not game.lo <= layer - ka <= game.hi:
                continue
            for a in game._players_at(ka):
                for b in game._players_at(layer - ka):
                    r = game._d_range(a, b)
                    if len(r):
                        yield (0, a, b), r.start, len(r)
                        yield (1, b, a), -(r.stop - 1), len(r)


def last_blocks(game: DuelGame) -> Iterable[tuple[tuple[Player, int], int, int]]:
    """A packed table's last-chance states in order: ``((chaser, eligible), first Dc, how
    many)``, from the last phase down (as the solve takes them)."""
    for k in range(game.hi, game.lo - 1, -1):
        for p in game._players_at(k):
            for elig in (0, 1):
                reach = game._reach(p, bool(elig))
                yield (p, elig), -reach, reach + 1


class PackedStates(Mapping):
    """Read-only ``key -> value`` over arrays in block order (see :func:`state_blocks`):
    a key's index is its block's offset plus its place in the block. ``split`` parts a key
    into (block, position); ``join`` puts them back; ``read(i)`` the value at index ``i``."""

    def __init__(self, blocks, split, join, read, count: int | None = None) -> None:
        self._at: dict[Any, tuple[int, int, int]] = {}
        n = 0
        for block, first, size in blocks:
            self._at[block] = (n, first, size)
            n += size
        if count is not None and n != count:
            raise InvalidRulesError(
                f"the packed table holds {count} states where its game has {n}: "
                "written by other code; solve it again"
            )
        self._n, self._split, self._join, self._read = n, split, join, read

    def index(self, key: Any) -> int | None:
        """Where ``key`` is in the arrays (None where the table has no such state)."""
        try:
            block, pos = self._split(key)
            off, first, size = self._at[block]
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        if not isinstance(pos, int):
            return None
        i = pos - first
        return off + i if 0 <= i < size else None

    def __getitem__(self, key: Any) -> Any:
        i = self.index(key)
        if i is None:
            raise KeyError(key)
        return self._read(i)

    def __contains__(self, key: object) -> bool:
        return self.index(key) is not None

    def __iter__(self):
        for block, (_, first, size) in self._at.items():
            for pos in range(first, first + size):
                yield self._join(block, pos)

    def __len__(self) -> int:
        return self._n


def _flat(block: tuple) -> list[int]:
    """A block's name as integers: (seat, me, opponent) or (chaser, eligible)."""
    out: list[int] = []
    for part in block:
        out += [int(x) for x in part] if isinstance(part, tuple) else [int(part)]
    return out


def _unflat(rows: np.ndarray, normal: bool) -> Iterable[tuple[tuple, int, int]]:
    """The blocks of a packed table's file (see :func:`_flat`)."""
    for r in rows.tolist():
        if normal:
            s, a, b = r[0], (r[1], Bonus(r[2]), r[3]), (r[4], Bonus(r[5]), r[6])
            yield (s, a, b), r[7], r[8]
        else:
            yield ((r[0], Bonus(r[1]), r[2]), r[3]), r[4], r[5]


def _split_normal(k: Key) -> tuple[Any, int]:
    return (k[0], k[1], k[2]), k[3]


def _join_normal(block: tuple, d: int) -> Key:
    return (*block, d)


def _split_last(k: LastKey) -> tuple[Any, int]:
    return (k[0], k[2]), k[1]


def _join_last(block: tuple, dc: int) -> LastKey:
    return (block[0], dc, block[1])


class PackedErrors(Mapping):
    """Each state's proven error in a packed table, normal-play and last-chance keys alike."""

    def __init__(self, normal: PackedStates, last: PackedStates) -> None:
        self.normal, self.last = normal, last

    def _part(self, key: Any) -> PackedStates:
        return self.last if isinstance(key, tuple) and len(key) == 3 else self.normal

    def __getitem__(self, key: Any) -> float:
        return self._part(key)[key][2]

    def __contains__(self, key: object) -> bool:
        return key in self._part(key)

    def __iter__(self):
        yield from self.normal
        yield from self.last

    def __len__(self) -> int:
        return len(self.normal) + len(self.last)


def _up32(e: np.ndarray) -> np.ndarray:
    """Errors as float32, each rounded up (a bound stays a bound)."""
    f = np.asarray(e, dtype=np.float64).astype(np.float32)
    low = f.astype(np.float64) < e
    f[low] = np.nextafter(f[low], np.float32(np.inf))
    return f


def narrow_values(
    win: np.ndarray, tie: np.ndarray, error: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Values (float64) as float32 with their errors widened to still bound them: ``(win32,
    tie32, error32, tie_rounding)``, each error plus its value's rounding (a difference of a
    float and its nearest float32, exact in float64), rounded up, then up to float32; the
    largest rounding of a P(tie), rounded up (the caller adds it to the tie bound).

    >>> w, t, e, r = narrow_values(np.array([0.1]), np.array([0.3]), np.array([1e-12]))
    >>> bool(abs(float(w[0]) - 0.1) <= float(e[0]) and float(e[0]) < 3e-9 and r < 1.5e-8)
    True
    """
    w32, t32 = win.astype(np.float32), tie.astype(np.float32)
    widened = np.nextafter(error + np.abs(win - w32.astype(np.float64)), np.inf)
    tie_rounding = float(np.abs(tie - t32.astype(np.float64)).max(initial=0.0))
    return w32, t32, _up32(widened), float(np.nextafter(tie_rounding, np.inf))


def write_packed(sol: DuelSolution, path: str | os.PathLike, command: str = RECOMPUTE) -> None:
    """Write a packed table (``.npz``, atomically): optimal play's (win, tie, error) of every
    state in block order, the matchups at the start. Refused unless every state is solved."""
    g = sol.game
    opt = (Play.OPTIMAL, Play.OPTIMAL)
    arrays: dict[str, np.ndarray] = {}
    tie_rounding = 0.0
    for name, blocks, join, table in (
        ("", list(state_blocks(g)), _join_normal, sol.values[opt]),
        ("last_", list(last_blocks(g)), _join_last, sol.last[Play.OPTIMAL]),
    ):
        # the blocks go into the file (enumerating a 10-phase game's takes seconds)
        arrays[name + "blocks"] = np.array(
            [[*_flat(b), first, size] for b, first, size in blocks], dtype=np.int32
        ).reshape(len(blocks), -1)
        keys = [join(b, pos) for b, first, size in blocks for pos in range(first, first + size)]
        missing = [k for k in keys if k not in table]
        if missing:
            raise InvalidRulesError(
                f"{len(missing)} states of {g.describe()} are not solved (e.g. {missing[0]}); "
                "finish the solve first"
            )
        vals = np.array([table[k] for k in keys], dtype=np.float64).reshape(-1, 2)
        errors = np.array([sol.error(k) for k in keys], dtype=np.float64)
        w, t, e, r = narrow_values(vals[:, 0], vals[:, 1], errors)
        arrays[name + "win"], arrays[name + "tie"], arrays[name + "error"] = w, t, e
        tie_rounding = max(tie_rounding, r)
    start = g.start()
    meta = {**table_payload_meta(sol, command), "format": PACKED_FORMAT}
    meta["tie_bound"] = float(np.nextafter(sol.tie_bound + tie_rounding, np.inf))
    meta["start"] = {m[0].label + "-" + m[1].label: list(sol.value(start, m)) for m in MATCHUPS}
    meta["states"], meta["last_states"] = len(arrays["win"]), len(arrays["last_win"])
    arrays["meta"] = np.array(json.dumps(meta, separators=(",", ":")))
    tmp = os.fspath(path) + ".tmp.npz"
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)


def read_packed(fh, game: DuelGame | None = None) -> tuple[DuelSolution, dict[str, Any]]:
    """A solution from a packed table (a path or a binary file), checked against the code's
    fingerprint of its game (``game``: the one it was solved for, where it is not the kit's
    phases on a named layout) and the number of its states."""
    try:
        with np.load(fh, allow_pickle=False) as z:
            data = json.loads(str(z["meta"][()]))
            arr = {name: z[name] for name in z.files if name != "meta"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as e:
        raise InvalidRulesError(f"not a packed two-player table: {e}") from None
    if data.get("format") != PACKED_FORMAT:
        raise InvalidRulesError(f"not a packed two-player table (format {data.get('format')})")
    game = _table_game(data) if game is None else _checked(game, data)
    parts = {}
    for name, split, join in (
        ("", _split_normal, _join_normal),
        ("last_", _split_last, _join_last),
    ):
        w, t, e = (arr[name + x] for x in ("win", "tie", "error"))
        states = PackedStates(
            _unflat(arr[name + "blocks"], normal=not name),
            split,
            join,
            lambda i, w=w, t=t, e=e: (float(w[i]), float(t[i]), float(e[i])),
            data[name + "states"],
        )
        if not len(w) == len(t) == len(e) == len(states):
            raise InvalidRulesError("the packed table's arrays do not match its blocks")
        parts[name] = states, float(e.max()) if len(e) else 0.0
    (normal, e_normal), (last, e_last) = parts[""], parts["last_"]
    bound = max(data["bound"], e_normal, e_last)  # the errors were rounded up
    sol = DuelSolution(game, bound=bound, tie_bound=data["tie_bound"], seconds=data["seconds"])
    sol.packed = True
    opt = (Play.OPTIMAL, Play.OPTIMAL)
    by_label = {p.label: p for p in PLAYS}
    start = game.start()
    at_start = {}  # the start's values in full (the arrays' are float32)
    for name, (wm, tm) in data["start"].items():
        a, b = name.split("-")
        at_start[(by_label[a], by_label[b])] = {start: (float(wm), float(tm))}
    sol.values[opt] = _Pairs(normal, at_start.pop(opt, {}))
    sol.values.update(at_start)
    sol.last[Play.OPTIMAL] = _Pairs(last)
    sol.errors = PackedErrors(normal, last)
    return sol, data


class _Pairs(Mapping):
    """A packed table's (win, tie) per state (its error left out); ``full``: states whose
    values the file keeps in full beside the arrays (the start)."""

    def __init__(self, states: PackedStates, full: Mapping[Any, Val] | None = None) -> None:
        self.states = states
        self.full = dict(full or {})

    def __getitem__(self, key: Any) -> Val:
        if key in self.full:
            return self.full[key]
        w, t, _ = self.states[key]
        return (w, t)

    def __contains__(self, key: object) -> bool:
        return key in self.states

    def __iter__(self):
        return iter(self.states)

    def __len__(self) -> int:
        return len(self.states)


def _table_game(data: Mapping[str, Any]) -> DuelGame:
    """The game a table was solved for, refused unless the code's fingerprint agrees."""
    rules = Rules(**data["rules"])
    layout = parse_layout(data["layout"]) if data["layout"] else COMPACT_LAYOUT
    spec = data["game"]
    return _checked(
        DuelGame.standard(spec["lo"], spec["hi"], rules, layout, spec.get("reachable")), data
    )


def _checked(game: DuelGame, data: Mapping[str, Any]) -> DuelGame:
    """``game``, refused unless the code's fingerprint of it is the table's."""
    if fingerprint(game) != data["fingerprint"]:
        raise InvalidRulesError("the table was solved for another game or an older meld")
    return game


def read_table(
    path: str | os.PathLike | None = None,
    phases: tuple[int, int] = (9, 10),
    dice: Layout | None = None,
) -> tuple[DuelSolution, dict[str, Any]]:
    """A solution from a table file (default: the shipped one of ``phases`` solved on
    ``dice``, see :func:`shipped_ranges`), checked against the code's fingerprint of its
    game."""
    if path is None:
        if phases not in shipped_ranges(dice):
            shipped = ", ".join(f"{a}-{b}" for a, b in shipped_ranges(dice))
            on = "" if dice is None else f" solved on the {dice.name} dice"
            raise OutsideTableError(
                f"no table of phases {phases[0]}-{phases[1]}{on} ships with the package "
                f"(shipped: {shipped or 'none'}); solve it with duel --solve"
            )
        name = _table_files(dice)[phases]
        ref = resources.files(TABLE_PACKAGE).joinpath(name)
        if name.endswith(".npz"):
            with ref.open("rb") as raw:
                return read_packed(raw)
        with ref.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as fh:
            data = json.load(fh)
    elif os.fspath(path).endswith(".npz"):
        return read_packed(path)
    else:
        try:
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                data = json.load(fh)
            if not isinstance(data, dict) or "fingerprint" not in data:
                raise ValueError("no fingerprint")
        except (OSError, EOFError, ValueError) as e:  # gzip, UTF-8 and JSON errors among them
            raise InvalidRulesError(f"not a two-player table: {e}") from None
    try:
        return _table_rows(data)
    except (KeyError, TypeError, IndexError, ValueError) as e:  # a file of another shape
        if isinstance(e, InvalidRulesError):
            raise
        raise InvalidRulesError(f"not a two-player table: {type(e).__name__} {e}") from None


def _table_rows(data: dict[str, Any]) -> tuple[DuelSolution, dict[str, Any]]:
    """The solution a table's rows of JSON hold."""
    game = _table_game(data)
    sol = DuelSolution(
        game, bound=data["bound"], tie_bound=data["tie_bound"], seconds=data["seconds"]
    )
    by_label = {p.label: p for p in PLAYS}
    for name, rows in data["values"].items():
        a, b = name.split("-")
        vm = sol.values[(by_label[a], by_label[b])]
        for r in rows:
            key = (r[0], (r[1], r[2], r[3]), (r[4], r[5], r[6]), r[7])
            vm[key] = (r[8], r[9])
            if len(r) > 10:
                sol.errors[key] = r[10]
    for name, rows in data["last"].items():
        lm = sol.last[by_label[name]]
        for r in rows:
            lk = ((r[0], r[1], r[2]), r[3], r[4])
            lm[lk] = (r[5], r[6])
            if len(r) > 7:
                sol.errors[lk] = r[7]
    return sol, data


def format_headline(h: Mapping[str, Any]) -> str:
    """The headline as text: the optimal game, then the per-turn matchups."""
    lines = [
        f"Two-player Phase 10 Dice, {h['game']}, both players from the first phase with 0 points",
        f"P(first player wins) = {h['p_first_wins']:.6f}   P(tie) = {h['p_tie']:.6f}   "
        f"P(second player wins) = {h['p_second_wins']:.6f}",
        f"worth of the first seat {h['first_worth']:.6f}, of the second {h['second_worth']:.6f} "
        "(chance to win, a tie counted half)",
        f"proven: the first seat's worth within {h['bound']:.1e} (certified interval "
        f"[{h['first_worth'] - h['bound']:.6f}, {h['first_worth'] + h['bound']:.6f}]); every "
        f"state's value within {h.get('bound_all', h['bound']):.1e}; P(tie) and the matchups "
        f"within {h['tie_bound']:.1e}",
        "",
        f"{'first seat':<11} {'second seat':<12} {'P(first wins)':>14} {'P(tie)':>9} "
        f"{'first worth':>12}",
    ]
    for r in h["matchups"]:
        lines.append(
            f"{r['first']:<11} {r['second']:<12} {r['p_first_wins']:>14.6f} {r['p_tie']:>9.6f} "
            f"{r['first_worth']:>12.6f}"
        )
    return "\n".join(lines)


def iter_solved(sol: DuelSolution) -> Iterable[Key]:
    """The solved normal-play states."""
    return iter(sol.values[(Play.OPTIMAL, Play.OPTIMAL)])


# --------------------------------------------------------------------------- playing to win


@public
class DuelStrategy:
    """A game strategy that plays the solved two-player policy (``play`` OPTIMAL) in a
    :class:`~phase10math.game.engine.Game` of two players: it reads both score sheets from
    the game it is attached to (:meth:`attach`), finds the state in ``solution`` and keeps
    the hold of that state's optimal turn (re-solved from the table, cached per state). In a
    state already decided (no play changes the result) it keeps everything."""

    name = "win"

    def __init__(self, solution: DuelSolution) -> None:
        self.solution = solution
        self.game_ref: Any = None
        self._holds: dict[Any, dict[int, np.ndarray]] = {}
        self._maps: dict[int, Any] = {}

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
        well_formed = all(_is_whole(v) for v in numbers) and all(
            isinstance(p, tuple)
            and len(p) == 3
            and all(_is_whole(v) for v in p)
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
        if (last, key) not in self._holds:
            self._holds[(last, key)] = self.solution.policy([key], last=last)[0]
        holds = self._holds[(last, key)]
        space = self.solution.game.turns[view.number].space
        m = self._maps.get(view.number)
        if m is None:
            m = self._maps[view.number] = SpaceMap(space, view.layout)
        pos = int(np.searchsorted(space.full_ids, m.roll_id(view.faces)))
        return m.keep_for(int(holds[view.rolls_left][pos]), view.faces, view.held)


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
        """One line on the decisions played outside the table (None when there were none)."""
        if not self.fell_back:
            return None
        g = self.solution.game
        total = self.fell_back + self.from_table
        return (
            f"win: {self.fell_back} of {total} decisions were outside the two-player table "
            f"({g.describe()}; last: {self.last_reason}) and were played by the "
            f"{self.fallback.name}-optimal turn; {self.from_table} were played to win"
        )


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
    fits = sorted(
        (t for t in tables if first_covered(t[0], layout, t[1]) <= low <= t[0][1]),
        key=lambda t: t[0][1] - t[0][0],
    )
    if not fits:
        shipped = ", ".join(f"{a}-{b}" for (a, b), _ in tables)
        raise OutsideTableError(
            f"no shipped table holds a player at phase {low} (shipped: phases {shipped})"
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
    hi_opp = g.hi + (1 if last_chance else 0)
    if not g.lo <= me[0] <= g.hi or not g.lo <= opponent[0] <= hi_opp:
        raise OutsideTableError(
            f"phases {me[0]} and {opponent[0]} are outside the solved table ({g.describe()})"
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


# --------------------------------------------------------------------------- advice


def _hold_text(space, gid: int) -> str:
    vals = sorted((k for _, k in space.faces_of(gid)), reverse=True)
    return " ".join("W" if v == 0 else str(v) for v in vals) or "(nothing: reroll all)"


@public
def win_advice(
    sol: DuelSolution,
    me: tuple[int, int],
    opponent: tuple[int, int],
    faces: Sequence[Face | str] | str,
    rolls_left: int,
    second: bool = False,
    last_chance: bool = False,
    layout: Layout | None = None,
    by_die: bool = False,
    dice_of: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """Every hold of a roll ranked by the chance to win (a tie counted half) for the player
    to move at ``me`` = (phase, total) against ``opponent``, from the solved table; with the
    holds the per-turn objectives would keep and their chance. ``second``: the mover sits
    second in turn order; ``last_chance``: the opponent has finished (``opponent``'s total is
    final).

    The faces may be typed in any order, as for :func:`~phase10math.turn.advisor.advise`:
    where they fit the dice in several ways that change the best hold, ``fits`` gives the
    best hold of each way, ``question`` names the face whose die decides it, and the ranking
    is the first way's (the faces in the order of the dice, where they fit so). ``by_die``:
    the faces are in the order of the layout's dice; ``dice_of``: ``{face index: die index}``
    (both from 0) for the faces whose die is known. Each hold (``best``, ``options``) is
    ``keep`` (its faces in words), ``chance_to_win``, ``error`` (proven) and ``hold_id`` (its
    state id in the phase's turn space, ``sol.game.turns[phase].space``: a
    :class:`~phase10math.game.spacemap.SpaceMap` finds its dice). ``certified``: the best
    hold is best for any chances within the errors (no hold of a smaller chance, beyond the
    tie rule, can reach the best's; a table is coarse at states play from its start rarely
    reaches, and there it may not tell the holds apart). ``stop`` is stopping now
    with the dice as they lie (the turn scores them, or fails): its ``chance_to_win``,
    ``error``, whether the dice make the phase (``made``) and their ``score`` (0 if not)."""
    g = sol.game
    k = me[0]
    check_covered(sol, me, opponent, last_chance, layout)
    layout = layout or g.layout
    if not 1 <= rolls_left < g.rules.rolls:
        raise InvalidRulesError(f"rolls left {rolls_left}: expected 1..{g.rules.rolls - 1}")
    tb = g.turns[k]
    space = tb.space
    faces = parse_faces(faces)
    if len(faces) != len(layout.dice):
        raise InvalidDiceError(
            f"give the {len(layout.dice)} dice in front of the player; got {len(faces)}"
        )
    require_colors(faces, g.phases[k])
    fits = roll_fits(space, faces, layout, placed_faces(faces, layout, by_die, dice_of))
    key = g.state_key(me, opponent, second, last_chance)
    if last_chance:
        U = sol.last_utility(Play.OPTIMAL, key)[0]
        E = sol.utility_errors(key)  # a failed last chance ends the game: exact
    else:
        U = sol.utility(key)[0]
        E = sol.utility_errors(key)
        E[0] = sol.error(_partner(key))  # the partner's, on a fail
    counts = [space.counts_for(f.typed) for f in fits]
    subs = [
        [
            space.state_id(sub)
            for sub in itertools.product(
                *[itertools.product(*[range(c + 1) for c in cs]) for cs in cnt]
            )
        ]
        for cnt in counts
    ]
    # the chances to win, and their errors, of every way's holds at once: a hold's chance is
    # a mean of the outcomes' chances, and a best choice among means errs by at most the
    # largest error among them
    every = np.unique(np.concatenate([np.asarray(ids, dtype=np.int64) for ids in subs]))
    HV = tb.hold_values(np.stack([U, E], axis=1), rolls_left, every)
    W, Werr = dict(zip(every.tolist(), HV[:, 0])), dict(zip(every.tolist(), HV[:, 1]))
    rounding = float(np.abs(U).max()) * 1e-12
    per_turn = _per_turn_solutions(g, k, space)
    # stopping now: the outcome of the faces as they lie (whichever die shows which)
    meld = explain(g.phases[k], faces, g.rules)
    o = tb.outcome_of_score(meld.score if meld.complete else None)
    stop = {
        "chance_to_win": float(U[o]),
        "error": float(E[o]) + rounding,
        "made": bool(meld.complete),
        "score": int(meld.score) if meld.complete else 0,
    }

    def option(w: float, h: int) -> dict[str, Any]:
        return {
            "keep": _hold_text(space, h),
            "chance_to_win": w,
            "error": float(Werr[h]) + rounding,
            "hold_id": int(h),  # the hold's state id in the phase's turn space
        }

    def ranked(cnt, gids) -> dict[str, Any]:
        sizes = space.sizes_of(gids)
        holds = [(float(W[gid]), int(sizes[i]), gid) for i, gid in enumerate(gids)]
        # ties (within float resolution) to the larger hold, as the kit orders holds
        holds.sort(key=lambda h: (round(h[0], 12), h[1], h[2]), reverse=True)
        roll_gid = space.state_id(cnt)
        others = {}
        for obj, s in per_turn.items():
            hid = s.best_hold_id(roll_gid, rolls_left)
            others[str(obj)] = {"keep": _hold_text(space, hid), "chance_to_win": float(W[hid])}
        w0, h0 = holds[0][0], holds[0][2]
        floor = w0 - float(Werr[h0]) - rounding  # the best hold's chance is at least this
        return {
            "best": option(w0, h0),
            "options": [option(w, h) for w, _, h in holds],
            "per_turn": others,
            # whether the best hold stays best for any values within the errors: no hold of
            # a smaller chance (beyond the tie rule) can reach the best's least chance
            "certified": all(
                w + float(Werr[h]) + rounding <= floor for w, _, h in holds if w < w0 - 1e-12
            ),
            # every hold's chance within this: the largest error the states after this turn
            # carry into any of this roll's holds (not the table's largest)
            "bound": max(float(Werr[h]) for _, _, h in holds) + rounding,  # of every option
        }

    answers = [ranked(cnt, gids) for cnt, gids in zip(counts, subs)]
    out = dict(answers[0], stop=stop, dice=[str(f) for f in faces], note=None, question=None)
    out["bound"] = max(out["bound"], stop["error"])  # stopping's chance within it too
    out.update(deciding_face=None, fits=[])
    ways = sum(f.ways for f in fits)
    same = len({a["best"]["keep"] for a in answers}) == 1
    if same:
        if ways > 1:
            out["note"] = (
                f"these faces fit the dice in {ways} ways; the best hold is the same for all"
            )
        return out
    decider, question = deciding_face(
        [(a["best"]["keep"], f.on) for a, f in zip(answers, fits)], faces, layout
    )
    out["fits"] = [
        {
            "dice": [d + 1 for d in f.dice],  # one way: the die of each face, from 1
            "deciding_face_on": [] if decider is None else sorted(d + 1 for d in f.on[decider]),
            "ways": f.ways,
            "best": a["best"],
        }
        for a, f in zip(answers, fits)
    ]
    out.update(
        question=question,
        deciding_face=None if decider is None else decider + 1,
        note=f"these faces fit the dice in {ways} ways, and the best hold depends on which "
        f"die shows which face: {question}",
    )
    return out


def _per_turn_solutions(g: DuelGame, k: int, space: StateSpace) -> dict[Objective, Any]:
    """The per-turn objectives' turn solutions of phase ``k`` on the game's dice: solved once
    and kept on disk for a layout, solved here for other dice."""
    out = {}
    for obj in (Objective.COMPLETE, Objective.SCORE):
        s = cached_solution(g.phases[k], obj, g.rules, g.layout) if g.dice is g.layout else None
        if s is None or s.space.key() != space.key():  # other dice: solved here
            best = np.asarray(final_scores(g.phases[k], space, g.rules), dtype=np.int64)
            a, b = lexicographic_utilities(best, obj)
            s = solve_utility(space, a, g.rules, second=b)
        out[obj] = s
    return out


def format_advice(adv: Mapping[str, Any], top: int = 10) -> str:
    lines = []
    if adv.get("fits"):
        face = adv["dice"][adv["deciding_face"] - 1]
        ways = [
            way_text(
                n,
                face,
                f["deciding_face_on"],
                f"keep {f['best']['keep']} -> chance to win {f['best']['chance_to_win']:.6f}",
            )
            for n, f in enumerate(adv["fits"], 1)
        ]
        lines += ways_text(adv["question"], ways)
    lines.append(f"{'keep':<24} {'chance to win':>14}")
    for o in adv["options"][: top or None]:
        lines.append(f"{o['keep']:<24} {o['chance_to_win']:>14.6f}")
    best = adv["best"]
    for name, o in adv["per_turn"].items():
        if o["keep"] == best["keep"]:
            lines.append(f"the {name}-optimal turn keeps the same")
        elif abs(best["chance_to_win"] - o["chance_to_win"]) <= 1e-12:
            lines.append(f"the {name}-optimal turn would keep {o['keep']}: the same chance to win")
        else:
            lines.append(
                f"the {name}-optimal turn would keep {o['keep']}: chance to win "
                f"{o['chance_to_win']:.6f} ({best['chance_to_win'] - o['chance_to_win']:.6f} less: "
                f"it plays for this turn's {'completion' if name == 'complete' else 'points'}, "
                "not for the score sheets)"
            )
    stop = adv["stop"]
    made = f"phase made, {stop['score']} points" if stop["made"] else "phase failed"
    lines.append(f"stop now ({made}): chance to win {stop['chance_to_win']:.6f}")
    lines.append(
        f"every chance within {adv['bound']:.1e} "
        "(proven: the errors of the table's states after this turn)"
    )
    if not adv["certified"]:
        lines.append(
            "not certified: within these errors another hold may be better (the table is "
            "coarse at the states after this turn)"
        )
    if adv.get("note") and not adv.get("fits"):
        lines.append(f"note: {adv['note']}")
    return "\n".join(lines)
