"""The argument check of the public API (``phase10math._base.checks.public``): a wrong type is a
``WrongTypeError`` (a package error and a ``TypeError``) naming the parameter, the value and
what it accepts; a wrong value a ``Phase10MathError`` (a ``ValueError``); booleans are not
numbers; NaN and infinities are refused; nothing from inside escapes. Each case below was a
bare ``AttributeError``/``TypeError``/``ValueError`` from deep inside, or a silent accept."""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import typing
from fractions import Fraction

import pytest

import phase10math as p10
from phase10math import cards
from phase10math._base.checks import public, unchecked
from phase10math.dice.faces import Die, Face, parse_faces
from phase10math.dice.layouts import COMPACT_LAYOUT
from phase10math.errors import InvalidArgumentError, Phase10MathError, WrongTypeError
from phase10math.game.length import MAX_LENGTH_TURNS, GameLength

GL = GameLength.from_probabilities({1: Fraction(1, 2), 2: Fraction(1, 3)})
ROLL = parse_faces("8 8 8 10 W W 1 2 5 6")
HAND = cards.parse_hand("R1 R2 R3 B3 B3 Y3 G7 G8 W S")
GROUP = cards.make_group("set", cards.parse_hand("B3 B3 Y3"))


def test_wrong_type_error_is_a_type_error_and_a_package_error():
    assert issubclass(WrongTypeError, TypeError)
    assert issubclass(WrongTypeError, Phase10MathError)
    assert issubclass(InvalidArgumentError, ValueError)


@public
def _half(x: int, y: float = 1.0, name: str | None = None) -> float:
    return x / 2 * y


def test_the_decorator_names_parameter_value_and_what_it_accepts():
    with pytest.raises(WrongTypeError, match=r"_half\(\): x='3' \(str\); accepts int"):
        _half("3")
    with pytest.raises(WrongTypeError, match="name=5 .int.; accepts str | None"):
        _half(1, name=5)
    assert _half(4, 2) == 4.0  # an int is a float (the numeric tower)


@pytest.mark.parametrize("bad", [True, False])
def test_booleans_are_not_numbers(bad):
    with pytest.raises(WrongTypeError, match="a boolean is not a number"):
        _half(bad)
    with pytest.raises(WrongTypeError, match="a boolean is not a number"):
        _half(2, y=bad)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_nan_and_infinities_are_refused(bad):
    with pytest.raises(InvalidArgumentError, match="NaN and infinities"):
        _half(2, bad)


def test_unchecked_switches_the_check_off_for_the_benchmark_only():
    with unchecked():
        assert _half(True) == 0.5
    with pytest.raises(WrongTypeError):
        _half(True)


RULES_STICKY = [
    ("phase_table", lambda: p10.phase_table(rules="sticky")),
    ("simulate_optimal_turns", lambda: p10.simulate_optimal_turns(1, rules="sticky")),
    ("cached_solution", lambda: p10.cached_solution(1, rules="sticky")),
    ("phase_row", lambda: p10.phase_row(1, rules="sticky")),
    ("values_by_rolls_left", lambda: p10.values_by_rolls_left(1, rules="sticky")),
    ("greedy_hold", lambda: p10.greedy_hold(1, ROLL, rules="sticky")),
    ("format_table", lambda: p10.format_table({}, "sticky")),
    ("solve_turn", lambda: p10.solve_turn(1, rules="sticky")),
    ("advise", lambda: p10.advise(ROLL, 2, 1, rules="sticky")),
    ("for_strategy", lambda: GameLength.for_strategy("complete", rules="sticky")),
    ("score", lambda: p10.score(1, ROLL, rules=7)),
]


@pytest.mark.parametrize("name,call", RULES_STICKY, ids=[n for n, _ in RULES_STICKY])
def test_rules_given_as_text_is_a_wrong_type_naming_rules(name, call):
    with pytest.raises(WrongTypeError, match=r"rules=.*accepts Rules"):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: GL.pmf("3"),
        lambda: GL.cdf(True),
        lambda: GL.tail(1.5),
        lambda: GL.table(None),
        lambda: GL.quantile("x"),
        lambda: GL.summary([]),
        lambda: GL.format(3, name=4),
    ],
)
def test_game_length_methods_refuse_wrong_types(call):
    with pytest.raises(WrongTypeError):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: GL.pmf(MAX_LENGTH_TURNS + 1),
        lambda: GL.table(10**30),
        lambda: GL.quantile(math.nan),
        lambda: GL.quantile(2),
        lambda: GL.quantile(Fraction(1, 2), n_max=-1),
    ],
)
def test_game_length_methods_refuse_values_past_their_bounds(call):
    with pytest.raises(Phase10MathError):
        call()


@pytest.mark.parametrize(
    "fn", [p10.show, p10.percent, p10.readable], ids=["show", "percent", "readable"]
)
@pytest.mark.parametrize("bad", ["sticky", "1/0", None, True, math.nan, math.inf, [1], "9" * 500])
def test_exact_formatting_refuses_what_is_not_a_number(fn, bad):
    with pytest.raises(Phase10MathError):
        fn(bad)


@pytest.mark.parametrize("digits", [-1, 31, 10**9])
def test_exact_formatting_digits_are_bounded(digits):
    # was "Format specifier missing precision" from inside for negative digits
    for fn in (p10.show, p10.percent):
        with pytest.raises(InvalidArgumentError, match="digits"):
            fn(Fraction(1, 3), digits)


def test_exact_formatting_of_a_huge_value_does_not_overflow():
    assert p10.percent(Fraction(10**400)) == "inf%"
    assert p10.show(Fraction(1, 3), 0) == "1/3 (0)"


@pytest.mark.parametrize(
    "call",
    [
        lambda: cards.Card(True),
        lambda: cards.parse_hand(5),
        lambda: cards.can_hit("x", HAND[0]),
        lambda: cards.can_hit(GROUP, 5),
        lambda: cards.make_group(5, 5),
        lambda: cards.DeckSpec(numbers="x"),
        lambda: cards.DeckSpec(numbers=True),
        lambda: cards.dealt_table("x"),
        lambda: cards.hit(1, 2),
        lambda: cards.brute_force_odds(1, "x", cards.STANDARD),
        lambda: cards.holds_phase(1, 2),
        lambda: cards.simulate_dealt(1, trials=math.nan),
    ],
)
def test_card_api_refuses_wrong_types_with_package_errors(call):
    with pytest.raises(Phase10MathError):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: Die(True, COMPACT_LAYOUT.dice[0].faces),
        lambda: Die(1.5, COMPACT_LAYOUT.dice[0].faces),
        lambda: Die("high", "5 6 7"),
        lambda: Face(True),
        lambda: Face(1.5),
        lambda: Face(5).matches("5"),
        lambda: COMPACT_LAYOUT.dice[0].show(None),
    ],
)
def test_dice_values_refuse_wrong_types(call):
    with pytest.raises(WrongTypeError):
        call()


def test_enums_refuse_with_package_errors():
    with pytest.raises(Phase10MathError, match="allowed: free, sticky"):
        p10.Holds("bogus")
    with pytest.raises(WrongTypeError):
        p10.Objective(None)
    assert p10.Holds("sticky") is p10.Holds.STICKY


class _Quiet:
    """A strategy that keeps nothing (the Strategy protocol: a name and ``hold``)."""

    name = "quiet"

    def hold(self, view):
        return ()


@pytest.mark.parametrize(
    "strategies",
    ["greedy", [object()], [None], [_Quiet(), 3], 5],
    ids=["a name", "an object", "None", "a strategy and a number", "a number"],
)
def test_game_checks_its_strategies_against_the_protocol(strategies):
    """``Game(strategies)`` is checked like every public name: anything that is not a
    sequence of strategies (a ``name`` and a ``hold`` method) is a wrong type naming it."""
    for _ in range(40):  # beartype checks one item of a list, drawn at random
        with pytest.raises(WrongTypeError, match=r"Game\(\): strategies(\[1\])?="):
            p10.Game(strategies, layout=COMPACT_LAYOUT, phases=1)
    game = p10.Game([_Quiet()], layout=COMPACT_LAYOUT, phases=1, seed=1)
    assert game.players[0].name == "quiet#1"


def test_a_refused_item_is_named_whichever_item_the_check_drew():
    """The message names the parameter and the value, also when the refused item of a list is
    not the one beartype's check drew (it checks one item, at random)."""

    @public
    def count(xs: list[int], scale: int = 1) -> int:
        return len(xs) * scale

    refused = 0
    for _ in range(200):
        try:
            count([1, 2, "x"], scale=2)
        except WrongTypeError as exc:
            assert "count(): xs=[1, 2, 'x'] (list); accepts list[int]" in str(exc), exc
            refused += 1
    assert refused > 20  # the drawn item is the refused one about a third of the time


def _checked_functions():
    """Every function the package checks with :func:`public` (methods of classes too)."""
    found = []
    for info in pkgutil.walk_packages(p10.__path__, "phase10math."):
        mod = importlib.import_module(info.name)
        for obj in list(vars(mod).values()):
            if getattr(obj, "__module__", None) != mod.__name__:
                continue
            members = vars(obj).values() if inspect.isclass(obj) else [obj]
            for m in members:
                f = m.__func__ if isinstance(m, (classmethod, staticmethod)) else m
                if getattr(f, "__wrapped_checked__", False):
                    found.append(f.__wrapped__)
    return found


def test_every_checked_function_has_annotations_that_resolve():
    """A check whose annotations cannot be resolved at call time (a name imported only for
    type checkers) would let the function run unchecked; there is none."""
    funcs = _checked_functions()
    assert len(funcs) > 100
    unresolved = []
    for f in funcs:
        try:
            typing.get_type_hints(f, include_extras=True)
        except Exception as exc:  # noqa: BLE001 - listed below
            unresolved.append(f"{f.__module__}.{f.__qualname__}: {exc}")
    assert not unresolved, unresolved


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: p10.phase_table([99], layout=COMPACT_LAYOUT), "phases=99"),
        (lambda: p10.phase_table([1], layout=COMPACT_LAYOUT, workers=0), "workers=0"),
        (lambda: p10.format_table({1: {}}, p10.DEFAULT_RULES), r"rows\[1\] lacks"),
        (lambda: p10.format_table({99: {}}, p10.DEFAULT_RULES), "rows=99"),
        (lambda: p10.simulate_optimal_turns(1, turns=-5, layout=COMPACT_LAYOUT), "turns=-5"),
        (lambda: p10.simulate_optimal_turns(1, turns=1, layout=COMPACT_LAYOUT), "turns=1"),
        (lambda: p10.simulate_optimal_turns(1, seed=-1, layout=COMPACT_LAYOUT), "seed=-1"),
    ],
    ids=[
        "table phase 99",
        "workers 0",
        "row lacks columns",
        "row of phase 99",
        "turns -5",
        "turns 1",
        "seed -1",
    ],
)
def test_tables_and_simulations_refuse_values_before_any_work(call, message):
    """These were a KeyError (phase 99, a row without its columns) or numpy's ValueError
    (negative turns) from inside."""
    with pytest.raises(Phase10MathError, match=message):
        call()


def test_the_first_calls_and_the_later_ones_accept_and_refuse_alike(monkeypatch):
    """The first calls of a public function are checked by plain ``isinstance`` checks
    (no beartype import: the command line's refusals stay light), later ones by beartype's
    compiled check: the same values pass and the same wrong types are refused, naming them."""
    import numpy as np

    from phase10math._base import checks

    def fresh():
        @public
        def take(n: int, xs: list[float] | None = None, *rest: str, **named: int) -> int:
            return n

        return take

    good = [((1,), {}), ((np.int64(2), [1, 2.5]), {}), ((3, None, "a", "b"), {"k": 4})]
    bad = [(("1",), {}), ((1, ["x"]), {}), ((1, None, 5), {}), ((1,), {"k": "v"})]
    for fast in (len(good) + 1, 0):  # the plain checks, then beartype's from the first call
        monkeypatch.setattr(checks, "FAST_CALLS", fast)
        for args, kwargs in bad:
            take = fresh()
            for good_args, good_kwargs in good:
                assert take(*good_args, **good_kwargs) == good_args[0]
            with pytest.raises(WrongTypeError, match=r"take\(\): "):
                take(*args, **kwargs)
