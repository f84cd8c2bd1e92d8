"""The fuzz census: each fuzz test file counts its cases against the members of the category
it promises to cover (computed apart from the cases: the packages' ``__all__``, the command
line's parser, the cache's kinds of damage and an entry's identity fields), asserts that
every member has a case, and records the counts (``record_property``). The run's summary
prints them (``conftest.py``: ``pytest_terminal_summary``, also under pytest-xdist, whose
workers send the recorded properties with their reports).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from types import ModuleType

#: the name of the recorded property (the summary looks for it)
PROPERTY = "fuzz census"


def parametrized_cases(fn: Callable) -> list[tuple]:
    """The cases of a test function as pytest runs them: one tuple of parameter values per
    case (the product of its ``parametrize`` marks; one empty tuple without any)."""
    lists = []
    for mark in getattr(fn, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], list(mark.args[1])
        several = not isinstance(names, str) or "," in names
        lists.append([tuple(v) if several else (v,) for v in values])
    return [tuple(v for part in combo for v in part) for combo in itertools.product(*lists)]


def module_cases(module: ModuleType, prefix: str = "test_") -> dict[tuple, str]:
    """Every case of every test function of ``module``: ``(function name, *values)`` ->
    the test's name."""
    out = {}
    for name, fn in vars(module).items():
        if name.startswith(prefix) and callable(fn):
            for case in parametrized_cases(fn):
                out[(name, *case)] = name
    return out


def record(record_property, category: str, cases: int, members: int, what: str) -> str:
    """Record (and return) the census line of ``category``: its cases, its members and what
    the members are; asserts that the cases are at least as many as the members."""
    line = f"{category}: {cases:,} cases for {members:,} members ({what})"
    record_property(PROPERTY, line)
    print(line)
    assert cases >= members > 0, line
    return line
