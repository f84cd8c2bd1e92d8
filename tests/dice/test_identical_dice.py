"""Layouts with one kind of die (or ten identical dice): the exact turn against a brute force,
after the projection and with sticky holds, from the command line; ten distinct dice refused at
once."""

from __future__ import annotations

import functools
import itertools
import json
import time
from fractions import Fraction

import pytest
from clirun import one_line_error, run

from phase10math.dice.faces import Die, parse_layout
from phase10math.dice.rules import Rules
from phase10math.turn.projection import VALUE
from phase10math.turn.solver import solve_custom

SAME_LAYOUT = "6 x 5r 6o 7b 8g 9r 10o\n4 x 1r 2o 3b 4g Wr Wo"
HIGH = parse_layout(SAME_LAYOUT).dice[0]


def brute_turn(dice: list[Die], utility, rolls: int) -> Fraction:
    """Naive reference: ordered dice, every subset of positions kept, every outcome listed."""

    n = len(dice)

    @functools.cache
    def value(faces: tuple, r: int) -> Fraction:
        if r == 0:
            return Fraction(utility(list(faces)))
        best = None
        for keep in itertools.product([False, True], repeat=n):
            free = [i for i in range(n) if not keep[i]]
            tot = Fraction(0)
            for out in itertools.product(*[dice[i].faces for i in free]):
                new = list(faces)
                for i, f in zip(free, out, strict=True):
                    new[i] = f
                tot += value(tuple(new), r - 1)
            v = tot / 6 ** len(free)
            best = v if best is None or v > best else best
        return best

    total = Fraction(0)
    for roll in itertools.product(*[d.faces for d in dice]):
        total += value(roll, rolls - 1)
    return total / 6**n


def _util(faces):
    vals = [f.value for f in faces]
    top = max(vals.count(v) for v in vals)
    return 10 * top + max(vals)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_n_identical_dice_against_brute_force(n):
    dice = [HIGH] * n
    sol = solve_custom(_util, Rules(rolls=3), dice)
    assert sol.value() == brute_turn(dice, _util, 3)


def test_single_type_after_projection_and_sticky():
    other = parse_layout("5o 6b 7g 8r 9o 10b\n" + SAME_LAYOUT.replace("6 x", "5 x")).dice[0]
    dice = [HIGH, other]  # two types, one under the value projection
    v = solve_custom(_util, Rules(rolls=2), dice, projection=VALUE).value()
    assert v == brute_turn([HIGH, HIGH], _util, 2)
    sticky = solve_custom(_util, Rules(rolls=2, holds="sticky"), [HIGH] * 3)
    assert sticky.value() == brute_turn([HIGH] * 3, _util, 2)  # two rolls: free = sticky


def test_identical_dice_layout_from_the_command_line(tmp_path):
    f = tmp_path / "same.txt"
    f.write_text(SAME_LAYOUT)
    code, out, err = run(["table", "--phases", "8", "--layout", str(f), "--json"])
    assert code == 0, err
    assert json.loads(out)


def test_ten_distinct_dice_refused_at_once_with_the_whole_message(tmp_path):
    lines = []
    for i in range(6):
        c = "robg"
        lines.append(" ".join(f"{v}{c[(i + j) % 4]}" for j, v in enumerate(range(5, 11))))
    for i in range(4):
        c = "robg"
        lines.append(" ".join(f"{v}{c[(i + j) % 4]}" for j, v in enumerate("1234WW")))
    f = tmp_path / "distinct.txt"
    f.write_text("\n".join(lines))
    t = time.time()
    code, _out, err = run(["table", "--phases", "8", "--layout", str(f)])
    assert time.time() - t < 5
    line = one_line_error(err, code)
    assert line.endswith("or the other hold rule.") and "holds" in line
