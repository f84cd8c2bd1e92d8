"""The in-place tensor engine (distinct dice, free holds) against an independent plain-Python
dynamic program on reduced games, against the per-type solver, and its refusals."""

from __future__ import annotations

import itertools
import math
import os
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from phase10math.dice.faces import COLORS, Face
from phase10math.dice.layouts import COMPACT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.meld import best_scores
from phase10math.dice.partial import greedy_choices
from phase10math.dice.phases import PHASES, parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidArgumentError, StateSpaceTooLargeError
from phase10math.turn import engine, solver
from phase10math.turn.advisor import ranked_holds
from phase10math.turn.engine import final_scores
from phase10math.turn.kernels import (
    expect_rerolls,
    hold_ranks,
    lexicographic_utilities,
    normalise,
    subset_max,
)
from phase10math.turn.projection import COLOR, FULL, VALUE
from phase10math.turn.solver import solve_custom, solve_turn, solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import forward as tensor_forward
from phase10math.turn.tensor import greedy as tensor_greedy
from phase10math.turn.tensor import memory as tensor_memory
from phase10math.turn.tensor import memory_budget as tensor_memory_budget
from phase10math.turn.tensor import passes as tensor_passes
from phase10math.turn.tensor import slabs
from phase10math.turn.tensor import stages as tensor_stages
from phase10math.turn.tensor import threads as tensor_threads
from phase10math.turn.tensor.codes import hold_code
from phase10math.turn.tensor.finals import final_scores_tensor
from phase10math.turn.tensor.holdvalues import LazyHoldValues
from phase10math.turn.tensor.memory import tensor_shape
from phase10math.turn.tensor.passes import expect_into

REC = RECORDED_LAYOUT.dice


def plain_dp(dice, key, utility, rolls):
    """Plain Python: dice as lists of projected faces (with repeats = weights), holds as tuples
    (face or None per die), exact Fractions. Returns (turn value, roll value fn, hold value fn)."""
    n = len(dice)

    @cache
    def roll(state: tuple, r: int) -> Fraction:
        if r == 0:
            return Fraction(utility(state))
        best = None
        for mask in range(2**n):
            v = hold(tuple(s if mask >> i & 1 else None for i, s in enumerate(state)), r)
            best = v if best is None or v > best else best
        return best

    @cache
    def hold(kept: tuple, r: int) -> Fraction:
        free = [i for i, s in enumerate(kept) if s is None]
        total = Fraction(0)
        for sides in itertools.product(range(6), repeat=len(free)):
            st = list(kept)
            for i, s in zip(free, sides):
                st[i] = key(dice[i].faces[s])
            total += roll(tuple(st), r - 1)
        return total / 6 ** len(free)

    return hold((None,) * n, rolls), roll, hold


def _state_of(space, per_die):
    """Hold id of per-die projected faces (None = not held) in a distinct space whose types
    are in the dice order given by ``order``."""
    gid = 0
    for st, typ, f in zip(space.strides, space.types, per_die):
        gid += int(st) * (0 if f is None else 1 + typ.faces.index(f))
    return gid


def _typed_dice(space, dice, proj):
    """The dice in the space's type order (each type is one die)."""
    left = list(dice)
    out = []
    for typ in space.types:
        want = Counter(dict(zip(typ.faces, typ.weights)))
        d = next(d for d in left if Counter(proj.key(f) for f in d.faces) == want)
        left.remove(d)
        out.append(d)
    return out


def random_utility(seed):
    rng = np.random.default_rng(seed)
    table: dict = {}

    def u(faces):
        k = tuple(sorted(str(f) for f in faces))
        if k not in table:
            table[k] = int(rng.integers(0, 40))
        return table[k]

    return u


@pytest.mark.parametrize(
    "dice_idx, proj, rolls, seed",
    [
        ((0, 3, 6, 9), FULL, 3, 1),  # 4 recorded dice, 6 faces each
        ((1, 2, 7, 8), FULL, 2, 2),
        ((0, 1, 2, 3), COLOR, 3, 3),  # 4 recorded dice seen by color: 4 faces, weights 1-2
    ],
)
def test_reduced_recorded_dice_against_plain_dp(dice_idx, proj, rolls, seed):
    dice = [REC[i] for i in dice_idx]
    space = StateSpace.build(dice, proj)
    assert space.distinct
    u = random_utility(seed)
    rules = Rules(rolls=rolls)
    sol = solve_custom(lambda faces: u(faces), rules, dice, proj)
    typed = _typed_dice(space, dice, proj)
    rep = proj.representative
    turn, roll, hold = plain_dp(typed, proj.key, lambda st: u([rep(k) for k in st]), rolls)
    assert sol.value() == turn
    for gid in space.full_ids[:: max(1, len(space.full_ids) // 60)]:
        faces = tuple(k for _, k in space.faces_of(int(gid)))
        for r in range(rolls):
            assert sol.roll_value(int(gid), r) == roll(faces, r)
        for r in range(1, rolls):
            best = sol.best_hold_id(int(gid), r)
            assert sol.hold_value(best, r) == roll(faces, r)
            for mask in (0, 5, 2 ** len(dice) - 1):
                kept = tuple(f if mask >> i & 1 else None for i, f in enumerate(faces))
                assert sol.hold_value(_state_of(space, kept), r) == hold(kept, r)


def _old_engine(space, top, rolls):
    """The per-type steps on one key, holds in the kit's one order (:func:`hold_ranks`)."""
    roll, arg, hold = {0: top}, {}, {}
    for r in range(1, rolls):
        hold[r] = normalise(space, expect_rerolls(space, roll[r - 1]))
        _, arg[r] = subset_max(space, hold_ranks(space, [hold[r]]), space.full_ids)
        roll[r] = hold[r][arg[r]]
    return roll, arg, hold


@pytest.mark.parametrize("n_dice, seed", [(6, 0), (7, 1)])
def test_tensor_engine_equals_per_type_solver(n_dice, seed, monkeypatch):
    """Same roll values, same optimal holds (ties included) and same hold values as the
    per-type solver, on the recorded dice restricted to fewer dice (every step split among
    two threads, in small blocks)."""
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    monkeypatch.setattr(slabs, "BLOCK", 97)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    dice = list(REC[: n_dice // 2]) + list(REC[6 : 6 + n_dice - n_dice // 2])
    space = StateSpace.build(dice, FULL)
    top = np.random.default_rng(seed).integers(0, 8, len(space.full_ids))  # many ties
    sol = solve_utility(space, top, Rules())
    roll, arg, hold = _old_engine(space, top, 3)
    assert (sol.roll_num[1] == roll[1]).all()
    for r in (1, 2):
        assert (np.asarray(sol.roll_arg[r]) == arg[r]).all()
        # the last stage's roll values (not kept) are their best holds' values
        assert (sol.hold_num[r][np.asarray(sol.roll_arg[r])] == roll[r]).all()
        ids = np.arange(0, space.n_states, 7)
        assert (sol.hold_num[r][ids] == hold[r][ids]).all()
    assert sol.value() == Fraction(
        int(np.dot(roll[2].astype(object), space.roll_weights.astype(object))),
        6 ** (3 * space.n_dice),
    )


@pytest.mark.parametrize("proj", [VALUE, FULL])
def test_unmerged_dice_give_the_merged_values(proj):
    """Identical dice kept apart (one tensor axis each) give the values of the merged solve."""
    dice = [COMPACT_LAYOUT.dice[i] for i in (0, 1, 3, 6, 7)]
    u = random_utility(7)
    merged = StateSpace.build(dice, proj)
    apart = StateSpace.build(dice, proj, merge=False)
    assert apart.distinct and not merged.distinct
    fm = np.array(
        [u([proj.representative(k) for _, k in merged.faces_of(int(g))]) for g in merged.full_ids]
    )
    fa = np.array(
        [u([proj.representative(k) for _, k in apart.faces_of(int(g))]) for g in apart.full_ids]
    )
    a = solve_utility(apart, fa, Rules())
    m = solve_utility(merged, fm, Rules())
    assert a.value() == m.value()


@pytest.mark.parametrize(
    "ph", [8, 14, "1 run of 3 + 5 of one color", "6 of one color", "1 set of 3 + 4 of one color"]
)
def test_final_scores_by_half_profiles_equal_meld(ph):
    """The recorded dice restricted to 8 (1,679,616 rolls); phases 15 and 18 need more dice,
    so their shapes are checked through smaller groups of the same kinds."""
    ph = PHASES[ph] if isinstance(ph, int) else parse_phase(ph)
    dice = list(REC[:4]) + list(REC[6:10])
    space = StateSpace.build(dice, FULL)
    got = final_scores_tensor(ph, space, Rules())
    rng = np.random.default_rng(len(ph.text))
    pos = rng.choice(len(space.full_ids), 40_000, replace=False)
    want = best_scores(ph, space.profiles(space.full_ids[pos]), Rules())
    assert (got[pos] == want).all()
    assert (want >= 0).any()


def test_second_key_is_lexicographic():
    dice = [REC[0], REC[6], REC[7]]
    space = StateSpace.build(dice, FULL)
    shape = tensor_shape(space)
    rng = np.random.default_rng(3)
    top = rng.integers(0, 3, len(space.full_ids))
    sec = rng.integers(0, 50, len(space.full_ids))
    T, T2 = np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    expect_into(space, top, T)
    expect_into(space, sec, T2)
    N, N2 = T.copy(), T2.copy()
    A = np.zeros(shape, tensor_memory.code_dtype(len(shape)))
    tensor_passes.subset_max(space, T, A, second=T2)
    for gid in space.full_ids:
        faces = np.unravel_index(int(gid), shape)
        subs = [tuple(f if m >> i & 1 else 0 for i, f in enumerate(faces)) for m in range(8)]
        best = max((int(N[s]), int(N2[s])) for s in subs)
        assert (int(T[faces]), int(T2[faces])) == best


def test_lazy_hold_values_scalar_and_array():
    dice = [REC[0], REC[6], REC[9]]
    space = StateSpace.build(dice, FULL)
    top = np.arange(len(space.full_ids)) % 11
    lazy = LazyHoldValues(space, top)
    old = normalise(space, expect_rerolls(space, top))
    assert (lazy[np.arange(space.n_states)] == old).all()
    assert lazy[17] == old[17]


def test_recorded_sticky_refuses_at_once_naming_the_size():
    t = time.perf_counter()
    with pytest.raises(StateSpaceTooLargeError, match=r"\d{1,3}(,\d{3})+"):
        solve_turn(8, "score", Rules(holds="sticky"), RECORDED_LAYOUT)
    assert time.perf_counter() - t < 5


def test_recorded_free_refuses_over_the_memory_limit(monkeypatch):
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", "2")
    t = time.perf_counter()
    with pytest.raises(StateSpaceTooLargeError, match="282,475,249 holds.*GiB"):
        solve_turn(8, "score", Rules(), RECORDED_LAYOUT)
    assert time.perf_counter() - t < 5


def test_face_of_projected_color_die():
    assert COLOR.key(Face(5, "r")) == "r"


def test_blocked_threaded_passes_equal_one_block(monkeypatch):
    """Tiny blocks in two threads (every block boundary and thread split exercised) give the
    same hold values, roll values and arg-max bitmasks as one block in one thread."""
    dice = [REC[0], REC[3], REC[6], REC[8], REC[9]]
    space = StateSpace.build(dice, FULL)
    shape = tensor_shape(space)
    top = np.random.default_rng(5).integers(0, 6, len(space.full_ids))
    res = []
    for block, threads in ((1 << 20, "1"), (5, "2")):
        monkeypatch.setattr(slabs, "BLOCK", block)
        monkeypatch.setattr(slabs, "MIN_SLAB", 1)
        monkeypatch.setenv("PHASE10MATH_THREADS", threads)
        T, A = np.zeros(shape, np.int64), np.zeros(shape, tensor_memory.code_dtype(len(shape)))
        expect_into(space, top, T)
        N = T.copy()
        tensor_passes.subset_max(space, T, A)
        res.append((N, T, A))
    for x, y in zip(*res):
        assert (x == y).all()


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("block", [1 << 20, 7])
def test_compiled_code_pass_equals_the_array_comparisons(dtype, block, monkeypatch):
    """The one-key code pass of subset_max (compiled) keeps the same maxima and codes as the
    array comparisons (taken here through a second key equal everywhere, which runs them),
    ties included, on blocks of every shape (tiny blocks split along their first axes, two
    threads)."""
    dice = [REC[i] for i in (0, 1, 3, 6, 8, 9)]
    space = StateSpace.build(dice, FULL)
    shape = tensor_shape(space)
    top = np.random.default_rng(7).integers(0, 4, len(space.full_ids)).astype(dtype)
    monkeypatch.setattr(slabs, "BLOCK", block)
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    T = np.zeros(shape, dtype)
    expect_into(space, top, T)
    code = tensor_memory.code_dtype(len(shape))
    T1, A1 = T.copy(), np.zeros(shape, code)
    tensor_passes.subset_max(space, T1, A1)
    T2, A2 = T.copy(), np.zeros(shape, code)
    tensor_passes.subset_max(space, T2, A2, second=np.zeros(shape, np.int64))
    assert np.array_equal(T1, T2) and np.array_equal(A1, A2)
    assert len(np.unique(A1)) > 8  # many different best holds, not one


@pytest.mark.parametrize("proj", [FULL, VALUE])
@pytest.mark.parametrize("threads", ["1", "2"])
def test_compiled_spread_equals_the_array_operations(proj, threads, monkeypatch):
    """The forward pass's spread (compiled, entry by entry) gives the same floats as numpy's
    array operations slab by slab, on dice whose faces weigh 1 (FULL) and on dice where two
    faces count as one (VALUE: a low die's two W faces weigh 2), the work split by the
    entries before the axis or by the run after it."""
    monkeypatch.setenv("PHASE10MATH_THREADS", threads)
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    dice = [REC[i] for i in (0, 2, 6, 7, 9)]
    space = StateSpace.build(dice, proj)
    assert (proj is FULL) == tensor_forward.unit_weights(space)
    T = np.random.default_rng(9).random(tensor_shape(space))
    out = {}
    for compiled in (True, False):
        monkeypatch.setattr(tensor_forward, "COMPILED_SPREAD", compiled)
        out[compiled] = tensor_forward.spread_rolls(space, T.copy())
    assert np.array_equal(out[True], out[False])


@pytest.mark.parametrize("proj, which", [(FULL, (0, 2, 6, 7, 9)), (COLOR, (0, 1, 2, 3))])
@pytest.mark.parametrize("block", [1 << 20, 7])
def test_expectation_pass_equals_counting_the_rolls(proj, which, block, monkeypatch):
    """The expectation pass, in integers (``6**n`` times the mean) and in floats (the mean),
    on dice whose faces weigh 1 (FULL) and on four different dice whose faces count as 1 or
    2 (COLOR), in tiny blocks and two threads: at the hold of nothing and at each face of
    the first die held, the rolls of the other dice counted here by brute force."""
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    monkeypatch.setattr(slabs, "BLOCK", block)
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    space = StateSpace.build([REC[i] for i in which], proj)
    assert (proj is FULL) == tensor_forward.unit_weights(space)
    n = len(space.types)
    values = np.random.default_rng(11).integers(0, 1000, len(space.full_ids))
    N = expect_into(space, values, np.full(tensor_shape(space), -1, np.int64))
    E = expect_into(space, values, np.full(tensor_shape(space), -1.0))
    faces = [list(enumerate(t.weights)) for t in space.types]
    roll_of = values.reshape(tuple(len(t.weights) for t in space.types))
    for first in [None, *range(len(faces[0]))]:
        total, ways = 0, 0
        for roll in itertools.product(*faces):
            if first is not None and roll[0][0] != first:
                continue
            weight = math.prod(w for _, w in (roll if first is None else roll[1:]))
            total, ways = total + weight * int(roll_of[tuple(f for f, _ in roll)]), ways + weight
        held = ((0,) if first is None else (first + 1,)) + (0,) * (n - 1)
        assert ways == 6 ** (n if first is None else n - 1)
        assert N[held] == total * 6**n // ways
        assert E[held] == pytest.approx(total / ways, rel=1e-14)


def plain_greedy_hold(space, ph, gid, rules):
    """The greedy baseline on one roll state, in plain Python from its definition: for every
    candidate (placement, color) in :func:`greedy_choices` order, fill the number slots
    (value by value; among dice of that value the colors other than the group's first, in
    color order, then the group's color; then the lower die), then the color group (spare
    dice of its color, highest value first, then its wilds), then the number slots left
    with the other wilds (same order); keep the candidate using the most dice, then the most
    points, the first of equals. Returns the hold id."""
    dice = []  # (value, color index, die) per die of the roll, dice in type order
    for t, key in space.faces_of(int(gid)):
        f = space.projection.representative(key)
        dice.append((f.value, COLORS.index(f.color), t))
    k = sum(g.size for g in ph.groups if g.kind == "color")
    best = None
    for pl, x in greedy_choices(ph, rules):

        def order(die, x=x):
            return (die[1] == x, die[1], die[2])

        left = sorted(dice, key=order)
        kept = []
        slots = 0
        for v in range(1, 11):
            mine = [die for die in left if die[0] == v][: pl.demand[v]]
            slots += pl.demand[v] - len(mine)
            kept += mine
            left = [die for die in left if die not in mine]
        if x is not None:
            spare = sorted(
                (die for die in left if die[1] == x and die[0] > 0), key=lambda d: (-d[0], d[2])
            )
            spare = spare[:k]
            wilds = [die for die in left if die[1] == x and die[0] == 0][: k - len(spare)]
            kept += spare + wilds
            left = [die for die in left if die not in spare + wilds]
        fill = [die for die in left if die[0] == 0][:slots]
        kept += fill
        key = (len(kept), sum(die[0] for die in kept))
        if best is None or key > best[0]:
            best = (key, kept)
    counts = [[0] * len(t.faces) for t in space.types]
    for t, key in space.faces_of(int(gid)):
        f = space.projection.representative(key)
        if (f.value, COLORS.index(f.color), t) in best[1]:
            counts[t][space.types[t].faces.index(key)] += 1
    return space.state_id(counts)


@pytest.mark.parametrize("ph", [14, 15, "1 set of 3 + 3 of one color", "1 run of 5"])
def test_greedy_holds_tensor_equal_plain_greedy_on_every_roll(ph, monkeypatch):
    """Every roll of five recorded dice (in chunks, in two threads) against the greedy
    written out per roll in plain Python, and against the per-roll vectorised greedy of the
    per-type engine (its kept counts handed to the dice by the state space)."""
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    ph = PHASES[ph] if isinstance(ph, int) else parse_phase(ph)
    space = StateSpace.build(list(REC[:2]) + list(REC[6:9]), FULL)
    got = tensor_greedy.greedy_holds_tensor(space, ph, Rules(), chunk=500)
    assert (got == engine.Engine(space, Rules()).greedy_holds(ph)).all()
    want = [plain_greedy_hold(space, ph, gid, Rules()) for gid in space.full_ids]
    assert got.tolist() == want
    assert len(set(want)) > 100  # many different holds: the check is not about empty holds


@pytest.mark.parametrize(
    "ph",
    ["1 run of 3 + 3 of one color", "1 run of 4 + 2 of one color", "1 set of 3 + 3 of one color"],
)
def test_per_color_final_scores_equal_meld_on_all_rolls(ph):
    """A color group besides runs or sets (one color at a time, merged half-profiles): every
    roll of seven recorded dice against the meld engine."""
    ph = PHASES[ph] if isinstance(ph, int) else parse_phase(ph)
    dice = list(REC[:4]) + list(REC[6:9])
    space = StateSpace.build(dice, FULL)
    got = final_scores_tensor(ph, space, Rules())
    want = best_scores(ph, space.profiles(space.full_ids), Rules())
    assert (got == want).all()
    assert (want >= 0).any()


def _per_type(space, top, rules, second, monkeypatch):
    """The per-type solver on the same distinct-dice space (the tensor engine switched off)."""
    with monkeypatch.context() as m:
        m.setattr(solver, "engine_for", engine.Engine)
        return solve_utility(space, top, rules, second=second)


def _assert_same_solution(ten, ref, rolls, second: bool):
    assert ten.space.distinct
    # one roll's best hold, by lookup, is the per-type solver's, ties included
    for r in range(1, rolls):
        for gid in ten.space.full_ids[:: max(1, len(ten.space.full_ids) // 40)]:
            assert ten.best_hold_id(int(gid), r) == ref.best_hold_id(int(gid), r)
    assert [k.turn_num for k in ten.keys] == [k.turn_num for k in ref.keys]
    assert (ten.value(), ten.value2()) == (ref.value(), ref.value2())
    ids = np.arange(ten.space.n_states)
    for r in range(rolls - 1):  # the last stage's roll values are not kept
        assert (ten.roll_num[r] == ref.roll_num[r]).all()
        if second:
            assert (ten.keys[1].roll_num[r] == ref.keys[1].roll_num[r]).all()
    for r in range(1, rolls):
        assert (np.asarray(ten.roll_arg[r]) == ref.roll_arg[r]).all()
        pos = np.arange(0, len(ref.roll_arg[r]), 7)
        assert (ten.roll_arg[r][pos] == ref.roll_arg[r][pos]).all()
        assert (ten.hold_num[r][ids] == ref.hold_num[r]).all()
        if second:
            assert (ten.keys[1].hold_num[r][ids] == ref.keys[1].hold_num[r]).all()
    # any roll's value is its best hold's (how the last stage's are read)
    best = np.asarray(ten.roll_arg[rolls - 1])
    assert (ten.hold_num[rolls - 1][best] == ref.roll_num[rolls - 1]).all()
    if second:
        assert (ten.keys[1].hold_num[rolls - 1][best] == ref.keys[1].roll_num[rolls - 1]).all()
    for gid in ten.space.full_ids[:: max(1, len(ten.space.full_ids) // 5)]:
        assert ten.roll_value(int(gid), rolls - 1) == ref.roll_value(int(gid), rolls - 1)
        if second:
            got, want = (s.roll_value(int(gid), rolls - 1, key=1) for s in (ten, ref))
            assert got == want


LEX_GAMES = [
    # (dice, projection, rolls, distinct values of the first and second utility)
    ((0, 6, 7, 9), FULL, 3, 2, 2),
    ((1, 2, 7, 8), FULL, 3, 3, 1),  # a constant second key: ties by size and id alone
    ((0, 3, 6), FULL, 4, 2, 3),
    ((0, 1, 2, 3), COLOR, 3, 2, 3),  # faces with weights 1-2
    ((2, 4, 5, 8, 9), FULL, 3, 3, 4),
]


@pytest.mark.parametrize("dice_idx, proj, rolls, k1, k2", LEX_GAMES)
@pytest.mark.parametrize("seed", [0, 1])
def test_tensor_lexicographic_equals_per_type_solver(
    dice_idx, proj, rolls, k1, k2, seed, monkeypatch
):
    """With a second key the tensor engine is lexicographic in the kit's one order
    (both keys, more dice kept, larger state id): the same values of both keys, the same best
    holds and the same hold values as the per-type solver, on reduced distinct-dice games with
    random utility pairs of few distinct values (many ties on both keys); small blocks in two
    threads."""
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    monkeypatch.setattr(slabs, "BLOCK", 37)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    space = StateSpace.build([REC[i] for i in dice_idx], proj)
    rng = np.random.default_rng(100 * seed + len(dice_idx))
    top = rng.integers(0, k1, len(space.full_ids))
    sec = rng.integers(0, k2, len(space.full_ids)) * 3
    rules = Rules(rolls=rolls)
    ten = solve_utility(space, top, rules, second=sec)
    assert len(ten.keys[1].roll_num) == rolls - 1 and len(ten.keys[1].hold_num) == rolls - 1
    _assert_same_solution(ten, _per_type(space, top, rules, sec, monkeypatch), rolls, True)
    one = solve_utility(space, top, rules)  # one key: ties by size, then state id
    ref = _per_type(space, top, rules, None, monkeypatch)
    _assert_same_solution(one, ref, rolls, False)


@pytest.mark.parametrize(
    "packing, dice_idx, proj",
    [
        (True, (0, 2, 6, 8, 9), FULL),
        (False, (0, 2, 6, 8, 9), FULL),
        (False, (0, 1, 2, 3), COLOR),  # faces with weights 1-2, die 0 with 4 faces
        (False, (1, 6), FULL),  # two dice: the other dice's space is one die
    ],
)
def test_packed_and_two_tensor_keys_agree(packing, dice_idx, proj, monkeypatch):
    """Both keys packed in one int64 where they fit (:func:`tensor_stages.pack_keys`) or on two
    tensors (:func:`tensor_stages.split_stage`): the same solution as the per-type solver
    either way (small blocks, two threads), and the packing is used (or not) as asked.
    Negative keys included (the 'worst' second key is a negated score)."""
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    monkeypatch.setattr(slabs, "BLOCK", 53)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    calls = []
    real = tensor_stages.pack_bounds

    def spy(a, b, n):
        out = real(a, b, n) if packing else None
        calls.append(out is not None)
        return out

    monkeypatch.setattr(tensor_stages, "pack_bounds", spy)
    space = StateSpace.build([REC[i] for i in dice_idx], proj)
    assert space.distinct
    rng = np.random.default_rng(11)
    top = rng.integers(0, 3, len(space.full_ids))
    sec = -rng.integers(0, 40, len(space.full_ids))
    rules = Rules(rolls=3)
    ten = solve_utility(space, top, rules, second=sec)
    assert calls and all(c == packing for c in calls)
    _assert_same_solution(ten, _per_type(space, top, rules, sec, monkeypatch), 3, True)


@pytest.mark.parametrize(
    "split_holds, dice_idx, proj, rolls",
    [
        (0, (0, 2, 6, 8, 9), FULL, 3),  # split down to one die
        (0, (0, 1, 2, 3), COLOR, 4),  # faces with weights 1-2, die 0 with 4 faces
        (7**3, (1, 3, 4, 6, 7), FULL, 3),  # split once: the others' tensors of 7**3
    ],
)
def test_a_stage_split_again_gives_the_same_solution(
    split_holds, dice_idx, proj, rolls, monkeypatch
):
    """An exact stage split die 1's face by face too, and again (:data:`tensor_memory.
    SPLIT_HOLDS` lowered so that reduced games split as phase 8 on ten dice does): the same
    values of both keys, the same best holds and hold values as the per-type solver, with
    keys packed or on two tensors (small blocks, two threads); the float stage is not split
    (its sums would run in another order)."""
    monkeypatch.setattr(slabs, "MIN_SLAB", 1)
    monkeypatch.setattr(slabs, "BLOCK", 41)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    monkeypatch.setattr(tensor_memory, "SPLIT_HOLDS", split_holds)
    sizes = []
    real = tensor_stages.split_stage

    def spy(space, keys, *args, **kwargs):
        sizes.append(len(space.types))
        return real(space, keys, *args, **kwargs)

    monkeypatch.setattr(tensor_stages, "split_stage", spy)
    monkeypatch.setattr(engine, "split_stage", spy)
    space = StateSpace.build([REC[i] for i in dice_idx], proj)
    rng = np.random.default_rng(5)
    top = rng.integers(0, 3, len(space.full_ids))
    rules = Rules(rolls=rolls)
    secs = [rng.integers(0, 4, len(space.full_ids))]  # the keys packed in one int64
    if len(space.types) == 5:  # two tensors in the second stage: a spread too wide to pack
        secs.append(-(10**9) * top)
    for sec in secs:
        sizes.clear()
        ten = solve_utility(space, top, rules, second=sec)
        n = len(space.types)
        deepest = 2 if split_holds == 0 else n - 1
        assert min(sizes) == deepest and max(sizes) == n
        _assert_same_solution(ten, _per_type(space, top, rules, sec, monkeypatch), rolls, True)
    one = solve_utility(space, top, rules)
    _assert_same_solution(one, _per_type(space, top, rules, None, monkeypatch), rolls, False)
    sizes.clear()
    engine.engine_for(space, rules).float_stage(engine.Stage([top.astype(float)]), 1)
    assert sizes == [len(space.types)]


def test_pack_keys_refuses_what_may_overflow():
    first = np.array([0, 6**20])
    assert tensor_stages.pack_keys(first, np.array([0, 56 * 6**20]), 10) is None
    packed = tensor_stages.pack_keys(np.array([0, 1]), np.array([0, 56]), 10)
    assert packed is not None and packed[1] == 56 * 6**10 + 1


@pytest.mark.parametrize("ph", [8, 14, 2])
@pytest.mark.parametrize("objective", ["complete", "score"])
def test_tensor_phase_objectives_equal_per_type_solver(ph, objective, monkeypatch):
    """The objectives themselves (P(complete) then E[score], and the reverse) on six recorded
    dice: ties on the first key are everywhere (a made phase), the second key decides."""
    dice = list(REC[:3]) + list(REC[6:9])
    space = StateSpace.build(dice, FULL)
    best = final_scores(PHASES[ph], space, Rules())
    first, second = lexicographic_utilities(best, objective)
    ten = solve_utility(space, first, Rules(), second=second)
    ref = _per_type(space, first, Rules(), second, monkeypatch)
    _assert_same_solution(ten, ref, 3, True)
    for gid in space.full_ids[::97]:
        for r in (1, 2):
            assert ten.roll_value(int(gid), r, key=1) == ref.roll_value(int(gid), r, key=1)
            best_id = ten.best_hold_id(int(gid), r)
            assert ten.hold_value(best_id, r, key=1) == ref.hold_value(best_id, r, key=1)


def test_advisor_order_picks_the_tensor_best_hold():
    """The advisor's order of holds (:func:`ranked_holds`: both keys, more dice, state id)
    on every hold of a roll, with the tensor solution's lazy hold values of both keys, puts
    first the hold ``best_hold_id`` gives - at every roll of a reduced distinct-dice game."""
    space = StateSpace.build([REC[i] for i in (0, 4, 6, 9)], FULL)
    rng = np.random.default_rng(11)
    top = rng.integers(0, 2, len(space.full_ids))
    sec = rng.integers(0, 3, len(space.full_ids))
    sol = solve_utility(space, top, Rules(), second=sec)
    n = len(space.types)
    strides = [int(s) for s in space.strides]
    for gid in space.full_ids:
        slots = [int(gid) // st % (len(t.faces) + 1) for st, t in zip(strides, space.types)]
        gids = np.array(
            [
                sum(st * s for i, (st, s) in enumerate(zip(strides, slots)) if m >> i & 1)
                for m in range(2**n)
            ]
        )
        for r in (1, 2):
            nums = sol.hold_num[r][gids].tolist()
            nums2 = sol.keys[1].hold_num[r][gids].tolist()
            best = int(gids[ranked_holds(space, gids, nums, nums2)[0]])
            assert best == sol.best_hold_id(int(gid), r)


def test_hold_code_is_more_dice_then_larger_id():
    """Brute force of the tie rule's codes: among distinct sub-holds of one entry, the smaller
    :func:`hold_code` keeps more dice, or as many with the larger state id; codes of
    disjoint masks add up, and they read back as documented (popcount above ``n`` bits, die
    ``d`` at bit ``n - 1 - d``)."""

    def decode(n, codes):
        codes = np.asarray(codes, dtype=np.int64)
        masks = sum(((codes >> (n - 1 - d)) & 1) << d for d in range(n))
        assert ((codes >> n) == np.array([bin(int(m)).count("1") for m in masks])).all()
        return masks

    dice = [REC[i] for i in (0, 2, 5, 6, 8)]
    space = StateSpace.build(dice, FULL)
    n = len(space.types)
    strides = [int(s) for s in space.strides]
    masks = np.arange(2**n)
    codes = hold_code(n, masks)
    assert (decode(n, codes) == masks).all()
    assert codes.dtype == np.uint16 and tensor_memory.code_dtype(13) == np.uint32
    big = hold_code(16, np.arange(0, 2**16, 7))  # 16 dice: uint32 codes
    assert big.dtype == np.uint32 and (decode(16, big) == np.arange(0, 2**16, 7)).all()
    for a in range(2**n):
        for b in range(2**n):
            if a & b == 0:
                assert hold_code(n, a | b) == hold_code(n, a) + hold_code(n, b)
    rng = np.random.default_rng(4)
    for gid in rng.choice(space.full_ids, 40):
        slots = [int(gid) // st % (len(t.faces) + 1) for st, t in zip(strides, space.types)]

        def key(m, slots=slots):  # m: bitmask of dice not held
            held = [i for i in range(n) if not m >> i & 1]
            return (len(held), sum(strides[i] * slots[i] for i in held))

        for a in range(2**n):
            for b in range(2**n):
                if a != b:
                    assert (codes[a] < codes[b]) == (key(a) > key(b))


@pytest.mark.parametrize("text", ["abc", "nan", "inf", "-1", "0", "1e9", "١"])
def test_a_malformed_memory_setting_is_refused(monkeypatch, text):
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", text)
    with pytest.raises(InvalidArgumentError, match="PHASE10MATH_MEMORY_GB"):
        tensor_memory_budget()


@pytest.mark.parametrize("text", ["0", "-3", "two", "1e3", "257", "٣", "2.5"])
def test_a_malformed_threads_setting_is_refused(monkeypatch, text):
    monkeypatch.setenv("PHASE10MATH_THREADS", text)
    with pytest.raises(InvalidArgumentError, match="PHASE10MATH_THREADS"):
        tensor_threads()


def test_the_engine_settings_are_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", "1.5")
    monkeypatch.setenv("PHASE10MATH_THREADS", " 3 ")
    assert tensor_memory_budget() == 1536 * 1024 * 1024 and tensor_threads() == 3


def test_second_key_memory_is_estimated_and_refused(monkeypatch):
    """The second key's tensor counts in the memory check: a limit between the one-key and the
    two-key estimates refuses the lexicographic solve, naming the second key."""
    space = StateSpace.build(RECORDED_LAYOUT, FULL)
    one, two = (
        tensor_memory.estimate_bytes(space, 3),
        tensor_memory.estimate_bytes(space, 3, second=True),
    )
    assert two > one + 8 * 7**9
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", str((one + two) / 2 / 2**30))
    tensor_memory.check_tensor_fits(space, 3)
    t = time.perf_counter()
    with pytest.raises(StateSpaceTooLargeError, match="second key"):
        solve_turn(8, "complete", layout=RECORDED_LAYOUT)
    # refused before any stage: after the final utility (the meld scores of 60 million rolls,
    # ~7 s on a busy CI machine) but long before a solve (30 s or more)
    assert time.perf_counter() - t < 20


@pytest.mark.parametrize("which", ["first", "second"])
def test_utility_too_large_for_int64_is_refused(which):
    """The distinct-dice engine works in int64: a utility whose numerators times
    6**(n_dice * (rolls - 1)) could overflow is refused at once with a clear message (the
    per-type solver would fall back to Python integers)."""
    space = StateSpace.build([REC[i] for i in (0, 3, 6, 9)], FULL)
    n = len(space.full_ids)
    small = np.arange(n) % 5
    huge = np.full(n, 10**13)
    first, second = (huge, small) if which == "first" else (small, huge)
    name = "utility's" if which == "first" else "second utility's"
    with pytest.raises(StateSpaceTooLargeError, match=f"the {name} numerators .* 64-bit"):
        solve_utility(space, first, Rules(), second=second)


def test_cached_tensor_solution_is_mapped_small_and_answers_the_same(tmp_path, monkeypatch):
    """A tensor solution written to the large-result cache and read back: its arrays are
    memory-mapped read-only (the 0/1 utility unpacked from its bits), the roll values kept are
    small integers (no int64 hold ids or last stage), and the hold values, best holds and the
    last stage's roll values read from the mapped copy equal those of the solution in memory."""
    from phase10math import cache

    monkeypatch.setenv("PHASE10MATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "LARGE_ARRAY", 1)
    monkeypatch.setattr(cache, "BITS_ARRAY", 1)  # the 0/1 utility stored as bits
    monkeypatch.setattr(cache, "DISK_MARGIN", 0)
    space = StateSpace.build([REC[i] for i in (0, 2, 6, 8, 9)], FULL)
    rng = np.random.default_rng(3)
    top = rng.integers(0, 2, len(space.full_ids)).astype(np.int8)
    sec = rng.integers(0, 57, len(space.full_ids)).astype(np.int8)
    sol = solve_utility(space, top, Rules(), second=sec)
    assert sorted(sol.roll_num) == [0, 1] and sol.roll_num[1].dtype.itemsize <= 4
    assert cache.save_large("k", sol)
    got = cache.load_large("k")
    assert isinstance(got.roll_num[1], np.memmap) and not got.roll_num[1].flags.writeable
    assert not isinstance(got.roll_num[0], np.memmap) and got.roll_num[0].dtype == np.int8
    assert isinstance(got.keys[1].roll_num[0], np.memmap)  # not 0/1: as it is
    ids = np.arange(space.n_states)
    for r in (1, 2):
        assert (got.hold_num[r][ids] == sol.hold_num[r][ids]).all()
        assert (got.keys[1].hold_num[r][ids] == sol.keys[1].hold_num[r][ids]).all()
        assert (np.asarray(got.roll_arg[r]) == np.asarray(sol.roll_arg[r])).all()
    for gid in space.full_ids[::97]:
        assert got.roll_value(int(gid), 2) == sol.roll_value(int(gid), 2)
        assert got.roll_value(int(gid), 2, key=1) == sol.roll_value(int(gid), 2, key=1)
    assert (got.value(), got.value2()) == (sol.value(), sol.value2())
    # the 0/1 utility kept as its bits: the same hold values and roll values
    bits = cache.load_large("k", packed=True)
    assert isinstance(bits.roll_num[0], cache.PackedBits)
    for r in (1, 2):
        assert (bits.hold_num[r][ids] == sol.hold_num[r][ids]).all()
        assert (bits.keys[1].hold_num[r][ids] == sol.keys[1].hold_num[r][ids]).all()
    for gid in space.full_ids[::97]:
        assert bits.roll_value(int(gid), 0) == sol.roll_value(int(gid), 0)


def test_the_one_backward_induction_drives_the_tensor_stages(monkeypatch):
    """Every chooser on the tensor engine runs stage by stage in the one backward induction:
    each stage is told whether it is the last (only at ``rolls - 1``), the last optimal
    stage gives the totals and keeps no roll values, and the totals of the optimal, float
    and fixed-policy choosers equal the per-type engine's on the same space (4 rolls)."""
    space = StateSpace.build([REC[i] for i in (0, 3, 6, 9)], FULL)
    ten, ref = engine.engine_for(space, Rules()), engine.Engine(space, Rules())
    assert ten.kind is engine.EngineKind.TENSOR
    rng = np.random.default_rng(11)
    top = rng.integers(0, 3, len(space.full_ids)).astype(np.int8)
    sec = rng.integers(0, 4, len(space.full_ids)).astype(np.int8)
    seen = []
    for name in ("optimal_stage", "float_stage", "fixed_stage"):
        real = getattr(engine.TensorEngine, name)

        def spy(self, prev, r, *rest, real=real, name=name, **options):
            seen.append((name, r, rest[-1]))
            return real(self, prev, r, *rest, **options)

        monkeypatch.setattr(engine.TensorEngine, name, spy)
    got = engine.backward_induction(ten, [top, sec], 4)
    want = engine.backward_induction(ref, [top.astype(np.int64), sec.astype(np.int64)], 4)
    assert seen == [("optimal_stage", r, r == 3) for r in (1, 2, 3)]
    assert got.total == want.total and got.denominator == want.denominator
    assert sorted(got.roll[0]) == [0, 1, 2] and sorted(want.roll[0]) == [0, 1, 2, 3]
    holds = {r: np.asarray(want.arg[r]) for r in (1, 2, 3)}
    for exact in (True, False):
        seen.clear()
        fin = top.astype(np.int64 if exact else np.float64)
        got_p = engine.backward_induction(ten, [fin], 4, engine.Fixed(holds, exact), keep=False)
        want_p = engine.backward_induction(ref, [fin], 4, engine.Fixed(holds, exact), keep=False)
        assert seen == [("fixed_stage", r, r == 3) for r in (1, 2, 3)]
        assert got_p.total[0] == pytest.approx(want_p.total[0], rel=1e-12)
        if exact:
            assert got_p.total[0] == want.total[0]  # the optimal policy's own value
    seen.clear()
    util = top.astype(np.float64) + rng.random(len(top)) / 10  # no ties
    got_f = engine.backward_induction(ten, [util], 4, engine.OPTIMAL_FLOAT, keep=False)
    want_f = engine.backward_induction(ref, [util], 4, engine.OPTIMAL_FLOAT, keep=False)
    assert seen == [("float_stage", r, r == 3) for r in (1, 2, 3)]
    assert got_f.total[0] == pytest.approx(float(want_f.total[0]), rel=1e-12)
    assert (np.asarray(got_f.arg[3]) == np.asarray(want_f.arg[3])).all()


def test_a_held_heap_keeps_what_is_freed_and_gives_it_back_after():
    """``held_heap`` checked by glibc's own counters in a fresh process (``heldheap.py``): not
    in this one, whose heap the tests before have left in any state, and which the test run
    holds (``conftest.py``)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("glibc only; elsewhere held_heap changes nothing")
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    script = os.path.join(os.path.dirname(__file__), "heldheap.py")
    done = subprocess.run(
        [sys.executable, script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["held", "given", "back"]
