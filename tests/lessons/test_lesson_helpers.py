"""Helpers the lesson notebooks use: the brute-force reroll check, one solitaire phase played
until made, the toy Dinkelbach iteration and the plot palette."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

import phase10math as p10
from phase10math.dice.layouts import DEFAULT_LAYOUT
from phase10math.dice.reroll import reroll_value, simulate_reroll
from phase10math.game.solitaire import (
    dinkelbach_steps,
    per_turn_policy,
    phase_data,
    policy_moments,
    simulate_phase,
)
from phase10math.play.palette import OKABE_ITO, use_okabe_ito

HIGH, LOW = DEFAULT_LAYOUT.dice[0], DEFAULT_LAYOUT.dice[-1]


def by_loops(phase, kept, dice):
    """The same chance with plain loops and the public scorer."""
    kept = p10.parse_faces(kept)
    made = sum(
        p10.score(phase, list(kept) + list(faces)) is not None
        for faces in itertools.product(*(d.faces for d in dice))
    )
    return Fraction(made, 6 ** len(dice))


@pytest.mark.parametrize(
    "phase, kept, dice",
    [
        (1, "10 10 10 9 1 2 3 4", [HIGH, HIGH]),
        (4, "5 6 7 8 9 10 2 2", [LOW, LOW]),
        (3, "10 10 10 5 6 W 1", [HIGH, LOW, LOW]),
    ],
)
def test_reroll_value_matches_plain_loops(phase, kept, dice):
    assert reroll_value(phase, kept, dice) == by_loops(phase, kept, dice)


def test_reroll_value_matches_the_advisor():
    """Notebook 4's check: 10 10 W 6 6 9 5 2 4 3 on phase 1, one roll left, keep 10 10 W."""
    adv = p10.advise("10 10 W 6 6 9 5 2 4 3", rolls_left=1, phase=1)
    for keep, rerolled in [
        ("10 10 W", [HIGH] * 4 + [LOW] * 3),
        ("10 10 6 6 W", [HIGH] * 2 + [LOW] * 3),
    ]:
        assert reroll_value(1, keep, rerolled) == adv.value_of(keep).value


def test_simulated_reroll_within_4_sigma():
    exact = float(reroll_value(1, "10r 10o 10b 9r 9o", [HIGH, HIGH]))
    sim = simulate_reroll(1, "10r 10o 10b 9r 9o", [HIGH, HIGH], n=20_000, seed=3)
    assert abs(sim - exact) < 4 * (exact * (1 - exact) / 20_000) ** 0.5


def test_reroll_refuses_too_many_dice():
    with pytest.raises(ValueError):
        reroll_value(1, "", [HIGH] * 8)


def test_simulate_phase_agrees_with_exact_policy_value():
    d = phase_data(1)
    holds = per_turn_policy("score", 1, {1: d})
    made = d.made.astype(np.int64)
    p, x_made = policy_moments(d.space, np.stack([made, np.maximum(d.score, 0)], 1), holds, 3)
    exact = float((x_made - 5 * (1 - p)) / p)
    pts = simulate_phase(d, holds, 20_000, seed=2)
    se = pts.std(ddof=1) / np.sqrt(len(pts))
    assert abs(pts.mean() - exact) < 4 * se


def test_dinkelbach_reaches_the_best_ratio():
    rng = np.random.default_rng(0)
    for _ in range(20):
        pols = {
            f"P{i}": (Fraction(int(rng.integers(1, 10)), 10), int(rng.integers(10, 60)))
            for i in range(5)
        }
        best = max(x - 5 * (1 - p) / p for p, x in pols.values())
        steps = dinkelbach_steps(pols)
        assert steps[-1][2] == best and steps[-1][0] == best
        assert all(a[2] <= b[2] for a, b in zip(steps, steps[1:]))  # values never go down


def test_okabe_ito_palette():
    assert len(OKABE_ITO) == 8 and len(set(OKABE_ITO)) == 8
    use_okabe_ito()
    import matplotlib.pyplot as plt

    cyc = plt.rcParams["axes.prop_cycle"].by_key()
    assert cyc["color"][8] == OKABE_ITO[0] and cyc["linestyle"][8] == "--"
