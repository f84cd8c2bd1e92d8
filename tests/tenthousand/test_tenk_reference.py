"""The 10,000 solvers against an independent brute force.

The reference below scores a set-aside by searching all ways to split it into scoring groups
(at most one group of three or more per face), enumerates ordered rolls (6**n of them) and
subsets of dice positions, and solves turns and duels by plain recursion / value iteration
over dicts. It shares no code with the package apart from the rules value.
"""

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from phase10math.tenthousand import TenKRules, roll_stats, solve_turn
from phase10math.tenthousand.duel import solve_duel

SINGLE = {1: 100, 5: 50}


def triple(f):
    return 1000 if f == 1 else 100 * f


@cache
def ref_points(kept, rules):
    """Most points for setting aside exactly ``kept`` (a sorted tuple), None if not allowed."""
    best = None
    if len(kept) == 6 and rules.dice == 6:
        if rules.straight and kept == (1, 2, 3, 4, 5, 6):
            best = rules.straight
        c = Counter(kept)
        if rules.three_pairs and sorted(c.values()) == [2, 2, 2]:
            best = max(best or 0, rules.three_pairs)

    def search(rest, used_kind):
        if not rest:
            return 0
        f = rest[0]
        n_f = rest.count(f)
        out = None
        cands = []
        if f in SINGLE:
            cands.append((1, SINGLE[f]))
        if f not in used_kind and n_f >= 3:
            cands.append((3, triple(f)))
            for k in range(4, n_f + 1):
                if rules.extra_of_a_kind == "double":
                    cands.append((k, triple(f) * 2 ** (k - 3)))
                elif rules.extra_of_a_kind == "add":
                    cands.append((k, triple(f) * (k - 2)))
        for k, pts in cands:
            sub = search(rest[k:], used_kind | ({f} if k >= 3 else set()))
            if sub is not None and (out is None or pts + sub > out):
                out = pts + sub
        return out

    s = search(kept, frozenset())
    if s is not None:
        best = max(best or 0, s)
    return best


def ref_roll(roll, rules):
    """('bust'|'wipe'|'six'|'score', {(points, dice_left)}) for an ordered roll."""
    if rules.six_wins and len(roll) == 6 and len(set(roll)) == 1:
        six = True
    else:
        six = False
    if rules.wipe and roll.count(2) >= 4 and not six:
        return "wipe", set()
    opts = set()
    for r in range(1, len(roll) + 1):
        for pos in itertools.combinations(range(len(roll)), r):
            kept = tuple(sorted(roll[i] for i in pos))
            pts = ref_points(kept, rules)
            if pts:
                opts.add((pts, len(roll) - r))
    if six:
        return "six", opts
    return ("score" if opts else "bust"), opts


@cache
def ref_sorted_roll(roll, rules):
    kind, opts = ref_roll(roll, rules)
    return kind, frozenset(opts)


def ref_table(n, rules):
    """Counter of (kind, frozenset(options)) over the 6**n ordered rolls."""
    return _ref_table(n, rules.replace(target=10000, open_score=0))


@cache
def _ref_table(n, rules):
    return Counter(
        ref_sorted_roll(tuple(sorted(r)), rules) for r in itertools.product(range(1, 7), repeat=n)
    )


def ref_turn(rules, cap, on_board=True):
    """V(T, n) by recursion; banking is forced only at T >= cap (a generous cap)."""
    D = rules.dice

    @cache
    def V(T, n):
        bank = T if on_board or T >= rules.open_score else 0
        if T >= cap:
            return Fraction(bank)
        total = Fraction(0)
        for (kind, opts), w in ref_table(n, rules).items():
            if kind in ("score", "six"):
                total += w * max(V(T + p, m or D) for p, m in opts)
        return max(Fraction(bank), total / 6**n)

    return V


# --- single-roll odds -----------------------------------------------------------------------


def test_roll_stats_by_counting():
    rules = TenKRules(wipe=False)
    for n in range(1, 7):
        table = ref_table(n, rules)
        bust = sum(w for (k, _), w in table.items() if k == "bust")
        best = sum(w * max(p for p, _ in o) for (k, o), w in table.items() if o)
        s = roll_stats(n, rules)
        assert s.p_no_score == Fraction(bust, 6**n)
        assert s.expected_best == Fraction(best, 6**n)


def test_roll_stats_hand_worked():
    # 1 die: 4 faces of 6 do not score; 2 dice: both in {2,3,4,6}; 3 dice: 4**3 minus 4 triples
    assert [roll_stats(n).p_no_score for n in (1, 2, 3)] == [
        Fraction(4, 6),
        Fraction(16, 36),
        Fraction(60, 216),
    ]
    # 1 die: (100 + 50) / 6; 2 dice: E[sum of singles] as no 2-dice roll has anything else
    assert roll_stats(1).expected_best == 25
    assert roll_stats(2).expected_best == 50
    # wipe with 4 dice: only 2,2,2,2
    assert roll_stats(4).p_wipe == Fraction(1, 6**4)
    assert roll_stats(6).p_six_of_a_kind == Fraction(6, 6**6)


# --- optimal turn ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, on_board, cap",
    [
        (TenKRules(dice=1), True, 1000),
        (TenKRules(dice=2), True, 1500),
        (TenKRules(dice=3), True, 1500),
        (TenKRules(dice=3, open_score=350), False, 1500),
        (TenKRules(dice=3, extra_of_a_kind="double"), True, 1500),
        (TenKRules(dice=4), True, 1500),
    ],
)
def test_turn_values_equal_brute_force(rules, on_board, cap):
    sol = solve_turn(rules, on_board=on_board)
    assert sol.cap < cap  # the brute force may roll on well past the proven cap
    V = ref_turn(rules, cap, on_board)
    for T in range(0, cap, 50):
        for n in range(1, rules.dice + 1):
            assert sol.value(T, n) == V(T, n), (T, n)


def test_bellman_equation_holds_for_six_dice():
    """Full game: each sampled state's roll value from the 6**n ordered rolls and the solver's
    values of the successor states (checks the 6-dice scoring and the recursion). One turn
    ignores six-of-a-kind-wins (it is a game-level rule)."""
    rules = TenKRules(six_wins=False)
    sol = solve_turn(rules)
    for T in (0, 300, 1000, 2750, sol.cap - 50, sol.cap + 500):
        for n in (1, 3, 5, 6):
            total = Fraction(0)
            for (kind, opts), w in ref_table(n, rules).items():
                if kind in ("score", "six"):
                    total += w * max(sol.value(T + p, m or 6) for p, m in opts)
            assert sol.roll_value(T, n) == total / 6**n
            assert sol.value(T, n) == max(Fraction(T), total / 6**n)


def test_banking_proven_beyond_cap():
    for rules in (TenKRules(), TenKRules(wipe=False), TenKRules(extra_of_a_kind="add")):
        sol = solve_turn(rules)
        assert sol.cap >= sol.bound
        for n in range(1, 7):
            # just above the cap the one-roll gain is negative: bank
            assert sol.roll_value(sol.cap, n) < sol.cap
        th = sol.thresholds()
        for n in range(1, 7):
            assert sol.roll_region(n) == list(range(0, th[n], 50))


def test_opening_rule_effect():
    rules = TenKRules(open_score=500)
    on, off = solve_turn(rules, True), solve_turn(rules, False)
    assert off.value(0, 6) < on.value(0, 6)
    for n in range(1, 7):
        assert off.value(500, n) == on.value(500, n)
        assert off.value(450, n) <= on.value(450, n)
        assert off.should_roll(450, n)  # below the opening, stopping banks nothing


# --- duel -----------------------------------------------------------------------------------


def ref_duel(rules, tol=1e-13):
    """Turn-start chances P[(a, b)] by Gauss-Seidel value iteration over all states."""
    U, D, op = rules.target // 50, rules.dice, rules.open_score // 50
    P = {(a, b): 0.5 for a in range(U) for b in range(U)}
    tables = {n: ref_table(n, rules) for n in range(1, D + 1)}

    def state(a, b, t, n):
        if a + t >= U:
            return 1.0
        total = 0.0
        for (kind, opts), w in tables[n].items():
            if kind == "six":
                v = 1.0
            elif kind == "wipe":
                v = 1.0 - P[(b, 0)]
            elif kind == "bust":
                v = 1.0 - P[(b, a)]
            else:
                v = max(cont(a, b, t + p // 50, m or D) for p, m in opts)
            total += w * v
        return total / 6**n

    @cache
    def cont(a, b, t, n):
        if a + t >= U:
            return 1.0
        bank = 1.0 - P[(b, a)] if (a == 0 and t < op) else 1.0 - P[(b, a + t)]
        return max(bank, state(a, b, t, n))

    while True:
        change = 0.0
        for key in sorted(P, key=lambda k: -(k[0] + k[1])):
            cont.cache_clear()
            new = state(key[0], key[1], 0, D)
            change = max(change, abs(new - P[key]))
            P[key] = new
        if change < tol:
            return P


@pytest.mark.parametrize(
    "rules",
    [
        TenKRules(dice=2, target=400),
        TenKRules(dice=3, target=450, open_score=150),
        TenKRules(dice=4, target=300),  # four 2s wipe
        TenKRules(dice=6, target=100),  # straight, pairs, six of a kind wins
    ],
)
def test_duel_equals_brute_force(rules):
    ref = ref_duel(rules)
    sol = solve_duel(rules, tol=1e-12, progress=False, use_cache=False)
    U = rules.target // 50
    got = np.array([[ref[(a, b)] for b in range(U)] for a in range(U)])
    assert np.max(np.abs(sol.P - got)) < 1e-9


@pytest.mark.parametrize(
    "rules",
    [
        TenKRules(target=500),  # six dice, every default rule (wipes, six of a kind wins)
        TenKRules(target=400, open_score=200),
    ],
)
def test_proven_interval_holds_the_brute_force(rules):
    """Every turn-start chance of the long reference iteration lies in the proven interval
    (the reference stops at a change below 1e-14, so 1e-12 of slack covers its own error)."""
    ref = ref_duel(rules, tol=1e-14)
    sol = solve_duel(rules, progress=False, use_cache=False)
    U = rules.target // 50
    got = np.array([[ref[(a, b)] for b in range(U)] for a in range(U)])
    assert np.all(sol.lower - 1e-12 <= got) and np.all(got <= sol.upper + 1e-12)
    assert np.max(sol.upper - sol.lower) < 1e-9
    lo, hi = sol.interval
    assert lo <= ref[(0, 0)] + 1e-12 and ref[(0, 0)] - 1e-12 <= hi


def test_duel_one_die_by_hand():
    """One die, target 100. A 1 wins at once; a 5 makes 50 with hot dice (one fresh die).
    If the player then rolls on (2/6 to win, else the opponent starts at 0-0),
    q = 2/6 + 4/6 (1 - p) and p = 1/6 + q/6 + 4/6 (1 - p), so p = 36/64 = 9/16."""
    rules = TenKRules(dice=1, target=100)
    sol = solve_duel(rules, tol=1e-14, progress=False, use_cache=False)
    assert sol.should_roll(0, 0, 50, 1)
    assert sol.first_player_wins == pytest.approx(9 / 16, abs=1e-12)
