"""The in-place tensor engine (distinct dice, free holds) against an independent plain-Python
dynamic program on reduced games, against the per-type solver, and its refusals."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from phase10math.dice.faces import Face
from phase10math.dice.layouts import DEFAULT_LAYOUT, RECORDED_LAYOUT
from phase10math.dice.meld import best_scores
from phase10math.dice.phases import PHASES, parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import StateSpaceTooLargeError
from phase10math.turn import tensor
from phase10math.turn.kernels import expect_rerolls, normalise, subset_max
from phase10math.turn.policy import greedy_policy
from phase10math.turn.projection import COLOR, FULL, VALUE
from phase10math.turn.solver import solve_custom, solve_turn, solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tensor import (
    LazyHoldValues,
    expect_into,
    final_scores_tensor,
    tensor_shape,
)

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
    roll, arg, hold = {0: top}, {}, {}
    for r in range(1, rolls):
        hold[r] = normalise(space, expect_rerolls(space, roll[r - 1]))
        roll[r], arg[r] = subset_max(space, hold[r], space.full_ids)
    return roll, arg, hold


@pytest.mark.parametrize("n_dice, seed", [(6, 0), (7, 1)])
def test_tensor_engine_equals_per_type_solver(n_dice, seed, monkeypatch):
    """Same roll values, same optimal holds (ties included) and same hold values as the
    per-type solver, on the recorded dice restricted to fewer dice (every step split among
    two threads, in small blocks)."""
    monkeypatch.setattr(tensor, "MIN_SLAB", 1)
    monkeypatch.setattr(tensor, "BLOCK", 97)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    dice = list(REC[: n_dice // 2]) + list(REC[6 : 6 + n_dice - n_dice // 2])
    space = StateSpace.build(dice, FULL)
    top = np.random.default_rng(seed).integers(0, 8, len(space.full_ids))  # many ties
    sol = solve_utility(space, top, Rules())
    roll, arg, hold = _old_engine(space, top, 3)
    for r in (1, 2):
        assert (sol.roll_num[r] == roll[r]).all()
        assert (sol.roll_arg[r] == arg[r]).all()
        ids = np.arange(0, space.n_states, 7)
        assert (sol.hold_num[r][ids] == hold[r][ids]).all()
    assert sol.value() == Fraction(
        int(np.dot(roll[2].astype(object), space.roll_weights.astype(object))),
        6 ** (3 * space.n_dice),
    )


@pytest.mark.parametrize("proj", [VALUE, FULL])
def test_unmerged_dice_give_the_merged_values(proj):
    """Identical dice kept apart (one tensor axis each) give the values of the merged solve."""
    dice = [DEFAULT_LAYOUT.dice[i] for i in (0, 1, 3, 6, 7)]
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
    A = np.zeros(shape, np.uint16)
    tensor.subset_max(space, T, A, second=T2)
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
        monkeypatch.setattr(tensor, "BLOCK", block)
        monkeypatch.setattr(tensor, "MIN_SLAB", 1)
        monkeypatch.setenv("PHASE10MATH_THREADS", threads)
        T, A = np.zeros(shape, np.int64), np.zeros(shape, np.uint16)
        expect_into(space, top, T)
        N = T.copy()
        tensor.subset_max(space, T, A)
        res.append((N, T, A))
    for x, y in zip(*res):
        assert (x == y).all()


def test_greedy_holds_tensor_equal_greedy_policy(monkeypatch):
    monkeypatch.setattr(tensor, "MIN_SLAB", 1)
    monkeypatch.setenv("PHASE10MATH_THREADS", "2")
    dice = list(REC[:3]) + list(REC[6:9])
    space = StateSpace.build(dice, FULL)
    for ph in (PHASES[14], PHASES[8], PHASES[2]):
        got = tensor.greedy_holds_tensor(space, ph, Rules(), chunk=500)
        assert (got == greedy_policy(space, ph, Rules())).all()


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
