"""The package functions behind the lessons: readable exact numbers, the greedy hold
of one roll, values by rolls left, the simulation check of optimal turns, and the figures."""

from fractions import Fraction

import matplotlib

import phase10math as p10

matplotlib.use("Agg")


def test_readable_shows_short_fractions_and_summarises_long_ones():
    assert str(p10.readable(Fraction(71, 81))) == "87.65% = 71/81"
    long = p10.readable(p10.phase_row(1)["p_optimal"])
    assert "see .fraction" in str(long) and long.fraction == p10.phase_row(1)["p_optimal"]
    assert str(p10.readable(Fraction(3, 1), as_percent=False)) == "3"
    assert p10.readable(Fraction(1, 2)) == Fraction(1, 2) and float(p10.readable(0.5)) == 0.5


def test_greedy_hold_keeps_the_fullest_placement_in_the_rolls_order():
    faces = p10.parse_faces("5o 7b 7b 6r 6r 5b 4o 2o 1g 2g")
    kept = p10.greedy_hold(3, faces)
    assert [str(f) for f in kept] == ["5o", "7b", "6r", "4o", "2o", "2g"]
    assert all(f in faces for f in kept)


def test_values_by_rolls_left_grow_with_the_rolls():
    v = p10.values_by_rolls_left(7)
    assert list(v) == [1, 2, 3] and v[1] < v[2] < v[3] == p10.phase_row(7)["p_optimal"]
    s = p10.values_by_rolls_left(1, "score")
    assert s[3] == p10.phase_row(1)["e_score_optimal"]


def test_simulation_check_is_seeded_and_agrees():
    a = p10.simulate_optimal_turns(7, turns=3000, seed=5)
    b = p10.simulate_optimal_turns(7, turns=3000, seed=5)
    assert a == b and abs(a.z) < 4 and a.exact == p10.phase_row(7)["p_optimal"]


def test_figures_are_labelled():
    figs = [
        p10.figures.bar_chart({0: 0.2, 1: 0.4}, "wilds", "probability", percent=True),
        p10.figures.grouped_bars({"a": {1: 0.1, 2: 0.2}, "b": {1: 0.3, 2: 0.4}}, "phase", "P"),
        p10.figures.exact_vs_simulated({1: 0.5}, {1: 0.49}, {1: 0.01}, "phase", "P"),
        p10.figures.lines_by_rolls({1: p10.values_by_rolls_left(1)}),
    ]
    adv = p10.advise("4 4 5 5 7 8 9 10 1 2", rolls_left=2, phase=1)
    figs.append(p10.figures.hold_values(adv, {"keep 4 4": "4 4", "keep nothing": ""}))
    for fig in figs:
        ax = fig.axes[0]
        assert ax.get_xlabel() and ax.get_ylabel()
    legend = [t.get_text() for t in figs[-1].axes[0].get_legend().get_texts()]
    assert any(t.startswith("keep 4 4: rank") for t in legend)


def test_draw_dice_draws_every_face_of_the_layout():
    fig = p10.figures.draw_dice()
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts.count("W") == sum(f.is_wild for d in p10.DEFAULT_LAYOUT.dice for f in d.faces)
    assert sum(t in ("R", "O", "B", "G") for t in texts) == 60
