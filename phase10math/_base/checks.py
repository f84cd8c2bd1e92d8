"""One validation layer for what the command line and the public API accept (the checks of
rules and layouts are beside their types: :func:`phase10math.dice.rules.check_rules`,
:func:`phase10math.dice.faces.check_layout`).

- :data:`BOUNDS`: every whole-number option of the command line with its documented range
  (``docs/cli-bounds.md`` lists them); :func:`int_arg` makes the argparse ``type=`` for one.
  Numbers are plain ASCII digits with an optional sign (no ``²``, no 5000-digit numbers), so a
  bad number is refused by argparse with one line on stderr and exit code 2.
- :func:`read_layout_file`: a layout file read safely (size cap, UTF-8 text only).
- :func:`public`: the one argument check of every public function and method: the annotations
  are checked at call time (by beartype), booleans are not numbers, NaN and infinities are
  refused; a wrong type raises :class:`~phase10math.errors.WrongTypeError` (a package error that
  is also a ``TypeError``), a wrong value :class:`~phase10math.errors.InvalidArgumentError`
  (a ``ValueError``), each naming the parameter, what it got and what it accepts.
- :func:`check_int`, :func:`check_seed`, :func:`check_type`: value checks at the public API
  boundary that raise the package's own errors (ValueError subclasses).

>>> int_arg("players")("3")
3
>>> int_arg("players")("9")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: 9 is out of range; allowed 1..8
>>> @public
... def half(x: int) -> float:
...     return x / 2
>>> half(True)
Traceback (most recent call last):
...
phase10math.errors.WrongTypeError: half(): x=True (bool); accepts int (a boolean is not a number)
>>> half("3")
Traceback (most recent call last):
...
phase10math.errors.WrongTypeError: half(): x='3' (str); accepts int
>>> check_seed(-1)
Traceback (most recent call last):
...
phase10math.errors.InvalidRulesError: seed=-1; allowed: a whole number 0..4294967295
"""

from __future__ import annotations

import argparse
import contextlib
import enum
import functools
import inspect
import math
import numbers
import os
import re
import sys
import types
import typing
from collections import abc
from collections.abc import Callable
from typing import Any, TypeVar

from phase10math._base.files import open_regular
from phase10math.errors import (
    InvalidArgumentError,
    InvalidLayoutError,
    InvalidRulesError,
    Phase10MathError,
    WrongTypeError,
)

MAX_SEED = 2**32 - 1

# option -> (lowest, highest): the documented bounds of the command line
BOUNDS: dict[str, tuple[int, int]] = {
    "seed": (0, MAX_SEED),
    "players": (1, 8),  # phase10math game
    "games": (1, 100_000),  # phase10math headtohead
    "start-phase": (1, 20),  # phase10math game/headtohead (and at most --phases)
    "simulate": (0, 1_000_000),  # phase10math solitaire (0 = none; 1 is refused: no spread)
    "max-turns": (1, 1_000),  # phase10math turns (the exact distribution to n turns)
    "rolls-left": (0, 5),  # phase10math advise (also < the rolls of the rules)
    "top": (0, 10_000),  # phase10math advise (0 = all)
    "cards-players": (2, 6),  # phase10math cards game
    "hand-size": (1, 30),  # phase10math cards dealt
    "draws": (0, 98),  # phase10math cards draws
    "trials": (1, 1_000_000),  # phase10math cards draws
    "tenk-dice": (1, 6),  # phase10math tenk ev --dice
    "turn-total": (0, 100_000),  # phase10math tenk ev --turn-total
    "points": (0, 10_000),  # tenk --straight/--three-pairs/--open
    "target": (100, 20_000),  # phase10math tenk duel --target
    "tenk-score": (0, 20_000),  # phase10math tenk advise --me/--opponent
    "tenk-floor": (-20_000, 0),  # phase10math tenk duel --floor (the penalty game)
}

MAX_LAYOUT_BYTES = 64 * 1024
_INT_RE = re.compile(r"[+-]?[0-9]{1,25}")


def parse_bounded(text: str, name: str) -> int:
    """``text`` as a whole number within ``BOUNDS[name]`` (ArgumentTypeError otherwise)."""
    lo, hi = BOUNDS[name]
    t = text.strip()
    if not _INT_RE.fullmatch(t):
        shown = t if len(t) <= 20 else t[:20] + "..."
        raise argparse.ArgumentTypeError(
            f"{shown!r} is not a whole number; write one from {lo} to {hi} in digits 0-9"
        )
    v = int(t)
    if not lo <= v <= hi:
        raise argparse.ArgumentTypeError(f"{v} is out of range; allowed {lo}..{hi}")
    return v


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr (exit code 2)."""

    def error(self, message: str):  # type: ignore[override]
        line = " ".join(str(message).split())
        if len(line) > 400:
            line = line[:400].rsplit(" ", 1)[0] + " ..."
        self.exit(2, f"{self.prog}: error: {line} (see {self.prog} --help)\n")


def missing_command(parser: argparse.ArgumentParser) -> int:
    """A command given without its sub-command: one line on stderr naming the sub-commands
    and the help, exit code 2 (not the whole help)."""
    names = [
        name
        for action in parser._actions  # argparse keeps its sub-commands there
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    ]
    print(
        f"{parser.prog}: error: a command is required: {', '.join(names)} "
        f"(see {parser.prog} --help)",
        file=sys.stderr,
    )
    return 2


def ascii_int(text: str) -> int:
    """The argparse ``type=`` for a small whole number written in ASCII digits 0-9 (one rule
    for every number the command line reads: ``١٠`` and ``²`` are refused alike)."""
    t = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,6}", t):
        shown = t if len(t) <= 20 else t[:20] + "..."
        raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number in digits 0-9")
    return int(t)


def int_arg(name: str):
    """The argparse ``type=`` for the whole-number option ``name`` of :data:`BOUNDS`."""

    def conv(text: str) -> int:
        return parse_bounded(text, name)

    conv.__name__ = name  # argparse names the type in its messages
    return conv


def read_layout_file(path: str) -> str:
    """The text of a layout file: at most 64 KiB of UTF-8 text (no NUL bytes)."""
    try:
        with open_regular(path) as fh:  # a FIFO or a device is refused, never waited on
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_LAYOUT_BYTES:
                raise InvalidLayoutError(
                    f"layout file {path!r} has {size:,} bytes; a layout is at most "
                    f"{MAX_LAYOUT_BYTES // 1024} KiB of text"
                )
            data = fh.read(MAX_LAYOUT_BYTES + 1)
    except OSError as exc:
        raise InvalidLayoutError(
            f"cannot read layout file {path!r}: {exc.strerror or exc}"
        ) from None
    if b"\0" in data:
        raise InvalidLayoutError(
            f"layout file {path!r} is not a text file (write one die a line, e.g. "
            "'5r 6o 7b 8g 9r 10o')"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidLayoutError(
            f"layout file {path!r} is not UTF-8 text (byte {exc.start + 1} cannot be read)"
        ) from None
    return text


# --------------------------------------------------------------------------- API boundary


def check_int(
    value: Any,
    name: str,
    lo: int | None = None,
    hi: int | None = None,
    error: type[Phase10MathError] = InvalidRulesError,
) -> int:
    """``value`` if it is a whole number (not a bool) within ``lo..hi``, else ``error``."""

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(f"{name}={value!r}; allowed: a whole number{_range(lo, hi)}")
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise error(f"{name}={value!r}; allowed: a whole number{_range(lo, hi)}")
    return value


def check_positive_float(
    value: Any, name: str, error: type[Phase10MathError] = InvalidRulesError
) -> float:
    """``value`` as a float if it is a finite real number > 0 (not a bool), else ``error``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise error(f"{name}={value!r}; allowed: a finite number > 0")
    v = float(value)
    if not math.isfinite(v) or v <= 0:
        raise error(f"{name}={value!r}; allowed: a finite number > 0")
    return v


def _range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f" {lo}..{hi}"
    if lo is not None:
        return f" >= {lo}"
    if hi is not None:
        return f" <= {hi}"
    return ""


def derived_seed(seed: int, offset: int) -> int:
    """The seed of the ``offset``-th game or player of a run seeded ``seed``: ``seed + offset``,
    wrapped into 0..MAX_SEED (so the largest seed a user may give still works).

    >>> derived_seed(5, 2), derived_seed(MAX_SEED, 1)
    (7, 0)
    """
    return (seed + offset) % (MAX_SEED + 1)


def check_seed(seed: Any, name: str = "seed") -> int | None:
    """A seed for numpy's generator: None or a whole number 0..2**64-1."""
    if seed is None:
        return None
    return check_int(seed, name, 0, MAX_SEED)


def check_type(
    value: Any,
    types: type | tuple[type, ...],
    name: str,
    error: type[Phase10MathError] = InvalidRulesError,
    what: str = "",
) -> Any:
    """``value`` if it is an instance of ``types``, else ``error`` naming what is expected."""
    if not isinstance(value, types):
        if not what:
            ts = types if isinstance(types, tuple) else (types,)
            what = " or ".join(t.__name__ for t in ts)
        raise error(f"{name}: expected {what}; got {type(value).__name__} {_short(value)}")
    return value


def unknown_choice(
    choices: type[enum.Enum], value: Any, name: str, error: type[Phase10MathError]
) -> Phase10MathError:
    """The refusal of a typed option's lookup (an enum's ``_missing_``): a value that is not
    text is a :class:`WrongTypeError`, an unknown text ``error``; both name the option, the
    value (shortened) and the choices.

    >>> class Color(enum.StrEnum):
    ...     RED = "red"
    >>> unknown_choice(Color, "blue", "color", InvalidRulesError)
    InvalidRulesError("color='blue'; allowed: red")
    """
    allowed = ", ".join(m.value for m in choices)
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    kind = WrongTypeError if not isinstance(value, str) else error
    return kind(f"{name}={shown}; allowed: {allowed}")


def _short(value: Any) -> str:
    r = repr(value)
    return r if len(r) <= 60 else r[:57] + "..."


# --------------------------------------------------------------------------- @public

F = TypeVar("F", bound=Callable[..., Any])


class _Violation(TypeError):
    """What beartype raises inside :func:`public`; never escapes it."""


@functools.cache
def _confs() -> tuple[Any, Any]:
    """beartype's settings (strict, loose): numpy's integers are whole numbers where a hint
    says ``int`` (and so ``float``). beartype and numpy are imported at the first check that
    needs beartype (:data:`FAST_CALLS`), not with this module, so that the command line's
    ``--help`` and refusals import neither."""
    import numpy as np
    from beartype import BeartypeConf, FrozenDict

    overrides = FrozenDict({int: int | np.integer})
    strict = BeartypeConf(
        is_pep484_tower=True, hint_overrides=overrides, violation_param_type=_Violation
    )
    return strict, BeartypeConf(is_pep484_tower=True, hint_overrides=overrides)


def _hint_text(hint: Any) -> str:
    """A hint as people read it: ``int | None``, ``Rules``, ``Sequence[Face]``."""
    if hint is type(None) or hint is None:
        return "None"
    if hint is bool:
        return "bool (True, False)"
    if isinstance(hint, type) and not typing.get_args(hint):
        return hint.__name__
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_hint_text(a) for a in typing.get_args(hint))
    if origin is typing.Literal:
        return " or ".join(repr(a) for a in typing.get_args(hint))
    text = repr(hint).replace("typing.", "").replace("collections.abc.", "")
    return re.sub(
        r"<class '(?:[\w.]+\.)?(\w+)'>", r"\1", re.sub(r"\b(?:\w+\.)+(?=[A-Z])", "", text)
    )


def _flat(hint: Any) -> set[Any]:
    """The members of a union hint (the hint itself when it is not a union)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_flat(a) for a in typing.get_args(hint)))
    if origin is typing.Annotated:
        return _flat(typing.get_args(hint)[0])
    return {hint}


def _numeric(hint: Any) -> tuple[bool, bool]:
    """(refuse booleans, refuse NaN/inf) for a parameter of this hint."""
    members = _flat(hint)
    if Any in members or bool in members or object in members:
        return False, False
    num = {int, float, numbers.Number, numbers.Real, numbers.Rational, numbers.Integral}
    real = any(m in num or (isinstance(m, type) and m.__name__ == "Fraction") for m in members)
    return real, real


_ITEMS = (list, tuple, set, frozenset, abc.Sequence, abc.Iterable, abc.Collection, abc.Set)


def bearable_throughout(value: Any, hint: Any) -> bool:
    """Whether ``value`` fits ``hint`` in every item of its containers: beartype checks one
    item of a container, drawn at random, so a refused call is explained by this full check.

    >>> bearable_throughout([1] * 50 + ["x"], list[int])
    False
    >>> bearable_throughout(([1, 2], None), tuple[list[int], int | None])
    True
    """
    from beartype.door import is_bearable

    for member in _flat(hint):
        if not is_bearable(value, member, conf=_confs()[1]):
            continue
        origin, args = typing.get_origin(member), typing.get_args(member)
        if origin in (dict, abc.Mapping) and len(args) == 2 and isinstance(value, abc.Mapping):
            if all(
                bearable_throughout(k, args[0]) and bearable_throughout(v, args[1])
                for k, v in value.items()
            ):
                return True
        elif origin is tuple and args and args[-1] is not Ellipsis:
            if all(bearable_throughout(v, a) for v, a in zip(value, args, strict=False)):
                return True
        elif origin in _ITEMS and args and isinstance(value, (list, tuple, set, frozenset)):
            if all(bearable_throughout(v, args[0]) for v in value):
                return True
        else:
            return True
    return False


def _describe(fname: str, name: str, value: Any, hint: Any, note: str = "") -> str:
    return (
        f"{fname}(): {name}={_short(value)} ({type(value).__name__}); "
        f"accepts {_hint_text(hint)}{note}"
    )


_ENABLED = [True]
#: calls of each public function checked by plain ``isinstance`` checks (:func:`_fits`)
#: before beartype's compiled check takes over: the command line's refusals and a short
#: script never import beartype, a long computation runs the faster compiled check
FAST_CALLS = 200


def checks_itself(func: F) -> F:
    """Mark a method of a :func:`public` class that is called in inner loops and checks its
    own arguments with one ``isinstance`` (the general check would cost more than its work)."""
    func.__checks_itself__ = True  # type: ignore[attr-defined]
    return func


@contextlib.contextmanager
def unchecked():
    """Run the public functions without their argument checks (for the benchmark that
    measures what the checks cost, and for the package's own constants built at import, known
    good, so that importing the rules loads neither beartype nor numpy; never for users)."""
    before, _ENABLED[0] = _ENABLED[0], False
    try:
        yield
    finally:
        _ENABLED[0] = before


def public(func: F) -> F:
    """Check the annotated arguments of the public function (or class) ``func`` at call time.

    A class: its ``__init__`` and public methods are checked. The annotations are checked by
    beartype (the numeric tower on: an ``int`` is a ``float``); a boolean given for a number is
    refused, and so are NaN and infinities. Refusals are the package's errors naming the
    parameter, the value and what it accepts; nothing is changed before them.
    """
    if inspect.isclass(func):
        for attr, member in list(vars(func).items()):
            if getattr(member, "__checks_itself__", False):
                continue
            if attr == "__init__" or (not attr.startswith("_") and inspect.isfunction(member)):
                setattr(func, attr, public(member))
            elif isinstance(member, (classmethod, staticmethod)) and not attr.startswith("_"):
                setattr(func, attr, type(member)(public(member.__func__)))
        return func
    # built at the first call, once every name of the annotations exists: (number checks,
    # the plain checks, the builder of beartype's check); then beartype's check (number
    # checks, the checked function, the explainer), once the plain checks have had their
    # FAST_CALLS calls or could not settle one
    plain: list[tuple[Any, Callable[[tuple, dict], bool], Callable[[], tuple[Any, Any]]]] = []
    state: list[tuple[Any, Any, Any]] = []
    fast = [FAST_CALLS]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not _ENABLED[0]:
            return func(*args, **kwargs)
        if not state:
            if not plain:
                plain.append(_build_check(func))
            pre, surely_fits, strict = plain[0]
            if fast[0] > 0:  # plain isinstance checks: beartype is not imported
                fast[0] -= 1
                if pre is not None:
                    pre(args, kwargs)
                if surely_fits(args, kwargs):
                    return func(*args, **kwargs)
            state.append((pre, *strict()))
        pre, checked, explain = state[0]
        if pre is not None:
            pre(args, kwargs)
        try:
            return checked(*args, **kwargs)
        except _Violation as exc:
            raise explain(args, kwargs, exc) from None

    wrapper.__wrapped_checked__ = True  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def _build_check(func: Callable[..., Any]) -> tuple[Any, Any, Any]:
    """(number checks or None, :func:`_surely_fits` for the arguments, a function that builds
    (the beartype-checked function, the violation explainer) at its first call)."""
    try:
        hints = typing.get_type_hints(func, include_extras=True)
    except Exception:  # an annotation that cannot be resolved: the function runs unchecked
        return None, lambda args, kwargs: True, lambda: (func, None)
    hints.pop("return", None)
    func.__annotations__ = dict(hints)  # resolved: beartype then needs no forward references
    sig = inspect.signature(func)
    surely_fits = _surely_fits(sig, hints)

    def strict() -> tuple[Any, Any]:
        from beartype import beartype

        return beartype(conf=_confs()[0])(func), explain

    params = list(sig.parameters.values())
    fname = func.__qualname__.replace(".__init__", "")
    numeric = {
        p.name
        for p in params
        if p.name in hints
        and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        and _numeric(hints[p.name])[0]
    }
    positions = [
        (i, p.name)
        for i, p in enumerate(params)
        if p.name in numeric and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]

    def refuse_numbers(args: tuple, kwargs: dict) -> None:
        for i, name in positions:
            if i < len(args):
                _check_number(fname, name, args[i], hints[name])
        for name, value in kwargs.items():
            if name in numeric:
                _check_number(fname, name, value, hints[name])

    def explain(args: tuple, kwargs: dict, exc: BaseException) -> WrongTypeError:
        return _explain(fname, sig, hints, args, kwargs, exc)

    return (refuse_numbers if numeric else None), surely_fits, strict


def _explain(
    fname: str, sig: inspect.Signature, hints: dict, args: tuple, kwargs: dict, exc: BaseException
) -> WrongTypeError:
    """The error of a call of ``fname`` that beartype refused (``exc``): the first argument
    that does not fit its annotation, named, else beartype's own words."""
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return WrongTypeError(f"{fname}(): {exc}")
    for name, value in bound.arguments.items():
        hint = hints.get(name)
        if hint is None:
            continue
        kind = sig.parameters[name].kind
        if kind == inspect.Parameter.VAR_POSITIONAL:
            values = value
        elif kind == inspect.Parameter.VAR_KEYWORD:
            values = value.values()
        else:
            values = (value,)
        for v in values:
            if not bearable_throughout(v, hint):
                return WrongTypeError(_describe(fname, name, v, hint))
    return WrongTypeError(f"{fname}(): {exc}")


#: the containers whose items :func:`_fits` checks (iterating them changes nothing)
_REITERABLE = (list, tuple, set, frozenset, dict, str, range)
# the numeric tower as beartype reads it (numpy's integers are left to beartype)
_TOWER = {float: (float, int), complex: (complex, float, int)}


def _fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` surely fits ``hint`` by plain ``isinstance`` checks (classes, None,
    unions, literals, and the items of lists, tuples, sets and mappings); False where the hint
    needs more (beartype then decides: False is never a refusal). Wherever this says True,
    beartype's check passes: every item is checked where beartype checks one.

    >>> _fits([1, 2], list[int]), _fits((1, "a"), tuple[int, str]), _fits(3, float | None)
    (True, True, True)
    >>> _fits([1, "x"], list[int]), _fits(iter([1]), abc.Iterable[int])
    (False, False)
    """
    return _checker(hint)(value)


def _always(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


def _checker(hint: Any) -> Callable[[Any], bool]:
    """:func:`_fits` for one hint, compiled once: a function of the value."""
    if hint is Any or hint is object:
        return _always
    if hint is None or hint is type(None):
        return lambda v: v is None
    if isinstance(hint, type) and not typing.get_args(hint):
        classes = _TOWER.get(hint, (hint,))
        return lambda v: isinstance(v, classes)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        plain = tuple(c for a in args if isinstance(a, type) and not typing.get_args(a)
                      for c in _TOWER.get(a, (a,)))  # fmt: skip
        rest = [_checker(a) for a in args if not (isinstance(a, type) and not typing.get_args(a))]
        return lambda v: isinstance(v, plain) or any(c(v) for c in rest)
    if origin is typing.Literal:
        return lambda v: any(type(v) is type(a) and v == a for a in args)
    if origin is None or not isinstance(origin, type) or origin is type:
        return _never
    if origin is abc.Callable:  # beartype checks that it is callable, not its signature
        return lambda v: isinstance(v, abc.Callable)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _checker(args[0])
            return lambda v: isinstance(v, tuple) and all(map(item, v))
        items = [_checker(a) for a in args]
        return lambda v: (
            isinstance(v, tuple) and len(v) == len(items) and all(c(x) for c, x in zip(items, v))
        )
    if issubclass(origin, abc.Mapping) and len(args) == 2:
        key, val = _checker(args[0]), _checker(args[1])
        return lambda v: (
            isinstance(v, origin)
            and isinstance(v, _REITERABLE)
            and all(key(k) and val(x) for k, x in v.items())
        )
    if issubclass(origin, abc.Iterable) and len(args) == 1:
        item = _checker(args[0])
        return lambda v: isinstance(v, origin) and isinstance(v, _REITERABLE) and all(map(item, v))
    return _never


def _surely_fits(sig: inspect.Signature, hints: dict[str, Any]) -> Callable[[tuple, dict], bool]:
    """Whether a call's arguments surely fit their annotations (:func:`_fits`, each)."""
    params = list(sig.parameters.values())
    check = {p.name: _checker(hints[p.name]) if p.name in hints else _always for p in params}
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positional = [check[p.name] for p in params if p.kind in kinds]
    star = next((check[p.name] for p in params if p.kind == p.VAR_POSITIONAL), _never)
    stars = next((check[p.name] for p in params if p.kind == p.VAR_KEYWORD), _never)
    by_name = {p.name: check[p.name] for p in params if p.kind in (*kinds, p.KEYWORD_ONLY)}
    n = len(positional)

    def surely_fits(args: tuple, kwargs: dict) -> bool:
        try:
            if len(args) <= n:
                if not all(c(v) for c, v in zip(positional, args)):
                    return False
            elif not (all(c(v) for c, v in zip(positional, args)) and all(map(star, args[n:]))):
                return False
            return all(by_name.get(k, stars)(v) for k, v in kwargs.items())
        except Exception:  # an isinstance() that cannot answer (a protocol not checkable)
            return False

    return surely_fits


def _check_number(fname: str, name: str, value: Any, hint: Any) -> None:
    if isinstance(value, bool):
        raise WrongTypeError(_describe(fname, name, value, hint, " (a boolean is not a number)"))
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidArgumentError(
            _describe(fname, name, value, hint, " (finite; NaN and infinities are refused)")
        )
