"""Phase phrases and their work: every phrase either answers or is refused at once.

- phrases made only of color groups are solved in closed form (checked here against the
  exhaustive search on random rolls);
- sets or runs beside several color groups are refused for a turn before any state space is
  built (their meld search is past the documented bound), while one roll is still scored;
- the sixth group of a phase has a name (``6 sets of 1`` was an IndexError);
- card phrases: ASCII digits, at most 3 of them, and groups the deck can hold."""

from __future__ import annotations

import time

import numpy as np
import pytest

from phase10math import cards
from phase10math.cli import main
from phase10math.dice import meld
from phase10math.dice.faces import parse_faces
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.dice.phases import parse_phase
from phase10math.dice.rules import DEFAULT_RULES
from phase10math.errors import Phase10MathError, StateSpaceTooLargeError
from phase10math.turn.solver import solve_turn

COLOR_ONLY = [
    "2 of one color + 2 of one color",
    "3 of one color + 3 of one color + 4 of one color",
    "1 of one color + 1 of one color + 5 of one color",
    "2 of one color + 2 of one color + 2 of one color + 2 of one color",
]


def _random_profiles(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    counts = np.zeros((n, 11, 4), dtype=np.int64)
    for i in range(n):
        np.add.at(counts[i], (rng.integers(0, 11, 10), rng.integers(0, 4, 10)), 1)
    return counts


@pytest.mark.parametrize("text", COLOR_ONLY)
def test_color_only_closed_form_agrees_with_the_exhaustive_search(text):
    ph = parse_phase(text)
    counts = _random_profiles(60, seed=len(text))
    fast = meld.best_scores(ph, counts)
    slow = np.array([meld._generic_best(ph, c, DEFAULT_RULES) for c in counts])
    assert (fast == slow).all()
    assert (fast >= 0).any() or "4 of one color" in text


def _few_color_profiles(n: int, seed: int, colors: int) -> np.ndarray:
    """Rolls of ten dice in only ``colors`` colors (so that large color groups are made)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((n, 11, 4), dtype=np.int8)
    for i in range(n):
        np.add.at(counts[i], (rng.integers(0, 11, 10), rng.integers(0, colors, 10)), 1)
    return counts


@pytest.mark.parametrize("text", COLOR_ONLY[:3] + ["5 of one color + 5 of one color"])
@pytest.mark.parametrize("colors", [1, 2])
def test_color_only_closed_form_on_rolls_of_one_or_two_colors(text, colors):
    """Where the groups can be made (rolls of one or two colors), the closed form's score is
    the exhaustive search's on every roll (up to three groups: the search over four groups
    of one color takes seconds a roll)."""
    ph = parse_phase(text)
    counts = _few_color_profiles(40, seed=len(text) + colors, colors=colors)
    fast = meld.best_scores(ph, counts)
    slow = np.array([meld._generic_best(ph, c, DEFAULT_RULES) for c in counts])
    assert (fast == slow).all()
    assert (fast >= 0).sum() >= 5  # the feasible branch is exercised


def test_top_k_score_is_the_sum_of_the_k_highest_numbers():
    rng = np.random.default_rng(7)
    avail = rng.integers(0, 4, size=(200, 10))
    for k in (0, 1, 3, 7, 10, 12):
        got = meld._top_k_score(avail, k)
        for row, g in zip(avail, got, strict=True):
            values = sorted((n for n in range(1, 11) for _ in range(row[n - 1])), reverse=True)
            assert g == sum(values[:k])


def test_color_demands_merge_groups_of_one_color():
    demands = meld.color_demands([2, 3])
    assert (0, 0, 0, 5) in demands and (2, 3, 0, 0) in demands and (3, 2, 0, 0) in demands
    assert all(sum(d) == 5 for d in demands)
    assert len(demands) == 4 + 4 * 3  # one color for both, or an ordered pair of two


def test_mixed_phrase_with_several_color_groups_is_refused_at_once_for_a_turn():
    text = "1 run of 3 + 2 of one color + 2 of one color"
    t = time.perf_counter()
    with pytest.raises(StateSpaceTooLargeError, match="cli-bounds"):
        solve_turn(text, layout=COMPACT_LAYOUT)
    assert time.perf_counter() - t < 2
    # one roll is still scored (the exhaustive search over one roll's dice)
    roll = parse_faces("1r 2o 3b 5g 6g 7r 8r 9o 10b 4g")
    # by hand: the run 7r 8r 9o, blue 10b 3b, green 6g 5g (a run of 8 9 10 leaves 46 at best)
    assert meld.score(text, roll) == (7 + 8 + 9) + (10 + 3) + (6 + 5)
    assert meld.explain(text, roll).complete


def test_generic_work_estimate_counts_the_group_choices():
    ph = parse_phase("1 run of 3 + 2 of one color + 2 of one color")
    assert meld.generic_work(ph, 1) == 120 * 21 * 10  # C(10,3) C(7,2) C(5,2)


def test_six_groups_advice_names_the_sixth_group(capsys):
    code = main(
        ["advise", "--phase", "6 sets of 1", "--layout", "compact", "--rolls-left", "2"]
        + "5o 5o 5o 5g 5g 5b 1g 1g 1g 1r".split()
    )
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "internal error" not in out.err


@pytest.mark.parametrize(
    "text,message",
    [
        ("1 set of 99999999999999999999", "too large"),
        ("1 set of " + "9" * 5000, "too large"),
        ("1 set of ١٠", "cannot read"),
        ("1 set of 31", "at most 16 cards for one number"),
        ("1 of one color + 40 of one color", "at most 32 cards for one color"),
        ("99 sets of 2", "the deck has 108 cards"),
    ],
)
def test_card_phrases_refuse_numbers_and_groups_the_deck_cannot_hold(text, message):
    with pytest.raises(Phase10MathError, match=message):
        cards.parse_phase(text)


def test_card_phrase_of_standard_size_still_reads():
    assert cards.parse_phase("two sets of 4") == cards.phase(7)
    assert cards.parse_phase("1 set of 16").groups[0].size == 16


@pytest.mark.parametrize("text", ["7 sets of 2", "1 set of 31", "1 set of 99999999999999999999"])
def test_cards_dealt_refuses_what_a_hand_cannot_hold(text, capsys):
    assert main(["cards", "dealt", "--phase", text]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err and "internal" not in err


def test_card_text_reads_ascii_digits_only():
    assert str(cards.parse_card("R7")) == str(cards.parse_card("red 7"))
    with pytest.raises(Phase10MathError):
        cards.parse_card("R١٠")


# --------------------------------------------------------------------------- any phrase

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

NUMBERS = st.one_of(
    st.integers(0, 12).map(str),
    st.sampled_from(["one", "two", "ten", "99999999999999999999", "9" * 300, "²", "١٠", "-1"]),
)
PART = st.one_of(
    st.tuples(NUMBERS, st.sampled_from(["set", "sets", "run", "runs"]), NUMBERS).map(
        lambda t: f"{t[0]} {t[1]} of {t[2]}"
    ),
    NUMBERS.map(lambda n: f"{n} of one color"),
)
PHRASE = st.lists(PART, min_size=1, max_size=7).flatmap(
    lambda parts: st.sampled_from([" + ", " and ", ", "]).map(lambda j: j.join(parts))
)
ROLL = "1r 2o 3b 5g 6g 7r 8r 9o 10b 4g".split()


def _timed(argv) -> tuple[int, float, str]:
    import contextlib
    import io

    err = io.StringIO()
    t = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, time.perf_counter() - t, err.getvalue()


@settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=PHRASE)
def test_any_phrase_answers_or_is_refused_within_seconds(text):
    code, seconds, err = _timed(["check", "--phase", text, *ROLL])
    assert code in (0, 2) and "internal error" not in err, (text, err)
    assert seconds < 5, (text, seconds)
    try:
        ph = parse_phase(text)
        meld.check_solvable(ph)
    except Phase10MathError:
        # a phrase refused for a turn is refused at once by the turn commands too
        code, seconds, err = _timed(
            ["advise", "--phase", text, "--layout", "compact", "--rolls-left", "2", *ROLL]
        )
        assert code == 2 and err.count("\n") == 1, (text, err)
        assert seconds < 5, (text, seconds)
    code, seconds, err = _timed(["cards", "dealt", "--phase", text, "--hand-size", "3"])
    assert code == 2 or seconds < 30, (text, seconds)
    assert "internal error" not in err, (text, err)


TWO_DICE_LAYOUT = "6 x 5r 6o 7b 8g 9r 10o\n4 x Wr Wb 1g 2o 3b 4r\n"


@pytest.mark.parametrize("text", COLOR_ONLY)
def test_color_only_phrase_is_advised_within_seconds(text, tmp_path, capsys):
    """Every phrase of color groups is solved for a turn (no refusal, no hang): on dice of two
    kinds here (the compact dice take as long as phase 8, ``benchmarks/bench_meld.py``)."""
    layout = tmp_path / "two.txt"
    layout.write_text(TWO_DICE_LAYOUT)
    roll = "5r 6o 7b 8g 9r 10o Wr Wb 1g 2o".split()
    t = time.perf_counter()
    code = main(["advise", "--phase", text, "--layout", str(layout), "--rolls-left", "2", *roll])
    assert time.perf_counter() - t < 10  # about half a second on a quiet machine
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "best:" in out.out
