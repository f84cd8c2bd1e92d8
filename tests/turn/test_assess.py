"""Beat the solver (phase10math.turn.assess): a weak and a good strategy submitted, their exact
values checked against a brute-force enumeration of the physical dice on a reduced game (four
dice, every roll and reroll listed, the final dice scored by the naive scorer of
tests/bruteforce.py: no state space, no engine, no meld engine); the weighted losses add up to
the gap; the simulation agrees; an impossible hold is refused with its roll; the class table
ranks the hand-ins."""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from phase10math.dice.layouts import COMPACT_LAYOUT, DEFAULT_LAYOUT
from phase10math.dice.phases import Group, Phase
from phase10math.errors import InvalidArgumentError, InvalidStrategyError
from phase10math.turn.assess import assess_strategy, class_table, grade, solver_strategy
from tests.bruteforce import brute_best

# two high dice and two low dice of the recorded set; "a set of 2 and a run of 2" needs all four
DICE = DEFAULT_LAYOUT.dice[:2] + DEFAULT_LAYOUT.dice[6:8]
PHASE = Phase((Group("set", 2), Group("run", 2)))
GROUPS = [("set", 2), ("run", 2)]


def text(v):
    return "W" if v == 0 else str(v)


def weak(roll, rolls_left, phase):
    """Keep every W and nothing else."""
    return [f for f in roll if f == "W"]


def good(roll, rolls_left, phase):
    """Keep the W, one pair (the highest), and one die next to the pair's number."""
    c = Counter(f for f in roll if f != "W")
    pairs = sorted((int(f) for f, n in c.items() if n >= 2), reverse=True)
    keep = [f for f in roll if f == "W"]
    if pairs:
        keep += [str(pairs[0])] * 2
        near = [f for f in c if abs(int(f) - pairs[0]) == 1]
        keep += near[:1]
    return keep


@cache
def brute(strategy, rolls=3):
    """(P(complete), E[score]) of a strategy by listing every roll of the physical dice."""
    sides = [[f.value for f in d.faces] for d in DICE]

    @cache
    def facing(shown, r):  # the dice show ``shown``; r rolls remain after this one
        if r == 0:
            best = brute_best(GROUPS, [(v, None) for v in shown])
            return (Fraction(0), Fraction(0)) if best is None else (Fraction(1), Fraction(best))
        roll = tuple(text(v) for v in sorted(shown, key=lambda v: -v if v else 1))
        want = Counter(strategy(roll, r, PHASE))
        kept = []
        for i, v in enumerate(shown):  # which dice realise the hold does not matter here
            if want[text(v)] > 0:
                want[text(v)] -= 1
                kept.append(i)
        return holding(tuple(v if i in kept else None for i, v in enumerate(shown)), r)

    @cache
    def holding(partial, r):
        free = [i for i, v in enumerate(partial) if v is None]
        p = e = Fraction(0)
        for faces in product(*[sides[i] for i in free]):
            shown = list(partial)
            for i, v in zip(free, faces):
                shown[i] = v
            dp, de = facing(tuple(shown), r - 1)
            p, e = p + dp, e + de
        n = 6 ** len(free)
        return p / n, e / n

    return holding((None,) * len(DICE), rolls)


@pytest.mark.parametrize("strategy", [weak, good], ids=["weak", "good"])
def test_exact_values_match_brute_force(strategy):
    a = assess_strategy(strategy, PHASE, DICE, turns=4000, seed=7)
    assert (a.p_complete, a.e_score) == brute(strategy)
    assert a.p_complete < a.best_p_complete  # neither is optimal on this game
    assert a.explained == pytest.approx(float(a.gap), abs=1e-12)  # the losses add up to the gap
    lo, hi = a.simulated.interval
    assert lo <= a.p_complete <= hi


def test_the_optimum_is_the_solvers_and_brute_force_agrees():
    a = assess_strategy(good, PHASE, DICE, turns=0)
    solver = solver_strategy(PHASE, DICE)  # the solver's own policy, handed in as a function
    best = assess_strategy(solver, PHASE, DICE, turns=0)
    assert best.gap == 0 and best.losses == [] and best.p_complete == a.best_p_complete
    assert brute(solver) == (best.p_complete, best.e_score)
    assert a.best_p_complete > a.p_complete > assess_strategy(weak, PHASE, DICE, turns=0).p_complete


def test_an_impossible_hold_is_refused_with_its_roll():
    def cheat(roll, rolls_left, phase):
        return ["10", "10"] if rolls_left == 1 else []

    with pytest.raises(InvalidStrategyError, match=r"kept 10 10 but the roll is \S+ \S+ \S+ \S+"):
        assess_strategy(cheat, PHASE, DICE, turns=0)
    with pytest.raises(InvalidStrategyError, match="not a list of dice"):
        assess_strategy(lambda roll, r, p: [object()], PHASE, DICE, turns=0)
    with pytest.raises(InvalidStrategyError, match=r"rolls_left=2\) raised ZeroDivisionError"):
        assess_strategy(lambda roll, r, p: [1 / 0], PHASE, DICE, turns=0)
    with pytest.raises(InvalidArgumentError, match="color group"):
        assess_strategy(weak, 8, COMPACT_LAYOUT)


def test_the_class_table_ranks_the_hand_ins():
    rows = grade({"w": weak, "g": good, "x": lambda roll, r, p: ["W"] * 5}, PHASE, DICE)
    assert [r["name"] for r in rows] == ["g", "w", "x"]
    assert rows[0]["p_complete"] == brute(good)[0] and "InvalidStrategyError" in rows[2]["refused"]
    table = class_table(rows)
    assert table.splitlines()[2].startswith("| 1 | g |") and "| - | x | refused" in table


def test_the_compact_and_the_recorded_dice_agree_on_a_phase_of_numbers():
    recorded = assess_strategy(weak, 1, turns=0)
    compact = assess_strategy(weak, 1, COMPACT_LAYOUT, turns=3000, seed=3)
    assert compact.p_complete == recorded.p_complete and compact.e_score == recorded.e_score
    lo, hi = compact.simulated.interval  # played on the compact set's own physical dice
    assert lo <= compact.p_complete <= hi and isinstance(lo, float)
