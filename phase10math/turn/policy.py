"""Fixed policies of a turn and their exact values.

A *policy* says which hold to keep for every roll state and number of rolls left. The greedy
baseline keeps the dice that fit the placement using the most dice (see
:func:`phase10math.dice.partial.greedy_keep`); :func:`evaluate_free_policy` gives any free-hold
policy's exact value by the same recurrence as the solver, with the maximum replaced by the
policy's choice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

import numpy as np

from phase10math.dice.faces import COLORS, Die, Layout
from phase10math.dice.phases import Phase
from phase10math.dice.rules import Holds, Rules
from phase10math.turn.engine import (
    OPTIMAL_FLOAT,
    RANDOM,
    Engine,
    Fixed,
    FixedOrder,
    OptimalFloat,
    backward_induction,
    engine_for,
)
from phase10math.turn.kernels import hold_ranks
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor.memory import (
    estimate_bytes,
    face_shape,
    is_tensor_space,
    tensor_shape,
)

#: what this module offers the layers above (game, play, the command line); the rest is the
#: turn's inside
__all__ = [
    "column_means",
    "evaluate_free_policy",
    "float_optimal_turn",
    "float_turn_bytes",
    "policy_means",
    "policy_moments",
    "random_policy_value",
]


def greedy_policy(space: StateSpace, phase: Phase, rules: Rules) -> np.ndarray:
    """The greedy baseline's hold for every roll state (free holds; on the engine of
    ``space``: :meth:`~phase10math.turn.engine.Engine.greedy_holds`)."""
    return engine_for(space, replace(rules, holds=Holds.FREE)).greedy_holds(phase)


def evaluate_free_policy(
    space: StateSpace, finals: np.ndarray, holds: dict[int, np.ndarray], rolls: int
) -> Fraction:
    """Exact value of a fixed free-hold policy (``holds[r]``: hold id per roll state with r
    rerolls left) for a utility given by integer ``finals`` on the roll states."""
    return _free(space, rolls).policy_value(finals, holds, rolls)


def random_policy_value(space: StateSpace, finals: np.ndarray, rolls: int) -> Fraction:
    """Exact value of the random strategy (each die kept with probability 1/2 after every roll
    but the last) for integer utilities ``finals`` on the roll states (free holds).

    >>> from phase10math.turn.projection import VALUE
    >>> from phase10math.dice.faces import parse_layout
    >>> lay = parse_layout("6 x 5r 6o 7b 8g 9r 10o\\n4 x 1r 2o 3b 4g Wr Wo")
    >>> sp = StateSpace.build(lay.dice[:1], VALUE)
    >>> random_policy_value(sp, np.array([1, 0, 0, 0, 0, 0]), 2)  # want a 5 with one die
    Fraction(1, 6)
    """
    run = backward_induction(_free(space, rolls), [finals], rolls, RANDOM, keep=False)
    return Fraction(run.total[0], run.denominator)


def float_optimal_turn(
    space: StateSpace, util: np.ndarray, rolls: int, codes: bool = False
) -> tuple[float, dict[int, np.ndarray]]:
    """Optimal turn value (float64) and holds for a utility on the roll states, free holds:
    for iterations that need many turn solves (every value a sum of products of the
    utilities with nonnegative weights; the caller evaluates the final policy exactly).
    ``codes``: on ten different dice the holds as two-byte hold codes
    (:class:`~phase10math.turn.tensor.codes.HoldIds`, the same holds), not hold ids."""
    util = np.asarray(util, dtype=np.float64)
    chooser = OptimalFloat(codes=True) if codes else OPTIMAL_FLOAT
    run = backward_induction(_free(space, rolls), [util], rolls, chooser, keep=False)
    return float(run.total[0]), run.arg


def policy_means(
    space: StateSpace, cols: np.ndarray, holds: dict[int, np.ndarray], rolls: int
) -> np.ndarray:
    """Float expectations of several utilities (the columns of ``cols``, one batch) under a
    fixed free-hold policy."""
    cols = np.asarray(cols, dtype=np.float64)
    engine = _free(space, rolls)
    finals = [cols] if engine.batches else list(cols.T)
    run = backward_induction(engine, finals, rolls, Fixed(holds, exact=False), keep=False)
    return np.hstack([np.atleast_1d(t) for t in run.total])


def column_means(
    space: StateSpace, columns: Sequence[Callable[[], np.ndarray]], holds: dict, rolls: int
) -> list[float]:
    """:func:`policy_means` of utilities made on demand (``columns``: functions returning
    one each): where the engine batches, all in one stacked array; on ten different dice
    (the tensor engine, which takes one column at a time anyway) each column is made,
    evaluated and dropped in turn, so one roll-sized utility is held at a time."""
    if _free(space, rolls).batches:
        cols = np.stack([make() for make in columns], axis=1)
        return [float(m) for m in policy_means(space, cols, holds, rolls)]
    return [float(policy_means(space, make()[:, None], holds, rolls)[0]) for make in columns]


def float_turn_bytes(space: StateSpace, rolls: int, per_roll: int = 0) -> int:
    """Peak bytes of one step of a float iteration on the tensor engine - a
    :func:`float_optimal_turn` with ``codes``, then :func:`column_means` of its policy - while
    the caller keeps a previous policy's codes and ``per_roll`` bytes a roll of its own; 0 on
    another engine (its own check: :meth:`~phase10math.turn.engine.Engine.check_size`).

    The turn: :func:`~phase10math.turn.tensor.memory.estimate_bytes` (which counts two bytes
    a roll for the utility) and the float utility's other six. A column's evaluation: the
    column and the values of two stages (24 bytes a roll), the work tensor and code buffer the
    solve left (10 bytes a hold of the other dice), one face's hold ids and their
    temporaries (40 bytes a roll of the other dice) and 256 MiB for the interpreter. Beside
    either: both policies' codes (two bytes a roll per roll left each) and ``per_roll``."""
    if not is_tensor_space(space):
        return 0
    rolls_n = math.prod(face_shape(space))
    others = rolls_n // len(space.types[0].faces)
    held = math.prod(tensor_shape(space)) // (len(space.types[0].faces) + 1)
    turn = estimate_bytes(space, rolls) + 6 * rolls_n
    column = 24 * rolls_n + 10 * held + 40 * others + 256 * 2**20
    return max(turn, column) + rolls_n * (4 * (rolls - 1) + per_roll)


def policy_moments(
    space: StateSpace, cols: np.ndarray, holds: dict[int, np.ndarray], rolls: int
) -> list[Fraction]:
    """Exact expectations of integer utilities (columns) under a fixed free-hold policy
    (:func:`evaluate_free_policy` per column)."""
    cols = np.asarray(cols, dtype=np.int64)
    if cols.ndim == 1:
        cols = cols[:, None]
    return [evaluate_free_policy(space, cols[:, j], holds, rolls) for j in range(cols.shape[1])]


def evaluate_sticky_optimal_policy(sol, eval_finals: np.ndarray) -> Fraction:
    """Exact value, for the utility ``eval_finals`` (integers on the roll states, full_ids
    order), of the sticky policy that is optimal for ``sol`` (a sticky TurnSolution): at the
    first roll keep ``sol.roll_arg``, later add the dice that give the best hold in the order
    of :func:`~phase10math.turn.kernels.hold_ranks` of sol's keys, as the solver does."""
    space, R = sol.space, sol.rolls
    engine = engine_for(space, sol.rules)
    _, finals = engine.final_utility(np.asarray(eval_finals), R)
    ranks = {r: hold_ranks(space, [k.hold_num[r] for k in sol.keys]) for r in range(1, R - 1)}
    order = FixedOrder(ranks, sol.roll_arg.get(R - 1, np.arange(0)))
    run = backward_induction(engine, [finals], R, order, keep=False)
    return Fraction(run.total[0], run.denominator)


def evaluate_sticky_greedy(
    space: StateSpace, finals: np.ndarray, holds: np.ndarray, rolls: int
) -> Fraction:
    """Exact value of the greedy-like sticky policy: after the first roll S keep
    ``holds[S]``; after a later roll with set-aside A and dice S = A + B keep, per type and
    face, max(A, holds[S]). ``holds``: a hold id per roll state (full_ids order)."""
    engine = engine_for(space, Rules(holds=Holds.STICKY, rolls=rolls))
    return engine.policy_value(finals, dict.fromkeys(range(1, rolls), holds), rolls)


def _free(space: StateSpace, rolls: int) -> Engine:
    return engine_for(space, Rules(rolls=rolls))


def _dice(layout: Layout | Sequence[Die]) -> tuple[Die, ...]:
    return layout.dice if isinstance(layout, Layout) else tuple(layout)


# --------------------------------------------------------------------------- physical dice


def side_keys(space: StateSpace, layout: Layout | Sequence[Die]) -> tuple[np.ndarray, np.ndarray]:
    """Per die of ``layout`` (or a list of dice): its type in ``space`` and, per side, the
    face index in that type."""
    types = np.array(space.die_types(layout))
    keys = np.array(
        [
            [space.types[t].faces.index(space.projection.key(f)) for f in die.faces]
            for t, die in zip(types, _dice(layout))
        ]
    )
    return types, keys


def roll_state_ids(
    space: StateSpace, types: np.ndarray, keys: np.ndarray, sides: np.ndarray
) -> np.ndarray:
    """Solver state ids of many rolls (``sides``: one row per roll, the side each die shows)."""
    rows = np.arange(sides.shape[0])
    counts = [np.zeros((len(rows), len(typ.faces)), dtype=np.int64) for typ in space.types]
    for d in range(sides.shape[1]):
        np.add.at(counts[types[d]], (rows, keys[d][sides[:, d]]), 1)
    return space.ids_of(counts)


def play_physical_turns(sol, layout: Layout | Sequence[Die], n: int, seed: int) -> np.ndarray:
    """Meld profiles ``(n, 11, 4)`` of the final dice of ``n`` seeded turns played with the
    solved free-hold policy of ``sol`` on physical dice (a layout or a list of dice): every
    die shows a uniform side of its own six, the policy picks the hold (``sol.roll_arg``),
    kept dice stay, the others are rolled again. Scoring the profiles with the meld engine
    checks the solver's value by a method that never uses its state space for the outcome."""
    space = sol.space
    dice = _dice(layout)
    rng = np.random.default_rng(seed)
    types, keys = side_keys(space, layout)
    sides = rng.integers(0, 6, size=(n, len(dice)))
    rows = np.arange(n)
    for r in range(sol.rolls - 1, 0, -1):
        gid = roll_state_ids(space, types, keys, sides)
        pos = np.searchsorted(space.full_ids, gid)
        hold = np.asarray(sol.roll_arg[r])[pos].astype(np.int64)
        left = space.counts_per_type(hold)  # per type: how many of each face the hold keeps
        keep = np.zeros_like(sides, dtype=bool)
        for d in range(len(dice)):
            t, k = types[d], keys[d][sides[:, d]]
            avail = left[t][rows, k] > 0
            keep[:, d] = avail
            left[t][rows[avail], k[avail]] -= 1
        sides = np.where(keep, sides, rng.integers(0, 6, size=sides.shape))
    value = np.array([[f.value for f in d.faces] for d in dice])
    color = np.array([[COLORS.index(f.color) for f in d.faces] for d in dice])
    prof = np.zeros((n, 11, 4), dtype=np.int16)
    for d in range(len(dice)):
        np.add.at(prof, (rows, value[d][sides[:, d]], color[d][sides[:, d]]), 1)
    return prof
