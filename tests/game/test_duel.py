"""The two-player solver against an exact rational brute force on a reduced game, and against
seeded games on physical dice through the game engine.

The brute force knows nothing of the solver: it plays the reduced game on its own dice model
(ordered sides of three dice), scores sets by its own rule, keeps both absolute totals (no
reduction to bonus classes and differences) and solves each "both fail" pair exactly by
policy iteration in Fractions.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
import sys
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from phase10math._base.savefile import read_safe
from phase10math.dice.faces import Die, parse_faces
from phase10math.dice.phases import parse_phase
from phase10math.dice.rules import Rules
from phase10math.errors import InvalidRulesError, OutsideTableError
from phase10math.game import duel as duel_module
from phase10math.game.duel import (
    DuelGame,
    Play,
    chance_to_win,
    color_reason,
    fingerprint,
    seed_families,
    solve_duel,
    visits,
)
from phase10math.turn.batch import TurnBatch
from phase10math.turn.family import TensorFamily, TurnFamily
from phase10math.turn.tensor.memory import heap_is_held

# ------------------------------------------------------------------ the reduced games
N_DICE = 3
LO, HI = 5, 6
THRESHOLD, BONUS5, FINISH = 10, 5, 3
RULES = Rules(five_phase_threshold=THRESHOLD, five_phase_bonus=BONUS5, first_finish_bonus=FINISH)
FACES = "5r 5o 6b 6g Wr Wo"  # each of the three dice
SIDES = ((5, "r"), (5, "o"), (6, "b"), (6, "g"), (0, "r"), (0, "o"))  # (value, color); 0 = W


def reduced_game(
    phase5: str = "1 set of 2", turns: dict | None = None, reachable: bool | None = None
) -> DuelGame:
    die = Die("low", parse_faces(FACES))
    phases = {5: parse_phase(phase5), 6: parse_phase("1 set of 3")}
    return DuelGame(phases, RULES, (die,) * N_DICE, turns=dict(turns or {}), reachable=reachable)


def set_score(k: int, faces) -> int | None:
    """Best score of a set of ``k`` (W stands in, scores 0), None when not made."""
    values = [v for v, _ in faces]
    wild = values.count(0)
    best = 0 if wild >= k else None
    for v in set(values) - {0}:
        n = values.count(v)
        if n + wild >= k:
            s = v * min(n, k)
            best = s if best is None else max(best, s)
    return best


def color_score(k: int, faces) -> int | None:
    """Best score of ``k`` dice of one color (a W counts in its own color, scoring 0)."""
    best = None
    for c in "robg":
        vals = sorted((v for v, col in faces if col == c), reverse=True)
        if len(vals) >= k:
            best = max(best or 0, sum(vals[:k]))
    return best


class BruteForce:
    """The reduced game played on its own dice model (ordered sides of three dice), scored by
    its own rules, with both absolute totals (no bonus classes, no differences), each "both
    fail" pair solved exactly by policy iteration in Fractions. ``scorers[k]``: the score of
    the final faces at phase ``k`` (None: not made)."""

    def __init__(self, scorers, dice: tuple | None = None, bonus: bool = True):
        self.scorers = scorers
        self.hi = max(scorers)  # the last phase
        self.bonus = bonus  # the five-phase bonus (False: a game without phase 5)
        # the sides of each die; alike dice: rolls as sorted tuples of sides, else a side
        # per die in die order and holds as (die, side) pairs
        self.dice = dice or (SIDES,) * N_DICE
        self.alike = len(set(self.dice)) == 1
        self.solved: dict = {}
        self.turns: dict = {}
        self.chances: dict = {}
        self.moves: dict = {}

    def score(self, k, faces):
        return self.scorers[k](faces)

    def gain(self, k: int, total: int, x: int) -> int:
        return x + (BONUS5 if self.bonus and k == 5 and total + x > THRESHOLD else 0)

    def outcomes(self, k: int) -> list[int | None]:
        found = {self.score(k, f) for f in itertools.product(*self.dice)}
        return [None] + sorted(s for s in found if s is not None)

    def transitions(self, kept: tuple) -> tuple[tuple, ...]:
        """Every equally likely final roll after rolling the dice not kept."""
        if kept not in self.moves:
            if self.alike:
                m = len(self.dice) - len(kept)
                rolls = itertools.product(self.dice[0], repeat=m)
                self.moves[kept] = tuple(tuple(sorted(kept + r)) for r in rolls)
            else:
                held = dict(kept)
                free = [d for d in range(len(self.dice)) if d not in held]
                out = []
                for r in itertools.product(*(self.dice[d] for d in free)):
                    side = {**held, **dict(zip(free, r))}
                    out.append(tuple(side[d] for d in range(len(self.dice))))
                self.moves[kept] = tuple(out)
        return self.moves[kept]

    def holds_of(self, f: tuple) -> set[tuple]:
        """Every hold of the roll ``f``."""
        n = len(f)
        if self.alike:
            return {tuple(sorted(c)) for m in range(n + 1) for c in itertools.combinations(f, m)}
        return {
            tuple((d, f[d]) for d in c)
            for m in range(n + 1)
            for c in itertools.combinations(range(n), m)
        }

    def exact_turn(self, k: int, U: dict) -> tuple[Fraction, dict]:
        """The optimal turn for utility ``U`` (outcome -> Fraction): its value and the outcome
        distribution of an optimal policy."""
        memo_key = (k, tuple(sorted(U.items(), key=lambda kv: (kv[0] is not None, kv[0] or 0))))
        if memo_key in self.turns:
            return self.turns[memo_key]

        @cache
        def hold_value(kept, rolls_left):
            tot, dist = Fraction(0), {}
            ts = self.transitions(kept)
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
                o = self.score(k, f)
                return U[o], {o: Fraction(1)}
            best = None
            for kept in sorted(self.holds_of(f), key=len, reverse=True):
                v = hold_value(kept, rolls_left - 1) if len(kept) < len(f) else roll_value(f, 0)
                if best is None or v[0] > best[0]:
                    best = v
            return best

        out = hold_value((), RULES.rolls - 1)
        assert set(out[1]) <= set(self.outcomes(k))
        self.turns[memo_key] = out
        return out

    def last_chance(self, k: int, total: int, finisher: int, elig: bool) -> Fraction:
        """The chaser's P(win) + P(tie)/2 with absolute totals."""
        key = (k, total, finisher, elig)
        if key not in self.chances:
            U = {None: cmp(total - finisher)}
            for x in self.outcomes(k)[1:]:
                t2 = total + self.gain(k, total, x)
                if k == self.hi:
                    U[x] = cmp(t2 + (FINISH if elig else 0) - finisher)
                else:
                    U[x] = self.last_chance(k + 1, t2, finisher, elig)
            self.chances[key] = self.exact_turn(k, U)[0]
        return self.chances[key]

    def made_utility(self, s, ka, ta, kb, tb) -> dict:
        U = {}
        for x in self.outcomes(ka)[1:]:
            t2 = ta + self.gain(ka, ta, x)
            if ka == self.hi:
                U[x] = 1 - self.last_chance(kb, tb, t2 + FINISH, s == 0)
            else:
                U[x] = 1 - self.duel_value(1 - s, kb, tb, ka + 1, t2)
        return U

    def duel_value(self, s, ka, ta, kb, tb) -> Fraction:
        """The mover's P(win) + P(tie)/2, unreduced states; each pair solved exactly."""
        key = (s, ka, ta, kb, tb)
        if key in self.solved:
            return self.solved[key]
        part = (1 - s, kb, tb, ka, ta)
        U0, U1 = self.made_utility(*key), self.made_utility(*part)
        x = y = Fraction(1, 2)
        for _ in range(50):
            v0, d0 = self.exact_turn(ka, {**U0, None: 1 - y})
            v1, d1 = self.exact_turn(kb, {**U1, None: 1 - x})
            if v0 == x and v1 == y:
                break
            p, q = d0.get(None, 0), d1.get(None, 0)
            A = sum(pr * U0[o] for o, pr in d0.items() if o is not None)
            B = sum(pr * U1[o] for o, pr in d1.items() if o is not None)
            x = (A + p * (1 - B) - p * q) / (1 - p * q)
            y = q * (1 - x) + B
        else:
            raise AssertionError("exact policy iteration did not converge")
        self.solved[key], self.solved[part] = x, y
        return x


def cmp(d: int) -> Fraction:
    return Fraction(1) if d > 0 else (Fraction(1, 2) if d == 0 else Fraction(0))


SETS = BruteForce({5: lambda f: set_score(2, f), 6: lambda f: set_score(3, f)})
COLORS = BruteForce({5: lambda f: color_score(2, f), 6: lambda f: set_score(3, f)})
STARTS = [(0, 0), (11, 3), (4, 9), (0, 10), (12, 12)]


def worst_difference(sol, brute: BruteForce) -> float:
    """The largest difference between the solution and the brute force over the states the
    brute force visits from ``STARTS`` (normal play and last chances)."""
    g = sol.game
    for ta, tb in STARTS:
        brute.duel_value(0, LO, ta, LO, tb)
    assert len(brute.solved) > 100  # the brute force visited many unreduced states
    worst = 0.0
    for (s, ka, ta, kb, tb), exact in brute.solved.items():
        got = sol.value(g.key_of(s, (ka, ta), (kb, tb)))[0]
        worst = max(worst, abs(got - float(exact)))
    for (k, t, f, e), exact in brute.chances.items():
        got = sol.last_value(Play.OPTIMAL, g.player(k, t), t - f, int(e))[0]
        worst = max(worst, abs(got - float(exact)))
    assert brute.chances  # the last chances were visited too
    return worst


# ------------------------------------------------------------------ tests


@pytest.fixture(scope="module")
def reduced_solution():
    return solve_duel(reduced_game())


def test_reduced_game_equals_brute_force(reduced_solution):
    assert worst_difference(reduced_solution, SETS) <= 1e-12
    assert reduced_solution.bound <= 1e-10


def test_a_game_from_its_start_keeps_only_the_states_it_can_reach(reduced_solution):
    sol = solve_duel(reduced_game(reachable=True))
    g, opt = sol.game, (Play.OPTIMAL, Play.OPTIMAL)
    assert len(sol.values[opt]) < len(reduced_solution.values[opt]) / 2
    # every state the brute force visits from the start (0, 0) is in the table, equal to it
    brute = BruteForce(SETS.scorers)
    brute.duel_value(0, LO, 0, LO, 0)
    for (s, ka, ta, kb, tb), exact in brute.solved.items():
        assert abs(sol.value(g.key_of(s, (ka, ta), (kb, tb)))[0] - float(exact)) <= 1e-12
    for (k, t, f, e), exact in brute.chances.items():
        got = sol.last_value(Play.OPTIMAL, g.player(k, t), t - f, int(e))[0]
        assert abs(got - float(exact)) <= 1e-12
    # and every state of the table equals the table of all totals
    for key, (w, _) in sol.values[opt].items():
        assert abs(w - reduced_solution.values[opt][key][0]) <= 1e-12
    # a total no game from the start has is refused, with the range it could have
    least = min(SETS.outcomes(LO)[1:])
    with pytest.raises(OutsideTableError, match=f"cannot happen .* {least} to"):
        chance_to_win(sol, (HI, least - 1), (LO, 0))
    with pytest.raises(OutsideTableError, match="cannot happen"):
        g.start((3, 0))
    assert chance_to_win(sol, (HI, least), (LO, 0)) == sol.value(g.key_of(0, (HI, least), (LO, 0)))


def test_a_game_before_phase_5_has_no_five_phase_bonus_and_equals_brute_force():
    # phases 3-4: no player reaches phase 5, so no total ever earns its bonus
    die = Die("low", parse_faces(FACES))
    phases = {3: parse_phase("1 set of 2"), 4: parse_phase("1 set of 3")}
    game = DuelGame(phases, RULES, (die,) * N_DICE)
    sol = solve_duel(game)
    brute = BruteForce({3: lambda f: set_score(2, f), 4: lambda f: set_score(3, f)}, bonus=False)
    for ta, tb in [(0, 0), (11, 3), (4, 9)]:
        brute.duel_value(0, 3, ta, 3, tb)
    assert len(brute.solved) > 50 and brute.chances
    for (s, ka, ta, kb, tb), exact in brute.solved.items():
        assert abs(sol.value(game.key_of(s, (ka, ta), (kb, tb)))[0] - float(exact)) <= 1e-12
    for (k, t, f, e), exact in brute.chances.items():
        got = sol.last_value(Play.OPTIMAL, game.player(k, t), t - f, int(e))[0]
        assert abs(got - float(exact)) <= 1e-12


def test_policy_iterations_shortcuts_keep_the_brute_forces_values(monkeypatch):
    """A seed pair starts from the fixed point of per-turn policies (or from 1/2), and a
    pair one Newton step from a small residual checks its values alone first (or never):
    every way, the values equal the brute force's; the shortcuts do run."""
    value_only = {}
    for first, start in [(0.0, None), (math.inf, Play.COMPLETE), (1e-4, Play.SCORE)]:
        monkeypatch.setattr(duel_module.pair, "VALUE_FIRST_BELOW", first)
        monkeypatch.setattr(duel_module.pair, "SEED_START", start)
        calls = []
        solve_columns = duel_module.columns.solve_columns

        def spy(game, k, U, dist=True, margin=True, solve_columns=solve_columns, calls=calls):
            calls.append((dist, len(U)))
            return solve_columns(game, k, U, dist, margin)

        monkeypatch.setattr(duel_module.columns, "solve_columns", spy)
        sol = solve_duel(reduced_game())
        monkeypatch.setattr(duel_module.columns, "solve_columns", solve_columns)
        assert worst_difference(sol, SETS) <= 1e-12
        assert sol.bound <= 1e-10
        value_only[first] = sum(n for dist, n in calls if not dist)
    # the certificate's solves are without distributions too; the checks come on top
    assert value_only[math.inf] > value_only[0.0]


def test_chunks_and_threads_give_the_same_columns(monkeypatch):
    import phase10math.turn.batch as batch

    monkeypatch.setattr(batch, "THREAD_CELLS", 0)  # threads even for this small turn
    tb = reduced_game().turns[5]
    U = np.random.default_rng(2).random((9, tb.n_outcomes))
    U[4] = np.round(U[4] * 2) / 2  # exact ties
    one = tb.solve(U, keep_holds=True)
    for threads in ("1", "2"):
        monkeypatch.setenv("PHASE10MATH_THREADS", threads)
        part = tb.solve(U, keep_holds=True, step=2)
        assert np.array_equal(part.values, one.values) and np.array_equal(part.dist, one.dist)
        assert all(np.array_equal(part.holds[r], one.holds[r]) for r in one.holds)


def color_game(tol: float) -> DuelGame:
    """The reduced color game, its color phase a family refined to ``tol``."""
    die = Die("low", parse_faces(FACES))
    fam = TurnFamily.for_phase(parse_phase("2 of one color"), RULES, (die,) * N_DICE, tol=tol)
    return reduced_game("2 of one color", turns={5: fam})


@pytest.fixture(scope="module")
def color_solution():
    return solve_duel(color_game(1e-11))


def test_color_game_equals_brute_force(color_solution):
    fam = color_solution.game.turns[5]
    assert isinstance(fam, TurnFamily) and fam.exact_solves > 0
    assert worst_difference(color_solution, COLORS) <= 1e-11
    assert color_solution.bound <= 1e-10


LOW_DICE = ("1b 2g 3o 4g Wr Wo", "1r 2b 3g 4o Wb Wo", "1o 2r 3r 4b Wg Wb")  # recorded


def sides(text: str) -> tuple:
    """(value, color) of each face; W is 0."""
    return tuple((0 if t[0] == "W" else int(t[:-1]), t[-1]) for t in text.split())


DIFFERENT = BruteForce(
    {5: lambda f: color_score(2, f), 6: lambda f: set_score(3, f)},
    dice=tuple(sides(t) for t in LOW_DICE),
)


@pytest.fixture(scope="module")
def different_solution():
    """Three different dice (the recorded set's low dice): the color phase's family solves
    on the tensor engine, as the recorded set's ten dice do."""
    dice = tuple(Die("low", parse_faces(t)) for t in LOW_DICE)
    phases = {5: parse_phase("2 of one color"), 6: parse_phase("1 set of 3")}
    fam = TensorFamily.for_phase(phases[5], RULES, dice, tol=1e-8)
    lines: list[str] = []

    def log(line: str) -> None:  # each line says whether the run keeps the memory it frees
        lines.append(f"{line} (held heap: {heap_is_held()})")

    blocks: list[bool] = []  # each held_heap block the run enters: whether it took effect
    real = duel_module.solve.held_heap

    @contextlib.contextmanager
    def counted():
        with real() as held:
            blocks.append(held)
            yield held

    held_before = heap_is_held()  # the test run itself holds it (conftest.py)
    duel_module.solve.held_heap = counted
    try:
        sol = solve_duel(DuelGame(phases, RULES, dice, turns={5: fam}), target=1e-4, log=log)
    finally:
        duel_module.solve.held_heap = real
    assert heap_is_held() == held_before  # left as it was
    return sol, lines, blocks


def test_a_color_phase_on_different_dice_solved_on_the_tensor_engine_holds_the_brute_force(
    different_solution,
):
    """The start is certified to its target, and every state the brute force on those dice
    visits lies within its own error of the exact value."""
    sol, lines, blocks = different_solution
    g = sol.game
    assert isinstance(g.turns[5], TensorFamily) and g.turns[5].exact_solves > 0
    # its exact solves are costly: each pair is logged, and every logged count adds up
    found = (re.search(r"exact solves: (\d+) solved", ln) for ln in lines)
    solved = [int(m.group(1)) for m in found if m]
    assert solved and max(solved) <= g.turns[5].exact_solves
    # a costly run keeps the memory it frees for its next solves (glibc; Linux)
    assert blocks == [sys.platform.startswith("linux")]  # one block, for the whole run
    assert all(ln.endswith(f"(held heap: {blocks[0]})") for ln in lines)
    assert sol.error(g.start()) <= 1e-4
    DIFFERENT.duel_value(0, LO, 0, LO, 0)
    assert len(DIFFERENT.solved) > 100
    for (s, ka, ta, kb, tb), exact in DIFFERENT.solved.items():
        key = g.key_of(s, (ka, ta), (kb, tb))
        assert abs(sol.value(key)[0] - float(exact)) <= sol.error(key) + 1e-15


def test_a_game_whose_family_solves_values_first_holds_the_brute_force():
    """The same game with every exact solve trying the value alone first (no policy added
    where a kept one is within tol): some solves close so, and every state the brute force
    visits still lies within its own error of the exact value."""
    dice = tuple(Die("low", parse_faces(t)) for t in LOW_DICE)
    phases = {5: parse_phase("2 of one color"), 6: parse_phase("1 set of 3")}
    fam = TensorFamily.for_phase(phases[5], RULES, dice, tol=1e-8)
    fam.value_first = True
    sol = solve_duel(DuelGame(phases, RULES, dice, turns={5: fam}), target=1e-4)
    assert fam.value_solves > 0 and fam.size < len(fam.cuts)
    assert sol.error(sol.game.start()) <= 1e-4
    DIFFERENT.duel_value(0, LO, 0, LO, 0)
    for (s, ka, ta, kb, tb), exact in DIFFERENT.solved.items():
        key = sol.game.key_of(s, (ka, ta), (kb, tb))
        assert abs(sol.value(key)[0] - float(exact)) <= sol.error(key) + 1e-15


def test_the_tensor_familys_policies_play_the_solved_values(different_solution):
    """The holds a table gives at a color state on different dice (exact solves on the
    tensor engine) play that state's chance to win: their outcome distribution, pushed
    forward, has the state's utility's value within its error."""
    sol = different_solution[0]
    fam = sol.game.turns[5]
    keys = [k for k in sol.values[(Play.OPTIMAL, Play.OPTIMAL)] if k[1][0] == 5][:3]
    for key, holds in zip(keys, sol.policy(keys), strict=True):
        U = sol.utility(key)[0]
        played = fam.forward({r: h[:, None] for r, h in holds.items()}, 1)[0] @ U
        assert abs(played - sol.value(key)[0]) <= sol.error(key) + 1e-12


@pytest.fixture(scope="module")
def targeted_solution():
    return solve_duel(color_game(1e-8), target=1e-4)


def test_targeted_refinement_certifies_the_start_with_fewer_solves(
    targeted_solution, color_solution
):
    sol, g = targeted_solution, targeted_solution.game
    assert sol.error(g.start()) <= 1e-4
    assert g.turns[5].exact_solves < color_solution.game.turns[5].exact_solves / 10
    for ta, tb in STARTS:
        COLORS.duel_value(0, LO, ta, LO, tb)
    exact_start = COLORS.duel_value(0, LO, 0, LO, 0)
    assert abs(sol.value(g.start())[0] - float(exact_start)) <= sol.error(g.start())
    off = []  # every state's difference from the brute force is within its own error
    for (s, ka, ta, kb, tb), exact in COLORS.solved.items():
        key = g.key_of(s, (ka, ta), (kb, tb))
        diff = abs(sol.value(key)[0] - float(exact))
        assert diff <= sol.error(key) + 1e-15
        off.append(diff)
    assert max(off) > 1e-5  # states the start rarely reaches were left coarse: their
    # intervals, wide, still hold the brute force's values


def three_phase_color_game(tol: float) -> DuelGame:
    """Four dice, "2 of one color", "1 set of 3", "1 set of 4": errors pass through the
    pair certificates of several layers before they reach the start."""
    dice = (Die("low", parse_faces(FACES)),) * 4
    rules = Rules(five_phase_threshold=15, five_phase_bonus=5, first_finish_bonus=3)
    texts = ("2 of one color", "1 set of 3", "1 set of 4")
    phases = {4 + i: parse_phase(t) for i, t in enumerate(texts)}
    fam = TurnFamily.for_phase(phases[4], rules, dice, tol=tol)
    return DuelGame(phases, rules, dice, turns={4: fam}, reachable=True)


def test_rounds_reach_a_tight_target_where_errors_grow_on_their_way():
    """The rounds blame the states the start's error rests on (visits grown by how much
    each state's certificate amplifies the errors after it), not visits alone: a target of
    1e-5 is met with fewer exact solves than closing every interval, and every state lies
    within its own error of the closed solve."""
    closed = solve_duel(three_phase_color_game(1e-11))
    sol = solve_duel(three_phase_color_game(1e-9), target=1e-5)
    g = sol.game
    assert sol.error(g.start()) <= 1e-5
    assert g.turns[4].exact_solves < closed.game.turns[4].exact_solves / 2
    opt = (Play.OPTIMAL, Play.OPTIMAL)
    for key, (w, _) in sol.values[opt].items():
        assert abs(w - closed.values[opt][key][0]) <= sol.error(key) + closed.error(key)


def end_of_three_phase_game(tol: float, dice_count: int = 4) -> DuelGame:
    """The three-phase color game without its last phase: the same color phase's turn (on
    ``dice_count`` dice), another game around it."""
    g3 = three_phase_color_game(tol)
    dice = (Die("low", parse_faces(FACES)),) * dice_count
    phases = {k: g3.phases[k] for k in (4, 5)}
    fam = TurnFamily.for_phase(phases[4], g3.rules, dice, tol=tol)
    return DuelGame(phases, g3.rules, dice, turns={4: fam}, reachable=True)


def test_a_solve_starts_from_another_games_family(tmp_path):
    """A color phase's family belongs to the turn: seeded with the policies and cuts of
    another game's solve of the same turn, a solve keeps them, needs fewer exact solves of
    its own, and every state lies within the errors of the unseeded solve's."""
    ck = tmp_path / "end.ck"
    solve_duel(end_of_three_phase_game(1e-9), checkpoint=ck, target=1e-5)
    theirs = duel_module.Checkpoint(ck).load(end_of_three_phase_game(1e-9)).game.turns[4]
    g = three_phase_color_game(1e-9)
    assert seed_families(g, end_of_three_phase_game(1e-9), ck) == {4: theirs.size}
    fam = g.turns[4]
    assert np.array_equal(fam.members, theirs.members) and fam.size == theirs.size
    sol = solve_duel(g, target=1e-5)
    # the other game's family began with the per-turn policies of this same turn: the
    # seeded solve keeps them first and adds them no second time
    assert np.array_equal(fam.members[:2], sol.fixed[4])
    assert np.array_equal(fam.members[: theirs.size], theirs.members)
    assert np.array_equal(fam.cuts[: len(theirs.cuts)], theirs.cuts)
    plain = solve_duel(three_phase_color_game(1e-9), target=1e-5)
    assert sol.error(g.start()) <= 1e-5
    assert fam.exact_solves < plain.game.turns[4].exact_solves
    opt = (Play.OPTIMAL, Play.OPTIMAL)
    for key, (w, _) in sol.values[opt].items():
        assert abs(w - plain.values[opt][key][0]) <= sol.error(key) + plain.error(key)


def test_the_families_file_beside_a_checkpoint_seeds_a_solve_as_the_checkpoint_does(tmp_path):
    """Every checkpoint of a color game keeps its families alone in a small file beside it:
    a solve seeded from that file starts from the same policies and cuts as one seeded from
    the whole checkpoint, and the file holds nothing of the values."""
    ck = tmp_path / "end.ck"
    solve_duel(end_of_three_phase_game(1e-9), checkpoint=ck, target=1e-5)
    side = tmp_path / "end.ck.families"
    assert duel_module.Checkpoint(ck).families_path() == str(side)
    whole, small = three_phase_color_game(1e-9), three_phase_color_game(1e-9)
    taken = seed_families(whole, end_of_three_phase_game(1e-9), ck)
    assert taken[4] > 2 and seed_families(small, end_of_three_phase_game(1e-9), side) == taken
    for name in ("members", "cuts", "highs"):
        assert np.array_equal(getattr(small.turns[4], name), getattr(whole.turns[4], name))
    head, data = read_safe(side, duel_module.checkpoint.KIND)
    assert set(data) == {"families"} and head["fingerprint"] == fingerprint(
        end_of_three_phase_game(1e-9)
    )
    with pytest.raises(InvalidRulesError, match="belongs to another game"):
        seed_families(three_phase_color_game(1e-9), three_phase_color_game(1e-9), side)
    plain = tmp_path / "plain.ck"  # a game without a color phase keeps no such file
    solve_duel(reduced_game(), checkpoint=plain)
    assert plain.exists() and not (tmp_path / "plain.ck.families").exists()


def test_a_solve_started_again_from_its_own_families_file_makes_few_exact_solves(tmp_path):
    """A long solve whose checkpoint is lost starts again from the small families file kept
    beside it: the turns it solved exactly are closed by the cuts it kept, so the new run
    makes a small share of the exact solves, and every state lies within both solves'
    errors."""
    ck = tmp_path / "g.ck"
    first = solve_duel(three_phase_color_game(1e-9), checkpoint=ck, target=1e-5)
    g = three_phase_color_game(1e-9)
    seed_families(g, three_phase_color_game(1e-9), tmp_path / "g.ck.families")
    again = solve_duel(g, target=1e-5)
    assert first.game.turns[4].exact_solves >= 20
    assert g.turns[4].exact_solves <= first.game.turns[4].exact_solves // 10
    assert again.error(g.start()) <= 1e-5
    opt = (Play.OPTIMAL, Play.OPTIMAL)
    for key, (w, _) in again.values[opt].items():
        assert abs(w - first.values[opt][key][0]) <= again.error(key) + first.error(key)


def test_a_family_of_another_turn_or_game_is_refused(tmp_path):
    ck = tmp_path / "end.ck"
    solve_duel(end_of_three_phase_game(1e-9, dice_count=3), checkpoint=ck, target=1e-4)
    g = three_phase_color_game(1e-9)
    with pytest.raises(InvalidRulesError, match="another turn"):  # three dice, not four
        seed_families(g, end_of_three_phase_game(1e-9, dice_count=3), ck)
    with pytest.raises(InvalidRulesError, match="belongs to another game"):
        seed_families(g, end_of_three_phase_game(1e-9), ck)
    with pytest.raises(InvalidRulesError, match="no checkpoint"):
        seed_families(g, end_of_three_phase_game(1e-9), tmp_path / "missing.ck")
    plain = tmp_path / "plain.ck"
    solve_duel(reduced_game(), checkpoint=plain)
    with pytest.raises(InvalidRulesError, match="has no color phase of phases 4-6"):
        seed_families(g, reduced_game(), plain)


def test_cli_family_from_is_checked(tmp_path, capsys):
    from phase10math.cli import main

    solve = ["duel", "--solve", "--phases", "9-10"]
    for extra, words in (
        (["--family-from", str(tmp_path / "x.ck")], "with --family-phases LO-HI"),
        (["--family-phases", "8-10"], "give --family-from CHECKPOINT"),
        (["--family-from", str(tmp_path / "x.ck"), "--family-phases", "8-10"], "no checkpoint"),
    ):
        assert main([*solve, *extra]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and words in err


def _round_lines(lines: list[str]) -> list[tuple[int, list]]:
    """(states solved again, steps) of every round a solve logged."""
    import ast
    import re

    out = []
    for line in lines:
        m = re.match(r"round: .* solving again (\d+) of \d+ visited states in (.*)$", line)
        if m:
            out.append((int(m.group(1)), ast.literal_eval(m.group(2))))
    return out


def test_rounds_solve_again_only_the_states_that_weigh(monkeypatch):
    import phase10math.game.duel as duel

    solved = {"rounds": 0}
    real_layer, real_last = duel.pair.solve_layer, duel.layers.solve_last

    def layer(sol, keys, *args, **kwargs):
        if sol.pending is not None:
            solved["rounds"] += len(keys)
        return real_layer(sol, keys, *args, **kwargs)

    def last(sol, k, keys, *args, **kwargs):
        if sol.pending is not None:
            solved["rounds"] += len(keys)
        return real_last(sol, k, keys, *args, **kwargs)

    monkeypatch.setattr(duel.pair, "solve_layer", layer)
    monkeypatch.setattr(duel.layers, "solve_last", last)
    monkeypatch.setattr(duel.solve, "FIRST_SHARE", 1.0)  # a coarse first pass: rounds finish it
    lines: list[str] = []
    sol = solve_duel(color_game(1e-8), target=1e-4, log=lines.append)
    g = sol.game
    assert sol.error(g.start()) <= 1e-4 and sol.pending is None
    rounds = _round_lines(lines)
    assert len(rounds) >= 2
    # each chunk of a round's exact solves says how far it is and how long is left
    progress = [ln for ln in lines if ln.startswith("  round's exact solves:")]
    shape = r"\d+ of \d+, \d+ s, about \d+ s left$"
    assert progress and all(re.search(shape, ln) for ln in progress)
    ends = [ln for ln in progress if re.search(r"(\d+) of \1,", ln)]  # a round's last chunk
    solving = [ln for ln in lines if re.match(r"round: .*; [1-9]\d* exact solves", ln)]
    assert len(ends) == len(solving) and all(ln.endswith("about 0 s left") for ln in ends)
    for n, steps in rounds:  # far fewer states than the steps hold
        held = sum(
            len(duel.layers.last_keys(g, m))
            if kind == "last"
            else len(duel.layers.layer_keys(g, m))
            for kind, m in steps
        )
        assert 0 < n < held / 10
    assert solved["rounds"] == sum(n for n, _ in rounds)  # and no more were solved


def test_a_solve_killed_inside_a_round_finishes_that_round(tmp_path, monkeypatch):
    import phase10math.game.duel as duel

    monkeypatch.setattr(duel.checkpoint, "CHECKPOINT_EVERY", 0.0)
    monkeypatch.setattr(duel.solve, "FIRST_SHARE", 1.0)  # a coarse first pass: rounds finish it
    ck = tmp_path / "duel.ck"
    real = duel.pair.solve_layer
    seen = {"n": 0}

    def dies_in_a_round(sol, keys, *args, **kwargs):
        if sol.pending is not None and keys:
            seen["n"] += 1
            if seen["n"] == 2:
                raise KeyboardInterrupt  # inside the first round, after one step of it
        return real(sol, keys, *args, **kwargs)

    monkeypatch.setattr(duel.pair, "solve_layer", dies_in_a_round)
    with pytest.raises(KeyboardInterrupt):
        solve_duel(color_game(1e-8), checkpoint=ck, target=1e-4)
    saved = duel.Checkpoint(ck).load(color_game(1e-8))
    assert saved.pending is not None and saved.pending["keep"]
    left = list(saved.pending["again"])
    monkeypatch.setattr(duel.pair, "solve_layer", real)
    lines: list[str] = []
    sol = solve_duel(color_game(1e-8), checkpoint=ck, target=1e-4, log=lines.append)
    # the interrupted round's steps come first, then new rounds
    first = [ln.split(":")[0].split() for ln in lines[: len(left)]]
    assert [(kind, int(n)) for kind, n in first] == [(kind, n) for kind, n in left]
    g = sol.game
    assert sol.error(g.start()) <= 1e-4 and sol.pending is None
    for (s, ka, ta, kb, tb), exact in COLORS.solved.items():
        key = g.key_of(s, (ka, ta), (kb, tb))
        assert abs(sol.value(key)[0] - float(exact)) <= sol.error(key) + 1e-15


def test_a_solve_killed_inside_a_rounds_exact_solves_does_not_solve_them_again(
    tmp_path, monkeypatch
):
    """A round's exact solves are kept in the checkpoint as they go (in the family); a run
    resumed after a stop among them picks the round's states again, and those solved already
    are no longer wide (nor, being solved, do they weigh as before): the solves are those of a
    run never stopped, each once."""
    import phase10math.game.duel as duel

    monkeypatch.setattr(duel.checkpoint, "CHECKPOINT_EVERY", 0.0)
    monkeypatch.setattr(duel.checkpoint, "CHECKPOINT_SPACING", 0.0)
    monkeypatch.setattr(duel.solve, "FIRST_SHARE", 1.0)  # a coarse first pass: rounds finish it
    monkeypatch.setattr(duel.refinement, "REFINE_CHUNK", 1)
    real = duel.refinement.exact_chunks
    asked: list[bytes] = []  # the utilities of the exact solves in chunks, in order

    def counted(fam, W, after, rows=None, left=None):
        asked.extend(w.tobytes() for w in (W if rows is None else W[rows]))
        return real(fam, W, after, rows, left)

    monkeypatch.setattr(duel.refinement, "exact_chunks", counted)
    never_stopped = solve_duel(color_game(1e-8), target=1e-4)
    want, asked[:] = list(asked), []
    assert len(want) >= 2

    in_round = []  # a round has begun: it picks its states first
    pick = duel.rounds.pick_refinements

    def picked(*args, **kwargs):
        in_round.append(True)
        return pick(*args, **kwargs)

    def dies_after_one(fam, W, after, rows=None, left=None):
        if not in_round:  # the first pass's
            return counted(fam, W, after, rows, left)
        W = W if rows is None else W[rows]

        def then_die(rows):
            after(rows)  # the checkpoint, with the one solve
            raise KeyboardInterrupt

        asked.extend(w.tobytes() for w in W[:1])
        real(fam, W[:1], then_die)

    ck = tmp_path / "duel.ck"
    monkeypatch.setattr(duel.refinement, "exact_chunks", dies_after_one)
    monkeypatch.setattr(duel.rounds, "pick_refinements", picked)
    with pytest.raises(KeyboardInterrupt):
        solve_duel(color_game(1e-8), checkpoint=ck, target=1e-4)
    assert in_round  # it stopped inside a round
    assert duel.Checkpoint(ck).load(color_game(1e-8)).pending is None  # before the round's line
    monkeypatch.setattr(duel.refinement, "exact_chunks", counted)
    sol = solve_duel(color_game(1e-8), checkpoint=ck, target=1e-4)
    assert asked == want  # the same solves, none twice
    start = sol.game.start()
    assert sol.error(start) <= 1e-4
    assert sol.value(start) == never_stopped.value(start)


def test_a_solve_killed_among_the_first_passs_exact_solves_of_last_chances_keeps_them(
    tmp_path, monkeypatch
):
    """The first pass's exact solves of a color phase's last chances are checkpointed as they
    go (in the family): a run stopped after the first of them and resumed does not solve that
    utility again, solves no more than a run never stopped, and certifies the start. The
    first pass's estimate of where play goes is kept beside the checkpoint: the resumed run
    reads it (estimates nothing again); a fresh run estimates anew."""
    import phase10math.game.duel as duel

    monkeypatch.setattr(duel.checkpoint, "CHECKPOINT_EVERY", 0.0)
    monkeypatch.setattr(duel.checkpoint, "CHECKPOINT_SPACING", 0.0)
    monkeypatch.setattr(duel.refinement, "REFINE_CHUNK", 1)
    real, real_last = duel.refinement.exact_chunks, duel.layers.solve_last
    asked: list[bytes] = []
    in_last = []

    def last(*args, **kwargs):
        in_last.append(True)
        try:
            return real_last(*args, **kwargs)
        finally:
            in_last.pop()

    def dies_after_one(fam, W, after, rows=None, left=None):
        W = W if rows is None else W[rows]
        if not in_last:
            return real(fam, W, after)

        def then_die(n):
            after(n)  # the checkpoint, with the one solve
            raise KeyboardInterrupt

        asked.extend(w.tobytes() for w in W[:1])
        real(fam, W[:1], then_die)

    def counted(fam, W, after, rows=None, left=None):
        asked.extend(w.tobytes() for w in (W if rows is None else W[rows]))
        return real(fam, W, after, rows, left)

    estimates = []
    real_visits = duel.visits

    def counted_visits(*args, **kwargs):
        estimates.append(real_visits(*args, **kwargs))
        return estimates[-1]

    monkeypatch.setattr(duel.rounds, "visits", counted_visits)
    monkeypatch.setattr(duel.refinement, "exact_chunks", counted)
    solve_duel(color_game(1e-8), target=1e-4)
    never_stopped, asked[:] = len(asked), []
    ck = tmp_path / "duel.ck"
    monkeypatch.setattr(duel.layers, "solve_last", last)
    monkeypatch.setattr(duel.refinement, "exact_chunks", dies_after_one)
    with pytest.raises(KeyboardInterrupt):
        solve_duel(color_game(1e-8), checkpoint=ck, target=1e-4)
    saved = duel.Checkpoint(ck).load(color_game(1e-8))
    assert len(asked) == 1 and saved.game.turns[5].exact_solves == 0  # counted anew
    assert asked[0] in {row.tobytes() for row in saved.game.turns[5].cuts}  # kept
    assert len(estimates) == 2 and estimates[1]  # each run from nothing estimates
    assert duel.Checkpoint(ck).load_reach(color_game(1e-8)) == estimates[1]
    base = reduced_game()
    other = DuelGame(base.phases, RULES.replace(first_finish_bonus=4), base.dice)
    assert duel.Checkpoint(ck).load_reach(other) is None  # kept for another game
    monkeypatch.setattr(duel.refinement, "exact_chunks", counted)
    sol = solve_duel(color_game(1e-8), checkpoint=ck, target=1e-4)
    assert len(estimates) == 2  # the resumed run read the estimate kept
    assert len(asked) > 1 and asked[0] not in asked[1:]  # not solved again
    assert len(asked) <= never_stopped
    assert sol.error(sol.game.start()) <= 1e-4


def test_a_state_whose_interval_narrowed_since_it_was_solved_is_solved_again(tmp_path):
    """A color state solved while its family was coarse keeps the wide interval of then,
    though an exact solve made later (for another state, at the same or a nearby utility)
    narrows it. A last chance depends only on later phases' last chances, so no round's
    exact solves make it solve again, and the family does not find it wide: a round must
    find it (narrowed since solved) and solve it again."""
    import phase10math.game.duel as duel

    ck = tmp_path / "duel.ck"
    sol = solve_duel(color_game(1e-8), checkpoint=ck, target=1e-4)
    g = sol.game
    fam = duel.families(g)[5]
    seen = duel.rounds.flow(sol, gain=duel.rounds.amplification(sol))

    def tight(key):
        return not len(fam.wide(duel.rounds.current_utility(sol, key)[None]))

    last = [k for k in seen if len(k) == 3 and k[0][0] == 5 and seen[k] > 0 and tight(k)]
    key = max(last, key=seen.get)  # the most visited color last chance the family holds tight
    assert sol.gaps[key] < 1e-6
    sol.gaps[key] = sol.errors[key] = 0.05  # as if solved before the cut that narrowed it
    sol.errors[g.start()] = 1.0  # and a start not yet certified: a round is due
    duel.Checkpoint(ck).save(sol)
    lines: list[str] = []
    again = solve_duel(color_game(1e-8), checkpoint=ck, target=1e-4, log=lines.append)
    assert any(re.search(r"; [1-9]\d* narrowed since solved;", ln) for ln in lines)
    assert again.gaps[key] < 1e-6 and again.error(key) < 1e-3
    g = again.game
    assert again.error(g.start()) <= 1e-4
    COLORS.duel_value(0, LO, 0, LO, 0)  # the brute force from the start
    assert COLORS.solved and COLORS.chances
    for (s, ka, ta, kb, tb), exact in COLORS.solved.items():  # each within its own error
        k = g.key_of(s, (ka, ta), (kb, tb))
        assert abs(again.value(k)[0] - float(exact)) <= again.error(k) + 1e-15
    for (k, t, f, e), exact in COLORS.chances.items():
        lk = (g.player(k, t), t - f, int(e))
        got = again.last_value(Play.OPTIMAL, *lk)[0]
        assert abs(got - float(exact)) <= again.error(lk) + 1e-15


def _chain_matches_visits(sol, expect, dist, seed, n=4000, top=12):
    """Games sampled from the outcome distributions ``dist(key)`` (a seeded Monte Carlo of
    the chain of states) against the expected visits of the forward pass, at the ``top``
    states it visits most."""
    rng = np.random.default_rng(seed)
    counts: dict = {}
    for _ in range(n):
        seen: dict = {}
        key = sol.game.start()
        while key is not None and not sol.decided(key):
            seen[key] = seen.get(key, 0) + 1
            d = dist(key)
            j = int(rng.choice(len(d), p=d / d.sum()))
            if len(key) == 3:
                key = None if j == 0 else sol.after_last(key)[j - 1]
            elif j == 0:
                key = (1 - key[0], key[2], key[1], -key[3])
            else:
                key = sol.after(key)[j - 1][1]
        for k, c in seen.items():
            counts.setdefault(k, []).append(c)
    for k in sorted(expect, key=expect.get, reverse=True)[:top]:
        c = np.array(counts.get(k, []) + [0] * (n - len(counts.get(k, []))), dtype=float)
        # a spread of at least one visit in n games: a rare repeat may not show in the sample
        assert abs(c.mean() - expect[k]) <= 4.5 * max(c.std(), 1 / np.sqrt(n)) / np.sqrt(n)
    assert set(counts) <= set(expect)  # every state the games reach is counted


def test_visits_match_a_simulation_of_the_state_chain(targeted_solution):
    sol = targeted_solution
    _chain_matches_visits(sol, visits(sol), sol.dists.__getitem__, seed=21)


def test_visits_of_a_solve_in_progress_play_a_stand_in_where_nothing_is_solved(
    targeted_solution,
):
    """Before the lower layers are solved, a per-turn policy stands in for their movers."""
    import copy

    from phase10math.game.duel.columns import fixed_distribution

    sol = copy.copy(targeted_solution)
    g = sol.game
    low = 2 * LO  # the start's layer, as if not solved yet
    sol.dists = {k: d for k, d in sol.dists.items() if len(k) == 3 or k[1][0] + k[2][0] > low}
    assert visits(sol) == {}  # without a stand-in the start is not entered
    stand_in = {k: fixed_distribution(g, k, Play.COMPLETE) for k in g.phases}

    def dist(key):
        if key in sol.dists:
            return sol.dists[key]
        return stand_in[key[0][0] if len(key) == 3 else key[1][0]]

    expect = visits(sol, proxy=Play.COMPLETE)
    assert expect[g.start()] > 1  # both fail there now and then
    sol.fixed = {}  # a table read back keeps no per-turn distributions: found again
    assert visits(sol, proxy=Play.COMPLETE) == expect
    _chain_matches_visits(sol, expect, dist, seed=22)
    with pytest.raises(InvalidRulesError, match="per-turn play"):
        visits(sol, proxy=Play.OPTIMAL)


def test_a_table_keeps_each_states_error(tmp_path, targeted_solution):
    from phase10math.game.duel import table_payload

    data = table_payload(targeted_solution)
    rows = data["values"]["optimal-optimal"]
    assert data["format"] == 2 and all(len(r) == 11 for r in rows)
    key = targeted_solution.game.start()
    assert data["headline"]["bound"] == targeted_solution.error(key)
    assert data["headline"]["bound_all"] == targeted_solution.bound > data["headline"]["bound"]


def test_a_color_phase_is_covered_on_its_own_dice_only(targeted_solution):
    sol = targeted_solution
    same = reduced_game().dice
    other = (Die("low", parse_faces("5r 5o 6b 6g Wr Wg")),) * N_DICE  # one W of another color
    assert chance_to_win(sol, (5, 0), (5, 0), layout=same) == sol.value(sol.game.start())
    with pytest.raises(OutsideTableError, match="phase 5 has colors"):
        chance_to_win(sol, (5, 0), (6, 4), layout=other)
    # from the first phase without colors on, any dice with the same numbers fit
    assert chance_to_win(sol, (6, 0), (6, 4), layout=other) == chance_to_win(sol, (6, 0), (6, 4))
    # a player before the color phase has still to play it: its values are of these dice
    assert "phase 5 has colors" in color_reason(sol, (4, 6), other)
    assert color_reason(sol, (4, 6), same) is None and color_reason(sol, (6, 6), other) is None


def test_batched_turn_equals_exact_turn():
    g = reduced_game()
    rng = np.random.default_rng(5)
    for k in (5, 6):
        tb = g.turns[k]
        outs = SETS.outcomes(k)
        assert [int(x) for x in tb.scores] == outs[1:]
        U = rng.integers(-30, 30, size=(6, tb.n_outcomes))
        res = tb.solve(U.astype(float))
        for b in range(6):
            v, d = SETS.exact_turn(k, {o: Fraction(int(u)) for o, u in zip(outs, U[b])})
            assert abs(res.values[b] - float(v)) <= res.margin[b]
            assert abs(res.values[b] - float(v)) <= 1e-12
            # the distribution found is that of an optimal policy: its mean is the value
            assert abs(res.dist[b] @ U[b] - float(v)) <= 1e-12


def test_a_game_from_phase_one_finds_its_totals_without_building_its_color_turn():
    """Reading the 1-10 table needs every phase's least score (the totals a game from phase
    1 can have); phase 8's is found without building its turn (seconds, most of a gigabyte),
    and is the least score the built turn can end with."""
    from phase10math.dice.layouts import COMPACT_LAYOUT

    g = DuelGame.standard(1, 10, layout=COMPACT_LAYOUT)
    lows = [g.totals_at(k)[0] for k in (8, 9)]
    assert 8 not in dict.keys(g.turns)
    assert lows[1] - lows[0] == g.min_score[8] == int(g.turns[8].scores.min())
    assert g.max_score[8] == int(g.turns[8].scores.max())


def test_a_phase_no_roll_makes_is_refused():
    """Such a game would never end (both players fail for ever): refused before solving."""
    die = Die("low", parse_faces("5r 5o 6b 6g 5b 6r"))  # fives and sixes, no wild
    ok = parse_phase("1 set of 2")
    with pytest.raises(InvalidRulesError, match="needs 4 dice; the game has 3"):
        DuelGame({5: ok, 6: parse_phase("1 set of 4")}, RULES, (die,) * 3)
    with pytest.raises(InvalidRulesError, match="1 run of 3.*no roll of these dice makes it"):
        DuelGame({5: ok, 6: parse_phase("1 run of 3")}, RULES, (die,) * 3)
    assert DuelGame({5: ok, 6: parse_phase("1 set of 3")}, RULES, (die,) * 3).hi == 6


def test_a_color_phase_on_ten_different_dice_is_refused_at_once_only_where_memory_is_short(
    monkeypatch,
):
    from phase10math.dice.layouts import RECORDED_LAYOUT

    g = DuelGame.standard(8, 10, layout=RECORDED_LAYOUT)  # its family is built when needed
    assert 8 not in g.turns and g.max_score[8] > 0
    g.check_turns_fit()
    monkeypatch.setenv("PHASE10MATH_MEMORY_GB", "1")
    # reading a table needs no family: the game is set up under any limit ...
    short = DuelGame.standard(8, 10, layout=RECORDED_LAYOUT)
    assert 8 not in short.turns
    # ... and a solve, which builds the family, is refused before any work
    with pytest.raises(InvalidRulesError, match="7 of one color: .*needs about"):
        short.check_turns_fit()
    with pytest.raises(InvalidRulesError, match="7 of one color: .*needs about"):
        solve_duel(short)
    assert 8 not in short.turns


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
    real = duel.pair.solve_layer
    calls = {"n": 0}

    def dies_after_one(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] > 1:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(duel.pair, "solve_layer", dies_after_one)
    with pytest.raises(KeyboardInterrupt):
        solve_duel(reduced_game(), checkpoint=ck)
    monkeypatch.setattr(duel.pair, "solve_layer", real)
    done_before = len(duel.Checkpoint(ck).load(reduced_game()).layers_done)
    assert 0 < done_before < 5
    again = solve_duel(reduced_game(), checkpoint=ck)
    key = again.game.start()
    assert again.value(key) == reduced_solution.value(key)
    assert again.values == reduced_solution.values


def test_a_solve_killed_inside_a_layer_keeps_the_parts_it_finished(
    tmp_path, monkeypatch, reduced_solution
):
    import phase10math.game.duel as duel

    monkeypatch.setattr(duel.checkpoint, "CHECKPOINT_EVERY", 0.0)  # every finished part is written
    monkeypatch.setattr(
        duel.checkpoint, "CHECKPOINT_SPACING", 0.0
    )  # however long the last write took
    ck = tmp_path / "duel.ck"
    real = duel.pair.solve_layer
    solved: list[tuple[int, int]] = []

    def part_of(keys):
        (_, a, b, _) = keys[0]
        return (a[0] + b[0], a[0])

    def dies_in_layer_11(sol, keys, *args, **kwargs):
        if keys and part_of(keys)[0] == 11 and any(p[0] == 11 for p in solved):
            raise KeyboardInterrupt  # the second part of layer 11 (phases 6 and 5)
        if keys:
            solved.append(part_of(keys))
        return real(sol, keys, *args, **kwargs)

    monkeypatch.setattr(duel.pair, "solve_layer", dies_in_layer_11)
    with pytest.raises(KeyboardInterrupt):
        solve_duel(reduced_game(), checkpoint=ck)
    saved = duel.Checkpoint(ck).load(reduced_game())
    assert (11, 5) in saved.parts_done and 11 not in saved.layers_done
    solved.clear()

    def counts(sol, keys, *args, **kwargs):
        if keys:
            solved.append(part_of(keys))
        return real(sol, keys, *args, **kwargs)

    monkeypatch.setattr(duel.pair, "solve_layer", counts)
    lines: list[str] = []
    again = solve_duel(reduced_game(), checkpoint=ck, log=lines.append)
    assert solved == [(11, 6), (10, 5)]  # the finished part of layer 11 is not solved again
    # each part is logged as it finishes, with its pairs (the watcher of a long solve)
    logged = [ln.split(":")[0].split()[1] for ln in lines if ln.strip().startswith("part ")]
    assert logged == ["11/6", "10/5"]
    sizes = [int(ln.split(":")[1].split()[0]) for ln in lines if ln.strip().startswith("part ")]
    assert sizes == [
        len([k for k in duel.layers.layer_keys(again.game, n) if k[1][0] == ka])
        for n, ka in ((11, 6), (10, 5))
    ]
    assert again.values == reduced_solution.values


def test_checkpoints_within_a_step_are_spaced(tmp_path, reduced_solution):
    from phase10math.game.duel import Checkpoint

    path = tmp_path / "duel.ck"
    ck = Checkpoint(path, every=3600)
    ck.save(reduced_solution)  # the end of a step: always written
    first = path.read_bytes()
    before = reduced_solution.seconds
    reduced_solution.seconds += 1.0
    try:
        ck.save(reduced_solution, within_step=True)  # too soon: not written
        assert path.read_bytes() == first
        Checkpoint(path, every=0).save(reduced_solution, within_step=True)
        assert path.read_bytes() != first
        assert Checkpoint(path).load(reduced_game()).seconds == reduced_solution.seconds
        # a checkpoint that took long to write waits four times as long before the next
        slow = Checkpoint(path, every=0)
        slow.save(reduced_solution)
        assert 0 < slow.took < 60
        slow.took = 60.0  # as if writing it had taken a minute
        reduced_solution.seconds += 1.0
        second = path.read_bytes()
        slow.save(reduced_solution, within_step=True)
        assert path.read_bytes() == second
        slow.written -= 241.0  # four minutes and a second later
        slow.save(reduced_solution, within_step=True)
        assert path.read_bytes() != second
    finally:
        reduced_solution.seconds = before


def test_checkpoint_of_another_game_is_refused(tmp_path, reduced_solution):
    import phase10math.game.duel as duel

    ck = tmp_path / "duel.ck"
    duel.Checkpoint(ck).save(reduced_solution)
    other = DuelGame(
        reduced_game().phases, RULES.replace(first_finish_bonus=4), reduced_game().dice
    )
    with pytest.raises(InvalidRulesError, match="another game"):
        solve_duel(other, checkpoint=ck)


def test_a_rounds_costly_picks_covered_by_the_solves_before_them_are_not_solved():
    """A costly family (the tensor engine) solves a round's picks spread out, two at a time,
    and checks the rest again: a pick whose interval the new policies have narrowed below
    what got it picked (weight times width) is done without a solve; one still wide is
    solved."""
    from types import SimpleNamespace

    import phase10math.game.duel as duel

    dice = tuple(Die("low", parse_faces(t)) for t in LOW_DICE)
    fam = TensorFamily.for_phase(parse_phase("2 of one color"), RULES, dice, tol=1e-12)
    rng = np.random.default_rng(21)
    far = rng.random((3, fam.n_outcomes))
    fam.exact(far[:1])  # a family that answers the others coarsely
    base = rng.random(fam.n_outcomes)
    U = np.array([base, base + 1e-3, far[1], base + 2e-3, far[2]])  # shifts of one utility
    keys = ["a", "b", "c", "d", "e"]
    width = fam.solve(U, distribution=False).margin
    assert (width > 1e-6).all()
    sol = SimpleNamespace(gaps=dict(zip(keys, width)))
    seen = {**dict.fromkeys(keys, 1.0), "c": 10.0}  # far[1] weighs most
    left = duel.rounds.still_picked(sol, fam, keys, U, seen)
    before = fam.exact_solves
    duel.refinement.exact_chunks(fam, U, None, None, left)
    # the spread order solves 0 and 4 (base, far[2]) first, then the rest are checked: the
    # shifts of base are covered by its cut, far[1] (narrowed a little, weighing ten times
    # as much) is not
    assert fam.exact_solves - before == 3
    solved = {row.tobytes() for row in fam.cuts}
    assert U[2].tobytes() in solved and U[1].tobytes() not in solved
    assert U[3].tobytes() not in solved
