"""The turn solver against plain enumeration on reduced games and on single rolls."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.meld import best_scores
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Rules
from phase10math.turn.engine import OPTIMAL_FLOAT, Fixed, backward_induction, engine_for
from phase10math.turn.projection import FULL, VALUE
from phase10math.turn.solver import solve_custom, solve_turn
from phase10math.turn.statespace import StateSpace

HIGH_A = DEFAULT_LAYOUT.dice[0]
LOW_A = DEFAULT_LAYOUT.dice[-1]
OTHER_HIGH = next(d for d in DEFAULT_LAYOUT.dice if d.kind == "high" and d != HIGH_A)
# a reduced game: two identical high dice, another high die and a low die
REDUCED = [HIGH_A, HIGH_A, OTHER_HIGH, LOW_A]


def u_pair_or_wild(faces):
    """Utility for tests: 1 if two dice show the same number (W joins anything)."""
    vals = Counter(f.value for f in faces if not f.is_wild)
    wilds = sum(f.is_wild for f in faces)
    return int(
        max(vals.values(), default=0) + wilds >= 2
        and len(faces) >= 2
        and (wilds >= 2 or max(vals.values(), default=0) + wilds >= 2)
    )


def u_orange_points(faces):
    """Utility for tests: points on orange dice plus 3 per wild (colors and values matter)."""
    return sum(f.value for f in faces if f.color == "o") + 3 * sum(f.is_wild for f in faces)


class Brute:
    """Plain enumeration over the ordered dice: every hold, every outcome, exact Fractions."""

    def __init__(self, dice, utility, rolls):
        self.dice, self.utility, self.rolls = dice, utility, rolls
        self.n = len(dice)

    @cache  # noqa: B019 - one Brute per test
    def hold(self, kept: tuple, r: int) -> Fraction:
        """kept: tuple of side index or None per die; value with r rolls still to come."""
        free = [i for i, s in enumerate(kept) if s is None]
        total = Fraction(0)
        for sides in itertools.product(range(6), repeat=len(free)):
            roll = list(kept)
            for i, s in zip(free, sides):
                roll[i] = s
            total += self.roll(tuple(roll), r - 1)
        return total / 6 ** len(free)

    @cache  # noqa: B019 - one Brute per test
    def roll(self, roll: tuple, r: int) -> Fraction:
        if r == 0:
            return Fraction(self.utility([self.dice[i].faces[s] for i, s in enumerate(roll)]))
        best = None
        for mask in range(2**self.n):
            kept = tuple(s if mask >> i & 1 else None for i, s in enumerate(roll))
            v = self.hold(kept, r)
            best = v if best is None or v > best else best
        return best

    def turn(self) -> Fraction:
        return self.hold((None,) * self.n, self.rolls)

    # sticky: dice set aside stay set aside
    @cache  # noqa: B019 - one Brute per test
    def sticky_hold(self, kept: tuple, r: int) -> Fraction:
        free = [i for i, s in enumerate(kept) if s is None]
        total = Fraction(0)
        for sides in itertools.product(range(6), repeat=len(free)):
            roll = list(kept)
            for i, s in zip(free, sides):
                roll[i] = s
            if r == 1:
                total += Fraction(self.utility([self.dice[i].faces[s] for i, s in enumerate(roll)]))
                continue
            best = None
            for k in range(len(free) + 1):
                for extra in itertools.combinations(free, k):
                    new = tuple(
                        s if (kept[i] is not None or i in extra) else None
                        for i, s in enumerate(roll)
                    )
                    v = self.sticky_hold(new, r - 1)
                    best = v if best is None or v > best else best
            total += best
        return total / 6 ** len(free)


def state_of(space, dice, assignment):
    """State id of a (partial) assignment of sides to the ordered dice."""
    per_type = [[0] * len(t.faces) for t in space.types]
    for die, side in zip(dice, assignment):
        if side is None:
            continue
        key = space.projection.key(die.faces[side])
        w = Counter(space.projection.key(f) for f in die.faces)
        t = next(i for i, typ in enumerate(space.types) if dict(zip(typ.faces, typ.weights)) == w)
        per_type[t][space.types[t].faces.index(key)] += 1
    return space.state_id(per_type)


def solve_reduced(dice, utility, rules, projection=FULL):
    sol = solve_custom(utility, rules, dice, projection)
    return sol.space, sol


@pytest.mark.parametrize("utility", [u_pair_or_wild, u_orange_points])
def test_free_holds_equal_brute_force_on_every_state(utility):
    rules = Rules(rolls=3)
    space, sol = solve_reduced(REDUCED, utility, rules)
    brute = Brute(REDUCED, utility, 3)
    assert sol.value() == brute.turn()
    for roll in itertools.product(range(6), repeat=len(REDUCED)):
        gid = state_of(space, REDUCED, roll)
        for r in (0, 1, 2):
            assert sol.roll_value(gid, r) == brute.roll(roll, r)
        # every hold with 1 and 2 rolls to come
        for mask in range(2 ** len(REDUCED)):
            kept = tuple(s if mask >> i & 1 else None for i, s in enumerate(roll))
            hid = state_of(space, REDUCED, kept)
            for r in (1, 2):
                assert sol.hold_value(hid, r) == brute.hold(kept, r)


@pytest.mark.parametrize("utility", [u_pair_or_wild, u_orange_points])
def test_sticky_holds_equal_brute_force(utility):
    dice = REDUCED[1:]  # three dice keep the brute force quick
    rules = Rules(rolls=3, holds="sticky")
    space, sol = solve_reduced(dice, utility, rules)
    brute = Brute(dice, utility, 3)
    for kept in itertools.product([None, 0, 1, 2, 3, 4, 5], repeat=len(dice)):
        gid = state_of(space, dice, kept)
        assert sol.hold_value(gid, 2) == brute.sticky_hold(kept, 2)
        assert sol.hold_value(gid, 1) == brute.sticky_hold(kept, 1)
    # first roll: nothing is set aside yet, so the best hold is a max over all holds
    start = Fraction(0)
    for roll in itertools.product(range(6), repeat=len(dice)):
        best = max(
            brute.sticky_hold(tuple(s if m >> i & 1 else None for i, s in enumerate(roll)), 2)
            for m in range(2 ** len(dice))
        )
        start += best
    assert sol.value() == start / 6 ** len(dice)


def test_sticky_never_beats_free_and_more_rolls_never_hurt():
    dice = REDUCED
    for utility in (u_pair_or_wild, u_orange_points):
        values = {}
        for holds in ("free", "sticky"):
            for rolls in (1, 2, 3):
                _, sol = solve_reduced(dice, utility, Rules(rolls=rolls, holds=holds))
                values[holds, rolls] = sol.value()
        for rolls in (1, 2, 3):
            assert values["sticky", rolls] <= values["free", rolls]
        for holds in ("free", "sticky"):
            assert values[holds, 1] <= values[holds, 2] <= values[holds, 3]


def single_roll_probability_by_enumeration(n):
    """P(one roll of the ten dice makes phase n), by enumerating the ordered outcomes of the
    six high and four low dice separately (value phases: only numbers matter)."""
    high = Counter(
        tuple(np.bincount(o, minlength=11))
        for o in itertools.product([5, 6, 7, 8, 9, 10], repeat=6)
    )
    low = Counter(
        tuple(np.bincount(o, minlength=11)) for o in itertools.product([1, 2, 3, 4, 0, 0], repeat=4)
    )
    keys, weights = [], []
    for h, a in high.items():
        for lo, b in low.items():
            keys.append(np.array(h) + np.array(lo))
            weights.append(a * b)
    prof = np.zeros((len(keys), 11, 4), dtype=np.int16)
    prof[:, :, 0] = np.array(keys)
    made = best_scores(PHASES[n], prof) >= 0
    return Fraction(int(np.dot(made.astype(np.int64), np.array(weights, dtype=np.int64))), 6**10)


@pytest.mark.parametrize("n", [1, 2, 4, 7, 9, 11, 16, 20])
def test_zero_rerolls_equals_single_roll_enumeration(n):
    sol = solve_turn(n, "complete", Rules(rolls=1))
    assert sol.value() == single_roll_probability_by_enumeration(n)


def test_value_projection_agrees_with_full_projection_on_reduced_game():
    # the projection is an optimisation only: a utility of the numbers alone gets the same
    # values whether the dice are told apart by color or not
    def numbers_only(faces):
        return sum(f.value for f in faces) % 7

    _, full = solve_reduced(REDUCED, numbers_only, Rules(), FULL)
    _, value = solve_reduced(REDUCED, numbers_only, Rules(), VALUE)
    assert len(full.space.types) > len(value.space.types)
    assert full.value() == value.value()


def test_a_batch_of_float_utilities_is_solved_as_each_alone():
    """The per-type engine's float and fixed-policy stages on B utilities at once (a trailing
    batch axis) give each utility's own solve: the same best holds, the same values."""
    space = StateSpace.build(REDUCED, FULL)
    engine = engine_for(space, Rules())
    assert engine.batches
    U = np.random.default_rng(3).random((len(space.full_ids), 5)) * 40
    batch = backward_induction(engine, [U], 3, OPTIMAL_FLOAT)
    for b in range(U.shape[1]):
        one = backward_induction(engine, [U[:, b]], 3, OPTIMAL_FLOAT)
        assert abs(batch.total[0][b] - one.total[0]) <= 1e-12 * 40
        for r in (1, 2):
            assert (batch.arg[r][:, b] == one.arg[r]).all()
            assert np.allclose(batch.roll[0][r][:, b], one.roll[0][r], rtol=1e-13, atol=0)
    holds = {r: batch.arg[r][:, 0] for r in (1, 2)}
    means = backward_induction(engine, [U], 3, Fixed(holds, exact=False)).total[0]
    assert abs(means[0] - batch.total[0][0]) <= 1e-12 * 40  # its own optimal policy
    assert (means[1:] <= batch.total[0][1:] + 1e-9).all()  # no policy beats the optimum
