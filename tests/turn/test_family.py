"""The certified family of a color phase's turn: its intervals hold the exact optimum (the
kit's exact integer solver, a different code path), refining closes them, and bad input is
refused."""

from __future__ import annotations

import numpy as np
import pytest

from phase10math.dice.faces import Die, parse_faces
from phase10math.dice.phases import parse_phase
from phase10math.errors import InvalidRulesError
from phase10math.turn.family import TurnFamily
from phase10math.turn.solver import solve_utility

DICE = (
    Die("low", parse_faces("5r 5o 6b 6g Wr Wo")),
    Die("low", parse_faces("5g 6r 6o 5b Wg Wb")),
    Die("low", parse_faces("5r 5o 6b 6g Wr Wo")),
    Die("low", parse_faces("1r 2r 3g 4b Wo Wg")),
)
PHASE = parse_phase("3 of one color")


def exact_value(fam: TurnFamily, u: np.ndarray) -> float:
    """The optimum of an integer utility by the kit's exact solver (Fractions)."""
    return float(solve_utility(fam.space, u[fam.outcome].astype(np.int64)).value())


@pytest.fixture(scope="module")
def family():
    fam = TurnFamily.for_phase(PHASE, layout=DICE)
    rng = np.random.default_rng(11)
    fam.refine(rng.integers(0, 50, size=(6, fam.n_outcomes)))
    return fam


def test_intervals_hold_the_exact_optimum(family):
    rng = np.random.default_rng(12)
    U = rng.integers(-20, 60, size=(12, family.n_outcomes)).astype(float)
    res = family.solve(U)
    lo, hi = res.values - res.margin, res.values + res.margin
    for b in range(len(U)):
        exact = exact_value(family, U[b])
        assert lo[b] <= exact <= hi[b]
        # the value is that of a real policy: its distribution's mean
        assert abs(res.dist[b] @ U[b] - res.values[b]) <= 1e-9
    assert (res.margin > 1e-6).any()  # utilities far from the cuts: wide intervals


def test_wide_rows_and_their_margins_in_one_pass(family):
    rng = np.random.default_rng(14)
    U = rng.integers(-20, 60, size=(10, family.n_outcomes)).astype(float)
    U = np.vstack([U, family.cuts[:2]])  # two rows already solved exactly: never wide
    rows, margin = family.wide_margins(U)
    v, lo, _ = family.lower(U)
    width = family.upper(U, lo) - lo
    solved = {row.tobytes() for row in family.cuts}
    expect = [i for i in range(len(U)) if width[i] > family.tol and U[i].tobytes() not in solved]
    assert rows.tolist() == expect and len(expect) >= 5
    # solve() bounds the same rows (its programs may group them otherwise: within rounding)
    assert np.allclose(margin, family.solve(U[rows], distribution=False).margin, rtol=0, atol=1e-9)
    for i, m in zip(rows, margin, strict=True):
        assert abs(exact_value(family, U[i]) - v[i]) <= m  # the margin holds the optimum


def test_the_linear_program_beats_the_best_single_cut(family):
    rng = np.random.default_rng(13)
    U = rng.integers(0, 50, size=(10, family.n_outcomes)).astype(float)
    v, lo, _ = family.lower(U)
    shift_only = family.upper(U)  # without a lower value: no program
    with_lp = family.upper(U, lo)
    assert (with_lp <= shift_only + 1e-12).all()
    assert (with_lp < shift_only - 1e-6).any()
    for b in range(len(U)):
        assert exact_value(family, U[b]) <= with_lp[b] + 1e-12


def test_refine_closes_the_interval_to_rounding():
    fam = TurnFamily.for_phase(PHASE, layout=DICE, tol=1e-9)
    U = np.random.default_rng(14).integers(0, 30, size=(3, fam.n_outcomes)).astype(float)
    assert fam.refine(U) == 3 and fam.exact_solves == 3
    res = fam.solve(U)
    assert (res.margin < 1e-10).all()
    assert fam.refine(U) == 0  # solved already: nothing to do
    for b in range(3):
        assert abs(res.values[b] - exact_value(fam, U[b])) <= res.margin[b]


def test_state_round_trip():
    fam = TurnFamily.for_phase(PHASE, layout=DICE)
    U = np.arange(fam.n_outcomes, dtype=float)[None] ** 0.5
    fam.refine(U)
    other = TurnFamily.for_phase(PHASE, layout=DICE)
    other.load(fam.state())
    a, b = fam.solve(U), other.solve(U)
    assert np.array_equal(a.values, b.values) and np.array_equal(a.margin, b.margin)


def test_bad_input_is_refused(family):
    with pytest.raises(InvalidRulesError, match="outcomes"):
        family.solve(np.zeros((1, family.n_outcomes + 1)))
    with pytest.raises(InvalidRulesError, match="finite"):
        family.solve(np.full((1, family.n_outcomes), np.nan))
    empty = TurnFamily.for_phase(PHASE, layout=DICE)
    with pytest.raises(InvalidRulesError, match="no policy"):
        empty.solve(np.zeros((1, empty.n_outcomes)))
    with pytest.raises(InvalidRulesError, match="outcomes"):
        empty.add_policies(np.zeros((1, 2)))


def test_exact_solves_side_by_side_equal_one_at_a_time(monkeypatch):
    """Two threads (chunks of columns, each with its own tie threshold) agree with one
    within the proven margins."""
    probe = TurnFamily.for_phase(PHASE, layout=DICE)
    U = np.random.default_rng(15).integers(0, 40, size=(5, probe.n_outcomes)).astype(float)
    got = {}
    for n in ("1", "2"):
        monkeypatch.setenv("PHASE10MATH_THREADS", n)
        fam = TurnFamily.for_phase(PHASE, layout=DICE)
        got[n] = fam.exact(U)
        assert fam.size == 5 and fam.exact_solves == 5
    one, two = got["1"], got["2"]
    assert (np.abs(one.values - two.values) <= one.margin + two.margin).all()
    for b in range(len(U)):
        assert abs(two.values[b] - exact_value(probe, U[b])) <= two.margin[b]


def test_programs_in_chunks_side_by_side_bound_like_one_program(family, monkeypatch):
    """The upper values from many small programs, two threads at a time, hold the exact
    optimum and are as tight as one block program over all the rows (up to the solver's
    tolerance)."""
    import phase10math.turn.family as fam_module

    rng = np.random.default_rng(16)
    U = rng.integers(0, 50, size=(3 * fam_module.LP_CHUNK + 5, family.n_outcomes)).astype(float)
    _, lo, _ = family.lower(U)
    got = {}
    for threads, chunk in (("1", 10**6), ("2", fam_module.LP_CHUNK), ("1", 7)):
        monkeypatch.setenv("PHASE10MATH_THREADS", threads)
        monkeypatch.setattr(fam_module, "LP_CHUNK", chunk)
        got[threads, chunk] = family.upper(U, lo)
    one, *others = got.values()
    assert (one < U.max(axis=1) - 1e-6).any()  # the programs do bound below the best outcome
    for other in others:
        assert np.allclose(other, one, rtol=0, atol=1e-6)
    for b in range(0, len(U), 9):
        exact = exact_value(family, U[b])
        assert all(exact <= bound[b] + 1e-12 for bound in got.values())
