"""The command line's bounds and usage, as a user meets them (docs/cli-bounds.md): the largest
seed works with eight players; numbers are ASCII digits only; a long --layout name is shown
shortened; a command without its sub-command prints the usage line and the help hint;
``maxscore --phases 1-20`` and ``turns --max-turns`` answer within seconds or are refused."""

from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest

from phase10math._base.checks import BOUNDS, MAX_SEED, derived_seed
from phase10math.cli import main
from phase10math.errors import Phase10MathError
from phase10math.game.length import GameLength


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_largest_seed_plays_with_eight_players(capsys):
    code, out, err = run(
        [
            "game",
            "--players",
            "8",
            "--seed",
            str(MAX_SEED),
            "--strategies",
            "random",
            "--layout",
            "compact",
        ],
        capsys,
    )
    assert code == 0, err
    assert "4294967296" not in err


def test_derived_seeds_wrap_into_the_seed_range():
    assert derived_seed(MAX_SEED, 1) == 0
    assert derived_seed(10, 5) == 15
    assert all(0 <= derived_seed(MAX_SEED - 3, i) <= MAX_SEED for i in range(8))


@pytest.mark.parametrize("word", ["١٠", "²", "10.0", "1e1"])
def test_numbers_are_ascii_digits_everywhere(word, capsys):
    for argv in (["game", "--phases", word], ["turns", "--max-turns", word]):
        code, _, err = run(argv, capsys)
        assert code == 2 and err.count("\n") == 1, (argv, err)


def test_a_long_layout_name_is_shown_shortened(capsys):
    code, _, err = run(["table", "--layout", "x" * 5000], capsys)
    assert code == 2
    assert "'xxxxxxxxxx" in err and "..." in err and len(err) < 300


@pytest.mark.parametrize("argv", [[], ["cards"], ["tenk"]])
def test_a_command_without_its_sub_command_names_them_in_one_line(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert "a command is required: " in line and "--help" in line, line
    assert {(): "table, ", ("cards",): "dealt, ", ("tenk",): "ev, "}[tuple(argv)] in line, line


def test_max_turns_bound_is_documented_and_enforced(capsys):
    lo, hi = BOUNDS["max-turns"]
    assert f"1 .. {hi:,}".replace(",", "") in open("docs/cli-bounds.md").read().replace(",", "")
    code, _, err = run(["turns", "--max-turns", str(hi + 1)], capsys)
    assert code == 2 and "out of range" in err


def _convolution(p: dict[int, Fraction], n_max: int) -> list[Fraction]:
    """P(N = n) by direct convolution of the geometric laws (the reference)."""
    dist = [Fraction(1)] + [Fraction(0)] * n_max
    for v in p.values():
        geo = [Fraction(0)] + [v * (1 - v) ** (n - 1) for n in range(1, n_max + 1)]
        dist = [sum(dist[i] * geo[n - i] for i in range(n + 1)) for n in range(n_max + 1)]
    return dist


def test_game_length_recurrence_agrees_with_the_convolution():
    p = {1: Fraction(1, 2), 2: Fraction(2, 7), 3: Fraction(5, 9)}
    g = GameLength.from_probabilities(p)
    ref = _convolution(p, 25)
    assert [g.pmf(n) for n in range(26)] == ref
    assert g.cdf(25) == sum(ref)
    assert [row[1] for row in g.table(25)] == ref[3:]
    assert [round(row[1], 12) for row in g.float_table(25)] == [
        round(float(x), 12) for x in ref[3:]
    ]
    q = g.quantile(Fraction(9, 10))
    assert sum(ref[: q + 1]) >= Fraction(9, 10) > sum(ref[:q])


def test_game_length_to_the_bound_takes_seconds():
    g = GameLength.from_probabilities({k: Fraction(1, k + 2) for k in range(1, 11)})
    t = time.perf_counter()
    text = g.format(BOUNDS["max-turns"][1])
    assert time.perf_counter() - t < 10
    assert text.count("\n") > 900


def test_game_length_json_refuses_fractions_past_its_digit_bound():
    g = GameLength.from_probabilities({1: Fraction(1, 6**20), 2: Fraction(1, 3)})
    k = g.json_turns()
    assert len(str(g.denominator**k)) <= 4000 + k
    assert len(g.summary(k)["distribution"]) == k - 1
    with pytest.raises(Phase10MathError, match="4,000 digits"):
        g.summary(k + 1)


def test_maxscore_all_twenty_phases_in_seconds(capsys):
    t = time.perf_counter()
    code, out, err = run(["maxscore", "--phases", "1-20", "--json"], capsys)
    assert code == 0, err
    assert time.perf_counter() - t < 60
    assert len(json.loads(out)["phase_maxima"]) == 20
