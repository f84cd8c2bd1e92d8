"""Notebooks use only the public API: every ``phase10math`` import in a lesson or the app names
the package or one of its subpackages, and only names in that module's ``__all__``; every name
listed in a subpackage's ``__all__`` exists and is documented."""

import ast
import importlib
import inspect
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(ROOT.glob("notebooks/*.ipynb"))
PUBLIC_MODULES = ("phase10math", *(f"phase10math.{s}" for s in
                  ("dice", "turn", "game", "play", "cards", "tenthousand")))  # fmt: skip


def code_of(nb_path: Path) -> str:
    """The notebook's code cells as one Python source (IPython magics and shell lines dropped)."""
    cells = nbformat.read(nb_path, as_version=4).cells
    lines = [ln for c in cells if c.cell_type == "code" for ln in c.source.splitlines()]
    return "\n".join(ln for ln in lines if not ln.lstrip().startswith(("%", "!")))


def non_public_imports(source: str) -> list[str]:
    """Each ``phase10math`` import of ``source`` that goes past the public API, in words."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            deep = [a.name for a in node.names if a.name.startswith("phase10math.")]
            found += [f"import {name}" for name in deep if name not in PUBLIC_MODULES]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("phase10math"):
            if node.module not in PUBLIC_MODULES:
                found.append(f"from {node.module} import ... (not a public module)")
                continue
            public = importlib.import_module(node.module).__all__
            found += [f"from {node.module} import {a.name}" for a in node.names
                      if a.name not in public or a.name.startswith("_")]  # fmt: skip
    return found


def test_the_check_catches_deep_and_private_imports():
    bad = (
        "from phase10math.dice.faces import match_roll\nimport phase10math.turn.tensor\n"
        "from phase10math.dice import _private\nfrom phase10math import no_such_name\n"
    )
    assert len(non_public_imports(bad)) == 4
    good = "import phase10math as p10\nfrom phase10math.dice import match_roll\n"
    assert non_public_imports(good + "from phase10math.play import figures, TurnState") == []


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_imports_only_public_names(nb_path):
    assert non_public_imports(code_of(nb_path)) == []


@pytest.mark.parametrize("package", PUBLIC_MODULES[1:5])  # dice, turn, game, play
def test_every_public_name_exists_and_is_documented(package):
    module = importlib.import_module(package)
    assert len(set(module.__all__)) == len(module.__all__) >= 5
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isclass(obj) or inspect.isfunction(obj) or inspect.ismodule(obj):
            assert len((inspect.getdoc(obj) or "").split()) >= 4, f"{package}.{name}: no docstring"
