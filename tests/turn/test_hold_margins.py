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


def test_a_rolls_ranking_by_lookup_is_the_ranking_by_the_transform(two_keys):
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


def test_a_request_of_more_holds_than_a_lookup_reads_at_once_is_the_transforms(two_keys):
    """More holds than :data:`~holdvalues.FEW` asked at once (the sub-holds of many rolls,
    here more than 2,048): looked up in pieces, the same values as the restricted transform
    over every roll value and as the per-type expectation (two computations that read no
    margin), so every roll's ranking is the transform's."""
    sol = two_keys
    space = sol.space
    rolls = np.random.default_rng(3).choice(space.full_ids, 24, replace=False)
    per_roll = [sub_holds(space, int(roll)) for roll in rolls]
    gids = np.concatenate(per_roll)
    assert len(gids) > holdvalues.FEW > len(per_roll[0])
    for r in (1, 2):
        looked = [np.asarray(k.hold_num[r][gids]) for k in sol.keys]
        whole = [np.asarray(k.hold_num[r].transform(gids)) for k in sol.keys]
        brute = [
            normalise(space, expect_rerolls(space, np.asarray(k.roll_num[r - 1], np.int64)))[gids]
            for k in sol.keys
        ]
        assert all((a == b).all() and (a == c).all() for a, b, c in zip(looked, whole, brute))
        at = 0
        for roll, ids in zip(rolls, per_roll):
            part = slice(at, at + len(ids))
            order = ranked_holds(space, ids, *(v[part].tolist() for v in looked))
            assert order == ranked_holds(space, ids, *(v[part].tolist() for v in whole))
            assert int(ids[order[0]]) == sol.best_hold_id(int(roll), r)
            at += len(ids)


def test_margins_are_computed_once_and_kept(two_keys, monkeypatch):
    values = two_keys.hold_num[2]
    values.prepare()
    kept = values.margins
    monkeypatch.setattr(margins, "hold_margins", None)  # a second computation would fail
    values.prepare()
    assert values.margins is kept and values[5] == values.transform(np.array([5]))[0]
