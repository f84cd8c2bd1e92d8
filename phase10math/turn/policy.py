"""Fixed policies of a turn and their exact values.

A *policy* says which hold to keep for every roll state and number of rolls left. The greedy
baseline keeps the dice that fit the placement using the most dice (see
:func:`phase10math.dice.partial.greedy_keep`); :func:`evaluate_free_policy` gives any free-hold
policy's exact value by the same recurrence as the solver, with the maximum replaced by the
policy's choice.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from phase10math.dice.faces import COLORS, Layout
from phase10math.dice.partial import greedy_keep
from phase10math.dice.phases import Phase
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidRulesError
from phase10math.exact import fits_int64
from phase10math.turn.kernels import expect_rerolls, mean_over_first_roll, normalise
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import evaluate_policy, is_tensor_space


def policy_holds(space: StateSpace, kept_profiles: np.ndarray) -> np.ndarray:
    """Hold ids (one per roll state, ``full_ids`` order) from kept counts per meld cell."""
    ids = space.full_ids
    remaining = np.asarray(kept_profiles).astype(np.int64).copy()
    gid = np.zeros(len(ids), dtype=np.int64)
    for t, typ in enumerate(space.types):
        have = space.sub[t][space.digits_of(t, ids)].astype(np.int64)  # (P, f)
        take = np.zeros_like(have)
        for f, key in enumerate(typ.faces):
            rep = space.projection.representative(key)
            cell = (slice(None), rep.value, "robg".index(rep.color))
            got = np.minimum(have[:, f], remaining[cell])
            take[:, f] = got
            remaining[cell] -= got
        code = (take * (typ.count + 1) ** np.arange(len(typ.faces))).sum(axis=1)
        gid += space.strides[t] * space.type_index(t)[code]
    return gid


def greedy_policy(space: StateSpace, phase: Phase, rules: Rules) -> np.ndarray:
    """The greedy baseline's hold for every roll state."""
    prof = space.profiles(space.full_ids)
    return policy_holds(space, greedy_keep(phase, prof, rules))


def policy_roll_values(
    space: StateSpace,
    finals: np.ndarray,
    holds: dict[int, np.ndarray],
    rolls: int,
    exact: bool = True,
) -> np.ndarray:
    """The value of every first-roll state (``full_ids`` order) under a fixed free-hold policy
    (``holds[r]``: hold id per roll state with r rerolls left), by the solver's recurrence with
    the maximum replaced by the policy's choice: exact numerators over ``6**(n_dice *
    (rolls - 1))`` for integer ``finals`` (``exact=True``), or floats."""
    n6 = 6**space.n_dice
    vals = np.asarray(finals, dtype=np.int64 if exact else np.float64)
    for r in range(1, rolls):
        held = normalise(space, expect_rerolls(space, vals))[holds[r]]
        vals = held if exact else held / n6
    return vals


def evaluate_free_policy(
    space: StateSpace, finals: np.ndarray, holds: dict[int, np.ndarray], rolls: int
) -> Fraction:
    """Exact value of a fixed free-hold policy (``holds[r]``: hold id per roll state with r
    rerolls left) for a utility given by integer ``finals`` on the roll states."""
    if is_tensor_space(space):  # ten distinct dice: the in-place engine
        num = evaluate_policy(space, finals, holds, rolls)
        return Fraction(num, 6 ** (space.n_dice * rolls))
    if not fits_int64(
        int(np.abs(np.asarray(finals)).max(initial=0)), 6 ** (space.n_dice * (rolls - 1))
    ):
        raise InvalidRulesError("utility too large for exact int64 policy evaluation")
    return mean_over_first_roll(space, policy_roll_values(space, finals, holds, rolls), rolls)


# --------------------------------------------------------------------------- physical dice


def side_keys(space: StateSpace, layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """Per die of ``layout``: its type in ``space`` and, per side, the face index in that type."""
    types = np.array(space.die_types(layout))
    keys = np.array(
        [
            [space.types[t].faces.index(space.projection.key(f)) for f in die.faces]
            for t, die in zip(types, layout.dice)
        ]
    )
    return types, keys


def roll_state_ids(
    space: StateSpace, types: np.ndarray, keys: np.ndarray, sides: np.ndarray
) -> np.ndarray:
    """Solver state ids of many rolls (``sides``: one row per roll, the side each die shows)."""
    n = sides.shape[0]
    gid = np.zeros(n, dtype=np.int64)
    for t, typ in enumerate(space.types):
        code = np.zeros(n, dtype=np.int64)
        base = typ.count + 1
        for d in np.flatnonzero(types == t):
            code += base ** keys[d][sides[:, d]]
        gid += space.strides[t] * space.type_index(t)[code]
    return gid


def play_physical_turns(sol, layout: Layout, n: int, seed: int) -> np.ndarray:
    """Meld profiles ``(n, 11, 4)`` of the final dice of ``n`` seeded turns played with the
    solved free-hold policy of ``sol`` on physical dice: every die shows a uniform side of its
    own six, the policy picks the hold (``sol.roll_arg``), kept dice stay, the others are
    rolled again. Scoring the profiles with the meld engine checks the solver's value by a
    method that never uses its state space for the outcome."""
    space = sol.space
    rng = np.random.default_rng(seed)
    types, keys = side_keys(space, layout)
    sides = rng.integers(0, 6, size=(n, len(layout.dice)))
    rows = np.arange(n)
    for r in range(sol.rolls - 1, 0, -1):
        gid = roll_state_ids(space, types, keys, sides)
        pos = np.searchsorted(space.full_ids, gid)
        hold = np.asarray(sol.roll_arg[r])[pos].astype(np.int64)
        left = {  # per type: how many of each face the hold keeps (decoded from its id)
            t: space.sub[t][(hold // int(space.strides[t])) % len(space.sub[t])].astype(np.int64)
            for t in range(len(space.types))
        }
        keep = np.zeros_like(sides, dtype=bool)
        for d in range(len(layout.dice)):
            t, k = types[d], keys[d][sides[:, d]]
            avail = left[t][rows, k] > 0
            keep[:, d] = avail
            left[t][rows[avail], k[avail]] -= 1
        sides = np.where(keep, sides, rng.integers(0, 6, size=sides.shape))
    value = np.array([[f.value for f in d.faces] for d in layout.dice])
    color = np.array([[COLORS.index(f.color) for f in d.faces] for d in layout.dice])
    prof = np.zeros((n, 11, 4), dtype=np.int16)
    for d in range(len(layout.dice)):
        np.add.at(prof, (rows, value[d][sides[:, d]], color[d][sides[:, d]]), 1)
    return prof
