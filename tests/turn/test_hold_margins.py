"""A roll's holds ranked by lookup (the stored margins of the roll values, and sums over the
faces of the dice a hold rerolls) against the restricted transform over every roll value and
against the per-type expectation: the same exact values, so the same rankings, ties
included."""

from __future__ import annotations

import numpy as np
import pytest

from phase10math.dice.layouts import RECORDED_LAYOUT
from phase10math.dice.rules import Rules
from phase10math.turn.advisor import ranked_holds
from phase10math.turn.kernels import expect_rerolls, normalise
from phase10math.turn.projection import COLOR, FULL
from phase10math.turn.solver import solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import holdvalues, margins
from phase10math.turn.tensor.holdvalues import LazyHoldValues, sub_holds
from phase10math.turn.tensor.margins import hold_margins, margin_hold_values

REC = RECORDED_LAYOUT.dice


@pytest.mark.parametrize(
    "dice, proj, most",
    [
        ((0, 1, 2, 6, 7, 8, 9), COLOR, 5),  # faces of a die alike in color: weights 2 and 3
        ((0, 1, 2, 6, 7, 9), FULL, 2),  # most holds summed over the dice not kept
        ((0, 6, 9), FULL, 0),  # only the hold of no die from the margins
    ],
)
def test_every_hold_by_the_margins_equals_the_transform_and_the_expectation(dice, proj, most):
    space = StateSpace.build([REC[i] for i in dice], proj, merge=False)
    assert space.distinct and any(max(t.weights) > 1 for t in space.types) == (proj is COLOR)
    below = np.random.default_rng(len(dice)).integers(0, 50, len(space.full_ids)).astype(np.uint8)
    stored = hold_margins(space, below, most)
    gids = np.arange(space.n_states)
    by_lookup = margin_hold_values(space, below, stored, gids)
    assert (by_lookup == LazyHoldValues(space, below).transform(gids)).all()
    assert (by_lookup == normalise(space, expect_rerolls(space, below.astype(np.int64)))).all()


@pytest.fixture(scope="module")
def two_keys():
    """A lexicographic turn on seven of the recorded dice, both keys with many ties."""
    space = StateSpace.build([REC[i] for i in (0, 1, 2, 3, 6, 7, 8)], FULL)
    rng = np.random.default_rng(5)
    top = rng.integers(0, 2, len(space.full_ids))
    second = rng.integers(0, 9, len(space.full_ids))
    return solve_utility(space, top, Rules(), second=second)


def test_a_rolls_ranking_by_lookup_is_the_ranking_by_the_transform(two_keys, monkeypatch):
    sol = two_keys
    space = sol.space
    rng = np.random.default_rng(11)
    ties = both = 0
    for roll in rng.choice(space.full_ids, 12, replace=False):
        gids = sub_holds(space, int(roll))
        for r in (1, 2):
            looked = [np.asarray(k.hold_num[r][gids]) for k in sol.keys]
            whole = [np.asarray(k.hold_num[r].transform(gids)) for k in sol.keys]
            assert all((a == b).all() for a, b in zip(looked, whole))
            order = ranked_holds(space, gids, *(v.tolist() for v in looked))
            assert order == ranked_holds(space, gids, *(v.tolist() for v in whole))
            # the best of the ranking is the policy's hold
            assert int(gids[order[0]]) == sol.best_hold_id(int(roll), r)
            best = looked[0][order[0]]
            ties += int((looked[0] == best).sum() > 1)
            pairs = list(zip(*(v.tolist() for v in looked)))
            both += int(len(set(pairs)) < len(pairs))
    # rankings whose best is tied on the first key (the second key decides), and rankings
    # with holds tied on both keys (the tie rule decides)
    assert ties > 2 and both > 2
    # a request of many holds still runs the transform, with the same values
    monkeypatch.setattr(holdvalues, "FEW", 0)
    gids = sub_holds(space, int(space.full_ids[7]))
    assert (
        sol.hold_num[1][gids]
        == margin_hold_values(space, sol.roll_num[0], sol.hold_num[1].margins, gids)
    ).all()


def test_margins_are_computed_once_and_kept(two_keys, monkeypatch):
    values = two_keys.hold_num[2]
    values.prepare()
    kept = values.margins
    monkeypatch.setattr(margins, "hold_margins", None)  # a second computation would fail
    values.prepare()
    assert values.margins is kept and values[5] == values.transform(np.array([5]))[0]
