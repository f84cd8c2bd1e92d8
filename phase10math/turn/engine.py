"""One turn engine: the recurrence's steps for each kind of state space, and the one backward
induction that every turn solve runs.

The recurrence (see :mod:`phase10math.turn.solver`), with ``V_r`` the value of a roll when ``r``
rerolls remain and ``W_r`` the value of a hold, is made of four steps, named here as in the
docs:

- *final utility*: ``V_0``, the utility of every final roll (:meth:`Engine.final_utility`);
- *expectation over rerolls*: ``W_r(K) = E[V_{r-1}(K + roll of the other dice)]``
  (:meth:`Engine.expectation`);
- *subset maximum* in the kit's one order of holds (:func:`~.kernels.hold_ranks`):
  ``V_r(S) = max over K within S of W_r(K)`` (:meth:`Engine.subset_maximum`);
- *values of given holds*: ``V_r(S) = W_r(policy(S))`` for a fixed policy
  (:meth:`Engine.values_of_holds`).

Four engines offer them: the per-type engine (identical dice grouped, :mod:`.kernels`), the
tensor engine (ten different dice, in place, :mod:`.tensor`), the sticky engine (dice set
aside stay, :mod:`.sticky`) and the batch engine (many float utilities at once on grouped
dice, compiled: the two-player solve's turns, :mod:`.batchsteps`). :func:`engine_for` is the
only place that picks one: sticky holds on the sticky engine; free holds on dice no two alike
on the tensor engine; other exact and single float solves on the per-type engine; batched
float solves (``batch=True``) on the batch engine, or on the tensor engine where more than
three dice are no two alike (a color phase of the recorded dice).
:func:`backward_induction` is the one loop over the rolls left; the *chooser* says what a
stage does with a hold's values: :data:`OPTIMAL` (exact, one or two keys, lexicographic),
:data:`OPTIMAL_FLOAT` (float64), :class:`Fixed` (a given policy) or :data:`RANDOM` (each die
kept with probability 1/2). Each engine runs a stage as it can: the tensor engine die 0's
face by face on the other dice's tensors, its roll values in the smallest integer dtype their
bounds allow and the codes of its best holds beside them; a stage told that it is the last (the
turn's first roll) may return the turn's totals instead of its roll values.

Batches: the per-type float and fixed-policy stages take utilities with a trailing batch axis
(``(rolls, B)``: B utilities over the same space in one pass); the totals then have shape
``(B,)``.

>>> from phase10math.dice.layouts import COMPACT_LAYOUT
>>> from phase10math.dice.rules import Rules
>>> from phase10math.turn.projection import VALUE
>>> space = StateSpace.build(COMPACT_LAYOUT, VALUE)
>>> engine_for(space, Rules()).kind, engine_for(space, Rules(holds="sticky")).kind
(<EngineKind.PER_TYPE: 'per-type'>, <EngineKind.STICKY: 'sticky'>)
>>> engine_for(space, Rules(), batch=True).kind
<EngineKind.BATCH: 'batch'>
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

import numpy as np

from phase10math.dice.meld import best_scores
from phase10math.dice.partial import greedy_keep
from phase10math.dice.phases import Phase
from phase10math.dice.rules import Holds, Rules
from phase10math.errors import InvalidRulesError, StateSpaceTooLargeError
from phase10math.exact import fits_int64
from phase10math.turn.batchsteps import expect_step, max_step, weighted_sums
from phase10math.turn.kernels import (
    binomial_subset_sum,
    evaluate_on_unique,
    expect_rerolls,
    first_roll_total,
    hold_ranks,
    normalise,
    subset_max,
)
from phase10math.turn.statespace import StateSpace
from phase10math.turn.sticky import (
    MAX_STICKY_PAIRS,
    sticky_greedy_layer,
    sticky_layer,
    sticky_pairs,
)
from phase10math.turn.tensor.codes import HoldIds, holds_from_codes
from phase10math.turn.tensor.finals import final_scores_tensor
from phase10math.turn.tensor.greedy import greedy_holds_tensor
from phase10math.turn.tensor.holdvalues import LazyHoldValues, best_hold_codes
from phase10math.turn.tensor.memory import (
    check_tensor_fits,
    int_dtype,
    is_tensor_space,
    kept_value_bytes,
    smallest_int,
)
from phase10math.turn.tensor.stages import split_policy_values, split_stage
from phase10math.turn.tensor.totals import exact_total, tensor_weights

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = ["final_scores"]

MAX_STATES = 60_000_000  # holds; beyond this the arrays do not fit in 24 GiB with margin
TENSOR_FINALS_ROLLS = 1_000_000  # distinct-dice spaces with more rolls: finals by half-profiles


class EngineKind(Enum):
    """Which engine runs a turn."""

    PER_TYPE = "per-type"
    TENSOR = "tensor"
    STICKY = "sticky"
    BATCH = "batch"


# --------------------------------------------------------------------------- choosers


@dataclass(frozen=True)
class Optimal:
    """Maximise the keys lexicographically (exact numerators; one or two keys), remaining
    ties by :func:`~.kernels.hold_ranks`."""


class Ties(Enum):
    """How the batch engine breaks a tie between holds (values within the chooser's ``tie``):
    ``KEEP`` the best so far stays (a smaller hold must be better by more than ``tie``; the
    two-player solve's rule: its shipped numbers were solved with it), ``KIT`` the kit's one
    order of holds (:func:`~.kernels.hold_ranks`: more dice, then the larger id; the exact
    engine's holds)."""

    KEEP = "keep"
    KIT = "kit"


@dataclass(frozen=True)
class OptimalFloat:
    """Maximise one float64 key. The batch engine counts values within ``tie`` of each
    other as equal (an exact tie split by rounding) and breaks ties by ``ties``; the
    per-type and tensor engines compare exactly, ties to the hold found first (the caller
    evaluates the chosen policy exactly). ``holds=False``: the stages may skip their best
    holds (the tensor engine's maxima then take about a third of the time; no ``arg``).
    ``codes``: keep the best holds as two-byte hold codes (:class:`~.tensor.codes.HoldIds`)
    where the engine has them (ten different dice), not as hold ids."""

    tie: float = 0.0
    holds: bool = True
    ties: Ties = Ties.KEEP
    codes: bool = False


@dataclass(frozen=True)
class Fixed:
    """A fixed free-hold policy: ``holds[r]`` the hold id per roll state with r rerolls left;
    ``exact`` integer numerators, else float64 expectations."""

    holds: dict[int, np.ndarray] = field(repr=False)
    exact: bool = True


@dataclass(frozen=True)
class FixedOrder:
    """Sticky holds: the policy that keeps ``first[pos]`` after the first roll, and later the
    dice added to those set aside that give the best hold in the order ``ranks[r]`` (hold
    ranks, e.g. of an optimal solution's keys, with r rerolls left after the hold)."""

    ranks: dict[int, np.ndarray] = field(repr=False)
    first: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class UniformRandom:
    """Every die kept with probability 1/2 after every roll but the last (exact)."""


OPTIMAL = Optimal()
OPTIMAL_FLOAT = OptimalFloat()
RANDOM = UniformRandom()
Chooser = Optimal | OptimalFloat | Fixed | FixedOrder | UniformRandom


# --------------------------------------------------------------------------- stages


@dataclass
class Stage:
    """One number of rolls left: the roll values per key (``full_ids`` order; ``None`` where
    a last stage kept only its totals), and for an optimal stage the hold values per key, the
    best hold per roll state and the hold ranks; ``total``: the turn's totals per key, where
    the last stage computed them with its values (else they are summed from ``roll``)."""

    roll: list[np.ndarray] | None
    hold: list[Any] = field(default_factory=list)
    arg: Any = None
    ranks: np.ndarray | None = None
    total: list[Any] | None = None


@dataclass
class Induction:
    """What :func:`backward_induction` returns: per key the roll values (``roll[j][r]``) and
    hold values (``hold[j][r]``) by rolls left (all stages with ``keep``, else the last), the
    best holds ``arg[r]`` of an optimal chooser, and per key the turn's total: an exact
    numerator over ``denominator`` (times the utility's), or a float mean."""

    roll: list[dict[int, np.ndarray]]
    hold: list[dict[int, Any]]
    arg: dict[int, np.ndarray]
    total: list[Any] | None
    denominator: int


# --------------------------------------------------------------------------- engines


class Engine:
    """The per-type engine: identical dice grouped, arrays over all holds (:mod:`.kernels`)."""

    kind = EngineKind.PER_TYPE
    batches = True  # the float and fixed-policy stages take a trailing batch axis

    def __init__(self, space: StateSpace, rules: Rules):
        self.space, self.rules = space, rules

    # ------------------------------------------------------------ size
    def check_size(self, rolls: int, second: bool = True, finals: Sequence | None = None) -> None:
        """Refuse (StateSpaceTooLargeError) a turn whose holds would not fit in memory
        (``finals``: the utilities, where known, for an engine whose memory depends on their
        bounds)."""
        n = self.space.n_states
        if n > MAX_STATES:
            raise StateSpaceTooLargeError(
                f"this turn has {n:,} holds under this layout ({len(self.space.types)} "
                f"different kinds of dice as this phase sees them); the limit on this machine "
                f"is {MAX_STATES:,}. Use a layout with more identical dice or the other hold rule."
            )

    # ------------------------------------------------------------ the steps
    def final_utility(self, values, rolls: int, which: str = "utility's") -> tuple[int, Any]:
        """(common denominator, integer numerators) of a utility on the roll states: int64
        where every stage's numerators provably fit (:func:`~phase10math.exact.fits_int64`),
        Python integers otherwise."""
        den, nums, umax = _numerators(values)
        fits = fits_int64(umax, 6 ** (self.space.n_dice * (rolls - 1)))
        if isinstance(nums, np.ndarray) and fits:
            return den, nums.astype(np.int64, copy=False)
        return den, np.array(nums, dtype=np.int64 if fits else object)

    def expectation(self, values: np.ndarray) -> np.ndarray:
        """Expectation over rerolls: every hold's value ``6**n E[values | hold]`` (numerators
        over one common denominator; a trailing batch axis is kept)."""
        return normalise(self.space, expect_rerolls(self.space, values))

    def subset_maximum(self, hold_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Subset maximum over the sub-holds of every roll state, and its arg-max (run on
        :func:`~.kernels.hold_ranks` it is the kit's one order; on raw values the first)."""
        return subset_max(self.space, hold_values, self.space.full_ids)

    def values_of_holds(self, hold_values: np.ndarray, holds: np.ndarray) -> np.ndarray:
        """Values of given holds: ``hold_values`` at one hold per roll state."""
        return hold_values[holds]

    def turn_total(self, values: np.ndarray) -> int:
        """Exact sum of roll-state numerators weighted by the ways the first roll shows them."""
        return first_roll_total(self.space, values)

    def turn_mean(self, values: np.ndarray):
        """Float mean over the first roll (``(B,)`` for a batch)."""
        w = self.space.roll_weights.astype(np.float64)
        return w @ np.asarray(values, dtype=np.float64) / float(6**self.space.n_dice)

    def mean_over_first_roll(self, values: np.ndarray, rolls: int) -> Fraction:
        """Exact mean of roll-state numerators over the first roll, over ``6**(n rolls)``."""
        return Fraction(self.turn_total(values), 6 ** (self.space.n_dice * rolls))

    # ------------------------------------------------------------ policies
    def greedy_holds(self, phase: Phase) -> np.ndarray:
        """The greedy baseline's hold for every roll state (the placement using most dice,
        :func:`~phase10math.dice.partial.greedy_keep`)."""
        sp = self.space
        return sp.holds_keeping(greedy_keep(phase, sp.profiles(sp.full_ids), self.rules))

    def policy_value(
        self, finals: np.ndarray, holds: dict[int, np.ndarray], rolls: int
    ) -> Fraction:
        """Exact value of a fixed policy (``holds[r]``: hold id per roll state with r rerolls
        left) for integer utilities ``finals`` on the roll states."""
        finals = np.asarray(finals)
        if not fits_int64(
            int(np.abs(finals).max(initial=0)), 6 ** (self.space.n_dice * (rolls - 1))
        ):
            raise InvalidRulesError("utility too large for exact int64 policy evaluation")
        run = backward_induction(self, [self.exact_finals(finals)], rolls, Fixed(holds), keep=False)
        return Fraction(run.total[0], run.denominator)

    def exact_finals(self, finals: np.ndarray) -> np.ndarray:
        """Integer utilities as this engine's exact stages take them (int64 here)."""
        return finals.astype(np.int64)

    # ------------------------------------------------------------ stages
    # Each stage gets the stage before and ``last`` (whether it is the turn's first roll,
    # ``r == rolls - 1``: an engine may then return the totals instead of the roll values).
    def hold_values(self, prev: Stage, r: int) -> list[np.ndarray]:
        """Every key's hold values of stage ``r`` from the stage before."""
        return [self.expectation(v) for v in prev.roll]

    def optimal_stage(self, prev: Stage, r: int, last: bool = False) -> Stage:
        holds = self.hold_values(prev, r)
        ranks = hold_ranks(self.space, holds)
        _, arg = self.subset_maximum(ranks)
        return Stage([self.values_of_holds(h, arg) for h in holds], holds, arg, ranks)

    def best_holds_again(self, below: list[np.ndarray], holds: list[Any]) -> Any:
        """The best holds of an optimal stage again, from its hold values ``holds`` (per
        key; the tensor engine reads the roll values ``below`` instead): for a stored
        solution whose best holds were lost."""
        return self.subset_maximum(hold_ranks(self.space, holds))[1]

    def float_stage(
        self, prev: Stage, r: int, chooser: OptimalFloat = OPTIMAL_FLOAT, last: bool = False
    ) -> Stage:
        M, arg = self.subset_maximum(self.expectation(prev.roll[0]))
        return Stage([M / float(6**self.space.n_dice)], arg=arg)

    def fixed_stage(self, prev: Stage, r: int, chooser: Fixed, last: bool = False) -> Stage:
        n6 = 6**self.space.n_dice
        out = []
        for v in prev.roll:
            held = self.values_of_holds(self.expectation(v), chooser.holds[r])
            out.append(held if chooser.exact else held / n6)
        return Stage(out)

    def order_stage(self, prev: Stage, r: int, chooser: FixedOrder, last: bool = False) -> Stage:
        raise InvalidRulesError("a policy given by an order of holds is a sticky-hold policy")

    def random_stage(self, prev: Stage, r: int, last: bool = False) -> Stage:
        sp = self.space
        return Stage([binomial_subset_sum(sp, self.expectation(v))[sp.full_ids] for v in prev.roll])

    def lazy_totals(self, roll: list[np.ndarray], chooser: Chooser) -> list[Any]:
        if isinstance(chooser, OptimalFloat) or (isinstance(chooser, Fixed) and not chooser.exact):
            return [self.turn_mean(v) for v in roll]
        return [self.turn_total(v) for v in roll]


class StickyEngine(Engine):
    """Sticky holds: after the first reroll the maximum runs only over dice added to those
    set aside (:func:`~.sticky.sticky_layer`); the per-type engine's steps otherwise."""

    kind = EngineKind.STICKY

    def check_size(self, rolls: int, second: bool = True, finals: Sequence | None = None) -> None:
        n = sticky_pairs(self.space)
        if n > MAX_STICKY_PAIRS or self.space.n_states > MAX_STATES:
            raise StateSpaceTooLargeError(
                f"this turn has {n:,} (held, rolled) pairs under this layout "
                f"({len(self.space.types)} different kinds of dice as this phase sees them); "
                f"the limit on this machine is {MAX_STICKY_PAIRS:,}. "
                "Use a layout with more identical dice or the other hold rule."
            )

    def hold_values(self, prev: Stage, r: int) -> list[np.ndarray]:
        if r < 2:
            return super().hold_values(prev, r)
        return [normalise(self.space, T) for T in sticky_layer(self.space, prev.ranks, prev.hold)]

    def policy_value(
        self, finals: np.ndarray, holds: dict[int, np.ndarray], rolls: int
    ) -> Fraction:
        """The greedy-like sticky policy of ``holds`` (see :meth:`fixed_stage`), exact in
        int64 where it provably fits, Python integers otherwise."""
        _, fin = self.final_utility(np.asarray(finals), rolls)
        run = backward_induction(self, [fin], rolls, Fixed(holds), keep=False)
        return Fraction(run.total[0], run.denominator)

    def fixed_stage(self, prev: Stage, r: int, chooser: Fixed, last: bool = False) -> Stage:
        """A greedy-like sticky policy: after the first roll keep ``holds[r]``; after a later
        roll with set-aside A and dice S, per type and face the larger of A and
        ``holds[r - 1](S)`` (:func:`~.sticky.sticky_greedy_layer`). Exact only."""
        if not chooser.exact:
            return self._free_only()
        sp = self.space
        if r < 2:
            holds = super().hold_values(prev, r)
        else:
            holds = [
                normalise(sp, sticky_greedy_layer(sp, h, chooser.holds[r - 1])) for h in prev.hold
            ]
        return Stage([h[chooser.holds[r]] for h in holds], holds)

    def order_stage(self, prev: Stage, r: int, chooser: FixedOrder, last: bool = False) -> Stage:
        ranks = chooser.ranks.get(r - 1)
        holds = self.hold_values(Stage(prev.roll, prev.hold, ranks=ranks), r)
        return Stage([h[chooser.first] for h in holds], holds)

    def _free_only(self, *args, **options) -> Stage:
        raise InvalidRulesError("this chooser is computed for free holds only")

    float_stage = random_stage = _free_only


class TensorEngine(Engine):
    """Ten different dice, free holds: the in-place passes of :mod:`.tensor` (roll values
    only; hold values on demand, :class:`~.tensor.holdvalues.LazyHoldValues`); the uniformly random
    chooser runs the per-type steps (which work on any space small enough)."""

    kind = EngineKind.TENSOR
    batches = False

    def check_size(self, rolls: int, second: bool = True, finals: Sequence | None = None) -> None:
        """The memory check of :func:`~.tensor.memory.check_tensor_fits`; with integer
        ``finals`` the roll values kept are counted in the dtypes their bounds give."""
        value_bytes = None
        if finals is not None and all(np.asarray(f).dtype.kind in "iu" for f in finals):
            bounds = [(int(np.min(f)), int(np.max(f))) for f in finals]
            value_bytes = kept_value_bytes(self.space.n_dice, rolls, bounds)
        check_tensor_fits(self.space, rolls, second, value_bytes=value_bytes)

    def final_utility(self, values, rolls: int, which: str = "utility's") -> tuple[int, Any]:
        """Refused unless the numerators times ``6**(n_dice * (rolls - 1))`` fit in int64;
        kept in the smallest integer dtype (a color phase of the recorded dice has 60 million
        rolls: 1 byte each, not 8)."""
        den, nums, umax = _numerators(values)
        if not fits_int64(umax, 6 ** (self.space.n_dice * (rolls - 1))):
            raise StateSpaceTooLargeError(
                f"the {which} numerators (up to {umax:,}) times 6**{self.space.n_dice * rolls} "
                "do not fit in 64-bit integers; the distinct-dice engine needs them to"
            )
        return den, np.ascontiguousarray(smallest_int(np.asarray(nums)))

    def greedy_holds(self, phase: Phase) -> np.ndarray:
        return greedy_holds_tensor(self.space, phase, self.rules)

    def turn_total(self, values: np.ndarray) -> int:
        return exact_total(values, tensor_weights(self.space))

    def turn_mean(self, values: np.ndarray):
        weights = tensor_weights(self.space)
        total = float(values.sum()) if weights is None else float(values @ weights)
        return total / 6**self.space.n_dice

    # ------------------------------------------------------------ stages
    def optimal_stage(self, prev: Stage, r: int, last: bool = False) -> Stage:
        """One stage for one or two keys, die 0's face by face
        (:func:`~.tensor.stages.split_stage`), with the codes of its best holds
        (:class:`~.tensor.codes.HoldIds`, 2 bytes a roll state: a decision is one lookup,
        :class:`~phase10math.turn.holdtable.HoldTable`); the roll values in the smallest
        integer dtype their bounds allow (a stage's numerators lie within ``6**n`` times the
        bounds of the stage before); the last stage keeps only its totals. Hold values:
        :class:`~.tensor.holdvalues.LazyHoldValues`."""
        sp, n6 = self.space, 6**self.space.n_dice
        below = prev.roll
        dtypes = None if last else [int_dtype(n6 * int(k.min()), n6 * int(k.max())) for k in below]
        outs, sums, codes = split_stage(sp, below, dtypes, codes=True, totals=last)
        holds = [LazyHoldValues(sp, k) for k in below]
        return Stage(outs, holds, HoldIds(sp, codes), total=sums)

    def best_holds_again(self, below: list[np.ndarray], holds: list[Any]) -> Any:
        return best_hold_codes(self.space, below)

    def float_stage(
        self, prev: Stage, r: int, chooser: OptimalFloat = OPTIMAL_FLOAT, last: bool = False
    ) -> Stage:
        """One float64 stage (means), best holds as hold ids (``chooser.codes``: as their
        two-byte codes, :class:`~.tensor.codes.HoldIds`); the last keeps only its mean.
        Without the best holds (``chooser.holds`` false): the values alone
        (:meth:`mean_values`)."""
        sp = self.space
        if not chooser.holds:
            return Stage([self.mean_values(prev)])
        vals = np.ascontiguousarray(prev.roll[0], dtype=np.float64)
        outs, sums, best = split_stage(sp, [vals], None if last else [np.float64], totals=last)
        if chooser.codes:
            arg = HoldIds(sp, best)
        else:
            arg = holds_from_codes(sp, best, np.int32 if sp.n_states < 2**31 else np.int64)
        return Stage(outs, arg=arg, total=None if sums is None else [sums[0] / 6**sp.n_dice])

    def mean_values(self, prev: Stage) -> np.ndarray:
        """One float64 stage's roll values (means) alone: without the codes of its best holds
        the maxima take about a third of :meth:`float_stage`'s time (hold values on demand
        need no best holds)."""
        vals = np.ascontiguousarray(prev.roll[0], dtype=np.float64)
        return split_stage(self.space, [vals], [np.float64], codes=False, totals=False)[0][0]

    def exact_finals(self, finals: np.ndarray) -> np.ndarray:
        """Integer utilities as they are (the passes read any integer dtype slab by slab: no
        int64 copy of 60 million utilities)."""
        return finals if finals.dtype.kind in "iu" else finals.astype(np.int64)

    def fixed_stage(self, prev: Stage, r: int, chooser: Fixed, last: bool = False) -> Stage:
        """The values of the policy's holds, die 0's face by face
        (:func:`~.tensor.stages.split_policy_values`): int64 numerators, or float64 means."""
        dt = np.int64 if chooser.exact else np.float64

        def values(v) -> np.ndarray:
            v = np.asarray(v)
            return self.exact_finals(v) if chooser.exact else v.astype(dt, copy=False)

        return Stage(
            [split_policy_values(self.space, values(v), chooser.holds[r], dt) for v in prev.roll]
        )


class BatchEngine(Engine):
    """Batched float solves on grouped dice (the two-player solve's turns of phases without
    colors, :class:`~phase10math.turn.batch.TurnBatch`): the per-type state space, ``B``
    utilities side by side (a trailing batch axis), the steps compiled
    (:mod:`~phase10math.turn.batchsteps`, the GIL released). The expectation is a mean (one
    die at a time, the largest holds of a type first); the subset maximum counts values
    within :attr:`OptimalFloat.tie` as equal and breaks ties by :attr:`OptimalFloat.ties`
    (with :attr:`Ties.KIT` its best holds are the exact engine's, with :attr:`Ties.KEEP`, the
    two-player solve's rule, exactly optimal holds: tested on every phase without colors).
    Float stages only: the optimal float and the fixed float policies."""

    kind = EngineKind.BATCH

    def __init__(self, space: StateSpace, rules: Rules):
        super().__init__(space, rules)
        self.shape = [len(s) for s in space.sub]
        self._order_cache: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def check_size(self, rolls: int, second: bool = True, finals: Sequence | None = None) -> None:
        super().check_size(rolls, second)
        if self.space.n_states * (self.space.n_dice + 1) >= 2**31:
            raise StateSpaceTooLargeError("the batch engine's hold keys need int32")

    @functools.cached_property
    def first(self) -> np.ndarray:
        """The first roll's probability of every roll state (each rounded once from exact
        integer weights; built when first used)."""
        return self.space.roll_weights.astype(np.float64) / float(6**self.space.n_dice)

    @functools.cached_property
    def keys(self) -> np.ndarray:
        """Every hold's key in the kit's order of holds: ``size * n_states + id`` (int32)."""
        n = self.space.n_states
        return (self.space.size.astype(np.int64) * n + np.arange(n)).astype(np.int32)

    # ------------------------------------------------------------ the slabs
    def levels(self, t: int, descending: bool) -> list[np.ndarray]:
        """Type ``t``'s sub-multisets grouped by size (they are numbered by size first)."""
        sizes = self.space.sub[t].sum(axis=1)
        out = [np.flatnonzero(sizes == s) for s in range(int(sizes.max()) + 1)]
        return out[::-1] if descending else out

    def orders(self, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Type ``t``'s holds in the order of each step: below the full size, largest first
        (the expectation); above the empty hold, smallest first (the subset maximum and the
        forward pass); below the full size (emptied at the end of a forward step)."""
        if t not in self._order_cache:
            down = self.levels(t, descending=True)
            up = down[::-1]
            cat = np.concatenate
            self._order_cache[t] = (cat(down[1:]), cat(up[1:]), cat(up[:-1]))
        return self._order_cache[t]

    def slabs(self, A: np.ndarray, t: int) -> np.ndarray:
        """``A`` (states x B, C order) as ``(before, type t's holds, after x B)``: a view."""
        pre = int(np.prod(self.shape[:t], dtype=np.int64))
        return A.reshape(pre, self.shape[t], -1)

    # ------------------------------------------------------------ the steps
    def expectation(self, values: np.ndarray) -> np.ndarray:
        """Every hold's ``E[values | hold]`` (a mean, not a numerator) for roll-state values
        ``values`` (roll states, or roll states x B), one die at a time."""
        sp, v = self.space, np.asarray(values)
        T = np.zeros((sp.n_states, v.shape[1] if v.ndim > 1 else 1))
        T[sp.full_ids] = v.reshape(len(v), -1)
        for t, typ in enumerate(sp.types):
            w = np.asarray(typ.weights, dtype=np.float64)
            expect_step(self.slabs(T, t), sp.add_tables[t], w, self.orders(t)[0])
        return T if v.ndim > 1 else T[:, 0]

    def subset_maximum(
        self,
        hold_values: np.ndarray,
        tie: float = 0.0,
        overwrite: bool = False,
        ties: Ties = Ties.KEEP,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The subset maximum and its arg-max of every roll state, per column, values within
        ``tie`` equal, ties broken by ``ties``. ``overwrite``: ``hold_values`` (C ordered
        float64, not read again) may be the work array (no copy)."""
        sp, flat = self.space, np.ndim(hold_values) == 1
        M = np.ascontiguousarray(hold_values, dtype=np.float64)
        if M is hold_values and not overwrite:
            M = M.copy()
        M = M.reshape(sp.n_states, -1)
        key = np.empty(M.shape, dtype=np.int32)
        key[...] = self.keys[:, None]
        for t in range(len(sp.types)):
            up = self.orders(t)[1]
            kit = ties is Ties.KIT
            max_step(self.slabs(M, t), self.slabs(key, t), sp.remove_tables[t], up, tie, kit)
        best, arg = M[sp.full_ids], key[sp.full_ids] % np.int32(sp.n_states)
        return (best[:, 0], arg[:, 0]) if flat else (best, arg)

    def turn_mean(self, values: np.ndarray):
        """The mean over the first roll, per column (a fixed order of summation)."""
        v = np.asarray(values, dtype=np.float64)
        if v.ndim == 1:
            return float(weighted_sums(self.first, np.ascontiguousarray(v[:, None]))[0])
        return weighted_sums(self.first, np.ascontiguousarray(v))

    # ------------------------------------------------------------ stages
    def float_stage(
        self, prev: Stage, r: int, chooser: OptimalFloat = OPTIMAL_FLOAT, last: bool = False
    ) -> Stage:
        W = self.expectation(prev.roll[0])
        M, arg = self.subset_maximum(W, chooser.tie, overwrite=True, ties=chooser.ties)
        return Stage([M], arg=arg if chooser.holds else None)

    def fixed_stage(self, prev: Stage, r: int, chooser: Fixed, last: bool = False) -> Stage:
        if chooser.exact:
            return self._float_only()
        return Stage([self.expectation(v)[chooser.holds[r]] for v in prev.roll])

    def _float_only(self, *args) -> Stage:
        raise InvalidRulesError(
            "the batch engine runs float stages only (exact turns: engine_for(space, rules))"
        )

    optimal_stage = random_stage = _float_only


def engine_for(
    space: StateSpace, rules: Rules, batch: bool = False, tensor: bool = False
) -> Engine:
    """The engine for a turn on ``space`` under ``rules``; the only place the choice is made.

    - Exact solves, policies and single float solves (``batch`` false): sticky holds on the
      sticky engine; free holds on dice no two alike (at most 16) on the tensor engine; any
      other on the per-type engine.
    - Batched float solves of many utilities at once (``batch``: the two-player solve's
      turns, :class:`~phase10math.turn.batch.TurnBatch` and its families; free holds only):
      on the tensor engine where more than three dice are no two alike (a color phase of the
      recorded dice), else on the batch engine (:class:`BatchEngine`).

    ``tensor``: the tensor engine wherever it can run (dice no two alike; refused
    elsewhere): a tensor family on a few dice."""
    if batch and rules.holds != Holds.FREE:
        raise InvalidRulesError("batched turn solves are for free holds only")
    if tensor and not is_tensor_space(space):
        raise InvalidRulesError("the tensor engine needs dice no two alike (after projection)")
    if rules.holds == Holds.STICKY:
        return StickyEngine(space, rules)
    wide = space.distinct and len(space.types) > 3 if batch else is_tensor_space(space)
    if tensor or wide:
        return TensorEngine(space, rules)
    return BatchEngine(space, rules) if batch else Engine(space, rules)


# --------------------------------------------------------------------------- final scores

_FINALS: dict[tuple, np.ndarray] = {}


def final_scores(phase: Phase, space: StateSpace, rules: Rules) -> np.ndarray:
    """Best score (-1 = not made) of every roll state of ``space`` (the final utility's
    scores); memoised (by the phase, the space's
    :meth:`~phase10math.turn.statespace.StateSpace.key` and the rule that changes melds) so
    that both objectives and policy evaluations share one meld pass. A large distinct-dice
    space is scored on pairs of half-profiles (:func:`~.tensor.finals.final_scores_tensor`)."""
    key = (phase.key(), space.key(), rules.sets_may_share_number)
    if key not in _FINALS:
        rolls = math.prod(len(t.faces) for t in space.types) if space.distinct else None
        big = rolls is not None and rolls > TENSOR_FINALS_ROLLS
        if len(_FINALS) > 8 or big:
            _FINALS.clear()  # one roll-sized array of a large space at a time
        if big:
            _FINALS[key] = final_scores_tensor(phase, space, rules)
        else:
            _FINALS[key] = evaluate_on_unique(
                space, space.full_ids, lambda prof: best_scores(phase, prof, rules)
            )
    return _FINALS[key]


# --------------------------------------------------------------------------- the induction


def backward_induction(
    engine: Engine,
    finals: Sequence[np.ndarray],
    rolls: int,
    chooser: Chooser = OPTIMAL,
    progress: Callable[[str], None] | None = None,
    keep: bool = True,
    totals: bool = True,
) -> Induction:
    """The one backward induction: from the final utilities ``finals`` (one array per key, on
    the roll states; a float or policy chooser may add a batch axis) through every number of
    rolls left, each stage run by ``engine`` as ``chooser`` says; then the turn's totals
    (``totals=False``: none, ``total`` is ``None``, and no stage is told it is the last: the
    caller sums the first roll's values its own way)."""
    n = engine.space.n_dice
    per_stage = 6**n * (2**n if isinstance(chooser, UniformRandom) else 1)
    den = 6**n * per_stage ** (rolls - 1)
    two = isinstance(chooser, Optimal) and len(finals) > 1
    engine.check_size(rolls, two, finals if isinstance(chooser, Optimal) else None)
    if isinstance(chooser, UniformRandom):
        finals = [np.asarray(f).astype(object) for f in finals]
    stage = Stage(list(finals))
    k = len(stage.roll)
    roll: list[dict[int, np.ndarray]] = [{0: v} for v in stage.roll]
    hold: list[dict[int, Any]] = [{} for _ in range(k)]
    arg: dict[int, np.ndarray] = {}
    for r in range(1, rolls):
        if progress:
            progress(f"rolls left {r}")
        last = totals and r == rolls - 1
        if isinstance(chooser, Optimal):
            stage = engine.optimal_stage(stage, r, last)
        elif isinstance(chooser, OptimalFloat):
            stage = engine.float_stage(stage, r, chooser, last)
        elif isinstance(chooser, Fixed):
            stage = engine.fixed_stage(stage, r, chooser, last)
        elif isinstance(chooser, FixedOrder):
            stage = engine.order_stage(stage, r, chooser, last)
        else:
            stage = engine.random_stage(stage, r, last)
        if not keep:
            roll, hold = [{} for _ in range(k)], [{} for _ in range(k)]
        for j in range(k):
            if stage.roll is not None:
                roll[j][r] = stage.roll[j]
            if stage.hold:
                hold[j][r] = stage.hold[j]
        if stage.arg is not None:
            arg[r] = stage.arg
    if not totals:
        return Induction(roll, hold, arg, None, den)
    total = stage.total if stage.total is not None else engine.lazy_totals(stage.roll, chooser)
    return Induction(roll, hold, arg, total, den)


def _numerators(values) -> tuple[int, np.ndarray | list[int], int]:
    """(common denominator, integer numerators, largest |numerator|) of utilities; an integer
    array is returned as it is (no int64 copy of 60 million utilities)."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        return 1, values, max(int(values.max()), -int(values.min())) if len(values) else 0
    fr = [Fraction(v) for v in values]
    den = math.lcm(*[f.denominator for f in fr]) if fr else 1
    nums = [int(f * den) for f in fr]
    return den, nums, max((abs(v) for v in nums), default=0)
