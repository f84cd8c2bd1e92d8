"""The whole public API fuzzed from its signatures (hypothesis): every function and class named
in ``__all__`` of the package and its subpackages, and the public methods of those classes, is
called with arguments drawn from its annotations (valid samples) mixed with hostile values
(wrong types, booleans for numbers, NaN, infinities, huge numbers, long text). A call either
works or raises one of the package's errors: a wrong type a ``WrongTypeError`` (a package
error that is also a ``TypeError``), anything else a ``Phase10MathError`` (a ``ValueError``);
never ``AttributeError``, ``IndexError``, ``KeyError``, ``OverflowError`` or a bare error from
inside.

Functions that solve (seconds or more on any valid input) get at least one argument that their
annotation refuses, so the check at the boundary must answer before any work starts.

The play models (a turn, a game session, the widgets) must also change nothing when they
refuse: their state is compared before and after every refused call."""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import math
import os
import random
import re
import tempfile
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

import census
import pytest

hypothesis = pytest.importorskip("hypothesis")
pytest.importorskip("ipywidgets")
import numpy as np  # noqa: E402
from beartype import BeartypeConf, FrozenDict  # noqa: E402
from beartype.door import is_bearable  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from phase10math import cards  # noqa: E402
from phase10math import tenthousand as tenk  # noqa: E402
from phase10math.cards import deck as card_deck  # noqa: E402
from phase10math.dice.faces import Face, Layout  # noqa: E402
from phase10math.dice.layouts import COMPACT_LAYOUT  # noqa: E402
from phase10math.dice.phases import PHASES  # noqa: E402
from phase10math.dice.phases import Phase as DicePhase  # noqa: E402
from phase10math.dice.rules import Holds, Objective, Rules  # noqa: E402
from phase10math.errors import InvalidHoldError, Phase10MathError, WrongTypeError  # noqa: E402
from phase10math.game import (  # noqa: E402
    DuelGame,
    DuelSample,
    Game,
    Play,
    RandomDice,
    ScriptedDice,
    WinStrategy,
    get_strategy,
    shipped_table,
)
from phase10math.game.length import GameLength  # noqa: E402
from phase10math.play import GameSession, GameWidget, PlayApp, TurnState, TurnWidget  # noqa: E402
from phase10math.turn import cached_holds  # noqa: E402

#: The packages whose ``__all__`` this file covers: the package and every subpackage with a
#: public API (``phase10math.turn.tensor`` lists only the tensor engine's settings; its kernels
#: are the engine's inside, reached through the public solvers).
PACKAGES = [
    "phase10math",
    "phase10math.dice",
    "phase10math.turn",
    "phase10math.turn.tensor",
    "phase10math.game",
    "phase10math.game.duel",
    "phase10math.play",
    "phase10math.cards",
    "phase10math.tenthousand",
]

#: Public names that solve, simulate or enumerate: always called with a refused argument.
HEAVY = {
    "solve_turn",
    "solve_custom",
    "cached_solution",
    "cached_holds",
    "advise",
    "best_hold",
    "phase_row",
    "phase_table",
    "values_by_rolls_left",
    "simulate_optimal_turns",
    "simulate_game_lengths",
    "solitaire_comparison",
    "comparison",
    "phase_data",
    "simulate_phase",
    "solve_state",
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
    "simulate_draws",
    "best_scores",
    "reroll_value",
    "simulate_reroll",
    "solve_duel",
    "simulate_duels",
    "simulate_turns",
    "roll_frequencies",
    "GameSession",
    "GameWidget",
    "TurnWidget",
    "PlayApp",
    "DuelSolution.tables",
    "GameSession.human_turn_done",
    "DuelGame.standard",
}

#: Where the fuzzed calls write their saved games (``PlayApp.save``): a temporary directory
#: per test, never the user's.
SAVE_DIR = "PHASE10MATH_SAVE_DIR"

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
SMALL_TENK = tenk.TenKRules(target=200, dice=2)
PENALTY_TENK = tenk.TenKRules.preset("facebook", target=300, floor=-100, farkle_penalty=100)
APP_SESSION = "fuzzed-app-session"
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
    tenk.TenKRules: [tenk.TenKRules(), SMALL_TENK, tenk.TenKRules(wipe=False, dice=3)],
    tenk.DuelMethod: list(tenk.DuelMethod),
    random.Random: [random.Random(1)],
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


def _prefix(pkg: str) -> str:
    return "" if pkg == "phase10math" else pkg.rsplit(".", 1)[-1] + "."


def public_names() -> dict[str, object]:
    """Every function and class named in ``__all__`` of :data:`PACKAGES` (one name each:
    the package's own name where it re-exports a subpackage's)."""
    out: dict[str, object] = {}
    seen: set[int] = set()
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and id(obj) not in seen:
                seen.add(id(obj))
                out[_prefix(pkg) + name] = obj
    return out


def public_callables() -> list[tuple[str, Callable]]:
    """Every public function and class of :data:`PACKAGES`, and their public methods (bound to
    a sample instance)."""
    out: dict[str, Callable] = dict(public_names())
    for name, instance in sample_instances().items():
        for attr in public_methods(type(instance)):
            out[f"{name}.{attr}"] = getattr(instance, attr)
    return sorted(out.items())


def public_methods(cls: type) -> list[str]:
    """The public methods of ``cls``: its own and those it inherits from the kit's classes."""
    found: dict[str, None] = {}
    for base in cls.__mro__:
        if base is not cls and not base.__module__.startswith("phase10math"):
            continue
        for attr, member in vars(base).items():
            method = inspect.isfunction(member) or isinstance(member, (classmethod, staticmethod))
            if method and not attr.startswith("_"):
                found.setdefault(attr)
    return list(found)


def sample_instances() -> dict[str, object]:
    """One instance of every public class (small and cheap: the compact dice, one-phase games,
    a 10,000 duel to 200 with two dice)."""
    turn = TurnState(phase=1, layout=COMPACT_LAYOUT, seed=3)
    turn.roll()
    advice_turn = TurnState(phase=1, layout=COMPACT_LAYOUT, seed=3)
    advice_turn.roll()
    return {
        "Face": Face(5, "o"),
        "Die": COMPACT_LAYOUT.dice[0],
        "Layout": COMPACT_LAYOUT,
        "Phase": PHASES[3],
        "Rules": Rules(),
        "GameLength": GameLength.from_probabilities({1: Fraction(1, 2), 2: Fraction(1, 3)}),
        "turn.Advice": advice_turn.advice(),
        "turn.HoldTable": cached_holds(1, layout=COMPACT_LAYOUT),
        "Game": Game(
            [get_strategy("greedy", layout=COMPACT_LAYOUT)], phases=1, layout=COMPACT_LAYOUT, seed=1
        ),
        "game.RandomDice": RandomDice(COMPACT_LAYOUT, seed=1),
        "game.ScriptedDice": ScriptedDice(["5o 6g 7b 5g 6r 5b Wg Wr 1g Wb"], layout=COMPACT_LAYOUT),
        "play.TurnState": turn,
        "play.GameSession": GameSession(("greedy",), phases=1, layout=COMPACT_LAYOUT, seed=1),
        "play.TurnWidget": TurnWidget(phase=1, layout=COMPACT_LAYOUT, seed=1),
        "play.GameWidget": GameWidget(("greedy",), phases=1, layout=COMPACT_LAYOUT, seed=1),
        "play.PlayApp": app_that_saves(),
        "cards.Card": HAND[0],
        "cards.DeckSpec": STANDARD,
        "cards.Phase": cards.phase(2),
        "cards.LaidGroup": cards.make_group("set", card_deck.parse_hand("B3 B3 Y3")),
        "cards.Estimate": cards.Estimate(3, 10),
        "cards.DealtOdds": cards.dealt_odds(cards.phase(1), hand_size=3, use_cache=False),
        "tenthousand.TenKRules": SMALL_TENK,
        "tenthousand.TurnSolution": tenk.solve_turn(tenk.TenKRules(dice=3)),
        "tenthousand.DuelSolution": tenk.solve_duel(SMALL_TENK, progress=False, use_cache=False),
        "tenthousand.ScoringOption": tenk.best_option((1, 5, 5)),
        "tenthousand.RollGroup": tenk.roll_groups(2)[0],
        "tenthousand.RollStats": tenk.roll_stats(2),
        "tenthousand.PenaltySolution": tenk.solve_penalty(PENALTY_TENK),
        "game.DuelGame": DuelGame.standard(10, 10),
        "game.WinStrategy": WinStrategy(shipped_table()),
        "game.DuelSample": small_duel_sample(),
    }


def small_duel_sample() -> DuelSample:
    """Four seeded games' figures, as :func:`~phase10math.game.simulate_duel` records them."""
    first = np.array([0, 1, 0, 1])
    return DuelSample(
        (Play.OPTIMAL, Play.OPTIMAL),
        9,
        np.array([1.0, 0.0, 0.5, 1.0]),
        np.array([0.45, 0.55, 0.45, 0.55]),
        np.array([0.0, 0.0, 1.0, 0.0]),
        first,
        np.zeros((4, 2)),
    )


def app_that_saves() -> PlayApp:
    """The app with a session key (so that ``save`` writes), built while saved games are
    read from an empty temporary directory (the tests point ``$PHASE10MATH_SAVE_DIR`` at
    their own temporary directory while they call it)."""
    old = os.environ.get(SAVE_DIR)
    with tempfile.TemporaryDirectory(prefix="p10-fuzz-") as empty:
        os.environ[SAVE_DIR] = empty
        try:
            return PlayApp(seed=1, game_seed=1, session=APP_SESSION)
        finally:
            if old is None:
                del os.environ[SAVE_DIR]
            else:
                os.environ[SAVE_DIR] = old


def state_of(fn: Callable) -> Callable[[], object] | None:
    """What a refused call of a play model's method must leave unchanged (None for the
    other callables)."""
    owner = getattr(fn, "__self__", None)
    if isinstance(owner, TurnState):
        return owner.snapshot
    if isinstance(owner, TurnWidget):
        return lambda: (owner.state.snapshot(), owner.mode.value, owner.entry.value)
    if isinstance(owner, GameSession):
        return lambda: json.dumps(owner.to_dict(), sort_keys=True, default=str)
    if isinstance(owner, GameWidget):
        return lambda: (
            json.dumps(owner.session.to_dict(), sort_keys=True, default=str),
            owner.turn.state.snapshot(),
            owner.opponent_names(),
        )
    if isinstance(owner, PlayApp):
        return lambda: json.dumps(owner.state_dict(), sort_keys=True, default=str)
    return None


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


#: The rules of the package's check (an int is a float, numpy's integers are ints), so that a
#: value counted as refused here is refused there.
AS_CHECKED = BeartypeConf(is_pep484_tower=True, hint_overrides=FrozenDict({int: int | np.integer}))


def _bearable(value, hint) -> bool:
    try:
        return hint is inspect.Parameter.empty or is_bearable(value, hint, conf=AS_CHECKED)
    except Exception:
        return True


def call_strategy(name: str, fn: Callable):
    params, hints = _params(fn)
    heavy = any(name == h or name.endswith("." + h) for h in HEAVY)
    # what each annotation refuses, found before drawing (beartype samples containers with
    # the random module, which hypothesis does not allow inside a strategy)
    refused = {
        p.name: [v for v in HOSTILE if not _bearable(v, hints[p.name])]
        for p in params
        if p.name in hints
    }

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
            args[p.name] = draw(st.sampled_from(refused[p.name]))
        return args

    return arguments()


def call_and_check(name: str, fn: Callable, kwargs: dict | None) -> str:
    if kwargs is None:
        return "skipped"
    state = state_of(fn)
    before = state() if state else None
    try:
        fn(**kwargs)
    except WrongTypeError as exc:
        assert str(exc), name
        outcome = "wrong type"
    except Phase10MathError as exc:
        assert str(exc), name
        outcome = "refused"
    except TypeError as exc:
        raise AssertionError(f"{name}({kwargs!r}) raised a bare TypeError: {exc}") from exc
    else:
        return "worked"
    if state:
        assert state() == before, f"{name}({kwargs!r}) was refused but changed the state"
    return outcome


#: Examples per public name: a few in CI; ``PHASE10MATH_FUZZ_EXAMPLES=300`` for a deeper run.
FUZZ = settings(
    max_examples=int(os.environ.get("PHASE10MATH_FUZZ_EXAMPLES", "15")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
)


@pytest.mark.parametrize("name,fn", CALLABLES, ids=[n for n, _ in CALLABLES])
def test_any_argument_works_or_raises_a_package_error(name, fn, monkeypatch, tmp_path):
    monkeypatch.setenv(SAVE_DIR, str(tmp_path))

    @FUZZ
    @given(kwargs=call_strategy(name, fn))
    def run(kwargs):
        call_and_check(name, fn, kwargs)

    run()


def test_the_fuzz_covers_every_public_name():
    """Every function and class of every ``__all__``, and every public method of every
    public class that is not an enum, is among the fuzzed callables."""
    fuzzed = {id(getattr(fn, "__func__", fn)) for _, fn in CALLABLES}
    names = dict(CALLABLES)
    missing = []
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        for n in mod.__all__:
            obj = getattr(mod, n)
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                if id(obj) not in fuzzed:
                    missing.append(f"{pkg}.{n}")
            if inspect.isclass(obj) and not issubclass(obj, enum.Enum):
                key = next(k for k, v in public_names().items() if v is obj)
                missing += [
                    f"{key}.{attr}" for attr in public_methods(obj) if f"{key}.{attr}" not in names
                ]
    assert not missing, missing


def test_every_package_with_a_public_api_is_fuzzed():
    """Every package of the kit whose ``__init__`` sets ``__all__`` is in :data:`PACKAGES`
    (read from the source, so a new subpackage with a public API cannot be missed)."""
    root = Path(importlib.import_module("phase10math").__file__).parent
    with_api = {
        ".".join(("phase10math", *init.parent.relative_to(root).parts))
        for init in root.rglob("__init__.py")
        if re.search(r"^__all__\b", init.read_text(encoding="utf-8"), re.MULTILINE)
    }
    assert "phase10math.turn.tensor" in with_api  # the scan finds nested packages
    assert with_api - set(PACKAGES) == set()


def test_the_apps_save_is_fuzzed_into_a_temporary_directory(monkeypatch, tmp_path):
    """The fuzzed app saves for real (it has a session key), into the test's directory, the
    state it shows, and changes nothing."""
    monkeypatch.setenv(SAVE_DIR, str(tmp_path))
    save = dict(CALLABLES)["play.PlayApp.save"]
    assert call_and_check("play.PlayApp.save", save, {}) == "worked"
    assert [p.name for p in tmp_path.iterdir()] == [f"{APP_SESSION}.json"]
    written = json.loads((tmp_path / f"{APP_SESSION}.json").read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(save.__self__.state_dict()))


def test_the_state_check_can_fail():
    """A method of a play model that changes the turn and then refuses is caught."""
    turn = TurnState(phase=1, layout=COMPACT_LAYOUT, seed=3)

    class Spoiled:
        __self__ = turn

        def __call__(self, **kwargs):
            turn.rolls_done += 1
            raise InvalidHoldError("refused too late")

    with pytest.raises(AssertionError, match="changed the state"):
        call_and_check("spoiled", Spoiled(), {})


def test_the_checker_itself_can_fail():
    """A call that lets an internal error escape is caught by :func:`call_and_check`."""

    def broken(x: int = 0):
        return [][x]

    with pytest.raises(IndexError):
        call_and_check("broken", broken, {"x": 1})


# --------------------------------------------------------------------------- the census


def promised_members() -> tuple[set[tuple], int, int]:
    """What the fuzz promises to call, computed from the sources (not :data:`PACKAGES`): every
    function and class in the ``__all__`` of every package of the kit, and every public method
    of those classes (their own and those inherited from the kit's classes; not of enums).
    Also the number of packages and of the other names (errors, constants: not called)."""
    root = Path(importlib.import_module("phase10math").__file__).parent
    packages = sorted(
        ".".join(("phase10math", *init.parent.relative_to(root).parts))
        for init in root.rglob("__init__.py")
        if re.search(r"^__all__\b", init.read_text(encoding="utf-8"), re.MULTILINE)
    )
    members: set[tuple] = set()
    others = 0
    for pkg in packages:
        mod = importlib.import_module(pkg)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or (
                inspect.isclass(obj) and issubclass(obj, BaseException)
            ):
                others += 1
                continue
            members.add(("object", id(obj)))
            if inspect.isclass(obj) and not issubclass(obj, enum.Enum):
                for klass in obj.__mro__:
                    if not klass.__module__.startswith("phase10math"):
                        continue
                    for attr, member in vars(klass).items():
                        called = inspect.isfunction(member) or isinstance(
                            member, (classmethod, staticmethod)
                        )
                        if called and not attr.startswith("_"):
                            members.add(("method", id(obj), attr))
    return members, len(packages), others


def case_keys() -> set[tuple]:
    """What the fuzzed cases (:data:`CALLABLES`, one test case each) call: an object, or a
    method of a class (by the class of the instance it is bound to)."""
    owners: dict[str, type] = {}
    for name, fn in CALLABLES:
        owner = getattr(fn, "__self__", None)
        if owner is not None:
            owners[name.rsplit(".", 1)[0]] = owner if isinstance(owner, type) else type(owner)
    keys = set()
    for name, fn in CALLABLES:
        prefix, _, attr = name.rpartition(".")
        if prefix in owners:
            keys.add(("method", id(owners[prefix]), attr))
        else:
            keys.add(("object", id(fn)))
    return keys


def test_fuzz_census_every_public_name_is_a_case(record_property):
    members, packages, others = promised_members()
    cases = case_keys()
    missing = members - cases
    assert not missing, f"{len(missing)} public names are not fuzzed"
    census.record(
        record_property,
        "public names (tests/package/test_api_fuzz.py)",
        len(CALLABLES),
        len(members),
        f"every function and class in the __all__ of {packages} packages and their public "
        f"methods; {others} errors and constants are not called",
    )
