"""Seeded Monte Carlo of the optimal turn policy with physical dice, for every phase and both
objectives: the simulated mean must agree with the exact value within 4 standard errors.

The simulation rolls each die of the layout (a uniform side of its six), asks the solved policy
for the hold, keeps actual dice that match it, rerolls the others, and scores the final faces
with the meld engine - not with the solver's projected representatives."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from phase10math.dice.faces import COLORS
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import best_scores
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import DEFAULT_RULES
from phase10math.turn.tables import cached_solution

N_TURNS = 20_000


def die_maps(space, layout):
    """Per die: its type in the solver space and the key index of each of its sides."""
    types, keys = [], []
    for die in layout.dice:
        w = Counter(space.projection.key(f) for f in die.faces)
        t = next(i for i, typ in enumerate(space.types) if dict(zip(typ.faces, typ.weights)) == w)
        types.append(t)
        keys.append([space.types[t].faces.index(space.projection.key(f)) for f in die.faces])
    return np.array(types), np.array(keys)


def state_ids(space, die_type, die_key, sides):
    n = sides.shape[0]
    gid = np.zeros(n, dtype=np.int64)
    for t, typ in enumerate(space.types):
        code = np.zeros(n, dtype=np.int64)
        base = typ.count + 1
        for d in np.flatnonzero(die_type == t):
            code += base ** die_key[d][sides[:, d]]
        gid += space.strides[t] * space.type_index(t)[code]
    return gid


def simulate(sol, layout, n, seed):
    space = sol.space
    rng = np.random.default_rng(seed)
    die_type, die_key = die_maps(space, layout)
    sides = rng.integers(0, 6, size=(n, len(layout.dice)))
    for r in range(sol.rolls - 1, 0, -1):
        gid = state_ids(space, die_type, die_key, sides)
        pos = np.searchsorted(space.full_ids, gid)
        assert np.array_equal(space.full_ids[pos], gid)
        hold = sol.roll_arg[r][pos]
        left = {
            t: space.sub[t][space.digits[t][hold]].astype(np.int64).copy()
            for t in range(len(space.types))
        }
        keep = np.zeros_like(sides, dtype=bool)
        rows = np.arange(n)
        for d in range(len(layout.dice)):
            t = die_type[d]
            k = die_key[d][sides[:, d]]
            avail = left[t][rows, k] > 0
            keep[:, d] = avail
            left[t][rows[avail], k[avail]] -= 1
        fresh = rng.integers(0, 6, size=sides.shape)
        sides = np.where(keep, sides, fresh)
    value = np.array([[f.value for f in d.faces] for d in layout.dice])
    color = np.array([[COLORS.index(f.color) for f in d.faces] for d in layout.dice])
    prof = np.zeros((n, 11, 4), dtype=np.int16)
    for d in range(len(layout.dice)):
        np.add.at(prof, (np.arange(n), value[d][sides[:, d]], color[d][sides[:, d]]), 1)
    return prof


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["complete", "score"])
@pytest.mark.parametrize("n", range(1, 21))
def test_optimal_policy_simulation_agrees_with_exact_value(n, objective):
    sol = cached_solution(PHASES[n], objective, DEFAULT_RULES, DEFAULT_LAYOUT)
    prof = simulate(sol, DEFAULT_LAYOUT, N_TURNS, seed=1000 * n + (objective == "score"))
    best = best_scores(PHASES[n], prof)
    outcome = (best >= 0).astype(float) if objective == "complete" else np.maximum(best, 0)
    exact = float(sol.value())
    mean = outcome.mean()
    se = outcome.std(ddof=1) / np.sqrt(N_TURNS)
    assert abs(mean - exact) <= 4 * se + 1e-12, (n, objective, mean, exact, se)
