"""The two-player solver against an exact rational brute force on a reduced game, and against
seeded games on physical dice through the game engine.

The brute force knows nothing of the solver: it plays the reduced game on its own dice model
(ordered sides of three dice), scores sets by its own rule, keeps both absolute totals (no
reduction to bonus classes and differences) and solves each "both fail" pair exactly by
policy iteration in Fractions.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from phase10math.dice.faces import Die, parse_faces
from phase10math.dice.phases import parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidRulesError
from phase10math.game.duel import DuelGame, Play, solve_duel
from phase10math.turn.batch import TurnBatch

# ------------------------------------------------------------------ the reduced game
SIDES = (5, 5, 6, 6, 0, 0)  # value of each side (0 = W) of each of the three dice
N_DICE = 3
SET_SIZE = {5: 2, 6: 3}  # phase 5: a set of 2; phase 6: a set of 3
LO, HI = 5, 6
THRESHOLD, BONUS5, FINISH = 10, 5, 3
RULES = Rules(five_phase_threshold=THRESHOLD, five_phase_bonus=BONUS5, first_finish_bonus=FINISH)


def reduced_game() -> DuelGame:
    die = Die("low", parse_faces("5r 5o 6b 6g Wr Wo"))
    phases = {5: parse_phase("1 set of 2"), 6: parse_phase("1 set of 3")}
    return DuelGame(phases, RULES, (die,) * N_DICE)


def set_score(k: int, faces: tuple[int, ...]) -> int | None:
    """Best score of a set of ``k`` (W stands in, scores 0), None when not made."""
    wild = faces.count(0)
    best = 0 if wild >= k else None
    for v in (5, 6):
        n = faces.count(v)
        if n + wild >= k:
            s = v * min(n, k)
            best = s if best is None else max(best, s)
    return best


def outcomes(k: int) -> list[int | None]:
    found = {set_score(SET_SIZE[k], f) for f in itertools.product(set(SIDES), repeat=N_DICE)}
    return [None] + sorted(s for s in found if s is not None)


@cache
def transitions(kept: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every equally likely final tuple (sorted) after rolling the dice not kept."""
    m = N_DICE - len(kept)
    return tuple(tuple(sorted(kept + r)) for r in itertools.product(SIDES, repeat=m))


def sub_holds(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(sorted(c)) for n in range(len(roll) + 1) for c in itertools.combinations(roll, n)}


def exact_turn(k: int, U: dict) -> tuple[Fraction, dict]:
    """The optimal turn for utility ``U`` (outcome -> Fraction): its value and the outcome
    distribution of an optimal policy."""
    outs = outcomes(k)

    def final(f):
        o = set_score(SET_SIZE[k], f)
        return U[o], {o: Fraction(1)}

    @cache
    def hold_value(kept, rolls_left):
        tot, dist = Fraction(0), {}
        ts = transitions(kept)
        for f in ts:
            v, d = roll_value(f, rolls_left)
            tot += v
            for o, p in d.items():
                dist[o] = dist.get(o, 0) + p
        n = len(ts)
        return tot / n, {o: p / n for o, p in dist.items()}

    @cache
    def roll_value(f, rolls_left):
        if rolls_left == 0:
            return final(f)
        best = None
        for kept in sorted(sub_holds(f), key=len, reverse=True):
            v = hold_value(kept, rolls_left - 1) if len(kept) < N_DICE else roll_value(f, 0)
            if best is None or v[0] > best[0]:
                best = v
        return best

    v, d = hold_value((), RULES.rolls - 1)
    assert set(d) <= set(outs)
    return v, d


def cmp(d: int) -> Fraction:
    return Fraction(1) if d > 0 else (Fraction(1, 2) if d == 0 else Fraction(0))


def gain(k: int, total: int, x: int) -> int:
    return x + (BONUS5 if k == 5 and total + x > THRESHOLD else 0)


@cache
def last_chance(k: int, total: int, finisher: int, elig: bool) -> Fraction:
    """The chaser's P(win) + P(tie)/2 with absolute totals."""
    U = {None: cmp(total - finisher)}
    for x in outcomes(k)[1:]:
        t2 = total + gain(k, total, x)
        if k == HI:
            U[x] = cmp(t2 + (FINISH if elig else 0) - finisher)
        else:
            U[x] = last_chance(k + 1, t2, finisher, elig)
    return exact_turn(k, U)[0]


SOLVED: dict = {}


def made_utility(s, ka, ta, kb, tb) -> dict:
    U = {}
    for x in outcomes(ka)[1:]:
        t2 = ta + gain(ka, ta, x)
        if ka == HI:
            U[x] = 1 - last_chance(kb, tb, t2 + FINISH, s == 0)
        else:
            U[x] = 1 - duel_value(1 - s, kb, tb, ka + 1, t2)
    return U


def duel_value(s, ka, ta, kb, tb) -> Fraction:
    """The mover's P(win) + P(tie)/2, unreduced states; each pair solved exactly."""
    key = (s, ka, ta, kb, tb)
    if key in SOLVED:
        return SOLVED[key]
    part = (1 - s, kb, tb, ka, ta)
    U0, U1 = made_utility(*key), made_utility(*part)
    x = y = Fraction(1, 2)
    for _ in range(50):
        v0, d0 = exact_turn(ka, {**U0, None: 1 - y})
        v1, d1 = exact_turn(kb, {**U1, None: 1 - x})
        if v0 == x and v1 == y:
            break
        p, q = d0.get(None, 0), d1.get(None, 0)
        A = sum(pr * U0[o] for o, pr in d0.items() if o is not None)
        B = sum(pr * U1[o] for o, pr in d1.items() if o is not None)
        x = (A + p * (1 - B) - p * q) / (1 - p * q)
        y = q * (1 - x) + B
    else:
        raise AssertionError("exact policy iteration did not converge")
    SOLVED[key], SOLVED[part] = x, y
    return x


# ------------------------------------------------------------------ tests


@pytest.fixture(scope="module")
def reduced_solution():
    return solve_duel(reduced_game())


def test_reduced_game_equals_brute_force(reduced_solution):
    sol, g = reduced_solution, reduced_solution.game
    starts = [(0, 0), (11, 3), (4, 9), (0, 10), (12, 12)]
    worst = 0.0
    for ta, tb in starts:
        duel_value(0, LO, ta, LO, tb)
    assert len(SOLVED) > 100  # the brute force visited many unreduced states
    for (s, ka, ta, kb, tb), exact in SOLVED.items():
        got = sol.value(g.key_of(s, (ka, ta), (kb, tb)))[0]
        worst = max(worst, abs(got - float(exact)))
    assert worst <= 1e-12
    assert sol.bound <= 1e-10
    # the certified bound covers the difference, and the last chances agree too
    for (k, t, f, e), exact in list(last_chance.cache_info() and _last_items()):
        got = sol.last_value(Play.OPTIMAL, g.player(k, t), t - f, int(e))[0]
        assert abs(got - float(exact)) <= 1e-12


def _last_items():
    # lru_cache keeps no public item list; recompute the chaser states the duel visited
    items = []
    for s, ka, ta, kb, tb in list(SOLVED):
        if ka != HI:
            continue
        for x in outcomes(ka)[1:]:
            f = ta + gain(ka, ta, x) + FINISH
            items.append(((kb, tb, f, s == 0), last_chance(kb, tb, f, s == 0)))
    return items


def test_batched_turn_equals_exact_turn():
    g = reduced_game()
    rng = np.random.default_rng(5)
    for k in (5, 6):
        tb = g.turns[k]
        outs = outcomes(k)
        assert [int(x) for x in tb.scores] == outs[1:]
        U = rng.integers(-30, 30, size=(6, tb.n_outcomes))
        res = tb.solve(U.astype(float))
        for b in range(6):
            v, d = exact_turn(k, {o: Fraction(int(u)) for o, u in zip(outs, U[b])})
            assert abs(res.values[b] - float(v)) <= res.margin[b]
            assert abs(res.values[b] - float(v)) <= 1e-12
            # the distribution found is that of an optimal policy: its mean is the value
            assert abs(res.dist[b] @ U[b] - float(v)) <= 1e-12


def test_color_phase_is_refused():
    with pytest.raises(InvalidRulesError, match="color"):
        DuelGame.standard(8, 10)


def test_batched_value_matches_the_kits_exact_solver():
    from phase10math.dice.phases import PHASES
    from phase10math.turn.solver import solve_utility

    tb = TurnBatch.for_phase(PHASES[9])
    rng = np.random.default_rng(3)
    U = rng.integers(0, 1000, size=(3, tb.n_outcomes))
    res = tb.solve(U.astype(float))
    for b in range(3):
        exact = solve_utility(tb.space, U[b, tb.outcome]).value()
        assert abs(res.values[b] - float(exact)) <= res.margin[b]
    assert math.isclose(res.dist.sum(axis=1).max(), 1.0, rel_tol=0, abs_tol=1e-12)


def test_killed_solve_resumes(tmp_path, monkeypatch, reduced_solution):
    import phase10math.game.duel as duel

    ck = tmp_path / "duel.ck"
    real = duel._solve_layer
    calls = {"n": 0}

    def dies_after_one(*args):
        calls["n"] += 1
        if calls["n"] > 1:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(duel, "_solve_layer", dies_after_one)
    with pytest.raises(KeyboardInterrupt):
        solve_duel(reduced_game(), checkpoint=ck)
    monkeypatch.setattr(duel, "_solve_layer", real)
    done_before = len(duel.Checkpoint(ck).load(reduced_game()).layers_done)
    assert 0 < done_before < 5
    again = solve_duel(reduced_game(), checkpoint=ck)
    key = again.game.start()
    assert again.value(key) == reduced_solution.value(key)
    assert again.values == reduced_solution.values


def test_checkpoint_of_another_game_is_refused(tmp_path, reduced_solution):
    import phase10math.game.duel as duel

    ck = tmp_path / "duel.ck"
    duel.Checkpoint(ck).save(reduced_solution)
    other = DuelGame(
        reduced_game().phases, RULES.replace(first_finish_bonus=4), reduced_game().dice
    )
    with pytest.raises(InvalidRulesError, match="another game"):
        solve_duel(other, checkpoint=ck)
