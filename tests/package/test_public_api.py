"""The public API: every name in ``phase10math.__all__`` exists, is documented, and the
notebooks import the package through it."""

import inspect
from pathlib import Path

import pytest

import phase10math

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("name", phase10math.__all__)
def test_public_name_exists_and_is_documented(name):
    obj = getattr(phase10math, name)
    if inspect.isclass(obj) or inspect.isfunction(obj) or inspect.ismodule(obj):
        doc = inspect.getdoc(obj) or ""
        assert len(doc.split()) >= 4, f"{name} has no real docstring"


def test_all_has_no_duplicates_and_about_twenty_to_fifty_names():
    assert len(set(phase10math.__all__)) == len(phase10math.__all__)
    assert 20 <= len(phase10math.__all__) <= 50


def test_star_import_gives_exactly_all():
    ns: dict = {}
    exec("from phase10math import *", ns)
    assert set(ns) - {"__builtins__"} == set(phase10math.__all__)
