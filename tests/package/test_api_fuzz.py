"""The whole public API fuzzed from its signatures (hypothesis): every function and class named
in ``__all__`` of the package and its subpackages, and the public methods of those classes, is
called with arguments drawn from its annotations (valid samples) mixed with hostile values
(wrong types, booleans for numbers, NaN, infinities, huge numbers, long text). A call either
works or raises one of the package's errors: a wrong type a ``WrongTypeError`` (a package
error that is also a ``TypeError``), anything else a ``Phase10MathError`` (a ``ValueError``);
never ``AttributeError``, ``IndexError``, ``KeyError``, ``OverflowError`` or a bare error from
inside.

Functions that solve (seconds or more on any valid input) get at least one argument that their
annotation refuses, so the check at the boundary must answer before any work starts."""

from __future__ import annotations

import enum
import importlib
import inspect
import math
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction

import pytest

hypothesis = pytest.importorskip("hypothesis")
from beartype.door import is_bearable  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from phase10math import cards  # noqa: E402
from phase10math.cards import deck as card_deck  # noqa: E402
from phase10math.dice.faces import Face, Layout  # noqa: E402
from phase10math.dice.layouts import COMPACT_LAYOUT  # noqa: E402
from phase10math.dice.phases import PHASES  # noqa: E402
from phase10math.dice.phases import Phase as DicePhase  # noqa: E402
from phase10math.dice.rules import Holds, Objective, Rules  # noqa: E402
from phase10math.errors import Phase10MathError, WrongTypeError  # noqa: E402
from phase10math.game.length import GameLength  # noqa: E402

#: The packages whose ``__all__`` this file covers (the 10,000 API and the play models are
#: checked by their own tests).
PACKAGES = ["phase10math", "phase10math.cards"]

#: Public names that solve, simulate or enumerate: always called with a refused argument.
HEAVY = {
    "solve_turn",
    "solve_custom",
    "cached_solution",
    "advise",
    "best_hold",
    "phase_row",
    "phase_table",
    "values_by_rolls_left",
    "simulate_optimal_turns",
    "solitaire_comparison",
    "phase_maxima",
    "game_maximum",
    "play_game",
    "get_strategy",
    "Game",
    "GameLength.for_strategy",
    "dealt_table",
    "dealt_odds",
    "dealt_probability",
    "brute_force_odds",
    "simulate_dealt",
}

HOSTILE = [
    None,
    True,
    False,
    -1,
    0,
    7,
    10**30,
    -(10**30),
    1.5,
    math.nan,
    math.inf,
    -math.inf,
    "",
    "x",
    "sticky",
    "9" * 5000,
    "1 set of 99999999999999999999",
    "²",
    "١٠",
    [],
    [None],
    [1, 2],
    (),
    {},
    {"a": 1},
    b"1",
    object(),
    Fraction(1, 3),
    Fraction(-5, 2),
    frozenset(),
]

STANDARD = cards.STANDARD
ROLL = tuple(Face(v, c) for v, c in [(5, "o")] * 3 + [(5, "g")] * 2 + [(5, "b")] + [(1, "g")] * 4)
HAND = card_deck.parse_hand("R1 R2 R3 B3 B3 Y3 G7 G8 W S")
SAMPLES: dict[object, list] = {
    int: [0, 1, 2, 3, 10, 20, -3, 200],
    float: [0.0, 0.5, 1.0, 3.25],
    bool: [True, False],
    str: ["1", "free", "score", "complete", "2 sets of 3", "R7", "W", "set", "run", "color"],
    type(None): [None],
    Fraction: [Fraction(1, 3), Fraction(0), Fraction(1)],
    Rules: [Rules(), Rules(holds="sticky"), Rules(rolls=1)],
    Holds: list(Holds),
    Objective: list(Objective),
    Layout: [COMPACT_LAYOUT],
    Face: [Face(5, "o"), Face(0, "g"), Face(10)],
    DicePhase: [PHASES[1], PHASES[8], PHASES[14]],
    cards.Card: list(HAND[:3]) + [cards.WILD, cards.SKIP],
    cards.DeckSpec: [STANDARD, cards.DeckSpec(numbers=4, copies=1, wilds=2, skips=0)],
    cards.Phase: [cards.phase(1), cards.phase(8)],
    cards.Group: list(cards.phase(1).groups),
}


def _samples_for(hint, depth: int = 0) -> list:
    """Valid-looking values for an annotation (a sample of them; wrong ones come from HOSTILE)."""
    if hint is typing.Any or hint is inspect.Parameter.empty:
        return [1, "1", Fraction(1, 2), None]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        return [v for a in args for v in _samples_for(a, depth)]
    if origin is typing.Literal:
        return list(args)
    if origin in (list, tuple, Sequence, Iterable, set, frozenset) and depth < 2:
        inner = [a for a in args if a is not Ellipsis] or [typing.Any]
        items = [v for a in inner for v in _samples_for(a, depth + 1)][:10]
        seqs = [items[:k] for k in (0, 1, 3, len(items))]
        if any(a is Face or a is cards.Card for a in inner):
            seqs.append(list(ROLL if Face in inner else HAND))
        cast = tuple if origin is tuple else list
        return [cast(s) for s in seqs]
    if origin in (dict, Mapping) and depth < 2:
        return [{}, {1: Fraction(1, 2), 2: Fraction(1, 3)}]
    if origin in (Callable, typing.Callable) or hint is Callable:
        return [lambda *a, **k: 0]
    if isinstance(hint, type):
        for t, vals in SAMPLES.items():
            if isinstance(t, type) and issubclass(hint, t) and hint is not bool or hint is t:
                return list(vals)
    return [None]


def public_callables() -> list[tuple[str, Callable]]:
    """Every public function and class of :data:`PACKAGES`, and their public methods (bound to
    a sample instance)."""
    out: dict[str, Callable] = {}
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                out.setdefault(name if pkg == "phase10math" else f"cards.{name}", obj)
    for name, instance in sample_instances().items():
        for attr, member in vars(type(instance)).items():
            if attr.startswith("_"):
                continue
            if inspect.isfunction(member) or isinstance(member, classmethod):
                out[f"{name}.{attr}"] = getattr(instance, attr)
    return sorted(out.items())


def sample_instances() -> dict[str, object]:
    return {
        "Face": Face(5, "o"),
        "Die": COMPACT_LAYOUT.dice[0],
        "Layout": COMPACT_LAYOUT,
        "Phase": PHASES[3],
        "Rules": Rules(),
        "GameLength": GameLength.from_probabilities({1: Fraction(1, 2), 2: Fraction(1, 3)}),
        "cards.Card": HAND[0],
        "cards.DeckSpec": STANDARD,
        "cards.Phase": cards.phase(2),
        "cards.LaidGroup": cards.make_group("set", card_deck.parse_hand("B3 B3 Y3")),
        "cards.Estimate": cards.Estimate(3, 10),
    }


CALLABLES = public_callables()


def _params(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return [], {}
    try:
        hints = typing.get_type_hints(getattr(fn, "__init__", fn) if inspect.isclass(fn) else fn)
    except Exception:
        hints = {}
    if inspect.isclass(fn) and issubclass(fn, enum.Enum):  # a lookup, not the functional API
        return [inspect.Parameter("value", inspect.Parameter.POSITIONAL_OR_KEYWORD)], {}
    params = [
        p
        for p in sig.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        and not p.name.startswith("_")
        and p.name not in ("progress", "show_progress")
    ]
    return params, hints


def _bearable(value, hint) -> bool:
    try:
        return hint is inspect.Parameter.empty or is_bearable(value, hint)
    except Exception:
        return True


def call_strategy(name: str, fn: Callable):
    params, hints = _params(fn)
    heavy = name.split(".")[-1] in HEAVY or name in HEAVY

    @st.composite
    def arguments(draw):
        args = {}
        required = [p for p in params if p.default is inspect.Parameter.empty]
        optional = [p for p in params if p.default is not inspect.Parameter.empty]
        chosen = required + [p for p in optional if draw(st.booleans())]
        for p in chosen:
            hint = hints.get(p.name, inspect.Parameter.empty)
            valid = _samples_for(hint)
            args[p.name] = draw(
                st.one_of(st.sampled_from(valid), st.sampled_from(HOSTILE))
                if valid
                else st.sampled_from(HOSTILE)
            )
        if heavy:
            typed = [p for p in chosen if p.name in hints]
            if not typed:
                return None
            p = draw(st.sampled_from(typed))
            refused = [v for v in HOSTILE if not _bearable(v, hints[p.name])]
            args[p.name] = draw(st.sampled_from(refused))
        return args

    return arguments()


def call_and_check(name: str, fn: Callable, kwargs: dict | None) -> str:
    if kwargs is None:
        return "skipped"
    try:
        fn(**kwargs)
    except WrongTypeError as exc:
        assert str(exc), name
        return "wrong type"
    except Phase10MathError as exc:
        assert str(exc), name
        return "refused"
    except TypeError as exc:
        # only Python's own arity errors (a keyword the signature has no room for)
        assert "argument" in str(exc) and "phase10math" not in str(exc), (name, kwargs, exc)
        raise AssertionError(f"{name}({kwargs!r}) raised a bare TypeError: {exc}") from exc
    return "worked"


FUZZ = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
)


@pytest.mark.parametrize("name,fn", CALLABLES, ids=[n for n, _ in CALLABLES])
def test_any_argument_works_or_raises_a_package_error(name, fn):
    @FUZZ
    @given(kwargs=call_strategy(name, fn))
    def run(kwargs):
        call_and_check(name, fn, kwargs)

    run()


def test_the_fuzz_covers_every_public_name():
    names = {n.split(".")[-1] for n, _ in CALLABLES}
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        for n in mod.__all__:
            obj = getattr(mod, n)
            if inspect.isfunction(obj) or (
                inspect.isclass(obj) and not issubclass(obj, BaseException)
            ):
                assert n in names or obj.__name__ in names, n


def test_the_checker_itself_can_fail():
    """A call that lets an internal error escape is caught by :func:`call_and_check`."""

    def broken(x: int = 0):
        return [][x]

    with pytest.raises(IndexError):
        call_and_check("broken", broken, {"x": 1})
