"""The docstring examples of the 10,000 modules."""

import doctest
import importlib

import pytest

MODULES = [
    "errors",
    "rules",
    "scoring",
    "odds",
    "turn",
    "layered",
    "penalty",
    "duel",
    "simulate",
    "__init__",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    mod = importlib.import_module(
        "phase10math.tenthousand" if name == "__init__" else f"phase10math.tenthousand.{name}"
    )
    result = doctest.testmod(mod)
    assert result.failed == 0 and result.attempted > 0
