"""Sticky holds: the vectorised layer and the policy evaluations against plain enumeration."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.phases import PHASES
from phase10math.dice.rules import Rules
from phase10math.errors import StateSpaceTooLargeError
from phase10math.turn import engine, policy, sticky
from phase10math.turn.engine import final_scores
from phase10math.turn.kernels import (
    expect_rerolls,
    hold_ranks,
    normalise,
    utility_from_scores,
)
from phase10math.turn.projection import FULL, VALUE
from phase10math.turn.solver import solve_turn, solve_utility
from phase10math.turn.statespace import StateSpace
from phase10math.turn.tables import phase_row

HIGH_A = DEFAULT_LAYOUT.dice[0]
LOW_A = DEFAULT_LAYOUT.dice[-1]
OTHER_HIGH = next(d for d in DEFAULT_LAYOUT.dice if d.kind == "high" and d != HIGH_A)
# two identical high dice, another high die and a low die
REDUCED = [HIGH_A, HIGH_A, OTHER_HIGH, LOW_A]
SMALL = [HIGH_A, HIGH_A, LOW_A]  # the policy brute forces enumerate nested rolls: 3 dice
STICKY = Rules(rolls=3, holds="sticky")


def random_utility(seed: int):
    """A utility of the multiset of faces with (almost surely) no ties between holds."""

    @cache
    def by_key(key: str) -> int:
        return random.Random(f"{seed}:{key}").randrange(10**6)

    def u(faces) -> int:
        return by_key(",".join(sorted(f"{f.value}{f.color}" for f in faces)))

    return u


def mode_value_hold(faces) -> list[bool]:
    """A fixed simple policy: keep the dice showing the most frequent number (W counts as
    none; ties: the higher number)."""
    cnt = Counter(f.value for f in faces if not f.is_wild)
    if not cnt:
        return [False] * len(faces)
    best = max(cnt, key=lambda v: (cnt[v], v))
    return [f.value == best for f in faces]


class StickyBrute:
    """Plain enumeration over the ordered dice, three rolls, exact Fractions."""

    def __init__(self, dice):
        self.dice = dice
        self.n = len(dice)
        kinds = []
        for d in dice:
            if d not in kinds:
                kinds.append(d)
        self.kind = [kinds.index(d) for d in dice]
        self.memo: dict[int, dict] = {}

    def faces(self, sides):
        return [self.dice[i].faces[s] for i, s in enumerate(sides)]

    def key(self, kept):
        """The hold as a multiset of (die kind, face)."""
        return tuple(
            sorted(
                (self.kind[i], str(self.dice[i].faces[s]))
                for i, s in enumerate(kept)
                if s is not None
            )
        )

    def outcomes(self, kept):
        free = [i for i, s in enumerate(kept) if s is None]
        for sides in itertools.product(range(6), repeat=len(free)):
            roll = list(kept)
            for i, s in zip(free, sides):
                roll[i] = s
            yield free, tuple(roll)

    def final(self, kept, u) -> Fraction:
        """E[u] after rolling the dice not kept once more."""
        memo = self.memo.setdefault(id(u), {})
        if kept not in memo:
            vals = [u(self.faces(roll)) for _, roll in self.outcomes(kept)]
            memo[kept] = Fraction(sum(vals), len(vals))
        return memo[kept]

    def best_extra(self, kept, roll, value):
        """The dice to add to ``kept`` from ``roll`` maximising ``value``; asserts that the
        best hold is unique (as a multiset), so no tie convention is involved."""
        free = [i for i, s in enumerate(kept) if s is None]
        best, best_key, tie = None, None, False
        for k in range(len(free) + 1):
            for extra in itertools.combinations(free, k):
                new = tuple(
                    roll[i] if (kept[i] is not None or i in extra) else None for i in range(self.n)
                )
                v = value(new)
                if best is None or v > best[0]:
                    best, best_key, tie = (v, new), self.key(new), False
                elif v == best[0] and self.key(new) != best_key:
                    tie = True
        assert not tie, "the test utility has a tie"
        return best[1]

    def optimal_policy_value(self, u_opt, u_eval) -> Fraction:
        """Play the sticky policy optimal for u_opt, score u_eval."""
        w1 = cache(lambda kept: self.final(kept, u_opt))

        @cache
        def w2(kept):  # value for u_opt of set-aside ``kept`` with two rolls to come
            tot = Fraction(0)
            cnt = 0
            for _, roll in self.outcomes(kept):
                tot += w1(self.best_extra(kept, roll, w1))
                cnt += 1
            return tot / cnt

        def e2(kept):  # u_eval under the policy, set-aside ``kept``, two rolls to come
            vals = [
                self.final(self.best_extra(kept, roll, w1), u_eval)
                for _, roll in self.outcomes(kept)
            ]
            return Fraction(sum(vals), len(vals))

        start = (None,) * self.n
        vals = [e2(self.best_extra(start, roll, w2)) for _, roll in self.outcomes(start)]
        return Fraction(sum(vals), len(vals))

    def fixed_policy_value(self, policy, u) -> Fraction:
        """First roll: keep policy(dice); later rolls with set-aside A: keep, per die kind and
        face, as many as the larger of A's count and policy's count on all dice."""
        start = (None,) * self.n

        def keep_after(kept, roll):
            pick = policy(self.faces(roll))
            want = Counter(self.key(tuple(s if p else None for s, p in zip(roll, pick))))
            new = list(kept)
            have = Counter(self.key(kept))
            for i in range(self.n):
                if kept[i] is None:
                    k = (self.kind[i], str(self.dice[i].faces[roll[i]]))
                    if want[k] > have[k]:
                        new[i] = roll[i]
                        have[k] += 1
            return tuple(new)

        total = Fraction(0)
        n0 = 0
        for _, roll in self.outcomes(start):
            first = tuple(s if p else None for s, p in zip(roll, policy(self.faces(roll))))
            vals = [self.final(keep_after(first, r2), u) for _, r2 in self.outcomes(first)]
            total += Fraction(sum(vals), len(vals))
            n0 += 1
        return total / n0


def finals_of(space, utility):
    return np.array(
        [
            utility([space.projection.representative(k) for _, k in space.faces_of(int(g))])
            for g in space.full_ids
        ],
        dtype=np.int64,
    )


def holds_of(space, policy):
    """The hold id chosen by ``policy`` (on faces) for every roll state."""
    out = []
    for g in space.full_ids:
        tf = space.faces_of(int(g))
        pick = policy([space.projection.representative(k) for _, k in tf])
        per_type = [[0] * len(t.faces) for t in space.types]
        for (t, k), p in zip(tf, pick):
            if p:
                per_type[t][space.types[t].faces.index(k)] += 1
        out.append(space.state_id(per_type))
    return np.array(out, dtype=np.int64)


@pytest.mark.parametrize("seeds", [(1, 2), (3, 3)])
def test_optimal_policy_evaluation_equals_brute_force(seeds):
    u_opt, u_eval = random_utility(seeds[0]), random_utility(seeds[1])
    space = StateSpace.build(SMALL, FULL)
    sol = solve_utility(space, finals_of(space, u_opt), STICKY)
    got = policy.evaluate_sticky_optimal_policy(sol, finals_of(space, u_eval))
    assert got == StickyBrute(SMALL).optimal_policy_value(u_opt, u_eval)
    if seeds[0] == seeds[1]:
        assert got == sol.value()


def test_greedy_like_policy_evaluation_equals_brute_force():
    u = random_utility(5)
    space = StateSpace.build(SMALL, FULL)
    got = policy.evaluate_sticky_greedy(
        space, finals_of(space, u), holds_of(space, mode_value_hold), 3
    )
    assert got == StickyBrute(SMALL).fixed_policy_value(mode_value_hold, u)


def test_chunked_layer_equals_one_chunk():
    # a small chunk budget makes the layer split the pair space by the set-aside dice
    space = StateSpace.build(DEFAULT_LAYOUT, VALUE)
    fin = utility_from_scores(final_scores(PHASES[9], space, Rules()), "score")
    N1 = normalise(space, expect_rerolls(space, fin))
    rank = hold_ranks(space, [N1])
    whole, comp_whole = sticky.sticky_layer(space, rank, [N1, N1 % 7])
    assert np.array_equal(sticky.sticky_layer(space, rank, [N1])[0], whole)
    prs = [sticky._pairs_of(t) for t in space.types]
    assert len(list(sticky._chunks(prs, 2_000_000))) > 3
    part, comp_part = sticky.sticky_layer(space, rank, [N1, N1 % 7], budget=2_000_000)
    assert np.array_equal(whole, part) and np.array_equal(comp_whole, comp_part)


def test_python_integers_give_the_same_numbers():
    space = StateSpace.build(REDUCED, FULL)
    N = normalise(space, expect_rerolls(space, finals_of(space, random_utility(7))))
    rank = hold_ranks(space, [N])
    (ref,) = sticky.sticky_layer(space, rank, [N])
    assert len(list(sticky._chunks([sticky._pairs_of(t) for t in space.types], 2000))) > 3
    (obj,) = sticky.sticky_layer(
        space, hold_ranks(space, [N.astype(object)]), [N.astype(object)], budget=2000
    )
    assert obj.dtype == object and list(obj) == [int(x) for x in ref]


def test_too_many_pairs_are_refused(monkeypatch):
    space = StateSpace.build(REDUCED, FULL)
    n = sticky.sticky_pairs(space)
    monkeypatch.setattr(engine, "MAX_STICKY_PAIRS", n - 1)
    with pytest.raises(StateSpaceTooLargeError, match=f"{n:,}"):
        solve_utility(space, finals_of(space, random_utility(0)), STICKY)
    solve_utility(space, finals_of(space, random_utility(0)), Rules())  # free holds still run


@pytest.mark.parametrize("n", [1, 9])
def test_phase_policies_are_bounded_by_the_optimum(n):
    rules = Rules(holds="sticky")
    comp = solve_turn(n, "complete", rules)
    score = solve_turn(n, "score", rules)
    row = phase_row(n, rules)
    p_opt = comp.value()
    assert 0 < row["p_greedy"] <= p_opt and 0 < row["p_score_policy"] <= p_opt
    assert p_opt <= solve_turn(n, "complete", Rules()).value()
    # a policy scored on its own utility is worth exactly the optimum (ties or not), and on
    # the other utility exactly its second key (the lexicographic dynamic program, checked
    # by a separate evaluation of the policy)
    sp = comp.space
    fin = utility_from_scores(final_scores(PHASES[n], sp, rules), "complete")
    sfin = utility_from_scores(final_scores(PHASES[n], score.space, rules), "score")
    assert policy.evaluate_sticky_optimal_policy(comp, fin) == p_opt
    assert policy.evaluate_sticky_optimal_policy(comp, sfin) == comp.value2()
    assert policy.evaluate_sticky_optimal_policy(score, sfin) == score.value()
    assert policy.evaluate_sticky_optimal_policy(score, fin) == score.value2()
    assert row["p_score_policy"] == score.value2()
